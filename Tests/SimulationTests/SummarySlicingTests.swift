import Fences
import Foundation
import Geotriggers
import Spatial
import Support
import Testing
import Traces

@testable import EventPipeline
@testable import Execution
@testable import Scenarios

/// A summary cut into slices that start from the fix before them gives what one replay of the
/// whole trace gives, for fences whose state depends on the fix alone; fences that enter at
/// one distance and exit at another (a beacon checks in within its proximity and out beyond its
/// range) remember where they were, so their traces are replayed whole instead.
@Suite struct SummarySlicingTests {
    static let frame = FrameDefinition.projString("+proj=tmerc +lat_0=37.75 +lon_0=-122.20 +k=1 +x_0=0 +y_0=0 +ellps=WGS84")

    /// Writes `fences` and a trace along the parallel through the origin, `metres` east of it at
    /// one fix a second.
    static func files(_ tag: String, fences: String, metres: [Double]) throws -> (folder: URL, fences: String, trace: TraceInput) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fencesim-slicing-\(tag)-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fencesURL = folder.appendingPathComponent("fences.geojson")
        try fences.write(to: fencesURL, atomically: true, encoding: .utf8)
        var csv = "time,lat,lon,accuracy\n"
        let start = Timestamp(seconds: 1_767_225_600)
        for (k, x) in metres.enumerated() {
            let lon = -122.2 + x / (111_320 * cos(37.75 * Double.pi / 180))
            csv += "\(start.adding(seconds: Double(k)).description),37.75,\(String(format: "%.9f", lon)),5\n"
        }
        let traceURL = folder.appendingPathComponent("trace.csv")
        try csv.write(to: traceURL, atomically: true, encoding: .utf8)
        return (folder, fencesURL.path, TraceInput(path: traceURL.path))
    }

    static func configuration(_ fences: String, _ overrides: GeotriggerOverrides = GeotriggerOverrides()) throws -> Replayer.Configuration {
        let set = try FenceReader.read(path: fences)
        let settings = try SettingsResolver.resolve(set, global: overrides)
        return Replayer.Configuration(fences: set, frame: frame, settings: settings, workers: 1, summaryOnly: true)
    }

    /// In at 2 m, still in at 10 m for a dozen fixes (slices of four start there), out at 40 m.
    static let visit: [Double] = [50, 40, 20, 10, 2, 2, 2] + Array(repeating: 10, count: 12) + [40, 50]

    @Test func aBeaconIsReplayedWhole() throws {
        let fences = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"id":"door","beacon":true,"range":30,"proximity":"near"},"geometry":{"type":"Point","coordinates":[-122.2,37.75]}}]}
            """
        let (folder, path, trace) = try Self.files("beacon", fences: fences, metres: Self.visit)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = try Self.configuration(path)
        let whole = try Replayer(configuration).run([trace])[0].summary
        #expect(whole.enters == 1 && whole.exits == 1)
        #expect(!ParallelSummary.applies(to: configuration))
    }

    /// With the accuracy feed, contains-intersects enters on containment and stays while the
    /// disc touches the fence: two conditions, so the state remembers which one it met.
    @Test func containsIntersectsWithDiscsIsReplayedWhole() throws {
        let fences = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"id":"c","radius":12},"geometry":{"type":"Point","coordinates":[-122.2,37.75]}}]}
            """
        let (folder, path, trace) = try Self.files("ci", fences: fences, metres: Self.visit)
        defer { try? FileManager.default.removeItem(at: folder) }
        var discs = GeotriggerOverrides()
        discs.feed = .accuracy
        discs.relationship = .containsIntersects
        #expect(!ParallelSummary.applies(to: try Self.configuration(path, discs)))
        // With points the two conditions are one: slices are exact.
        var points = GeotriggerOverrides()
        points.relationship = .containsIntersects
        #expect(ParallelSummary.applies(to: try Self.configuration(path, points)))
    }

    /// Circles, polygons and beacons whose proximity is their range cut anywhere: the summary of
    /// slices of four fixes is the whole replay's.
    @Test(arguments: [1, 2])
    func slicesOfMemorylessFencesAddUp(workers: Int) throws {
        let fences = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"id":"door","beacon":true,"range":30,"proximity":"far"},"geometry":{"type":"Point","coordinates":[-122.2,37.75]}},
            {"type":"Feature","properties":{"id":"c","radius":12},"geometry":{"type":"Point","coordinates":[-122.2,37.75]}},
            {"type":"Feature","properties":{"id":"p"},"geometry":{"type":"Polygon","coordinates":[[[-122.2001,37.7499],[-122.1998,37.7499],[-122.1998,37.7501],[-122.2001,37.7501],[-122.2001,37.7499]]]}}]}
            """
        let (folder, path, trace) = try Self.files("memoryless-\(workers)", fences: fences, metres: Self.visit)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = try Self.configuration(path)
        #expect(ParallelSummary.applies(to: configuration))
        let whole = try Replayer(configuration).run([trace])[0]
        let feed = ParallelSummary.Feed([trace], readOptions: configuration.readOptions, chunkSize: 4)
        let sliced = try ParallelSummary.summarize(feed, configuration: configuration, workers: workers)[0]
        #expect(whole.summary.enters == 3)
        #expect(sliced.summary == whole.summary)
        #expect(sliced.engineStatistics == whole.engineStatistics)
    }
}
