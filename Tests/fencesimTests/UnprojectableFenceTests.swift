import Foundation
import Testing

/// A fence the chosen frame cannot take (a vertex a quarter turn from a transverse Mercator's
/// meridian projects to infinity) is refused by every command that evaluates fences, with the
/// same located error and exit 65: `report` and `sweep` used to crash on it (their ground truth
/// laid the infinite box into its grid before the index refused the fence).
@Suite struct UnprojectableFenceTests {
    static let crs = "+proj=tmerc +lat_0=47.39 +lon_0=8.5 +k=1 +x_0=0 +y_0=0 +ellps=WGS84"

    static func folder() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"near","radius":50},"geometry":{"type":"Point","coordinates":[8.505,47.395]}},
        {"type":"Feature","properties":{"id":"far"},"geometry":{"type":"Polygon","coordinates":[[[98.5,0],[98.6,0],[98.6,0.1],[98.5,0]]]}}
        ]}
        """.write(to: dir.appendingPathComponent("f.geojson"), atomically: true, encoding: .utf8)
        try "time,lat,lon\n2026-01-01T00:00:00Z,47.395,8.505\n2026-01-01T00:00:10Z,47.395,8.506\n"
            .write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        try "traces: [t.csv]\nfences: f.geojson\ncrs: \"\(crs)\"\n"
            .write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test(arguments: [
        ["replay", "t.csv", "--fences", "f.geojson", "--crs", crs],
        ["replay", "t.csv", "--fences", "f.geojson", "--crs", crs, "--summary"],
        ["report", "t.csv", "--fences", "f.geojson", "--crs", crs, "--quiet", "--json", "r.json"],
        ["report", "s.yaml", "--quiet"],
        ["run", "s.yaml"],
        ["sweep", "s.yaml", "--vary", "buffer=0,5", "--quiet", "--json", "w.json"],
        ["check", "s.yaml", "--update"],
    ])
    func everyCommandRefusesIt(arguments: [String]) throws {
        let dir = try Self.folder()
        let r = try CLI.run(arguments, in: dir)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(
            r.stderr.contains("f.geojson:3:1: error: fence \"far\": a vertex cannot be projected into the frame"), "\(r.stderr)")
        // Nothing half written.
        for name in ["r.json", "w.json"] { #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path)) }
    }
}
