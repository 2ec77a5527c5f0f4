import ArgumentParser
import EventPipeline
import Execution
import Files
import Foundation
import Regression
import Reports
import Scenarios
import Support
import Traces

/// `fencesim check SCENARIO...`: replays each scenario as `run` does and compares its events with
/// its golden log (SPEC §6.5).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Replay scenarios and compare their events with their golden logs.",
        discussion: """
            A folder stands for the *.yaml and *.yml scenarios in it. The golden log is the \
            scenario's expected: file, else expected/<scenario file name>.jsonl beside it. A \
            mismatch prints the differing events per trace (missing, extra, or changed field by \
            field) and exits 1; --update writes the current events as the golden logs instead. \
            Exit codes: 0 every scenario passed, 1 a mismatch, 65/66 a scenario or golden log \
            that is bad or missing (these win over 1), 64 usage.
            """
                + HelpExamples.text(
                    "fencesim check scenarios/", "fencesim check scenarios/ --junit check.xml",
                    "fencesim check scenarios/demo.yaml --update")
    )

    @Argument(help: "Scenario files, or folders of them.")
    var scenarios: [String]

    @Flag(help: "Write each scenario's current events as its golden log (atomically).")
    var update = false

    @Option(help: ArgumentHelp("Write JUnit XML to this file (atomically): one test case per scenario (default: none).", valueName: "file"))
    var junit: String?

    @Option(
        help: ArgumentHelp(
            "Check only the scenarios at positions K, K+N, ... of the expanded list, 0-based (default: every scenario).", valueName: "K/N"))
    var shard: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Worker threads per scenario (default: one per core). Results do not depend on it.", valueName: "n"))
    var workers: Int = 0

    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        if scenarios.isEmpty { throw ValidationError("give scenario files or folders") }
        try OutputOptions.validate(workers: workers)
        if let junit, junit.isEmpty { throw ValidationError("--junit needs a file path") }
    }

    func run() throws {
        let readOptions = try traceOptions.readOptions()
        try Terminal.run {
            let shard = try self.shard.map { text throws(FencesimError) in try Shard(parsing: text) }
            var paths = try CheckCommand.expand(scenarios)
            if let shard { paths = paths.enumerated().filter { shard.contains($0.offset) }.map(\.element) }
            var report = JUnitReport()
            var firstError: FencesimError?
            var failed = 0
            for path in paths {
                let outcome: JUnitReport.Outcome
                do throws(FencesimError) {
                    outcome = try check(path, readOptions: readOptions)
                } catch {
                    Terminal.out("ERROR \(path)\n")
                    Terminal.err(error.fullDescription)
                    outcome = .error(message: error.description, text: error.fullDescription)
                    if firstError == nil { firstError = error }
                }
                if case .failed = outcome { failed += 1 }
                report.cases.append(JUnitReport.TestCase(name: path, file: path, outcome: outcome))
            }
            let errors = report.errors
            let passed = paths.count - failed - errors
            Terminal.out(
                "\(paths.count) scenario\(paths.count == 1 ? "" : "s"): \(passed) passed, \(failed) failed, \(errors) error\(errors == 1 ? "" : "s")\n"
            )
            if let junit {
                try Run.makeDirectory((junit as NSString).deletingLastPathComponent)
                try FileIO.writeAtomically(report.xml, to: junit)
            }
            if let firstError { throw ExitCode(firstError.code.exitStatus) }
            if failed > 0 { throw ExitCode(1) }
        }
    }

    /// Checks (or updates) one scenario and prints its result.
    func check(_ path: String, readOptions: TraceReadOptions) throws(FencesimError) -> JUnitReport.Outcome {
        let scenario = try ScenarioReader.read(path: path, splitting: readOptions)
        let runner = try ScenarioRunner(
            scenario: scenario, fenceOptions: fenceOptions.readOptions, readOptions: readOptions, workers: workers)
        for d in runner.diagnostics where d.severity != .note { Terminal.err(d.description) }
        let outcomes = try runner.run()
        FrameChoice.warnIfDistorting(
            scenario.crs, source: "crs", at: FrameChoice.location(ofCRSIn: scenario), fences: runner.fences,
            traces: outcomes.map(\.readStatistics))
        // What compiling the fences found (a fence a negative buffer erases); trace warnings
        // are the replay's business, not the check's.
        for w in outcomes.first?.warnings ?? [] where w.kind == "fence-empty" { Terminal.err(w.description) }
        let events = try ScenarioRunner.events(of: outcomes)
        let golden = ScenarioCheck.goldenPath(for: scenario)
        if update {
            let text = EventLogFormat.jsonl.render(events)
            let current = FileIO.exists(golden) ? try? FileIO.readAll(golden) : nil
            if current == Array(text.utf8) {
                Terminal.out("UNCHANGED \(path) (\(golden), \(events.count) events)\n")
            } else {
                try Run.makeDirectory((golden as NSString).deletingLastPathComponent)
                try FileIO.writeAtomically(text, to: golden)
                Terminal.out("UPDATED \(path) (\(golden), \(events.count) events)\n")
            }
            return .passed
        }
        switch try ScenarioCheck.check(events, goldenPath: golden) {
        case .passed:
            Terminal.out("PASS \(path) (\(events.count) events)\n")
            return .passed
        case .failed(let diff):
            let message = "\(diff.count) difference\(diff.count == 1 ? "" : "s") from \(golden)"
            let text = diff.render() + "accept the new events with: fencesim check --update \(path)\n"
            Terminal.out("FAIL \(path): \(message)\n" + text)
            return .failed(message: message, text: text)
        }
    }

    /// The scenario files named by `arguments`: files as given, folders as their `*.yaml` and
    /// `*.yml` files sorted by name (not recursively).
    ///
    /// - Throws: ``Support/FencesimError`` `.missingInput` for a path that does not exist or a
    ///   folder without scenarios.
    static func expand(_ arguments: [String]) throws(FencesimError) -> [String] {
        var out: [String] = []
        for path in arguments {
            guard FileIO.exists(path) else {
                throw FencesimError(.missingInput, "no such scenario file or folder", at: SourceLocation(file: path))
            }
            guard FileIO.isDirectory(path) else {
                out.append(path)
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                throw FencesimError(.io, "cannot list the folder: \(error.localizedDescription)", at: SourceLocation(file: path))
            }
            let found = names.filter { ($0.hasSuffix(".yaml") || $0.hasSuffix(".yml")) && !$0.hasPrefix(".") }.sorted()
            guard !found.isEmpty else {
                throw FencesimError(.missingInput, "no scenarios (*.yaml, *.yml) in this folder", at: SourceLocation(file: path))
            }
            let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
            out += found.map { folder + "/" + $0 }
        }
        return out
    }
}
