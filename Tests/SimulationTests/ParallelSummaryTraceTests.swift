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

/// Several traces through one ``ParallelSummary/Feed``: each trace's outcome is the one a replay
/// of that trace alone gives, whatever the chunking, the workers and the failures of the others.
@Suite(.enabled(if: SmallWorkload.directory != nil, "needs the small bench workload"))
struct ParallelSummaryTraceTests {
    static let frame = FrameDefinition.projString(BenchContractTests.projString)

    /// The small workload's trace cut into `parts` CSV files of consecutive rows (each with the
    /// header), in a folder of their own.
    static func parts(_ parts: Int, tag: String) throws -> (folder: URL, traces: [TraceInput]) {
        let dir = try #require(SmallWorkload.directory)
        let lines = try String(contentsOf: dir.appendingPathComponent("trace.csv"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let header = lines[0]
        let rows = Array(lines.dropFirst())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fencesim-parts-\(tag)-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var traces: [TraceInput] = []
        for k in 0..<parts {
            let slice = rows[(rows.count * k / parts)..<(rows.count * (k + 1) / parts)]
            let url = folder.appendingPathComponent("part\(k).csv")
            try ([header] + slice).joined(separator: "\n").appending("\n").write(to: url, atomically: true, encoding: .utf8)
            traces.append(TraceInput(path: url.path))
        }
        return (folder, traces)
    }

    static func configuration(lenient: Bool = false) throws -> Replayer.Configuration {
        let dir = try #require(SmallWorkload.directory)
        let fences = try FenceReader.read(path: dir.appendingPathComponent("fences.geojson").path)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        return Replayer.Configuration(
            fences: fences, frame: frame, settings: settings,
            readOptions: TraceReadOptions(lenient: lenient), workers: 1, summaryOnly: true)
    }

    /// What one engine per trace gives (the path taken when the summary cannot be cut).
    static func oneEnginePerTrace(_ traces: [TraceInput], _ configuration: Replayer.Configuration) throws -> [Replayer.Outcome] {
        try Replayer(configuration).run(traces)
    }

    @Test(arguments: [(1, 16_384, 4), (2, 997, 1), (3, 250, 2)])
    func eachTraceGetsTheSummaryOfItsOwnReplay(workers: Int, chunk: Int, readAhead: Int) throws {
        let (folder, traces) = try Self.parts(3, tag: "sum-\(workers)-\(chunk)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = try Self.configuration()
        let expected = try Self.oneEnginePerTrace(traces, configuration)
        let feed = ParallelSummary.Feed(traces, readOptions: configuration.readOptions, chunkSize: chunk, readAhead: readAhead)
        let outcomes = try ParallelSummary.summarize(feed, configuration: configuration, workers: workers)
        #expect(outcomes.count == 3)
        var total = BenchSummary()
        for (got, want) in zip(outcomes, expected) {
            #expect(got.input == want.input)
            #expect(got.error == nil && want.error == nil)
            #expect(got.summary == want.summary, "\(got.input.path)")
            #expect(got.engineStatistics == want.engineStatistics, "\(got.input.path)")
            #expect(got.readStatistics == want.readStatistics)
            #expect(got.summary.enters > 0)
            total.merge(got.summary)
        }
        // The three parts together enter and exit as often as the whole trace (the first fix of
        // a part only enters what the whole trace was already inside).
        #expect(total.insidePairs == 963)
    }

    /// The same trace twice: the second replay starts afresh, not where the first one ended.
    @Test func aTraceReadTwiceCountsTwice() throws {
        let dir = try #require(SmallWorkload.directory)
        let trace = TraceInput(path: dir.appendingPathComponent("trace.csv").path)
        let configuration = try Self.configuration()
        let feed = ParallelSummary.Feed([trace, trace], readOptions: TraceReadOptions(), chunkSize: 3_000)
        let outcomes = try ParallelSummary.summarize(feed, configuration: configuration, workers: 2)
        let line = "mode=point inside_pairs=963 enter=34 exit=34 enter_checksum=154035475986 exit_checksum=154998478875"
        #expect(outcomes.map { $0.summary.line(mode: "point") } == [line, line])
    }

    /// A bad row stops its own trace with its location; the traces after it are still read.
    @Test(arguments: [1, 2])
    func aFailingTraceLeavesTheOthers(workers: Int) throws {
        let (folder, traces) = try Self.parts(3, tag: "fail-\(workers)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = try String(contentsOfFile: traces[1].path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines[50] = "2026-01-01T00:00:00.000Z,not-a-latitude,-122.2,5,0"
        try lines.joined(separator: "\n").write(toFile: traces[1].path, atomically: true, encoding: .utf8)
        let configuration = try Self.configuration()
        let expected = try Self.oneEnginePerTrace(traces, configuration)
        let feed = ParallelSummary.Feed(traces, readOptions: TraceReadOptions(), chunkSize: 20)
        let outcomes = try ParallelSummary.summarize(feed, configuration: configuration, workers: workers)
        #expect(outcomes[0].error == nil && outcomes[2].error == nil)
        #expect(outcomes[0].summary == expected[0].summary)
        #expect(outcomes[2].summary == expected[2].summary)
        let error = try #require(outcomes[1].error)
        #expect(error.code.exitStatus == 65)
        #expect(error.location?.file == traces[1].path && error.location?.line == 51, "\(error)")
        #expect(error.message == expected[1].error?.message)
    }

    /// A missing trace among others is a missing input, reported for that trace alone.
    @Test func aMissingTraceIsReportedForItself() throws {
        let dir = try #require(SmallWorkload.directory)
        let traces = [TraceInput(path: "/nonexistent/trace.csv"), TraceInput(path: dir.appendingPathComponent("trace.csv").path)]
        let feed = ParallelSummary.Feed(traces, readOptions: TraceReadOptions())
        let outcomes = try ParallelSummary.summarize(feed, configuration: try Self.configuration(), workers: 2)
        #expect(outcomes[0].error?.code.exitStatus == 66)
        #expect(outcomes[1].error == nil)
        #expect(outcomes[1].summary.insidePairs == 963)
    }

    /// Fixes without time are refused, or dropped with a warning when lenient (at most 100, then
    /// a count), exactly as a replay does.
    @Test(arguments: [false, true])
    func untimedFixesAreTreatedAsAReplayTreatsThem(lenient: Bool) throws {
        var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for k in 0..<130 {
            let lat = 37.75 + Double(k) * 1e-4
            if k % 13 == 0 {
                gpx +=
                    "<trkpt lat=\"\(lat)\" lon=\"-122.2\"><time>2026-01-01T00:\(String(format: "%02d", k / 60)):\(String(format: "%02d", k % 60))Z</time></trkpt>\n"
            } else {
                gpx += "<trkpt lat=\"\(lat)\" lon=\"-122.2\"/>\n"
            }
        }
        gpx += "</trkseg></trk></gpx>\n"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fencesim-untimed-\(lenient)-\(ProcessInfo.processInfo.processIdentifier).gpx")
        try gpx.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let configuration = try Self.configuration(lenient: lenient)
        let trace = TraceInput(path: url.path)
        let expected = try Self.oneEnginePerTrace([trace], configuration)[0]
        let feed = ParallelSummary.Feed([trace], readOptions: configuration.readOptions, chunkSize: 4)
        let got = try ParallelSummary.summarize(feed, configuration: configuration, workers: 2)[0]
        if lenient {
            #expect(got.error == nil)
            #expect(got.warnings.filter { $0.kind == "no-time" }.count == 100)
            #expect(got.warnings.last?.message == "and 20 more fixes without time dropped")
            #expect(got.warnings == expected.warnings)
            #expect(got.engineStatistics.samples == 10)
            #expect(got.summary == expected.summary)
        } else {
            let error = try #require(got.error)
            #expect(error.code.exitStatus == 65)
            #expect(error.location?.line == 4)
            #expect(error.message == expected.error?.message)
        }
    }
}
