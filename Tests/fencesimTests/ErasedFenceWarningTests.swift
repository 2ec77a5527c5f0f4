import Foundation
import Testing

/// A fence a negative buffer erases is said once, as a located warning, by every command that
/// replays it (issue 21: `replay` dropped it without a word; `lint` said so).
@Suite struct ErasedFenceWarningTests {
    static func folder() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"p","buffer":-1000000},"geometry":{"type":"Polygon","coordinates":[[[8.5,47.39],[8.51,47.39],[8.51,47.40],[8.5,47.40],[8.5,47.39]]]}},
        {"type":"Feature","properties":{"id":"c","radius":50},"geometry":{"type":"Point","coordinates":[8.505,47.395]}}
        ]}
        """.write(to: dir.appendingPathComponent("f.geojson"), atomically: true, encoding: .utf8)
        try "time,lat,lon\n2026-01-01T00:00:00Z,47.395,8.505\n2026-01-01T00:00:10Z,47.395,8.506\n"
            .write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        try "traces: [t.csv]\nfences: f.geojson\n".write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test(arguments: [
        ["replay", "t.csv", "--fences", "f.geojson"],
        ["replay", "t.csv", "--fences", "f.geojson", "--out", "o.jsonl"],
        ["replay", "t.csv", "--fences", "f.geojson", "--summary"],
        ["report", "t.csv", "--fences", "f.geojson", "--quiet"],
        ["run", "s.yaml"],
        ["sweep", "s.yaml", "--vary", "buffer=0,5", "--quiet"],
        ["check", "s.yaml", "--update"],
    ])
    func everyCommandSaysSoOnce(arguments: [String]) throws {
        let dir = try Self.folder()
        let r = try CLI.run(arguments, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let said = r.stderr.components(separatedBy: "\n").filter { $0.contains("fence \"p\": a buffer of -1000000.0 m leaves nothing") }
        #expect(said.count == 1, "\(r.stderr)")
        #expect(said.first?.hasPrefix("f.geojson:2:") == true, "\(r.stderr)")
    }
}
