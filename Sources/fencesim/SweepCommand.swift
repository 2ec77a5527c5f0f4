import ArgumentParser
import Files
import Regression
import Reports
import Scenarios
import Support
import Traces

#if canImport(Glibc)
import Accuracy
import Execution
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            """
                + HelpExamples.text(
                    "fencesim sweep scenarios/demo-degraded.yaml --vary buffer=0,10,20 --vary resample=1,5,30 --target \"recall>=0.95,precision>=0.9\" --plot sweep.svg",
                    "fencesim sweep scenarios/demo-degraded.yaml --vary buffer=0,10,20 --shard 1/4 --out parts")
    )

    @Argument(help: "A scenario file (.yaml, .yml, .json).")
    var scenario: String

    @Option(
        name: .customLong("vary"),
        help: ArgumentHelp(
            "A parameter and its values, e.g. buffer=0,10,20; repeatable (default: none; at least one).", valueName: "name=v1,v2,..."))
    var vary: [String] = []

    @Option(
        help: ArgumentHelp(
            "Conditions the smallest setting must meet, e.g. \"recall>=0.95,precision>=0.9\" (default: none).", valueName: "conditions"))
    var target: String?

    @Option(help: ArgumentHelp("Write the plot (a self-contained SVG) to this file (default: none).", valueName: "file"))
    var plot: String?

    @Option(help: ArgumentHelp("Write the grid as JSON to this file (default: none).", valueName: "file"))
    var json: String?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Worker threads (default: one per core). Output does not depend on it.", valueName: "n")
    )
    var workers: Int = 0

    @Flag(help: "Print only the verdict on the target on standard output, not the grid.")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "Replay only shard K of N (0-based; traces balanced by size, every combination of each) and write its part into --out for fencesim merge (default: every trace).",
            valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "With --shard: the folder to write the part <name>.sweep.part-K-of-N.jsonl into, atomically (default: none; required with --shard).",
            valueName: "dir"))
    var out: String?

    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        try OutputOptions.validate(workers: workers)
        guard !vary.isEmpty else { throw ValidationError("give at least one --vary NAME=V1,V2,...") }
        if let plot, plot.isEmpty { throw ValidationError("--plot needs a file path") }
        if let json, json.isEmpty { throw ValidationError("--json needs a file path") }
        if let shard {
            do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.message) }
            guard let out, !out.isEmpty else { throw ValidationError("--shard needs --out DIR, the folder its part goes to") }
            guard plot == nil, json == nil else {
                throw ValidationError("--shard writes a part, not the sweep's files: give --plot and --json to fencesim merge")
            }
        } else if out != nil {
            throw ValidationError("--out is the folder of a --shard's part; the sweep's files are --plot and --json")
        }
    }

    /// A sweep ready to replay, from the flags and the scenario.
    struct Prepared {
        var scenario: Scenario
        var runner: ScenarioRunner
        var truth: TruthSource
        var sweep: Sweep
        var target: SweepTarget?
    }

    func prepare(readOptions: TraceReadOptions) throws(FencesimError) -> Prepared {
        // The flags are read before the scenario, so that a mistake in them costs no replay.
        var axes: [SweepAxis] = []
        for (k, text) in vary.enumerated() {
            axes.append(try SweepAxis(parsing: text, occurrence: k + 1))
        }
        try Sweep.check(axes)
        let target = try self.target.map { text throws(FencesimError) in try SweepTarget(parsing: text) }

        let scenario = try ScenarioReader.read(path: self.scenario, splitting: readOptions)
        let runner = try ScenarioRunner(
            scenario: scenario, fenceOptions: fenceOptions.readOptions, readOptions: readOptions, workers: workers)
        // Over the fences: the traces are read in each combination's replays.
        FrameChoice.warnIfDistorting(
            scenario.crs, source: "crs", at: FrameChoice.location(ofCRSIn: scenario), fences: runner.fences, traces: [])
        for d in runner.diagnostics { Terminal.err(d.description) }
        let truth = try scenario.truthSource(fences: runner.fences)
        let sweep = try Sweep(base: Sweep.Base(runner: runner, truth: truth), axes: axes, target: target)
        return Prepared(scenario: scenario, runner: runner, truth: truth, sweep: sweep, target: target)
    }

    /// Writes the sweep's files and prints its grid or verdict: the one rendering of a single
    /// run and of a merge of shards.
    ///
    /// - Returns: the exit status: of the first failure, else 1 when no setting meets the target.
    func emit(_ result: Sweep.Result, prepared p: Prepared, plot: String?, json: String?, quiet: Bool) throws(FencesimError) -> Int32 {
        for w in result.warnings.prefix(20) { Terminal.err(w.description) }
        if result.warnings.count > 20 { Terminal.err("note: \(result.warnings.count - 20) more warnings not shown") }
        for f in result.failures { Terminal.err(f.fullDescription) }

        let report = SweepReport(
            title: p.scenario.name, generator: "fencesim \(FencesimVersion.string)", scenario: self.scenario,
            truth: Report.describe(p.truth, p.scenario.root["truth"]?.string ?? "trace"),
            degradation: p.runner.degradation, result: result)
        // Both files or neither.
        var outputs: [FileIO.Output] = []
        if let plot {
            outputs.append(FileIO.Output(path: plot) { sink throws(FencesimError) in try sink.write(Array(SweepFigure.svg(report).utf8)) })
        }
        if let json {
            outputs.append(FileIO.Output(path: json) { sink throws(FencesimError) in try sink.write(Array(SweepJSON.render(report).utf8)) })
        }
        for path in try FileIO.writeTogether(outputs) { Terminal.err("wrote \(path)") }
        if !quiet {
            Terminal.out(SweepTable.render(report))
        } else if let verdict = report.verdict {
            Terminal.out(verdict + "\n")
        }
        if let failure = result.failures.first {
            Terminal.err(
                "error: some traces could not be evaluated (the grid covers the others); first: \(failure.location.map { "\($0)" } ?? failure.message)"
            )
            return failure.code.exitStatus
        } else if p.target != nil, result.chosen == nil {
            return FencesimError.Code.checkFailed.exitStatus
        }
        return 0
    }

    /// The files whose bytes a sharded sweep's digest covers.
    static func files(_ p: Prepared) -> [String] {
        p.scenario.inputFiles + p.truth.files
    }

    /// Replays every combination of the traces of `shard` and writes its part.
    func runShard(_ shard: Shard, prepared p: Prepared, out: String) throws(FencesimError) {
        let traces = p.sweep.base.traces
        let positions = shard.positions(weights: ShardedRun.weights(traces))
        let arguments = ShardedRun.arguments(after: "sweep")
        let run = try ShardedRun.digest(
            command: "sweep", arguments: arguments, files: SweepCommand.files(p), traces: traces, shards: shard.count
        ).hex
        var base = p.sweep.base
        base.traces = positions.map { traces[$0] }
        let sweep = try Sweep(base: base, axes: p.sweep.axes, target: p.sweep.target)
        let bar = ProgressBar(enabled: isatty(2) == 1, total: Sweep.combinations(sweep.axes).count * positions.count, unit: "replays")
        let replays = try sweep.replays { done, total in bar.update(done, total) }
        bar.finish()
        for w in replays.warnings.prefix(20) { Terminal.err(w.description) }
        // Recorded in the part: the merge fails as a single run would, after writing the files.
        var seen: Set<String> = []
        for e in replays.errors.joined().compactMap({ $0 }) where seen.insert(e.fullDescription).inserted {
            Terminal.err(e.fullDescription)
        }
        let header = RunPart.Header(
            kind: .sweep, run: run, shard: shard, traceCount: traces.count, positions: positions, arguments: arguments)
        try ShardedRun.write(
            header, records: positions.indices.map { replays.partValue(trace: $0) },
            name: ShardedRun.fileStem(p.scenario.name, kind: .sweep), folder: out)
    }

    /// Merges the parts of `sweep --shard` (`files`, the first's header read) into the grid,
    /// files and verdict of a single run: the sweep is prepared again from the parts' arguments
    /// (nothing is replayed) and its digest checked against the parts'.
    ///
    /// - Returns: the exit status of the single run.
    static func merge(_ files: [String], first: RunPart.Header, plot: String?, json: String?, quiet: Bool) throws -> Int32 {
        let at = SourceLocation(file: files.first ?? "", line: 1)
        let command = try ShardedRun.command(SweepCommand.self, of: first, at: at)
        let p = try command.prepare(readOptions: try command.traceOptions.readOptions())
        try ShardedRun.checkInputs(first, files: SweepCommand.files(p), traces: p.sweep.base.traces, at: at)
        var replays = Sweep.Replays(combinations: Sweep.combinations(p.sweep.axes).count, traces: first.traceCount)
        try ShardedRun.readParts(files, expected: first) { (position, node) throws(FencesimError) in
            try replays.add(part: node, position: position)
        }
        let status = try command.emit(p.sweep.result(replays), prepared: p, plot: plot, json: json, quiet: quiet)
        Terminal.err("merged \(files.count) parts of \(first.traceCount) traces")
        return status
    }

    func run() throws {
        let readOptions = try traceOptions.readOptions()
        var exitStatus: Int32 = 0
        try Terminal.run {
            let p = try prepare(readOptions: readOptions)
            if let text = shard, let out {
                try runShard(try Shard(parsing: text), prepared: p, out: out)
                return
            }
            let total = Sweep.combinations(p.sweep.axes).count * p.scenario.traces.count
            let bar = ProgressBar(enabled: isatty(2) == 1, total: total, unit: "replays")
            let result = try p.sweep.run { done, total in bar.update(done, total) }
            bar.finish()
            exitStatus = try emit(result, prepared: p, plot: plot, json: json, quiet: quiet)
        }
        if exitStatus != 0 { throw ExitCode(exitStatus) }
    }
}
