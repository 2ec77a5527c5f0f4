import ArgumentParser
import EventPipeline
import Execution
import Fences
import Geotriggers
import Scenarios
import Spatial
import Support
import Traces

/// `fencesim replay TRACE... --fences FENCES [options]`: an ad hoc run without a scenario file.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay traces through fences and write the event log.",
        discussion: """
            Geotrigger options apply to every fence; a fence's own "geotrigger" property and \
            "buffer" override them. With --summary, prints the benchmark line \
            (mode=... inside_pairs=... enter=... exit=... enter_checksum=... exit_checksum=...) \
            and writes no event log.
            """
                + HelpExamples.text(
                    "fencesim replay traces/demo-drive.gpx --fences traces/demo-fences.geojson --format table",
                    "fencesim replay drives/ --fences stores.geojson --feed accuracy --dwell 120 --out events.csv --format csv",
                    "fencesim replay fleet.csv --fences stores.geojson --columns trace=vehicle --summary")
    )

    @Argument(help: "Trace files (GPX, CSV, NMEA, PLT, optionally .gz), folders, quoted globs or manifests.")
    var traces: [String]

    @Option(help: ArgumentHelp("GeoJSON fence file.", valueName: "file"))
    var fences: String

    @Option(
        help: ArgumentHelp(
            "Metric frame: a PROJ string or an EPSG code (default: automatic transverse Mercator around the fences).", valueName: "crs"))
    var crs: String?

    @Flag(help: "Print only the benchmark summary line (SPEC §8).")
    var summary = false

    @Flag(
        name: .customLong("parse-only"),
        help: "Only read the fences and traces, print what was read, and stop (the floor of a replay's cost).")
    var parseOnly = false

    @Flag(
        help:
            "Print the wall-clock time and resident memory at the end of each phase (listing traces, reading fences, resolving settings, indexing, replaying, writing the log) to standard error."
    )
    var timings = false

    @Option(help: ArgumentHelp("Write the event log to this file, atomically (default: standard output).", valueName: "file"))
    var out: String?

    @Option(
        help: ArgumentHelp(
            "Put an operating system's geofencing layer between the engine and the app: ios-region, ios-monitor, android-geofencing, or a profile file; its deliveries are logged beside the engine's events (default: none).",
            valueName: "profile"))
    var profile: String?

    @OptionGroup var geotrigger: GeotriggerOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        if profile != nil, summary || parseOnly {
            throw ValidationError("--profile acts on the event log; --summary and --parse-only write none")
        }
    }

    func run() throws {
        let overrides = try geotrigger.overrides()
        let readOptions = try traceOptions.readOptions()
        let given = try crs.map(FrameChoice.parse)
        let timer: PhaseTimer? = timings ? PhaseTimer() : nil
        defer { for line in timer?.lines ?? [] { Terminal.err(line) } }
        try Terminal.run {
            let osProfile = try profile.map { name throws(FencesimError) in try OSProfile.named(name) }
            // Folders, globs and manifests expanded, and each multi-device file split in traces.
            let inputs = try TraceInputs.expand(traces, options: readOptions)
            timer?.lap("list-traces")
            // Reading the traces starts now, on a thread of its own, while the fences are read
            // and indexed (dropped if the summary or the event log cannot use it: see
            // ParallelSummary and ParallelReplay). The workers project the fixes, so the frame
            // need not be known yet.
            var feed: ParallelSummary.Feed?
            if !parseOnly, !inputs.isEmpty {
                // An event log's workers take longer over a slice than the reader, so a short
                // read-ahead keeps them busy; a summary's read-ahead also covers the time the
                // fences take to read.
                feed = TraceSlices.Feed(
                    inputs, readOptions: readOptions, readAhead: summary ? TraceSlices.readAhead : TraceSlices.eventLogReadAhead)
            }
            defer { feed?.cancel() }
            let fenceSet = try geotrigger.fences(path: fences, options: fenceOptions.readOptions, overrides: overrides)
            timer?.lap("read-fences")
            for w in fenceSet.warnings { Terminal.err(w.description) }
            if parseOnly {
                var fixes = 0
                for input in inputs {
                    let statistics = try TraceReader.read(path: input.path, options: input.readOptions(readOptions)) {
                        (_: Fix) throws(FencesimError) in
                    }
                    fixes += statistics.fixesAccepted
                }
                timer?.lap("read-traces")
                Terminal.out("fences=\(fenceSet.fences.count) fixes=\(fixes)\n")
                return
            }
            // A --crs is measured over the fences now, beside the index, and over the traces once
            // they are read.
            let distortion = FrameChoice.distortionCheckBeside(given, source: "--crs", at: SourceLocation(file: "--crs"), fences: fenceSet)
            let settings = try SettingsResolver.resolve(fenceSet, global: overrides)
            let frame = try SettingsResolver.frame(given: given, fences: fenceSet, location: nil)
            timer?.lap("resolve-settings")
            var replayConfiguration = Replayer.Configuration(
                fences: fenceSet, frame: frame, settings: settings, readOptions: readOptions,
                workers: output.workers, summaryOnly: summary)
            replayConfiguration.profile = osProfile
            let replayer = Replayer(replayConfiguration)
            // A summary is computed in chunks on every core, however the fixes are spread over
            // the traces (see ParallelSummary).
            if summary {
                // The compiled fences, kept until the process ends after a summary (see below).
                var compiled: [AnyObject] = []
                let outcomes = try replayer.summarize(inputs, feed: feed, timer: timer, keep: { compiled.append($0) })
                try Reporting.finish(outcomes, options: readOptions)
                Reporting.sayReach(fences: fenceSet, settings: settings, outcomes: outcomes)
                distortion?.value?.say(traces: outcomes.map(\.readStatistics))
                var total = BenchSummary()
                for o in outcomes { total.merge(o.summary) }
                Terminal.out(total.line(mode: (overrides.feed ?? .point).rawValue) + "\n")
                // Nothing is left to do but free the fences, their settings, their compiled index
                // and the outcomes piece by piece, which takes one thread tens of milliseconds
                // for 100,000 fences (perf of an 8-trace summary): the process ends here
                // instead. Output is written unbuffered, so nothing is lost.
                for line in timer?.lines ?? [] { Terminal.err(line) }
                withExtendedLifetime((fenceSet, settings, replayer, outcomes, compiled)) { Terminal.exitNow() }
            }
            // The event log, written as it is produced: in slices on every core where the fences
            // allow it (see ParallelReplay), else trace by trace.
            let log = try EventLogOutput(format: output.logFormat, path: out)
            // The compiled fences, kept until the process ends (see below).
            var compiled: [AnyObject] = []
            let outcomes = try log.write(traces: inputs.count, options: readOptions) { (ordered) throws(FencesimError) in
                try replayer.run(inputs, feed: feed, log: ordered, timer: timer, keep: { compiled.append($0) })
            }
            timer?.lap("write-log")
            Reporting.sayReach(fences: fenceSet, settings: settings, outcomes: outcomes)
            distortion?.value?.say(traces: outcomes.map(\.readStatistics))
            // The log is committed (renamed into place, or written to standard output
            // unbuffered): what is left is to free the fences, their index and the outcomes
            // piece by piece, tens of milliseconds of one thread for 100,000 fences. The
            // process ends here instead, as after a summary. (The index of a replay in slices
            // is kept too: freed when the replay returned, it was about 3 % of the large event
            // log's CPU in perf, on one thread at the end while the other core idled.)
            for line in timer?.lines ?? [] { Terminal.err(line) }
            withExtendedLifetime((fenceSet, settings, replayer, outcomes, log, compiled)) { Terminal.exitNow() }
        }
    }
}

/// Reporting of per-trace outcomes shared by `replay`, `run` and `report`.
enum Reporting {
    /// Prints each trace's warnings (at most 20 per trace, then how many more there are) and
    /// failures, and under `--lenient` what was dropped; throws the first failure after printing
    /// all of them, so no partial log is written.
    static func finish(_ outcomes: [Replayer.Outcome], options: TraceReadOptions) throws {
        var first: FencesimError?
        if let note = TraceOptions.zonelessNote(outcomes, timeZone: options.timeZone) { Terminal.err(note) }
        for o in outcomes {
            say(o, lenient: options.lenient)
            if let error = o.error {
                Terminal.err(error.fullDescription)
                if first == nil { first = error }
            }
        }
        if let first {
            throw ExitCode(first.code.exitStatus)
        }
    }

    /// Warns when no fence lies within reach of any trace (``Scenarios/FenceReach``).
    static func sayReach(fences: FenceSet, settings: FenceSettings, outcomes: [Replayer.Outcome]) {
        if let warning = FenceReach.warning(fences: fences, settings: settings, traces: outcomes.map { $0.readStatistics?.boundingBox }) {
            Terminal.err(warning.description)
        }
    }

    /// Prints one trace's first 20 warnings, the count of the others, and under `--lenient` one
    /// line with what was dropped and why.
    static func say(_ o: Replayer.Outcome, lenient: Bool) {
        for w in o.warnings.prefix(20) { Terminal.err(w.description) }
        let hidden = o.warningTotal - min(20, o.warnings.count)
        if hidden > 0 {
            Terminal.err("\(o.input.file): note: \(hidden) more warning\(hidden == 1 ? "" : "s") not shown")
        }
        if lenient, let dropped = o.dropSummary {
            Terminal.err("\(o.input.file): note: \(dropped)")
        }
    }
}
