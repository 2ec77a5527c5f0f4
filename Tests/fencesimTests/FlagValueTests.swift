import Foundation
import Testing

/// Exit codes and messages for hostile flag values and numbers (issue 21), through the built
/// binary: each case is the input, its exit code and a fragment of its message.
@Suite struct FlagValueTests {
    static let replay = ["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--summary"]

    /// Negative numbers after a space are values, not options: accepted where they mean something.
    @Test func aNegativeBufferParsesWithOrWithoutEquals() throws {
        let spaced = try CLI.run(Self.replay + ["--buffer", "-5"])
        let joined = try CLI.run(Self.replay + ["--buffer=-5"])
        #expect(spaced.status == 0, "\(spaced.stderr)")
        #expect(spaced.stdout == joined.stdout && !spaced.stdout.isEmpty)
        let lint = try CLI.run(["lint", "traces/demo-fences.geojson", "--buffer", "-5"])
        #expect(lint.status == 0, "\(lint.stderr)")
    }

    /// ... and refused with the reason where they do not.
    @Test(arguments: [
        (["--workers", "-1"], "--workers must be 0 (one per core) to 1024"),
        (["--dwell", "-1"], "--dwell must be 0 or more seconds"),
        (["--radius", "-5"], "--radius must be a positive number of metres, at most 1000000"),
        (["--max-gap", "-1"], "--max-gap must be a positive number of seconds"),
        (["--uere", "-1"], "--uere must be a positive number of metres"),
        (["--enter-after", "-3"], "--enter-after must be seconds or \"N fixes\", not \"-3\""),
        // A value that cannot work is a usage error on the flag, not a GEOS or PROJ failure
        // blamed on the fence file.
        (["--buffer", "1e308"], "--buffer must be a number of metres from -1000000 to 1000000"),
        (["--buffer", "-1e7"], "--buffer must be a number of metres from -1000000 to 1000000"),
        (["--radius", "1e308"], "--radius must be a positive number of metres, at most 1000000"),
    ])
    func refusedValuesSayWhy(flag: [String], message: String) throws {
        let r = try CLI.run(Self.replay + flag)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(!r.stderr.contains("Missing value") && !r.stderr.contains("demo-fences.geojson"), "\(r.stderr)")
        #expect(r.stderr.contains("Usage: fencesim replay"), "\(r.stderr)")
    }

    @Test(arguments: [
        (["lint", "traces/demo-fences.geojson", "--buffer", "1e308"], "--buffer must be a number of metres from -1000000 to 1000000"),
        (["lint", "traces/demo-fences.geojson", "--speed", "-3", "--interval", "1"], "--speed must be a positive number of m/s"),
        (["synth", "traces/demo-route.geojson", "--speed", "-5", "--interval", "1"], "--speed must be a positive number of m/s"),
        // Billions of fixes (it grew to 19 GB and died in the runtime): refused before any is made.
        (["synth", "traces/demo-route.geojson", "--speed", "1e-9", "--interval", "1e-9"], "more than --max-fixes 10000000"),
        (
            ["synth", "traces/demo-route.geojson", "--speed", "10", "--interval", "1", "--max-fixes", "100"],
            "would make 438 fixes, more than --max-fixes 100"
        ),
        (["run", "scenarios/demo.yaml", "--workers", "-2"], "--workers must be 0 (one per core) to 1024"),
        (["check", "scenarios/", "--workers", "-2"], "--workers must be 0 (one per core) to 1024"),
        (["report", "scenarios/demo-degraded.yaml", "--workers", "-2"], "--workers must be 0 (one per core) to 1024"),
    ])
    func otherCommandsRefuseWithTheReason(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains(message) && !r.stderr.contains("Missing value"), "\(r.stderr)")
    }

    /// A circle too large for any metric frame is refused at its radius, naming the fence and
    /// the limit (it was an unlocated PROJ message).
    @Test func aHugeRadiusIsLocatedAtTheRadius() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"big","radius":1e308},"geometry":{"type":"Point","coordinates":[-122.2,37.7]}},
        {"type":"Feature","properties":{"id":"far","beacon":true,"range":2e6},"geometry":{"type":"Point","coordinates":[-122.2,37.7]}}
        ]}
        """.write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        let trace = CLI.packageRoot.appendingPathComponent("traces/demo-drive.gpx").path
        for command in [["replay", trace, "--fences", "fences.geojson"], ["lint", "fences.geojson"], ["inspect", "fences.geojson"]] {
            let r = try CLI.run(command, in: dir)
            #expect(r.status == 65, "\(command): \(r.stderr)")
            #expect(
                r.stderr.contains("fences.geojson:2:53: error: fence \"big\": \"radius\" 1e+308 m is more than the limit of 1000000 m"),
                "\(r.stderr)")
            #expect(
                r.stderr.contains(
                    "fences.geojson:3:66: error: fence \"far\": beacon \"range\" 2000000 m is more than the limit of 1000000 m"),
                "\(r.stderr)")
            #expect(!r.stderr.contains("proj_factors"), "\(r.stderr)")
        }
    }

    /// A number too large to hold says so at its location (it said "must be a number, found a
    /// number").
    @Test(arguments: [
        ("geotrigger: {maxGap: 1e400}\n", "s.yaml:4:22: error: maxGap is out of range: a number must be finite"),
        ("geotrigger: {debounce: {exitAfter: 1e999}}\n", "s.yaml:4:36: error: exitAfter is out of range: a number must be finite"),
        ("geotrigger: {buffer: 1e308}\n", "s.yaml:4:22: error: buffer must be a number of metres from -1000000 to 1000000"),
        ("degrade: {noise: 1e400}\n", "s.yaml:4:18: error: noise is out of range: a number must be finite"),
    ])
    func hugeNumbersInAScenarioAreLocated(extra: String, message: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let traces = CLI.packageRoot.appendingPathComponent("traces")
        try
            "name: s\ntraces: [\(traces.appendingPathComponent("demo-drive.gpx").path)]\nfences: \(traces.appendingPathComponent("demo-fences.geojson").path)\n\(extra)"
            .write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "s.yaml"], in: dir)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(!r.stderr.contains("found a number"), "\(r.stderr)")
    }

    /// A target value that is not a number is a target not shaped METRIC OP NUMBER (64, as the
    /// help says); too many combinations are located at the `--vary` that passes the limit.
    @Test func sweepFlagErrorsAreUsageErrorsAtTheirFlag() throws {
        let sweep = ["sweep", "scenarios/demo-degraded.yaml"]
        let target = try CLI.run(sweep + ["--vary", "buffer=0", "--target", "recall>=abc"])
        #expect(
            target.status == 64 && target.stderr.hasPrefix("--target:1:9: error: recall is compared with \"abc\", which is not a number"),
            "\(target.stderr)")
        let huge = try CLI.run(sweep + ["--vary", "buffer=0", "--target", "recall>=1e400"])
        #expect(
            huge.status == 64 && huge.stderr.hasPrefix("--target:1:9: error: recall is compared with 1e400, which is out of range"),
            "\(huge.stderr)")
        let values = (0...100).map(String.init).joined(separator: ",")
        let grid = try CLI.run(sweep + ["--vary", "buffer=" + values, "--vary", "dwell=" + values])
        #expect(
            grid.status == 64 && grid.stderr.hasPrefix("--vary:2:1: error: the sweep has 101 × 101 combinations, more than 10000"),
            "\(grid.stderr)")
        let buffer = try CLI.run(sweep + ["--vary", "buffer=0,2e6"])
        #expect(
            buffer.status == 65
                && buffer.stderr.hasPrefix("--vary:1:10: error: buffer must be a number of metres from -1000000 to 1000000"),
            "\(buffer.stderr)")
    }

    /// A quoted field running onto the next line is refused at its opening quote, not as a
    /// short row at the continuation line; lenient reading skips the record and its continuation
    /// lines, each with a warning.
    @Test func aQuotedNewlineInACSVTraceIsReportedAtTheOpeningQuote() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        time,lat,lon,note
        2026-01-01T00:00:00Z,37.7,-122.2,"first
        line"
        2026-01-01T00:00:01Z,37.7,-122.2,plain

        """.write(to: dir.appendingPathComponent("q.csv"), atomically: true, encoding: .utf8)
        let strict = try CLI.run(["inspect", "q.csv"], in: dir)
        #expect(strict.status == 65, "\(strict.stderr)")
        #expect(
            strict.stderr.hasPrefix("q.csv:2:34: error: a quoted field is not closed on its line: quoted newlines are not supported"),
            "\(strict.stderr)")
        #expect(
            strict.stderr.contains("q.csv:3:1: error: the line continues the quoted field opened at line 2, column 34"), "\(strict.stderr)")
        #expect(!strict.stderr.contains("the row has 1 field") && !strict.stderr.contains("q.csv:4:"), "\(strict.stderr)")
        let lenient = try CLI.run(["inspect", "q.csv", "--lenient"], in: dir)
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stdout.contains("fixes accepted: 1") && lenient.stdout.contains("quoted-newline 2"), "\(lenient.stdout)")
    }
}
