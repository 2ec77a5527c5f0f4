// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for fencesim's readers (issue 8). A package of its own so that the main build
// never compiles fuzzers: its library targets are symbolic links to the main package's source
// folders, compiled here with coverage instrumentation (`-sanitize=fuzzer`), which a path
// dependency on the main package could not do without library products. Build and run it with
// `tools/fuzz.sh` (`make fuzz`); see SECURITY.md.
let package = Package(
    name: "fencesim-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CPROJ", pkgConfig: "proj", providers: [.apt(["libproj-dev", "proj-data"])]),
        .systemLibrary(name: "CGzip", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLinux"),
        .target(name: "Support"),
        .target(name: "Files", dependencies: ["Support", .target(name: "CLinux", condition: .when(platforms: [.linux]))]),
        .target(name: "Spatial", dependencies: ["CGEOS", "CPROJ", "Support"]),
        .target(name: "Traces", dependencies: ["Files", "Spatial", "Support", "CGzip"]),
        .target(name: "Fences", dependencies: ["Files", "Spatial", "Support"]),
        .target(name: "Geotriggers", dependencies: ["Spatial", "Fences", "Support"]),
        .target(name: "CheckIns", dependencies: ["Geotriggers", "Fences", "Spatial", "Support"]),
        .target(name: "Places", dependencies: ["Files", "Fences", "Spatial", "Support"]),
        .target(name: "Rules", dependencies: ["Files", "Support", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .target(
            name: "Scenarios",
            dependencies: [
                "Files", "Support", "Spatial", "Traces", "Fences", "Geotriggers", "CheckIns", "Places", "Rules",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // One binary for every reader: `fencesim-fuzz TARGET [libFuzzer options] [CORPUS...]`.
        .executableTarget(
            name: "FencesimFuzz",
            dependencies: ["Files", "Support", "Traces", "Fences", "Geotriggers", "Rules", "Scenarios"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
