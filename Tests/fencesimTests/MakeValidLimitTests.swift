import Foundation
import Testing

/// `lint` and `--make-valid` on a polygon that crosses itself everywhere (issue 21: a
/// 200,000-vertex star took 33 s and 46 s, a million vertices ran past 120 s at 2 GB). The
/// repair is refused by the count of crossings, before GEOS starts it: a 64-vertex star already
/// crosses itself 1,725 times, past the limit of 1,000, so no large file is needed to show it.
@Suite("Make-valid is refused past the crossing limit (issue 21)")
struct MakeValidLimitTests {
    /// One polygon fence of `vertices` vertices jumping 7/16 of a turn at each (a star whose
    /// edges cross), around (8.53, 47.37).
    static func star(vertices: Int) -> String {
        let positions = (0...vertices).map { k -> String in
            let angle = Double(k % vertices) / Double(vertices) * 2 * Double.pi
            let a = Double((k % vertices) * 7 % 16) / 16 * 2 * Double.pi + angle / 1000
            return "[\(8.53 + 0.0066 * cos(a)),\(47.37 + 0.0045 * sin(a))]"
        }
        return
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"star"},"geometry":{"type":"Polygon","coordinates":[["#
            + positions.joined(separator: ",") + "]]}}]}\n"
    }

    static let commands: [[String]] = [
        ["lint", "star.geojson"],
        ["lint", "star.geojson", "--make-valid", "--speed", "10", "--interval", "1"],
        ["replay", "trace.csv", "--fences", "star.geojson", "--make-valid"],
    ]

    @Test("a star of 64 vertices is refused at its feature, naming the limit", arguments: commands)
    func refusedByCount(_ command: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.star(vertices: 64).write(to: dir.appendingPathComponent("star.geojson"), atomically: true, encoding: .utf8)
        try "time,lat,lon\n2026-01-01T00:00:00Z,47.37,8.53\n2026-01-01T00:00:10Z,47.3701,8.53\n"
            .write(to: dir.appendingPathComponent("trace.csv"), atomically: true, encoding: .utf8)
        let result = try CLI.run(command, in: dir)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("star.geojson:1:97: error: fence \"star\": invalid geometry: Self-intersection"), "\(result.stderr)")
        #expect(result.stderr.contains("its edges cross more than 1000 times, more than make-valid repairs"), "\(result.stderr)")
    }

    @Test("a star of 32 vertices (415 crossings) is still repaired")
    func repairedUnderTheLimit() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.star(vertices: 32).write(to: dir.appendingPathComponent("star.geojson"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["lint", "star.geojson", "--make-valid"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("invalid geometry repaired by make-valid") || result.stdout.contains("invalid-geometry"),
            "\(result.stdout) \(result.stderr)")
    }
}
