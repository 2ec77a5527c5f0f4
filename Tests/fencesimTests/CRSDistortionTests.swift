import Foundation
import Testing

/// A `--crs` (or a scenario's `crs:`) that distorts distances over the fences and traces is said,
/// with by how much (issue 21: `+proj=merc`, `+proj=tmerc +lon_0=100` and `EPSG:3857` changed
/// events with no word). The bound is the automatic frame's scale error, 1e-4.
@Suite("A distorting --crs is said (issue 21)")
struct CRSDistortionTests {
    static let drive = ["traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson"]

    @Test(arguments: [
        ("+proj=merc", "changes distances by up to 47 %"),
        ("+proj=tmerc +lon_0=100", "changes distances by up to 36 %"),
        ("EPSG:3857", "changes distances by up to 48 %"),
        // A UTM zone's scale factor of 0.9996 is itself 4e-4 from true scale.
        ("EPSG:32632", "changes distances by up to 0.039 % over the fences and traces (scale error 0.00039, 3.9 times the 0.0001"),
    ])
    func distortingFramesWarn(_ crs: String, _ fragment: String) throws {
        for command in [
            ["replay"] + Self.drive + ["--summary"], ["replay"] + Self.drive, ["lint", "traces/demo-fences.geojson"],
            ["report"] + Self.drive,
        ] {
            let r = try CLI.run(command + ["--crs", crs])
            #expect(r.status == 0, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("--crs: warning: --crs \"\(crs)\" \(fragment)"), "\(command): \(r.stderr)")
        }
    }

    @Test func aFrameCentredOnTheDataSaysNothing() throws {
        let r = try CLI.run(["replay"] + Self.drive + ["--summary", "--crs", "+proj=tmerc +lat_0=47.37 +lon_0=8.53 +k=1"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }

    /// The traces count too: fences where the frame is true, a trace 300 km east of them.
    @Test func theTracesExtentCounts() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"a","radius":50},"geometry":{"type":"Point","coordinates":[8.53,47.37]}}]}"#
            .write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        try "time,lat,lon\n2026-01-01T00:00:00Z,47.37,12.5\n2026-01-01T00:10:00Z,47.371,12.5\n"
            .write(to: dir.appendingPathComponent("far.csv"), atomically: true, encoding: .utf8)
        let frame = "+proj=tmerc +lat_0=47.37 +lon_0=8.53 +k=1"
        let r = try CLI.run(["replay", "far.csv", "--fences", "fences.geojson", "--crs", frame], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("--crs: warning: --crs \"\(frame)\" changes distances by up to"), "\(r.stderr)")
        let near = try CLI.run(["lint", "fences.geojson", "--crs", frame], in: dir)
        #expect(near.stderr.isEmpty || !near.stderr.contains("warning: --crs"), "\(near.stderr)")
    }

    /// A scenario's `crs:` is located at its line.
    @Test func aScenarioCRSIsLocated() throws {
        let folder = CLI.packageRoot.appendingPathComponent("scenarios")
        let text = try String(contentsOf: folder.appendingPathComponent("demo.yaml"), encoding: .utf8)
        let copy = folder.appendingPathComponent(".crs-\(UUID().uuidString).yaml")
        try text.replacingOccurrences(of: "crs: auto", with: "crs: EPSG:3857").write(to: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: copy) }
        for command in [["run", copy.path], ["check", copy.path]] {
            let r = try CLI.run(command)
            #expect(
                r.stderr.contains("\(copy.lastPathComponent):8:6: warning: crs \"EPSG:3857\" changes distances by up to 48 %"),
                "\(command): \(r.stderr)")
        }
    }
}
