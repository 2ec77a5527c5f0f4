import ArgumentParser
import Fences
import Files
import Foundation
import Geotriggers
import Regression
import Reports
import Scenarios
import Spatial
import Support
import Synchronization
import Traces

#if canImport(Glibc)
import Accuracy
import EventPipeline
import Execution
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Scoring.View: ExpressibleByArgument {}

/// `fencesim report SCENARIO|TRACES...`: scores traces against ground truth and writes the
/// accuracy report (SPEC §6.3) as a terminal table, and as HTML and JSON files.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Score traces against ground truth and write an accuracy report.",
        discussion: """
            Inputs: one scenario file (.yaml, .yml, .json), or traces: files, folders (their trace \
            files), globs, or manifests (a text file listing one trace path per line, relative to \
            itself; # starts a comment). Traces run on all cores with a progress bar on a terminal. \
            A trace that fails is reported and the others complete; the exit code is then 65 (or \
            the failure's own code). Report files are written atomically, only at the end.
            """
                + HelpExamples.text(
                    "fencesim report scenarios/demo-degraded.yaml --html demo-report.html --json demo-report.json",
                    "fencesim report drives/ --fences stores.geojson --degrade resample=10,noise=1,seed=7 --html r.html",
                    "fencesim report drives.list --fences stores.geojson --truth labelled-visits.csv",
                    "fencesim report drives.list --fences stores.geojson --shard 0/4 --out parts")
    )

    @Argument(help: "A scenario file, or trace files, folders, globs or manifests.")
    var inputs: [String]

    @Option(help: ArgumentHelp("GeoJSON fence file, required without a scenario (default: the scenario's).", valueName: "file"))
    var fences: String?

    @Option(help: ArgumentHelp("Write the HTML report to this file (default: none).", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Write the JSON report to this file (default: none).", valueName: "file"))
    var json: String?

    @Option(
        help: ArgumentHelp(
            "Draw map tiles under the HTML report's map from this URL template, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; the page then loads images from that host only (default: no basemap, the page loads nothing).",
            valueName: "url-template"))
    var basemap: String?

    @Option(
        help: ArgumentHelp(
            "Truth: trace (the clean trace), a reference trace, or a visits CSV (fence,enter,exit) (default: the scenario's, else trace).",
            valueName: "source"))
    var truth: String?

    @Option(
        help: ArgumentHelp(
            "Degrade the feed, e.g. resample=10,noise=1,dropout=0.05,exitLoss=0.2,seed=42 (default: the scenario's, else none).",
            valueName: "pairs"))
    var degrade: String?

    @Option(help: ArgumentHelp("Metric frame: a PROJ string or an EPSG code (default: the scenario's, or automatic).", valueName: "crs"))
    var crs: String?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Worker threads (default: one per core). Output does not depend on it.", valueName: "n")
    )
    var workers: Int = 0

    @Option(
        help: ArgumentHelp(
            "Put an operating system's geofencing layer between the engine and the app: ios-region, ios-monitor, android-geofencing, or a profile file (default: the scenario's profile, else none).",
            valueName: "profile"))
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "Score the geometry engine's events (geometry) or what the profile delivered to the app (app) (default: app with a profile, else geometry).",
            valueName: "view"))
    var view: Scoring.View?

    @Flag(help: "Print nothing on standard output (the table), only write the files.")
    var quiet = false

    @Flag(
        help:
            "Print the wall-clock time and resident memory at the end of each phase (reading fences and settings, evaluating the traces, summarizing, writing the files) to standard error."
    )
    var timings = false

    @Option(
        help: ArgumentHelp(
            "Evaluate only shard K of N (0-based; traces balanced by size) and write its part into --out for fencesim merge (default: every trace).",
            valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "With --shard: the folder to write the part <name>.report.part-K-of-N.jsonl into, atomically (default: none; required with --shard).",
            valueName: "dir"))
    var out: String?

    @OptionGroup var geotrigger: GeotriggerOptions
    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        try OutputOptions.validate(workers: workers)
        guard !inputs.isEmpty else { throw ValidationError("give a scenario file or traces") }
        if let html, html.isEmpty { throw ValidationError("--html needs a file path") }
        if let json, json.isEmpty { throw ValidationError("--json needs a file path") }
        if let basemap, MapTemplate.host(basemap) == nil {
            throw ValidationError(
                "--basemap needs an http(s) URL template with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        }
        if let shard {
            do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.message) }
            guard let out, !out.isEmpty else { throw ValidationError("--shard needs --out DIR, the folder its part goes to") }
            guard html == nil, json == nil, basemap == nil else {
                throw ValidationError("--shard writes a part, not the report: give --html, --json and --basemap to fencesim merge")
            }
        } else if out != nil {
            throw ValidationError("--out is the folder of a --shard's part; the report's files are --html and --json")
        }
    }

    /// Whether the inputs are one scenario file.
    var isScenario: Bool {
        inputs.count == 1 && ["yaml", "yml", "json"].contains((inputs[0] as NSString).pathExtension.lowercased())
    }

    func run() throws {
        let readOptions = try traceOptions.readOptions()
        let overrides = try geotrigger.overrides()
        let given = try crs.map(FrameChoice.parse)
        var failure: FencesimError?
        let timer: PhaseTimer? = timings ? PhaseTimer() : nil
        defer { for line in timer?.lines ?? [] { Terminal.err(line) } }
        try Terminal.run {
            // A bad --degrade is a usage error located at its column (`--degrade:1:COL: error: ...`).
            let degradeOverride = try degrade.map { text throws(FencesimError) in try Scenario.degradation(parsing: text) }
            let setup = try prepare(readOptions: readOptions, overrides: overrides, given: given, degradeOverride: degradeOverride)
            timer?.lap("read-fences")
            if let text = shard, let out {
                try runShard(try Shard(parsing: text), setup: setup, readOptions: readOptions, out: out)
                return
            }
            // Events are kept only for the HTML map's markers, and only as many as it draws.
            var evaluation = Evaluator.Configuration(
                replay: setup.replay, degradation: setup.degradation, truth: setup.truth,
                drawnEventsKept: html != nil ? AccuracyReport.markerLimit : 0)
            evaluation.view = try scoredView(setup)
            // With a profile, the terminal shows the other view's tables beside the chosen one's.
            if setup.replay.profile != nil, !quiet { evaluation.alsoView = evaluation.view == .app ? .geometry : .app }
            let evaluator = Evaluator(evaluation)
            let bar = ProgressBar(enabled: isatty(2) == 1, total: setup.traces.count)
            // The workers' compiled fences and truths, kept until the process ends (see below).
            var workers: [AnyObject] = []
            let evaluations = try evaluator.run(
                setup.traces, progress: { done, total in bar.update(done, total) }, keep: { workers.append($0) })
            bar.finish()
            timer?.lap("evaluate")
            setup.distortion?.value?.say(traces: evaluations.map(\.outcome.readStatistics))
            if let note = TraceOptions.zonelessNote(evaluations.map(\.outcome), timeZone: readOptions.timeZone) { Terminal.err(note) }
            for e in evaluations {
                Reporting.say(e.outcome, lenient: readOptions.lenient)
                if let error = e.error {
                    Terminal.err(error.fullDescription)
                    if failure == nil { failure = error }
                }
            }
            Reporting.sayReach(fences: setup.replay.fences, settings: setup.replay.settings, outcomes: evaluations.map(\.outcome))
            let report = AccuracyReport(
                evaluations: evaluations, fences: setup.replay.fences, title: reportTitle(setup, view: evaluation.view),
                generator: "fencesim \(FencesimVersion.string)", truth: setup.truthDescription,
                degradation: setup.degradation, drawsMap: html != nil)
            timer?.lap("summarize")
            try Report.emit(report, html: html, json: json, quiet: quiet, basemap: basemap)
            timer?.lap("write")
            if !quiet, let other = evaluation.alsoView {
                var beside = evaluations
                for k in beside.indices { beside[k].score = beside[k].alternateScore }
                let name = other == .app ? "app view" : "geometry view"
                let otherReport = AccuracyReport(
                    evaluations: beside, fences: setup.replay.fences,
                    title: "\(setup.title) · \(name), \(setup.replay.profile?.platform.rawValue ?? "") profile",
                    generator: "fencesim \(FencesimVersion.string)", truth: setup.truthDescription,
                    degradation: setup.degradation, drawsMap: false)
                Terminal.out("\n" + ReportTable.render(otherReport))
            }
            // What is left is to free the fences, every visit's score and the report piece by
            // piece (a tenth of a second for a long drive over 100,000 fences): the process ends
            // here instead when nothing failed. Output is written unbuffered; nothing is lost.
            if failure == nil {
                for line in timer?.lines ?? [] { Terminal.err(line) }
                withExtendedLifetime((setup, evaluations, report, workers)) { Terminal.exitNow() }
            }
        }
        if let failure {
            Terminal.err("error: \(evaluationsFailedMessage(failure))")
            throw ExitCode(failure.code.exitStatus)
        }
    }

    /// Writes the report's files and prints its table: the one rendering of a single run and of
    /// a merge of shards.
    static func emit(_ report: AccuracyReport, html: String?, json: String?, quiet: Bool, basemap: String?) throws(FencesimError) {
        // Both files or neither (the JSON streamed as it is rendered).
        var outputs: [FileIO.Output] = []
        if let html {
            outputs.append(
                FileIO.Output(path: html) { sink throws(FencesimError) in
                    try sink.write(Array(ReportHTML.render(report, basemap: basemap).utf8))
                })
        }
        if let json { outputs.append(FileIO.Output(path: json) { sink throws(FencesimError) in try ReportJSON.write(report, to: sink) }) }
        for path in try FileIO.writeTogether(outputs) { Terminal.err("wrote \(path)") }
        if !quiet { Terminal.out(ReportTable.render(report)) }
    }

    /// Evaluates the traces of `shard` and writes its part: each trace's report entry (markers
    /// kept for the map whether or not the merge writes HTML).
    func runShard(_ shard: Shard, setup: Setup, readOptions: TraceReadOptions, out: String) throws {
        let positions = shard.positions(weights: ShardedRun.weights(setup.traces))
        let arguments = ShardedRun.arguments(after: "report")
        let run = try ShardedRun.digest(
            command: "report", arguments: arguments, files: setup.files, traces: setup.traces, shards: shard.count
        ).hex
        var evaluation = Evaluator.Configuration(
            replay: setup.replay, degradation: setup.degradation, truth: setup.truth,
            drawnEventsKept: AccuracyReport.markerLimit)
        evaluation.view = try scoredView(setup)
        let evaluator = Evaluator(evaluation)
        let bar = ProgressBar(enabled: isatty(2) == 1, total: positions.count)
        let evaluations = try evaluator.run(positions.map { setup.traces[$0] }, progress: { done, total in bar.update(done, total) })
        bar.finish()
        for e in evaluations {
            Reporting.say(e.outcome, lenient: readOptions.lenient)
            // Recorded in the part: the merge fails as a single run would, after writing the report.
            if let error = e.error { Terminal.err(error.fullDescription) }
        }
        let header = RunPart.Header(
            kind: .report, run: run, shard: shard, traceCount: setup.traces.count, positions: positions, arguments: arguments)
        try ShardedRun.write(
            header, records: evaluations.map { AccuracyReport.TraceEntry($0).partValue(failure: $0.error) },
            name: ShardedRun.fileStem(isScenario ? setup.title : nil, kind: .report), folder: out)
    }

    /// Merges the parts of `report --shard` (`files`, the first's header read) into the report
    /// of a single run: the run is prepared again from the parts' arguments (fences, truth,
    /// title; nothing is replayed), its digest checked against the parts', and the entries
    /// rendered as one run renders them.
    ///
    /// - Returns: the exit status of the single run (that of the first trace that failed, else 0).
    static func merge(_ files: [String], first: RunPart.Header, html: String?, json: String?, quiet: Bool, basemap: String?) throws -> Int32
    {
        let at = SourceLocation(file: files.first ?? "", line: 1)
        let command = try ShardedRun.command(Report.self, of: first, at: at)
        let readOptions = try command.traceOptions.readOptions()
        let overrides = try command.geotrigger.overrides()
        let given = try command.crs.map(FrameChoice.parse)
        let degradeOverride = try command.degrade.map { text throws(FencesimError) in try Scenario.degradation(parsing: text) }
        let setup = try command.prepare(readOptions: readOptions, overrides: overrides, given: given, degradeOverride: degradeOverride)
        try ShardedRun.checkInputs(first, files: setup.files, traces: setup.traces, at: at)
        var entries = [AccuracyReport.TraceEntry?](repeating: nil, count: first.traceCount)
        var failure: (position: Int, error: FencesimError)?
        try ShardedRun.readParts(files, expected: first) { (position, node) throws(FencesimError) in
            let (entry, error) = try AccuracyReport.TraceEntry.read(part: node)
            entries[position] = entry
            if let error, failure.map({ position < $0.position }) ?? true { failure = (position, error) }
        }
        let report = AccuracyReport(
            entries: entries.compactMap { $0 }, fences: setup.replay.fences,
            title: command.reportTitle(setup, view: try command.scoredView(setup)),
            generator: "fencesim \(FencesimVersion.string)", truth: setup.truthDescription, degradation: setup.degradation,
            drawsMap: html != nil)
        try emit(report, html: html, json: json, quiet: quiet, basemap: basemap)
        Terminal.err("merged \(files.count) parts of \(first.traceCount) traces")
        guard let failure else { return 0 }
        Terminal.err("error: \(command.evaluationsFailedMessage(failure.error))")
        return failure.error.code.exitStatus
    }

    /// The notifications scored: `--view`, else what the app heard with a profile, else the
    /// engine's.
    func scoredView(_ setup: Setup) throws(FencesimError) -> Scoring.View {
        let scored = view ?? (setup.replay.profile != nil ? .app : .geometry)
        if scored == .app, setup.replay.profile == nil {
            throw FencesimError(.usage, "--view app scores what a profile delivered: give --profile (or profile: in the scenario)")
        }
        return scored
    }

    /// The report's title: the run's, and which notifications were scored when a profile
    /// stands between the engine and the app.
    func reportTitle(_ setup: Setup, view: Scoring.View) -> String {
        setup.replay.profile.map { "\(setup.title) · \(view == .app ? "app view" : "geometry view"), \($0.platform.rawValue) profile" }
            ?? setup.title
    }

    /// The profile file a run reads (`--profile FILE`, else the scenario's `profile: FILE`), whose
    /// bytes a sharded run's digest covers: a file changed between shards makes another run.
    func profileFiles(_ scenario: Scenario?) -> [String] {
        if let name = profile { return OSProfile.Platform(rawValue: name) == nil ? [name] : [] }
        guard let scenario, let name = scenario.root["profile"]?.string, OSProfile.Platform(rawValue: name) == nil else { return [] }
        return [name.hasPrefix("/") ? name : (scenario.directory as NSString).appendingPathComponent(name)]
    }

    func evaluationsFailedMessage(_ first: FencesimError) -> String {
        "some traces could not be evaluated (the report covers the others); first: \(first.location.map { "\($0)" } ?? first.message)"
    }

    /// What a report run needs, from a scenario or from the command line.
    struct Setup {
        var title: String
        var traces: [TraceInput]
        var replay: Replayer.Configuration
        var degradation: Degradation?
        var truth: TruthSource
        var truthDescription: String
        /// The check of a frame the user chose (worked out beside the index), said once the
        /// traces are read.
        var distortion: Background<FrameDistortion.Check?>?
        /// The files whose bytes a sharded run's digest covers: the scenario, the fences, truth.
        var files: [String] = []
    }

    func prepare(
        readOptions: TraceReadOptions, overrides: GeotriggerOverrides, given: FrameDefinition?,
        degradeOverride: Degradation?
    ) throws -> Setup {
        if isScenario {
            let scenario = try ScenarioReader.read(path: inputs[0], splitting: readOptions)
            if fences != nil {
                throw FencesimError(
                    .usage, "--fences is taken from the scenario; drop it or pass traces instead", at: SourceLocation(file: scenario.file))
            }
            if overrides != GeotriggerOverrides() || geotrigger.fenceChanges != nil {
                throw FencesimError(
                    .usage,
                    "geotrigger options apply to traces given on the command line; with a scenario, set them under geotrigger: (and fence changes with fenceChanges:)",
                    at: SourceLocation(file: scenario.file))
            }
            let fenceSet = try scenario.readFences(options: fenceOptions.readOptions)
            for w in fenceSet.warnings { Terminal.err(w.description) }
            let pipeline = try Pipeline(scenario: scenario, fences: fenceSet)
            for finding in pipeline.findings { Terminal.err(finding.description) }
            let settings = try scenario.settings(for: fenceSet)
            let frame = try SettingsResolver.frame(
                given: given ?? scenario.crs, fences: fenceSet, location: scenario.fencesLocation,
                remedy: .optionOrScenarioKey)
            // Measured over the fences now; the traces read are added once they are scored.
            let distortion =
                given != nil
                ? FrameChoice.distortionCheckBeside(given, source: "--crs", at: SourceLocation(file: "--crs"), fences: fenceSet)
                : FrameChoice.distortionCheckBeside(
                    scenario.crs, source: "crs", at: FrameChoice.location(ofCRSIn: scenario), fences: fenceSet)
            let truth: TruthSource
            let description: String
            if let value = self.truth {
                truth = try TruthSource.parse(value, resolved: value, location: nil, fences: fenceSet)
                description = Report.describe(truth, value)
            } else {
                truth = try scenario.truthSource(fences: fenceSet)
                description = Report.describe(truth, scenario.root["truth"]?.string ?? "trace")
            }
            var replay = Replayer.Configuration(
                fences: fenceSet, frame: frame, settings: settings, readOptions: readOptions,
                workers: workers, pipeline: pipeline)
            replay.profile = try scenario.profile(override: try profile.map { name throws(FencesimError) in try OSProfile.named(name) })
            try scenario.checkProfile(replay.profile)
            return Setup(
                title: scenario.name, traces: scenario.traces,
                replay: replay,
                degradation: try degradeOverride ?? scenario.degradation(), truth: truth, truthDescription: description,
                distortion: distortion, files: scenario.inputFiles + truth.files + profileFiles(scenario))
        }
        guard let fences else {
            throw FencesimError(.usage, "--fences is required when the inputs are traces (or give a scenario file)")
        }
        let traces = try TraceInputs.expand(inputs, options: readOptions)
        let fenceSet = try geotrigger.fences(path: fences, options: fenceOptions.readOptions, overrides: overrides)
        for w in fenceSet.warnings { Terminal.err(w.description) }
        let settings = try SettingsResolver.resolve(fenceSet, global: overrides)
        let frame = try SettingsResolver.frame(given: given, fences: fenceSet, location: nil)
        let distortion = FrameChoice.distortionCheckBeside(given, source: "--crs", at: SourceLocation(file: "--crs"), fences: fenceSet)
        let value = self.truth ?? "trace"
        let truth = try TruthSource.parse(value, resolved: value, location: nil, fences: fenceSet)
        let title = inputs.count == 1 ? inputs[0] : "\(traces.count) traces"
        var replay = Replayer.Configuration(fences: fenceSet, frame: frame, settings: settings, readOptions: readOptions, workers: workers)
        replay.profile = try profile.map { name throws(FencesimError) in try OSProfile.named(name) }
        return Setup(
            title: title, traces: traces,
            replay: replay,
            degradation: degradeOverride, truth: truth, truthDescription: Report.describe(truth, value), distortion: distortion,
            files: [fences] + (geotrigger.fenceChanges.map { [$0] } ?? []) + truth.files + profileFiles(nil))
    }

    static func describe(_ truth: TruthSource, _ value: String) -> String {
        switch truth {
        case .trace: "clean trace"
        case .reference: "reference trace \(value)"
        case .visits: "labelled visits \(value)"
        }
    }
}

/// A progress bar on standard error, drawn only on a terminal.
final class ProgressBar: Sendable {
    let enabled: Bool
    let total: Int
    /// What is counted (`traces`, `replays`).
    let unit: String
    /// The last count drawn (so that bars are drawn in order from several workers).
    private let drawn = Mutex<Int>(-1)

    init(enabled: Bool, total: Int, unit: String = "traces") {
        self.enabled = enabled
        self.total = total
        self.unit = unit
        update(0, total)
    }

    func update(_ done: Int, _ total: Int) {
        guard enabled else { return }
        drawn.withLock { last in
            guard done > last else { return }
            last = done
            let width = 30
            let filled = total > 0 ? done * width / total : width
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            Terminal.write("\r\(bar) \(done)/\(total) \(unit)", to: 2)
        }
    }

    func finish() {
        guard enabled else { return }
        Terminal.write("\r\u{1B}[K", to: 2)
    }
}
