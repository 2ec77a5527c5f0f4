import Accuracy
import ArgumentParser
import EventPipeline
import Fences
import Foundation
import Geotriggers
import Reports
import Scenarios
import Spatial
import Support
import Traces

extension DeviceLog.Format: ExpressibleByArgument {}

/// `fencesim score DEVICE-LOG... --truth T --fences F`: scores what a phone recorded in the field
/// against ground truth, with report's scoring and report's tables, JSON and HTML.
struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Score a device's recorded geofence events against ground truth, as report scores a replay.",
        discussion: """
            Device logs: fencesim's JSON Lines event log, a CSV with the columns time, fence and \
            type (enter, exit or dwell; optionally trace), or OwnTracks recorder files (.rec: \
            transition records are the events, location records the device's fixes). Truth: the \
            true path as a trace file (one per device trace, named after it, or one for a log of \
            one trace), or a visits CSV (fence,enter,exit). The numbers, tables, JSON and HTML are \
            report's.
            """
                + HelpExamples.text(
                    "fencesim score events.jsonl --truth traces/demo-drive.gpx --fences traces/demo-fences.geojson",
                    "fencesim score phone.csv --truth drive.gpx --fences stores.geojson --json score.json",
                    "fencesim score user/phone/2026-11.rec --truth visits.csv --fences home.geojson --html score.html")
    )

    @Option(
        help: ArgumentHelp(
            "Score the engine's events (geometry) or what a profile delivered (app) in a fencesim log (default: app when the log has deliveries, else geometry).",
            valueName: "view"))
    var view: Scoring.View?

    @Option(
        name: .customLong("max-gap"),
        help: ArgumentHelp(
            "Truth joins no two fixes further apart, seconds, as the replay's --max-gap (default: 120, or the fences' own).", valueName: "s"
        ))
    var maxGap: Double?

    @Option(
        help: ArgumentHelp(
            "Also replay the truth traces through this profile (a built-in or a file, such as calibrate writes) and print the simulated app view's tables after the recorded ones (default: none).",
            valueName: "profile"))
    var simulate: String?

    @Option(help: ArgumentHelp("Write the HTML report to this file (default: none).", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Write the JSON report to this file (default: none).", valueName: "file"))
    var json: String?

    @Flag(help: "Print nothing on standard output (the table), only write the files.")
    var quiet = false

    @OptionGroup var inputs: DeviceLogOptions
    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        if let maxGap {
            guard maxGap > 0, maxGap <= 100_000_000 else { throw ValidationError("--max-gap takes seconds, above 0 and at most 100000000") }
        }
        if let html, html.isEmpty { throw ValidationError("--html needs a file path") }
        if let json, json.isEmpty { throw ValidationError("--json needs a file path") }
    }

    func run() throws {
        let readOptions = try traceOptions.readOptions()
        let given = try inputs.crs.map(FrameChoice.parse)
        try Terminal.run {
            let fenceSet = try FenceReader.read(path: inputs.fences, options: fenceOptions.readOptions)
            for w in fenceSet.warnings { Terminal.err(w.description) }
            let evaluations = try ScoreCommand.evaluate(
                logs: inputs.logs, format: inputs.format, trace: inputs.trace, view: view, maxGap: maxGap, truths: inputs.truth,
                fences: fenceSet, frame: try SettingsResolver.frame(given: given, fences: fenceSet, location: nil),
                readOptions: readOptions)
            let title = inputs.logs.count == 1 ? inputs.logs[0] : "\(inputs.logs.count) device logs"
            let report = AccuracyReport(
                evaluations: evaluations, fences: fenceSet, title: title, generator: "fencesim \(FencesimVersion.string)",
                truth: inputs.truth.count == 1 ? ScoreCommand.describe(inputs.truth[0]) : "\(inputs.truth.count) truth files",
                degradation: nil, drawsMap: html != nil)
            // Written as report writes its files and table.
            try Report.emit(report, html: html, json: json, quiet: quiet, basemap: nil)
            if let simulate {
                let simulated = try ScoreCommand.simulate(
                    simulate, truths: inputs.truth, fences: fenceSet,
                    frame: try SettingsResolver.frame(given: given, fences: fenceSet, location: nil),
                    readOptions: readOptions, maxGap: maxGap)
                Terminal.out("\n" + ReportTable.render(simulated))
            }
        }
    }

    /// The report of the truth traces replayed through `profile` (the app view), to read beside
    /// the recorded one: the same truth, the simulated phone.
    static func simulate(
        _ name: String, truths: [String], fences: FenceSet, frame: FrameDefinition, readOptions: TraceReadOptions,
        maxGap: Double?
    ) throws(FencesimError) -> AccuracyReport {
        let profile = try OSProfile.named(name, source: "--simulate")
        let traces = truths.filter { !LabelledVisits.isVisitsFile($0) }
        guard !traces.isEmpty else {
            throw FencesimError(
                .usage, "--simulate replays the truth traces, and --truth names only visits files", at: SourceLocation(file: "--simulate"))
        }
        var overrides = GeotriggerOverrides()
        overrides.maxGapSeconds = maxGap
        let settings = try SettingsResolver.resolve(fences, global: overrides)
        var replay = Replayer.Configuration(fences: fences, frame: frame, settings: settings, readOptions: readOptions)
        replay.profile = profile
        var configuration = Evaluator.Configuration(replay: replay, truth: .trace, drawnEventsKept: 0)
        configuration.view = .app
        let evaluations = try Evaluator(configuration).run(traces.map { TraceInput(path: $0) })
        for e in evaluations { if let error = e.error { throw error } }
        return AccuracyReport(
            evaluations: evaluations, fences: fences, title: "simulated: \(profile.platform.rawValue) profile \(name) on the truth traces",
            generator: "fencesim \(FencesimVersion.string)", truth: "clean trace", degradation: nil)
    }

    /// How report describes a truth file.
    static func describe(_ path: String) -> String {
        LabelledVisits.isVisitsFile(path) ? "labelled visits \(path)" : "reference trace \(path)"
    }

    /// Reads every log and scores its traces (``Accuracy/DeviceLog/evaluate(_:)``).
    static func evaluate(
        logs: [String], format: DeviceLog.Format?, trace: String?, view: Scoring.View?, maxGap: Double?, truths: [String],
        fences: FenceSet, frame: FrameDefinition, readOptions: TraceReadOptions
    ) throws(FencesimError) -> [TraceEvaluation] {
        var overrides = GeotriggerOverrides()
        overrides.maxGapSeconds = maxGap
        let settings = try SettingsResolver.resolve(fences, global: overrides)
        let gap = Replayer.Configuration(fences: fences, frame: frame, settings: settings).maxGapSeconds
        var evaluations: [TraceEvaluation] = []
        for path in logs {
            let log = try DeviceLog.read(path: path, format: format, trace: trace, fences: fences)
            let delivers = log.traces.contains { $0.events.contains { [.delivered, .duplicate, .dropped].contains($0.type) } }
            let setup = DeviceLog.ScoringSetup(
                fences: fences, frame: frame, truths: truths, readOptions: readOptions, maxGapSeconds: gap,
                view: view ?? (delivers ? .app : .geometry))
            evaluations += try log.evaluate(setup)
        }
        return evaluations
    }
}
