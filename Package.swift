// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "fencesim",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fencesim", targets: ["fencesim"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // C libraries from Debian; only `Spatial` imports CGEOS/CPROJ, only `Traces` imports CGzip.
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CPROJ", pkgConfig: "proj", providers: [.apt(["libproj-dev", "proj-data"])]),
        .systemLibrary(name: "CGzip", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Linux calls the Glibc module leaves out (header only; nothing to link).
        .systemLibrary(name: "CLinux"),
        .target(name: "Support", dependencies: [.target(name: "CLinux", condition: .when(platforms: [.linux]))]),
        // Reading and writing files: whole (in parallel blocks past 8 MiB), atomically, in chunks.
        .target(name: "Files", dependencies: ["Support", .target(name: "CLinux", condition: .when(platforms: [.linux]))]),
        .target(
            name: "Spatial", dependencies: ["CGEOS", "CPROJ", "Support", .target(name: "CLinux", condition: .when(platforms: [.linux]))]),
        .target(name: "Traces", dependencies: ["Files", "Spatial", "Support", "CGzip"]),
        .target(
            name: "Fences", dependencies: ["Files", "Spatial", "Support", .target(name: "CLinux", condition: .when(platforms: [.linux]))]),
        .target(name: "Geotriggers", dependencies: ["Spatial", "Fences", "Support"]),
        .target(name: "CheckIns", dependencies: ["Geotriggers", "Fences", "Spatial", "Support"]),
        .target(name: "Places", dependencies: ["Files", "Fences", "Spatial", "Support"]),
        .target(name: "Rules", dependencies: ["Files", "Support", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        // The floors above the engine (docs/architecture.md): each imports only the ones before it.
        // Scenario files and the settings they resolve to.
        .target(
            name: "Scenarios",
            dependencies: [
                "Files", "Support", "Spatial", "Traces", "Fences", "Geotriggers", "CheckIns", "Places", "Rules",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // One trace through geotriggers, the OS layer, check-ins, Places and rules; the event log's lines and formats.
        .target(
            name: "EventPipeline",
            dependencies: ["Scenarios", "Files", "Support", "Spatial", "Traces", "Fences", "Geotriggers", "CheckIns", "Places", "Rules"]),
        // Ground truth, scoring against it, device logs and calibration.
        .target(
            name: "Accuracy",
            dependencies: ["EventPipeline", "Scenarios", "Files", "Support", "Spatial", "Traces", "Fences", "Geotriggers"]),
        // Many traces on the worker pool (whole, sliced, sharded), output in input order.
        .target(
            name: "Execution",
            dependencies: [
                "EventPipeline", "Scenarios", "Files", "Support", "Spatial", "Traces", "Fences", "Geotriggers", "Places", "Rules",
            ]),
        // Runs compared and combined: golden checks, sweeps, shard parts and merges.
        .target(
            name: "Regression",
            dependencies: [
                "Execution", "Accuracy", "EventPipeline", "Scenarios", "Files", "Support", "Spatial", "Traces", "Fences", "Geotriggers",
            ]),
        .target(
            name: "Reports",
            dependencies: ["Regression", "Accuracy", "EventPipeline", "Scenarios", "Files", "Support", "Spatial", "Fences", "Traces"]),
        .executableTarget(
            name: "fencesim",
            dependencies: [
                "Files", "Support", "Spatial", "Traces", "Fences", "Geotriggers", "Scenarios", "EventPipeline", "Accuracy", "Execution",
                "Regression", "Rules", "Reports", "CheckIns", "Places",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .testTarget(
            name: "FilesTests", dependencies: ["Files", "Support", .target(name: "CLinux", condition: .when(platforms: [.linux]))]),
        .testTarget(name: "SpatialTests", dependencies: ["Spatial", "Support"]),
        .testTarget(name: "TracesTests", dependencies: ["Traces", "Files", "Spatial", "Support"]),
        .testTarget(name: "FencesTests", dependencies: ["Fences", "Spatial", "Support"]),
        .testTarget(name: "GeotriggersTests", dependencies: ["Geotriggers", "Fences", "Spatial", "Support"]),
        .testTarget(name: "CheckInsTests", dependencies: ["CheckIns", "Geotriggers", "Fences", "Spatial", "Support"]),
        .testTarget(name: "PlacesTests", dependencies: ["Places", "Fences", "Spatial", "Support"]),
        .testTarget(name: "RulesTests", dependencies: ["Rules", "Support", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(
            name: "SimulationTests",
            dependencies: [
                "Scenarios", "EventPipeline", "Accuracy", "Execution", "Regression", "Geotriggers", "CheckIns", "Places", "Traces",
                "Fences", "Spatial", "Files", "Support",
            ]),
        .testTarget(
            name: "ReportsTests",
            dependencies: [
                "Reports", "Scenarios", "EventPipeline", "Accuracy", "Execution", "Regression", "Traces", "Fences", "Spatial", "Files",
                "Support",
            ]),
        .testTarget(name: "fencesimTests", dependencies: ["Files", "Support"]),
    ],
    swiftLanguageModes: [.v6]
)
