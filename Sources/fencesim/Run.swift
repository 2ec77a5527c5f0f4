import ArgumentParser
import EventPipeline
import Execution
import Fences
import Files
import Foundation
import Geotriggers
import Places
import Regression
import Rules
import Scenarios
import Spatial
import Support
import Traces

/// `fencesim run SCENARIO`: replays every trace of a scenario through the geotrigger engine,
/// check-ins, (when the scenario has `places:` or `sessions:`) Places and (when it has `rules:`)
/// the Adobe mobile rules, and writes its event log.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario file and write its event log.",
        discussion: """
            Traces run on all cores; the log is identical whatever the number of workers. \
            --state keeps the Places state between runs: a file for a one-trace scenario, or a \
            directory (an existing one, or a path ending in /) holding <trace file name>.places.json \
            per trace. With rules, the client-side profile and the event history are kept beside \
            it, in <trace file name>.rules-state.json (state.rules-state.json for --state state.json). \
            A missing state file starts fresh; a corrupt one is an error and is left as it is.
            """
                + HelpExamples.text(
                    "fencesim run scenarios/demo.yaml --format table", "fencesim run scenarios/demo.yaml --out out --format geojson",
                    "fencesim run scenarios/demo.yaml --shard 0/2 --out parts")
    )

    @Argument(help: "Scenario file (YAML or JSON).")
    var scenario: String

    @Option(help: ArgumentHelp("Write <name>.events.<ext> into this folder, atomically (default: standard output).", valueName: "dir"))
    var out: String?

    @Option(
        help: ArgumentHelp(
            "Read the Places state from, and write it back to (atomically), this file or directory (default: every trace starts fresh).",
            valueName: "path"))
    var state: String?

    @Option(
        name: .customLong("places-platform"),
        help: ArgumentHelp("Override places.platform: docs, ios or android (default: the scenario's).", valueName: "platform"))
    var placesPlatform: String?

    @Option(
        name: .customLong("region-budget"), parsing: .unconditional,
        help: ArgumentHelp("Override places.regionBudget: monitor only the nearest N POIs (default: the scenario's).", valueName: "n"))
    var regionBudget: Int?

    @Option(
        name: .customLong("last-poi-expiry"),
        help: ArgumentHelp(
            "Override places.lastPOIExpiry: ttl (the TTL also ends Last Entered and Last Exited POI, seed 000) or never (they never expire, seed 001) (default: the scenario's, else ttl).",
            valueName: "ttl|never"))
    var lastPOIExpiry: String?

    @Option(
        name: .customLong("rules-platform"),
        help: ArgumentHelp(
            "Override rulesPlatform: docs (the documented behaviour), ios or android, each SDK's tolerance and coercions (default: the scenario's).",
            valueName: "platform"))
    var rulesPlatform: String?

    @Option(
        help: ArgumentHelp(
            "Replay only shard K of N (0-based; traces balanced by size, see docs/cluster.md) and write its partial log for fencesim merge (default: every trace).",
            valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "Put an operating system's geofencing layer between the engine and the app: ios-region, ios-monitor, android-geofencing, or a profile file (default: the scenario's profile, else none).",
            valueName: "profile"))
    var profile: String?

    @OptionGroup var output: OutputOptions
    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        if let placesPlatform, !PlacesSettings.platformNames.contains(placesPlatform) {
            throw ValidationError(
                "--places-platform must be one of \(PlacesSettings.platformNames.joined(separator: ", ")), not \"\(placesPlatform)\"")
        }
        if let lastPOIExpiry, !PlacesSettings.lastPOIExpiryNames.contains(lastPOIExpiry) {
            throw ValidationError(
                "--last-poi-expiry must be one of \(PlacesSettings.lastPOIExpiryNames.joined(separator: ", ")), not \"\(lastPOIExpiry)\"")
        }
        if let regionBudget, regionBudget < 1 {
            throw ValidationError("--region-budget must be a number of POIs, 1 or more")
        }
        if let state, state.isEmpty {
            throw ValidationError("--state needs a file or directory path")
        }
        if let shard {
            do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.message) }
            guard output.logFormat == .jsonl else {
                throw ValidationError("--shard writes a partial JSON Lines log; choose the format when merging (fencesim merge --format)")
            }
        }
        if let rulesPlatform, RulesPlatform(rawValue: rulesPlatform) == nil {
            throw ValidationError(
                "--rules-platform must be one of \(RulesPlatform.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(rulesPlatform)\""
            )
        }
    }

    func run() throws {
        let readOptions = try traceOptions.readOptions()
        try Terminal.run {
            let scenario = try ScenarioReader.read(path: scenario, splitting: readOptions)
            let shard = try self.shard.map { text throws(FencesimError) in try Shard(parsing: text) }
            let positions = shard?.positions(weights: ShardedRun.weights(scenario.traces)) ?? Array(scenario.traces.indices)
            let traces = positions.map { scenario.traces[$0] }
            var places = scenario.places
            if state != nil && places == nil && !scenario.hasRules {
                throw FencesimError(
                    .usage, "--state needs Places or rules, and the scenario has neither places:, sessions: nor rules:",
                    at: SourceLocation(file: scenario.file))
            }
            if placesPlatform != nil || regionBudget != nil || lastPOIExpiry != nil {
                guard let settings = places else {
                    let option = placesPlatform != nil ? "--places-platform" : regionBudget != nil ? "--region-budget" : "--last-poi-expiry"
                    throw FencesimError(
                        .usage, "\(option) needs Places, and the scenario has neither places: nor sessions:",
                        at: SourceLocation(file: scenario.file))
                }
                places = settings.overridden(platform: placesPlatform, regionBudget: regionBudget, lastPOIExpiry: lastPOIExpiry)
            }
            if rulesPlatform != nil && !scenario.hasRules {
                throw FencesimError(
                    .usage, "--rules-platform needs rules, and the scenario has no rules:", at: SourceLocation(file: scenario.file))
            }
            let statePaths = try state.map { path throws(FencesimError) in try PlacesStateFiles.paths(for: scenario.traces, option: path) }
                .map { paths in positions.map { paths[$0] } }
            // Fences, zones, rules, settings and frame: every problem is reported before anything is
            // replayed.
            var runner = try ScenarioRunner(
                scenario: scenario, fenceOptions: fenceOptions.readOptions, readOptions: readOptions,
                places: places, rulesPlatform: rulesPlatform.flatMap(RulesPlatform.init(rawValue:)),
                workers: output.workers, profile: try profile.map { name throws(FencesimError) in try OSProfile.named(name) })
            for diagnostic in runner.diagnostics { Terminal.err(diagnostic.description) }
            let initialStates =
                try statePaths.map { paths throws(FencesimError) -> [PlacesState?] in
                    guard places != nil else { return [] }
                    return try PlacesStateFiles.load(paths, settings: places ?? PlacesSettings())
                } ?? []
            var rulesStatePaths: [String]?
            var rulesStates: RulesStateCollector?
            if let statePaths, runner.pipeline.simulatesRules {
                let paths = statePaths.map(PlacesStateFiles.rulesStatePath(forStatePath:))
                rulesStates = runner.pipeline.persistRulesStates(initial: try PlacesStateFiles.loadRulesStates(paths, traces: traces))
                rulesStatePaths = paths
            }
            let outcomes: [Replayer.Outcome]
            if let shard {
                outcomes = try runner.run(traces, placesStates: initialStates)
                try Reporting.finish(outcomes, options: readOptions)
                let text = PartialEventLog(
                    scenario: scenario.name, run: try runDigest(scenario, shards: shard.count, profile: runner.profile).hex,
                    shard: shard, traceCount: scenario.traces.count, outcomes: outcomes, positions: positions,
                    columns: scenario.logExtraColumns
                ).text
                if let out {
                    try Run.makeDirectory(out)
                    let path = (out as NSString).appendingPathComponent(PartialEventLog.fileName(scenario: scenario.name, shard: shard))
                    try FileIO.writeAtomically(text, to: path)
                    Terminal.err("wrote \(path)")
                } else {
                    Terminal.out(text)
                }
            } else {
                // The event log, written as it is produced.
                var path: String?
                if let out {
                    try Run.makeDirectory(out)
                    path = (out as NSString).appendingPathComponent("\(scenario.name).events.\(output.logFormat.fileExtension)")
                }
                let log = try EventLogOutput(format: output.logFormat, path: path, extraColumns: scenario.logExtraColumns)
                outcomes = try log.write(traces: traces.count, options: readOptions) { (ordered) throws(FencesimError) in
                    try runner.run(traces, placesStates: initialStates, log: ordered)
                }
                if let path { Terminal.err("wrote \(path)") }
            }
            Reporting.sayReach(fences: runner.fences, settings: runner.settings, outcomes: outcomes)
            FrameChoice.warnIfDistorting(
                scenario.crs, source: "crs", at: FrameChoice.location(ofCRSIn: scenario), fences: runner.fences,
                traces: outcomes.map(\.readStatistics))
            if let statePaths {
                for (outcome, path) in zip(outcomes, statePaths) {
                    guard let final = outcome.placesState else { continue }
                    try Run.makeDirectory((path as NSString).deletingLastPathComponent)
                    try FileIO.writeAtomically(PlacesStateFiles.text(of: final), to: path)
                }
            }
            if let rulesStatePaths, let rulesStates {
                for (trace, path) in zip(traces, rulesStatePaths) {
                    guard let final = rulesStates.state(for: trace.label) else { continue }
                    try Run.makeDirectory((path as NSString).deletingLastPathComponent)
                    try FileIO.writeAtomically(PlacesStateFiles.text(of: final), to: path)
                }
            }
        }
    }

    /// The digest of this run, the same for every shard of it (``ShardedRun/digest(command:arguments:files:traces:shards:)``):
    /// the command-line words but the scenario's path and the options that only say where and
    /// how output goes (`--shard`, `--out`, `--workers`, `--state`, `--format`), the scenario's
    /// and the fences' bytes, and each trace's label, size and bytes; and the profile in effect,
    /// as a profile file writes it (a profile file may change between shards).
    func runDigest(_ scenario: Scenario, shards: Int, profile: OSProfile? = nil) throws(FencesimError) -> RunDigest {
        let arguments = ShardedRun.arguments(after: "run", also: ["--state", "--format"]).filter { $0 != self.scenario }
        var digest = try ShardedRun.digest(
            command: "run", arguments: arguments, files: scenario.inputFiles,
            traces: scenario.traces, shards: shards)
        if let profile { digest.add("profile \(profile.yaml())") }
        return digest
    }

    /// Creates `path` (and its parents) when it is not a directory yet.
    static func makeDirectory(_ path: String) throws(FencesimError) {
        guard !path.isEmpty, !FileIO.isDirectory(path) else { return }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FencesimError(.io, "cannot create the folder: \(error.localizedDescription)", at: SourceLocation(file: path))
        }
    }
}
