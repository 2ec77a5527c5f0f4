#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Reports
import Simulation
import Support

/// `fencesim sweep SCENARIO --vary NAME=V1,V2,...`: replays a scenario for every combination of
/// the varied values, scores each as `report` does, and names the smallest setting meeting a
/// target (SPEC §6.4).
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Replay a scenario for every combination of varied settings and find the smallest that meets a target.",
        discussion: """
            Each --vary NAME=V1,V2,... gives a parameter and its values, separated by commas. \
            Geotrigger parameters apply to every fence: buffer (metres, added to each fence's \
            buffer), radiusScale (factor on circle radii and beacon ranges; truth keeps the fences \
            as drawn), relationship (intersects, contains, contains-intersects), feed (point, \
            accuracy), dwell (seconds, or none), enterAfter, exitAfter and debounce (both): seconds, \
            or N fixes (\"2 fixes\" or 2fixes). Degradation parameters replace the scenario's \
            degrade key: resample (seconds, or none), noise (× accuracy), dropout, spikes, exitLoss, \
            entryLoss (shares 0 to 1), jitter (seconds), seed (integer). Everything else comes from \
            the scenario.

            Combinations are the cartesian product, the first --vary varying slowest, and are \
            numbered in that order. --target takes conditions separated by commas, all of which \
            must hold: METRIC OP NUMBER, OP one of >=, <=, >, <, ==, METRIC one of recall, \
            precision, f1, enterP50, enterP90, enterP99, exitP50, exitP90, exitP99, \
            falseExitsPerHour, truthVisits, detected, missed, missedInGap, falseDetections, flaps, \
            falseExits; compared exactly, before rounding. The smallest setting is the first \
            combination in that order meeting the target: list each parameter's values from the \
            most to the least wanted.

            Exit codes: 0 done (and, with --target, a setting meets it), 1 no setting meets the \
            target (the grid and files are still written), 64 usage (a --vary or --target not \
            shaped NAME=V1,... or METRIC OP NUMBER, a parameter varied twice), 65 bad input (an \
            unknown parameter or metric, a value the parameter does not take, a bad scenario, a \
            trace that fails), 66 input missing, 74 I/O error. Errors in flags are located as \
            --vary:N:COL (N: which --vary, from 1) or --target:1:COL. Files are written \
            atomically, only at the end; the output does not depend on --workers.
            """ + HelpExamples.text("fencesim sweep scenarios/demo-degraded.yaml --vary buffer=0,10,20 --vary resample=1,5,30 --target \"recall>=0.95,precision>=0.9\" --plot sweep.svg")
    )

    @Argument(help: "A scenario file (.yaml, .yml, .json).")
    var scenario: String

    @Option(name: .customLong("vary"), help: ArgumentHelp("A parameter and its values, e.g. buffer=0,10,20; repeatable (default: none; at least one).", valueName: "name=v1,v2,..."))
    var vary: [String] = []

    @Option(help: ArgumentHelp("Conditions the smallest setting must meet, e.g. \"recall>=0.95,precision>=0.9\" (default: none).", valueName: "conditions"))
    var target: String?

    @Option(help: ArgumentHelp("Write the plot (a self-contained SVG) to this file (default: none).", valueName: "file"))
    var plot: String?

    @Option(help: ArgumentHelp("Write the grid as JSON to this file (default: none).", valueName: "file"))
    var json: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Worker threads (default: one per core). Output does not depend on it.", valueName: "n"))
    var workers: Int = 0

    @Flag(help: "Print only the verdict on the target on standard output, not the grid.")
    var quiet = false

    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        try OutputOptions.validate(workers: workers)
        guard !vary.isEmpty else { throw ValidationError("give at least one --vary NAME=V1,V2,...") }
        if let plot, plot.isEmpty { throw ValidationError("--plot needs a file path") }
        if let json, json.isEmpty { throw ValidationError("--json needs a file path") }
    }

    func run() throws {
        let readOptions = try traceOptions.readOptions()
        var exitStatus: Int32 = 0
        try Terminal.run {
            // The flags are read before the scenario, so that a mistake in them costs no replay.
            var axes: [SweepAxis] = []
            for (k, text) in vary.enumerated() {
                axes.append(try SweepAxis(parsing: text, occurrence: k + 1))
            }
            try Sweep.check(axes)
            let target = try self.target.map { text throws(FencesimError) in try SweepTarget(parsing: text) }

            let scenario = try ScenarioReader.read(path: self.scenario, splitting: readOptions)
            let runner = try ScenarioRunner(scenario: scenario, fenceOptions: fenceOptions.readOptions, readOptions: readOptions, workers: workers)
            // Over the fences: the traces are read in each combination's replays.
            FrameChoice.warnIfDistorting(scenario.crs, source: "crs", at: FrameChoice.location(ofCRSIn: scenario), fences: runner.fences, traces: [])
            for d in runner.diagnostics { Terminal.err(d.description) }
            let truth = try scenario.truthSource(fences: runner.fences)
            let sweep = try Sweep(base: Sweep.Base(runner: runner, truth: truth), axes: axes, target: target)
            let total = Sweep.combinations(axes).count * scenario.traces.count
            let bar = ProgressBar(enabled: isatty(2) == 1, total: total, unit: "replays")
            let result = try sweep.run { done, total in bar.update(done, total) }
            bar.finish()
            for w in result.warnings.prefix(20) { Terminal.err(w.description) }
            if result.warnings.count > 20 { Terminal.err("note: \(result.warnings.count - 20) more warnings not shown") }
            for f in result.failures { Terminal.err(f.fullDescription) }

            let report = SweepReport(title: scenario.name, generator: "fencesim \(FencesimVersion.string)", scenario: self.scenario,
                                     truth: Report.describe(truth, scenario.root["truth"]?.string ?? "trace"),
                                     degradation: runner.degradation, result: result)
            // Both files or neither.
            var outputs: [FileIO.Output] = []
            if let plot { outputs.append(FileIO.Output(path: plot) { sink throws(FencesimError) in try sink.write(Array(SweepFigure.svg(report).utf8)) }) }
            if let json { outputs.append(FileIO.Output(path: json) { sink throws(FencesimError) in try sink.write(Array(SweepJSON.render(report).utf8)) }) }
            for path in try FileIO.writeTogether(outputs) { Terminal.err("wrote \(path)") }
            if !quiet {
                Terminal.out(SweepTable.render(report))
            } else if let verdict = report.verdict {
                Terminal.out(verdict + "\n")
            }
            if let failure = result.failures.first {
                Terminal.err("error: some traces could not be evaluated (the grid covers the others); first: \(failure.location.map { "\($0)" } ?? failure.message)")
                exitStatus = failure.code.exitStatus
            } else if target != nil, result.chosen == nil {
                exitStatus = FencesimError.Code.checkFailed.exitStatus
            }
        }
        if exitStatus != 0 { throw ExitCode(exitStatus) }
    }
}
