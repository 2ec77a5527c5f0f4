import Foundation
import Testing

/// Issue 22, on real drives from ../shared/data (skipped with a message when it is absent): no
/// path runs through a logging gap or from one GPX segment to the next, in the truth, the
/// resampled feed or the engine.
@Suite(.enabled(if: CLI.sharedData != nil, "needs ../shared/data (trackintel GeoLife, gpsbabel GPX); skipped when absent"))
struct GapsAndSegmentsTests {
    static func data(_ relative: String) -> String {
        (CLI.sharedData?.appendingPathComponent(relative).path) ?? relative
    }

    static let geolife = data("trackintel/tests/data/geolife_long/000/Trajectory/20081023025304.plt")

    static func report(_ arguments: [String], in dir: URL) throws -> [String: Any] {
        let result = try CLI.run(["report"] + arguments + ["--json", "r.json", "--quiet"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: dir.appendingPathComponent("r.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The 50 m circle the straight line through the trace's 5.1-hour logging gap (04:34:52 →
    /// 09:42:25) would cross: no truth visit (before: one, missed as "undetected", recall 0).
    @Test func aVisitInsideALoggingGapIsNoTruthVisit() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"f","radius":50},"geometry":{"type":"Point","coordinates":[116.322522,40.002272]}}]}"#
            .write(to: dir.appendingPathComponent("f.geojson"), atomically: true, encoding: .utf8)
        let json = try Self.report([Self.geolife, "--fences", "f.geojson"], in: dir)
        let overall = try #require(json["overall"] as? [String: Any])
        #expect(overall["truthVisits"] as? Int == 0)
        #expect(overall["missed"] as? Int == 0)
        #expect((json["visits"] as? [Any])?.isEmpty == true)
    }

    /// The trace scored against itself (point feed, no degradation) with fences on its own
    /// fixes scores recall and precision 1; resampled every 10 s it makes no fix in its gaps
    /// (908 fixes over 8.3 hours made 2,988 feed fixes, most of them inside the gap).
    @Test func aTraceAgainstItselfAndResampledAcrossItsGaps() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Fences of 30 m around a fix on each side of the long gap and one in the middle.
        try #"""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"a","radius":30},"geometry":{"type":"Point","coordinates":[116.318417,39.984702]}},
        {"type":"Feature","properties":{"id":"b","radius":30},"geometry":{"type":"Point","coordinates":[116.322522,40.002272]}}]}
        """#.write(to: dir.appendingPathComponent("f.geojson"), atomically: true, encoding: .utf8)
        let json = try Self.report([Self.geolife, "--fences", "f.geojson", "--feed", "point"], in: dir)
        let overall = try #require(json["overall"] as? [String: Any])
        #expect((overall["truthVisits"] as? Int ?? 0) >= 1)
        #expect(overall["recall"] as? Double == 1)
        #expect(overall["precision"] as? Double == 1)

        let resampled = try Self.report([Self.geolife, "--fences", "f.geojson", "--degrade", "resample=10"], in: dir)
        let trace = try #require((resampled["traces"] as? [[String: Any]])?.first)
        #expect(trace["fixes"] as? Int == 908)
        let feed = try #require(trace["feedFixes"] as? Int)
        #expect(feed < 908, "\(feed) feed fixes")
    }

    /// A 1 m circle and a line between fix 697 (the end of segment 4) and fix 698 (the start of
    /// segment 5) of a Garmin Edge 800 track: no passthrough and no crossing (before: one of each).
    @Test func gpxSegmentsAreNotJoined() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Fix 697: 48.173924899, 11.811150229; fix 698: 48.173926575, 11.811192222.
        let (lat, lon) = ((48.173924899 + 48.173926575) / 2, (11.811150229 + 11.811192222) / 2)
        let (dLat, dLon) = (48.173926575 - 48.173924899, 11.811192222 - 11.811150229)
        let fences = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"id":"c","radius":1},"geometry":{"type":"Point","coordinates":[\(lon),\(lat)]}},
            {"type":"Feature","properties":{"id":"l"},"geometry":{"type":"LineString","coordinates":[[\(lon - dLat),\(lat + dLon)],[\(lon + dLat),\(lat - dLon)]]}}]}
            """
        try fences.write(to: dir.appendingPathComponent("f.geojson"), atomically: true, encoding: .utf8)
        let gpx = Self.data("gpsbabel/reference/track/garmin-edge-800-output.gpx")
        let result = try CLI.run(["replay", gpx, "--fences", "f.geojson", "--format", "csv"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains(",passthrough,") && !result.stdout.contains(",cross,"), "\(result.stdout)")
    }
}
