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

/// The benchmark contract of SPEC §8 on the seed-1 small workload: the counts and checksums of
/// `../shared/bench/README.md`, in both feed modes.
@Suite(.enabled(if: SmallWorkload.directory != nil, "needs ../shared/bench/gen_workload.py and python3 with numpy; skipped when absent"))
struct BenchContractTests {
    static let projString = "+proj=tmerc +lat_0=37.75 +lon_0=-122.20 +k=1 +x_0=0 +y_0=0 +ellps=WGS84"
    static var workload: URL? { SmallWorkload.directory }
}

/// The small seed-1 workload, generated once into `$TMPDIR/fencesim-bench-small-s1` and reused by
/// later runs (the generator is deterministic). A run generates into a folder of its own and
/// renames it into place, so concurrent runs never see a half-written workload.
enum SmallWorkload {
    static let directory: URL? = {
        guard let shared = Paths.shared else { return nil }
        let generator = shared.appendingPathComponent("bench/gen_workload.py")
        let files = FileManager.default
        guard files.fileExists(atPath: generator.path) else { return nil }
        let out = files.temporaryDirectory.appendingPathComponent("fencesim-bench-small-s1")
        if files.fileExists(atPath: out.appendingPathComponent("manifest.json").path) { return out }
        let scratch = files.temporaryDirectory.appendingPathComponent(
            "fencesim-bench-small-s1.\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? files.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", generator.path, "--size", "small", "--seed", "1", "--out", scratch.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return nil
        }
        guard process.terminationStatus == 0 else { return nil }
        // Another run may have won the race; its copy is identical.
        if rename(scratch.path, out.path) != 0, !files.fileExists(atPath: out.appendingPathComponent("manifest.json").path) {
            return nil
        }
        return out
    }()
}

extension BenchContractTests {
    static func summary(feed: GeotriggerSettings.Feed, workers: Int = 1) throws -> BenchSummary {
        let dir = try #require(workload)
        let fences = try FenceReader.read(path: dir.appendingPathComponent("fences.geojson").path)
        var global = GeotriggerOverrides()
        global.feed = feed
        let settings = try SettingsResolver.resolve(fences, global: global)
        let replayer = Replayer(
            Replayer.Configuration(
                fences: fences, frame: .projString(projString), settings: settings,
                workers: workers, summaryOnly: true))
        let outcomes = try replayer.run([TraceInput(path: dir.appendingPathComponent("trace.csv").path)])
        #expect(outcomes.allSatisfy { $0.error == nil })
        var total = BenchSummary()
        for o in outcomes { total.merge(o.summary) }
        return total
    }

    /// The same numbers when the trace is cut into chunks and slices replayed on several
    /// workers, each resynchronized on the sample before its slice.
    @Test(arguments: [(1, 32_768), (2, 32_768), (2, 997), (3, 1_500)])
    func parallelSummaryMatchesTheReference(workers: Int, chunk: Int) throws {
        let dir = try #require(Self.workload)
        let fences = try FenceReader.read(path: dir.appendingPathComponent("fences.geojson").path)
        for (feed, expected) in [
            (
                GeotriggerSettings.Feed.point,
                "mode=point inside_pairs=963 enter=34 exit=34 enter_checksum=154035475986 exit_checksum=154998478875"
            ),
            (.accuracy, "mode=accuracy inside_pairs=1023 enter=36 exit=36 enter_checksum=158673490510 exit_checksum=159696493579"),
        ] {
            var global = GeotriggerOverrides()
            global.feed = feed
            let settings = try SettingsResolver.resolve(fences, global: global)
            let configuration = Replayer.Configuration(
                fences: fences, frame: .projString(Self.projString), settings: settings, summaryOnly: true)
            #expect(ParallelSummary.applies(to: configuration))
            let (summary, statistics) = try ParallelSummary.run(
                TraceInput(path: dir.appendingPathComponent("trace.csv").path),
                configuration: configuration, workers: workers, chunkSize: chunk)
            #expect(summary.line(mode: feed.rawValue) == expected)
            #expect(statistics.fixesAccepted == 10_000)
        }
    }

    @Test func pointFeedMatchesTheReference() throws {
        let s = try Self.summary(feed: .point)
        #expect(
            s.line(mode: "point") == "mode=point inside_pairs=963 enter=34 exit=34 enter_checksum=154035475986 exit_checksum=154998478875")
    }

    @Test func accuracyFeedMatchesTheReference() throws {
        let s = try Self.summary(feed: .accuracy)
        #expect(
            s.line(mode: "accuracy")
                == "mode=accuracy inside_pairs=1023 enter=36 exit=36 enter_checksum=158673490510 exit_checksum=159696493579")
    }

    /// The full event log agrees with the summary: the same enters and exits, by fix and fence.
    @Test func eventLogAgreesWithTheSummary() throws {
        let dir = try #require(Self.workload)
        let fences = try FenceReader.read(path: dir.appendingPathComponent("fences.geojson").path)
        var global = GeotriggerOverrides()
        global.gapPolicy = .ignore
        let settings = try SettingsResolver.resolve(fences, global: global)
        let replayer = Replayer(Replayer.Configuration(fences: fences, frame: .projString(Self.projString), settings: settings, workers: 1))
        let events = Replayer.merge(try replayer.run([TraceInput(path: dir.appendingPathComponent("trace.csv").path)]))
        var fromLog = BenchSummary()
        let index = Dictionary(uniqueKeysWithValues: fences.fences.map { ($0.id, $0.index) })
        for e in events where e.type == .enter || e.type == .exit {
            guard case .string(let id)? = e.field("fence"), case .int(let fix)? = e.field("fix"), let j = index[id] else {
                Issue.record("event without fence or fix"); continue
            }
            fromLog.add(enter: e.type == .enter, fix: Int(fix), fence: j)
        }
        let s = try Self.summary(feed: .point)
        #expect(fromLog.enters == s.enters && fromLog.exits == s.exits)
        #expect(fromLog.enterChecksum == s.enterChecksum && fromLog.exitChecksum == s.exitChecksum)
    }
}

/// The reading thread of ``ParallelSummary`` hands its failures to the caller, wherever in the
/// trace they happen, and never leaves the caller waiting.
@Suite(.enabled(if: SmallWorkload.directory != nil, "needs the small bench workload"))
struct ParallelSummaryFailureTests {
    /// The small workload's trace with row `row` (1-based data row) replaced by `replacement`.
    static func trace(breakingRow row: Int, with replacement: String) throws -> URL {
        let dir = try #require(SmallWorkload.directory)
        var lines = try String(contentsOf: dir.appendingPathComponent("trace.csv"), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        lines[row] = Substring(replacement)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fencesim-broken-\(row)-\(ProcessInfo.processInfo.processIdentifier).csv")
        try lines.joined(separator: "\n").write(to: out, atomically: true, encoding: .utf8)
        return out
    }

    static func run(_ trace: URL, chunk: Int) throws(FencesimError) -> BenchSummary {
        let dir = SmallWorkload.directory!
        let fences = try FenceReader.read(path: dir.appendingPathComponent("fences.geojson").path)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        let configuration = Replayer.Configuration(
            fences: fences, frame: .projString(BenchContractTests.projString), settings: settings, summaryOnly: true)
        return try ParallelSummary.run(TraceInput(path: trace.path), configuration: configuration, workers: 2, chunkSize: chunk).0
    }

    @Test(arguments: [(3, 2), (5_000, 997), (9_999, 16_384)])
    func aBadRowStopsTheSummaryWithItsLocation(row: Int, chunk: Int) throws {
        let broken = try Self.trace(breakingRow: row, with: "2026-01-01T00:00:00.000Z,not-a-latitude,-122.2,5,0")
        defer { try? FileManager.default.removeItem(at: broken) }
        do {
            _ = try Self.run(broken, chunk: chunk)
            Issue.record("a bad row should fail the summary")
        } catch {
            #expect(error.code.exitStatus == 65)
            #expect(error.location?.line == row + 1, "\(error)")
        }
    }

    /// A feed started before the fences are read (as `replay --summary` does) gives the
    /// same numbers, whatever the read-ahead.
    @Test(arguments: [1, 2, 64])
    func aFeedStartedEarlyGivesTheSameSummary(readAhead: Int) throws {
        let dir = try #require(SmallWorkload.directory)
        let trace = TraceInput(path: dir.appendingPathComponent("trace.csv").path)
        let frame = FrameDefinition.projString(BenchContractTests.projString)
        let feed = ParallelSummary.Feed(trace, readOptions: TraceReadOptions(), chunkSize: 700, readAhead: readAhead)
        let fences = try FenceReader.read(path: dir.appendingPathComponent("fences.geojson").path)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        let configuration = Replayer.Configuration(fences: fences, frame: frame, settings: settings, summaryOnly: true)
        let (summary, statistics) = try ParallelSummary.run(feed, configuration: configuration, workers: 3)
        #expect(
            summary.line(mode: "point")
                == "mode=point inside_pairs=963 enter=34 exit=34 enter_checksum=154035475986 exit_checksum=154998478875")
        #expect(statistics.fixesAccepted == 10_000)
    }

    /// A feed that is never used (the fences failed, or the summary does not apply) stops when
    /// cancelled, even while it waits for room in its read-ahead.
    @Test func aCancelledFeedStops() throws {
        let dir = try #require(SmallWorkload.directory)
        let feed = ParallelSummary.Feed(
            TraceInput(path: dir.appendingPathComponent("trace.csv").path), readOptions: TraceReadOptions(), chunkSize: 10, readAhead: 1)
        feed.cancel()
        feed.cancel()
    }

    @Test func aMissingTraceIsAMissingInput() {
        do {
            _ = try Self.run(URL(fileURLWithPath: "/nonexistent/trace.csv"), chunk: 997)
            Issue.record("a missing trace should fail the summary")
        } catch {
            #expect(error.code.exitStatus == 66, "\(error)")
        }
    }
}
