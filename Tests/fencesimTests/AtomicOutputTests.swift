import Files
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Killing fencesim at a random moment while it writes its outputs (`replay --out`, `report
/// --json --html`) never leaves a truncated file in place of the previous good one, and what a
/// killed writer leaves behind is cleaned up by the next write (issue 8; `FileIO.writeAtomically`).
@Suite("Atomic outputs under SIGKILL (issue 8)")
struct AtomicOutputTests {
    /// Fixes per trace; four traces make the batch. Every fix crosses the fence's boundary, so
    /// the log has one event per fix (about 10 MB in all).
    static let fixesPerTrace = ProcessInfo.processInfo.environment["FENCESIM_KILL_FIXES"].flatMap { Int($0) } ?? 15_000
    static let trials = 10

    static func makeBatch(in dir: URL) throws -> [String] {
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"depot","radius":50},"geometry":{"type":"Point","coordinates":[8.53,47.37]}}]}"#
            .write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        var traces: [String] = []
        for t in 0..<4 {
            var text = "time,lat,lon,accuracy\n"
            let start = 1_767_225_600 + t * 100_000
            for k in 0..<fixesPerTrace {
                // In the 50 m circle, then 110 m north of it, and back.
                text += "\(start + k),\(k % 2 == 0 ? "47.37" : "47.371"),8.53,5\n"
            }
            let name = "trace-\(t).csv"
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
            traces.append(name)
        }
        return traces
    }

    static func leftovers(in dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.contains(".tmp-") }
    }

    /// SplitMix64 (swift-algorithms), seeded: the same kill moments on every run.
    struct Moments {
        var state: UInt64
        mutating func uniform() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    /// Runs `arguments` `trials` times, killing it (SIGKILL) at seeded moments from a quarter of
    /// `duration` to just past its end, where the writes happen. After each trial every output
    /// must hold either its old bytes or its new bytes, nothing else; outputs that a trial
    /// replaced are put back to the old bytes. Returns how often each outcome happened.
    static func killTrials(
        _ arguments: [String], in dir: URL, outputs: [URL], old: [Data], new: [Data],
        duration: Double, seed: UInt64
    ) throws -> [String: Int] {
        var moments = Moments(state: seed)
        var outcomes: [String: Int] = [:]
        for trial in 0..<trials {
            let delay = duration * (0.25 + 0.85 * moments.uniform())
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = arguments
            process.currentDirectoryURL = dir
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let killed = process.terminationReason == .uncaughtSignal
            var states: [String] = []
            for (k, output) in outputs.enumerated() {
                let bytes = try Data(contentsOf: output)
                if bytes == old[k] {
                    states.append("old")
                } else if bytes == new[k] {
                    states.append("new")
                    try old[k].write(to: output)
                } else {
                    states.append("TRUNCATED")
                    Issue.record(
                        "trial \(trial) (kill after \(delay) s): \(output.lastPathComponent) has \(bytes.count) bytes, neither the old \(old[k].count) nor the new \(new[k].count)"
                    )
                    try old[k].write(to: output)
                }
            }
            let leftovers = Set(outputs.map { $0.deletingLastPathComponent() }).flatMap { Self.leftovers(in: $0) }
            let how = killed ? "killed" : "finished first"
            outcomes["\(states.joined(separator: "+")), \(how)\(leftovers.isEmpty ? "" : ", temporary file left")", default: 0] += 1
        }
        return outcomes
    }

    @Test("a previous good event log survives SIGKILL at random moments; leftovers are cleaned up")
    func killDuringBatch() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let traces = try Self.makeBatch(in: dir)
        let outDir = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        let output = outDir.appendingPathComponent("events.jsonl")
        let base = ["replay"] + traces + ["--fences", "fences.geojson", "--workers", "2"]

        // The previous good output, and the complete output of the run that will be killed.
        let good = try TimedCLI.run(base + ["--out", output.path], in: dir, timeout: 300)
        try #require(good.status == 0, "\(good.summary)")
        let goodBytes = try Data(contentsOf: output)
        #expect(goodBytes.count > 1_000_000)
        let newArguments = base + ["--notify", "enter"]
        let reference = dir.appendingPathComponent("reference.jsonl")
        let complete = try TimedCLI.run(newArguments + ["--out", reference.path], in: dir, timeout: 300)
        try #require(complete.status == 0, "\(complete.summary)")
        let newBytes = try Data(contentsOf: reference)
        #expect(newBytes != goodBytes)

        let outcomes = try Self.killTrials(
            newArguments + ["--out", output.path], in: dir, outputs: [output],
            old: [goodBytes], new: [newBytes], duration: complete.seconds, seed: 8)
        // A killed writer's temporary file is removed by the next write of the same output.
        let last = try TimedCLI.run(newArguments + ["--out", output.path], in: dir, timeout: 300)
        #expect(last.status == 0, "\(last.summary)")
        #expect(try Data(contentsOf: output) == newBytes)
        #expect(Self.leftovers(in: outDir) == [], "temporary files left after a clean run: \(Self.leftovers(in: outDir))")
        #expect(outcomes.values.reduce(0, +) == Self.trials, "outcomes: \(outcomes)")
    }

    @Test("previous good JSON and HTML reports survive SIGKILL during a batch report; leftovers are cleaned up")
    func killDuringReport() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let traces = try Self.makeBatch(in: dir)
        let outDir = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        let json = outDir.appendingPathComponent("report.json")
        let html = outDir.appendingPathComponent("report.html")
        func arguments(seed: Int, json: URL, html: URL) -> [String] {
            ["report"] + traces + [
                "--fences", "fences.geojson", "--degrade", "resample=2,exitLoss=0.3,seed=\(seed)",
                "--workers", "2", "--quiet", "--json", json.path, "--html", html.path,
            ]
        }
        let good = try TimedCLI.run(arguments(seed: 1, json: json, html: html), in: dir, timeout: 300)
        try #require(good.status == 0, "\(good.summary)")
        let old = [try Data(contentsOf: json), try Data(contentsOf: html)]
        let referenceJSON = dir.appendingPathComponent("reference.json")
        let referenceHTML = dir.appendingPathComponent("reference.html")
        let complete = try TimedCLI.run(arguments(seed: 2, json: referenceJSON, html: referenceHTML), in: dir, timeout: 300)
        try #require(complete.status == 0, "\(complete.summary)")
        let new = [try Data(contentsOf: referenceJSON), try Data(contentsOf: referenceHTML)]
        #expect(new[0] != old[0] && new[1] != old[1])

        let outcomes = try Self.killTrials(
            arguments(seed: 2, json: json, html: html), in: dir, outputs: [json, html],
            old: old, new: new, duration: complete.seconds, seed: 9)
        let last = try TimedCLI.run(arguments(seed: 2, json: json, html: html), in: dir, timeout: 300)
        #expect(last.status == 0, "\(last.summary)")
        #expect([try Data(contentsOf: json), try Data(contentsOf: html)] == new)
        #expect(Self.leftovers(in: outDir) == [], "temporary files left after a clean run: \(Self.leftovers(in: outDir))")
        #expect(outcomes.values.reduce(0, +) == Self.trials, "outcomes: \(outcomes)")
    }
}
