import Foundation
import Testing

/// Replays the fuzzing corpora kept in the repository (issue 8): every input that once crashed,
/// hung or exhausted memory under `make fuzz` (`Fuzz/regressions/TARGET/`), and the seeds
/// (`Fuzz/corpus/TARGET/`), fed to the reader of its target through the built binary. Each must
/// give a result or a clean error (an exit code of SPEC §7), never a signal or a hang.
@Suite("Fuzz regression corpus (issue 8)")
struct FuzzRegressionTests {
    struct Input: Sendable, CustomTestStringConvertible {
        let target: String
        let path: String  // relative to the package root
        var testDescription: String { path }
    }

    static let targets = ["gpx", "csv", "nmea", "plt", "geojson", "scenario", "filter", "rules"]

    static let inputs: [Input] = {
        var inputs: [Input] = []
        for folder in ["Fuzz/regressions", "Fuzz/corpus"] {
            for target in targets {
                let dir = CLI.packageRoot.appendingPathComponent("\(folder)/\(target)")
                let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
                for name in names.sorted() where !name.hasPrefix(".") {
                    inputs.append(Input(target: target, path: "\(folder)/\(target)/\(name)"))
                }
            }
        }
        return inputs
    }()

    @Test("the fuzz corpora are there")
    func corporaExist() {
        for target in Self.targets {
            #expect(Self.inputs.contains { $0.target == target && $0.path.hasPrefix("Fuzz/corpus/") }, "no seeds for \(target)")
        }
    }

    @Test("a fuzz input gives a result or a clean error", arguments: inputs)
    func replay(_ input: Input) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = CLI.packageRoot.appendingPathComponent(input.path)
        let bytes = try Data(contentsOf: source)
        // What the fuzz harness gives the scenario reader to find, and the filter a replay.
        try #"{"type":"FeatureCollection","features":[]}"#.write(
            to: dir.appendingPathComponent("f.geojson"), atomically: true, encoding: .utf8)
        try "time,lat,lon\n2026-01-01T00:00:00Z,37.75,-122.2\n".write(
            to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)

        var runs: [[String]] = []
        var allowed: Set<Int32> = [0, 65]
        switch input.target {
        case "gpx", "csv", "nmea", "plt":
            let file = dir.appendingPathComponent("input.\(input.target)")
            try bytes.write(to: file)
            runs = [
                ["inspect", "--trace-format", input.target, file.path],
                ["inspect", "--trace-format", input.target, "--lenient", file.path],
            ]
        case "geojson":
            let file = dir.appendingPathComponent("input.geojson")
            try bytes.write(to: file)
            runs = [["inspect", file.path], ["inspect", "--make-valid", file.path]]
            allowed.insert(1)
        case "scenario":
            try bytes.write(to: dir.appendingPathComponent("input.yaml"))
            runs = [["run", "input.yaml", "--out", dir.appendingPathComponent("out").path]]
            allowed.formUnion([1, 64, 66])
        case "filter":
            // Process arguments end at a NUL byte; the fuzz harness reads the same bytes as UTF-8.
            let text = String(decoding: bytes.filter { $0 != 0 }, as: UTF8.self)
            runs = [["replay", "t.csv", "--fences", "f.geojson", "--filter", text]]
            allowed = [0, 64]
        case "rules":
            let file = dir.appendingPathComponent("input.rules")
            try bytes.write(to: file)
            runs = ["docs", "ios", "android"].map { ["rules", "check", file.path, "--rules-platform", $0] }
            allowed.insert(1)
        default:
            Issue.record("unknown target \(input.target)")
        }
        for arguments in runs {
            let result = try TimedCLI.run(arguments, in: dir, timeout: 30)
            #expect(!result.timedOut && result.signal == nil, "\(input.path) \(arguments.prefix(3)): \(result.summary)")
            #expect(allowed.contains(result.status), "\(input.path) \(arguments.prefix(3)): \(result.summary)")
        }
    }
}
