import Fences
import Foundation
import Geotriggers
import Spatial
import Support
import Testing

@testable import EventPipeline
@testable import Scenarios

/// A real car drive (gpxpy's `around-visnjan-with-car.gpx`, 104 fixes, Croatia) replayed against
/// fences drawn here around its path. Expected fixes were checked by hand against the fixes'
/// distances to each fence (computed separately on the ellipsoid; every fix is at least 0.8 m
/// from a boundary, so no result rests on rounding).
@Suite(.enabled(if: Paths.hasSharedData, "needs ../shared/data (gpxpy test files); skipped when absent"))
struct RealTrackTests {
    static let trace = "gpxpy/test_files/around-visnjan-with-car.gpx"

    static let fences = """
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"id": "home", "radius": 40}, "geometry": {"type": "Point", "coordinates": [13.71421, 45.27352]}},
        {"type": "Feature", "properties": {"id": "north"}, "geometry": {"type": "Polygon", "coordinates": [[[13.710, 45.279], [13.730, 45.279], [13.730, 45.285], [13.710, 45.285], [13.710, 45.279]]]}},
        {"type": "Feature", "properties": {"id": "stop", "radius": 10}, "geometry": {"type": "Point", "coordinates": [13.71980, 45.27633]}},
        {"type": "Feature", "properties": {"id": "gate"}, "geometry": {"type": "LineString", "coordinates": [[13.7110, 45.27280], [13.7125, 45.27280]]}}
        ]}
        """

    @Test func handCheckedEvents() throws {
        let dir = try Paths.temporaryDirectory()
        let fencePath = try Paths.write(Self.fences, "fences.geojson", in: dir)
        let fences = try FenceReader.read(path: fencePath)
        var global = GeotriggerOverrides()
        global.dwellSeconds = .some(60)
        let settings = try SettingsResolver.resolve(fences, global: global)
        let frame = try MetricFrame.automaticDefinition(covering: try #require(fences.boundingBox)).definition
        let replayer = Replayer(Replayer.Configuration(fences: fences, frame: frame, settings: settings, workers: 1))
        let events = Replayer.merge(try replayer.run([TraceInput(path: Paths.sharedData(Self.trace), label: "visnjan")]))
        let lines = events.map { e -> String in
            let fence = e.field("fence").map { JSONWriter.string($0) } ?? ""
            let fix = e.field("fix").map { JSONWriter.string($0) } ?? ""
            return "\(e.type.rawValue) \(fence) \(fix) \(e.time)"
        }
        #expect(
            lines == [
                "enter \"home\" 0 2020-12-18T06:15:50.000Z",
                // Dwell is on for every fence: 60 s after the enter, revealed by fix 7 at that instant.
                "dwell \"home\" 7 2020-12-18T06:16:50.000Z",
                "exit \"home\" 11 2020-12-18T06:16:55.000Z",
                // The road crosses the west-to-east gate line northbound (from its right) between
                // fixes 19 and 20, 40 % of the way.
                "cross \"gate\" 20 2020-12-18T06:17:12.401Z",
                "enter \"north\" 32 2020-12-18T06:18:07.000Z",
                "exit \"north\" 49 2020-12-18T06:18:49.000Z",
                "enter \"stop\" 65 2020-12-18T06:19:35.000Z",
                // 60 s after the enter; fix 71 (06:20:37) is the first fix past the threshold.
                "dwell \"stop\" 71 2020-12-18T06:20:35.000Z",
                "exit \"stop\" 76 2020-12-18T06:21:40.000Z",
                "enter \"home\" 93 2020-12-18T06:22:36.000Z",
                // Still inside at the end: 06:23:36 is first passed by fix 102 (06:23:56); no exit after the last fix.
                "dwell \"home\" 102 2020-12-18T06:23:36.000Z",
            ])
        #expect(events.first { $0.type == .cross }?.field("direction").map { JSONWriter.string($0) } == "\"right-to-left\"")
    }
}
