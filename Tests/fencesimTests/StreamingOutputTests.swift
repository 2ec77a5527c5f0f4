import Files
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The event log streams as it is produced (issue 20): the same bytes whatever the number of
/// workers, a file that appears whole or not at all, and write errors on standard output that
/// never pass for success.
@Suite("Streaming event log (issue 20)")
struct StreamingOutputTests {
    /// A fence and `traces` traces of `fixes` fixes that cross its boundary at every fix.
    static func makeBatch(in dir: URL, traces: Int, fixes: Int) throws -> [String] {
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"depot","radius":50},"geometry":{"type":"Point","coordinates":[8.53,47.37]}},{"type":"Feature","properties":{"id":"yard"},"geometry":{"type":"Polygon","coordinates":[[[8.5295,47.3695],[8.5305,47.3695],[8.5305,47.3705],[8.5295,47.3705],[8.5295,47.3695]]]}}]}"#
            .write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        var names: [String] = []
        for t in 0..<traces {
            var text = "time,lat,lon,accuracy\n"
            let start = 1_767_225_600 + t * 100_000
            // Traces of different lengths, so that workers finish out of order.
            for k in 0..<(fixes * (t % 3 + 1) / 2 + 1) {
                text += "\(start + k + k / 50 * 400),\(k % 2 == 0 ? "47.37" : "47.371"),8.53,\(5 + k % 7)\n"
            }
            let name = "trace-\(t).csv"
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
            names.append(name)
        }
        return names
    }

    @Test(arguments: ["jsonl", "csv", "geojson", "table"])
    func anyNumberOfWorkersGivesTheSameBytes(_ format: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let traces = try Self.makeBatch(in: dir, traces: 7, fixes: 1500)
        var outputs: [String] = []
        for workers in [1, 2, 3] {
            let result = try CLI.run(
                ["replay"] + traces + ["--fences", "fences.geojson", "--format", format, "--workers", "\(workers)"], in: dir)
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(result.stdout)
            // The same bytes into a file.
            let file = dir.appendingPathComponent("log-\(workers).\(format)")
            let written = try CLI.run(
                ["replay"] + traces + ["--fences", "fences.geojson", "--format", format, "--workers", "\(workers)", "--out", file.path],
                in: dir)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(try String(contentsOf: file, encoding: .utf8) == result.stdout)
        }
        #expect(outputs[0].count > 100_000)
        #expect(outputs[1] == outputs[0])
        #expect(outputs[2] == outputs[0])
    }

    /// A run whose second trace fails writes no file, and a previous file stays as it was.
    @Test func aFailingTraceLeavesNoFileAndThePreviousOneIntact() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let traces = try Self.makeBatch(in: dir, traces: 3, fixes: 2000)
        try "time,lat,lon\n2026-01-01T00:00:00Z,47.37,8.53\nnot a time,47.37,8.53\n".write(
            to: dir.appendingPathComponent("broken.csv"), atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("log.jsonl")
        for existing in [nil, "previous\n"] as [String?] {
            if let existing { try existing.write(to: log, atomically: true, encoding: .utf8) }
            let result = try CLI.run(
                ["replay", traces[0], "broken.csv", traces[1], "--fences", "fences.geojson", "--out", log.path], in: dir)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("broken.csv:3:"), "\(result.stderr)")
            if let existing {
                #expect(try String(contentsOf: log, encoding: .utf8) == existing)
            } else {
                #expect(!FileManager.default.fileExists(atPath: log.path))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }.isEmpty)
        }
    }

    static let stdoutCommands: [[String]] = [
        ["run", "scenarios/demo.yaml"],
        ["run", "scenarios/demo.yaml", "--format", "table"],
        ["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson"],
        ["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--summary"],
        ["inspect", "traces/demo-drive.gpx", "traces/demo-fences.geojson"],
        ["report", "scenarios/demo-degraded.yaml"],
    ]

    /// A full disk on standard output is exit 74 with a message, never 0 with a lost log.
    @Test(arguments: stdoutCommands)
    func aFullDiskOnStandardOutputIsAnError(_ arguments: [String]) throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try CLI.run(arguments, standardOutput: full)
        #expect(result.status == 74, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("error: cannot write to standard output: No space left on device"), "\(result.stderr)")
    }

    /// Runs `script` with `sh -c`, `$FENCESIM` naming the binary, in `dir`.
    static func shell(_ script: String, in dir: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = dir
        process.environment = ProcessInfo.processInfo.environment.merging(["FENCESIM": CLI.binary.path]) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// A file-size limit (`ulimit -f`) cutting the log, on standard output or in `--out`, is
    /// exit 74 with a message.
    @Test(arguments: ["> cut.jsonl", "--out cut.jsonl"])
    func aFileSizeLimitIsAnError(_ destination: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let traces = try Self.makeBatch(in: dir, traces: 2, fixes: 3000)
        let result = try Self.shell(
            "ulimit -f 64; \"$FENCESIM\" replay \(traces.joined(separator: " ")) --fences fences.geojson \(destination); echo \"status $?\"",
            in: dir)
        #expect(result.stdout.contains("status 74"), "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("File too large"), "\(result.stderr)")
        if destination.hasPrefix("--out") {
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("cut.jsonl").path))
        }
    }

    /// A file-size limit met by an output large enough to be written behind (more than one
    /// chunk of ``AtomicFileWriter``; a synthesized trace of about 20 MB against a 6 MB limit):
    /// the failure on the writing thread is exit 74 with a message, and neither the file nor a
    /// temporary file is left.
    @Test func aFileSizeLimitMetWhileWritingBehindIsAnError() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let route = CLI.packageRoot.appendingPathComponent("traces/demo-route.geojson").path
        let result = try Self.shell(
            "ulimit -f 6000; \"$FENCESIM\" synth '\(route)' --speed 1 --interval 0.05 --out big.gpx; echo \"status $?\"", in: dir)
        #expect(result.stdout.contains("status 74"), "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("big.gpx") && result.stderr.contains("File too large"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    /// A reader that stops early (`| head`) ends the run quietly: no message.
    @Test func aClosedPipeEndsQuietly() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let traces = try Self.makeBatch(in: dir, traces: 3, fixes: 4000)
        let result = try Self.shell(
            "\"$FENCESIM\" replay \(traces.joined(separator: " ")) --fences fences.geojson 2>err.txt | head -c 100 >/dev/null; cat err.txt",
            in: dir)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.status == 0)
    }
}
