import Foundation
import Testing

/// Inputs that ended in a Swift runtime trap (issue 21's audit: "Double value cannot be
/// converted to Int64", a heap corruption), each now a located error with its exit code. The
/// exit status of a trap is 132 or 134; every case here must end 64 or 65 with its message.
@Suite("No runtime traps from the command line (issue 21)")
struct RuntimeTrapTests {
    static let drive = ["traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson"]

    @Test(
        "flags",
        arguments: [
            // The trace would end after year 9999: its times overflowed a 64-bit count (trap).
            (
                ["synth", "traces/demo-route.geojson", "--speed", "1e-300", "--interval", "1e300"],
                "the trace would end after 9999-12-31T23:59:59"
            ),
            (
                ["synth", "traces/demo-route.geojson", "--speed", "1", "--interval", "1000", "--start", "9999-12-31T23:59:00Z"],
                "takes 4364.386379414334 s, so the trace would end after 9999-12-31T23:59:59"
            ),
            // Degradation past its limits (trap in the time or position arithmetic).
            (
                ["report"] + drive + ["--degrade", "jitter=1e300"],
                "--degrade:1:8: error: jitter 1e+300 s is more than the limit of 100000000 s"
            ),
            (
                ["report"] + drive + ["--degrade", "resample=1e300"],
                "--degrade:1:10: error: resample 1e+300 s is more than the limit of 100000000 s"
            ),
            (
                ["report"] + drive + ["--degrade", "noise=1e300"],
                "--degrade:1:7: error: noise 1e+300 × accuracy is more than the limit of 1000 × accuracy"
            ),
            // A maxGap past 292 years joined fixes whose nanoseconds overflow 64 bits.
            (["replay"] + drive + ["--max-gap", "1e9"], "--max-gap must be a positive number of seconds, at most 100000000"),
            // A nanosecond resampling stepped through 10^12 instants of the drive (a hang).
            (["report"] + drive + ["--degrade", "resample=1e-9"], "--degrade:1:10: error: resample must be at least 0.001 s"),
            // A billion workers hung making their slots; Int.max corrupted the heap.
            (["replay"] + drive + ["--workers", "1000000000"], "--workers must be 0 (one per core) to 1024"),
            (["replay"] + drive + ["--workers", "9223372036854775807"], "--workers must be 0 (one per core) to 1024"),
            (["report"] + drive + ["--workers", "9223372036854775807"], "--workers must be 0 (one per core) to 1024"),
        ])
    func flags(_ arguments: [String], _ message: String) throws {
        let r = try TimedCLI.run(arguments, timeout: BadInputCorpusTests.timeLimit)
        #expect(!r.timedOut && r.signal == nil, "\(r.summary)")
        #expect(r.status == 64, "\(r.summary)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    /// A value `--vary` gives that the parameter does not take is bad data (65, README).
    @Test func sweepValuePastTheLimit() throws {
        let r = try TimedCLI.run(
            ["sweep", "scenarios/demo-degraded.yaml", "--vary", "jitter=1,1e9"], timeout: BadInputCorpusTests.timeLimit)
        #expect(!r.timedOut && r.signal == nil, "\(r.summary)")
        #expect(r.status == 65, "\(r.summary)")
        #expect(r.stderr.contains("--vary:1:10: error: jitter 1000000000 s is more than the limit of 100000000 s"), "\(r.stderr)")
    }

    @Test(
        "scenario values",
        arguments: [
            (
                "places-seed001.yaml", "membershipTTL: 3600", "membershipTTL: 1e300",
                "error: membershipTTL 1e+300 s is more than 631107417599 s"
            ),
            (
                "demo-checkins.yaml", "minimumRetriggerTime: 600", "minimumRetriggerTime: 1e300",
                "error: minimumRetriggerTime 1e+300 s is more than 631107417599 s"
            ),
            (
                "demo-degraded.yaml", "spikes: 0.02", "spikes: {share: 0.1, meters: 1e300}",
                "error: spike meters 1e+300 m is more than the limit of 1000000 m"
            ),
        ])
    func scenarioValues(_ scenario: String, _ original: String, _ replacement: String, _ message: String) throws {
        // The scenario is copied beside the original, so its relative paths still hold.
        let folder = CLI.packageRoot.appendingPathComponent("scenarios")
        let text = try String(contentsOf: folder.appendingPathComponent(scenario), encoding: .utf8)
        #expect(text.contains(original))
        let copy = folder.appendingPathComponent(".trap-\(UUID().uuidString).yaml")
        try text.replacingOccurrences(of: original, with: replacement).write(to: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: copy) }
        // Located at the value: the line of the replaced text, the column where its number starts.
        let lines = text.replacingOccurrences(of: original, with: replacement).components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains("1e300") })
        let column = try #require(lines[line].range(of: "1e300")).lowerBound.utf16Offset(in: lines[line]) + 1
        let r = try TimedCLI.run(["run", copy.path], timeout: BadInputCorpusTests.timeLimit)
        #expect(!r.timedOut && r.signal == nil, "\(r.summary)")
        #expect(r.status == 65, "\(r.summary)")
        #expect(r.stderr.contains("\(copy.lastPathComponent):\(line + 1):\(column): " + message), "\(r.stderr)")
    }
}
