import Accuracy
import ArgumentParser
import Files
import Foundation
import Geotriggers
import Reports
import Scenarios
import Support

/// `fencesim view SCENARIO|TRACE --fences F --html FILE`: a self-contained page that replays one
/// trace in the browser (play, speed, time slider, fences changing colour, accuracy disc, event
/// list), read, degraded and replayed exactly as `report` does.
struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Write a page that replays one trace in the browser.",
        discussion: """
            The trace is read, degraded (--degrade, or the scenario's degrade:) and replayed as \
            `report` does; the page shows the feed moving along the map with its accuracy disc \
            (and the true path when the feed is degraded), fences turning orange while the device \
            is inside, and the event log following the time. It loads nothing unless --basemap \
            is given. The same inputs give the same bytes.
            """
                + HelpExamples.text(
                    "fencesim view scenarios/demo-degraded.yaml --html replay.html",
                    "fencesim view drive.gpx --fences stores.geojson --degrade resample=10,noise=1,seed=7 --html replay.html",
                    "fencesim view drive.gpx --fences stores.geojson --feed accuracy --buffer 20 --html replay.html")
    )

    @Argument(help: "A scenario file or one trace file.")
    var input: String

    @Option(help: ArgumentHelp("GeoJSON fence file, required without a scenario (default: the scenario's).", valueName: "file"))
    var fences: String?

    @Option(help: ArgumentHelp("Write the page to this file.", valueName: "file"))
    var html: String

    @Option(
        help: ArgumentHelp("Degrade the feed, e.g. resample=10,noise=1,seed=42 (default: the scenario's, else none).", valueName: "pairs"))
    var degrade: String?

    @Option(help: ArgumentHelp("Metric frame: a PROJ string or an EPSG code (default: the scenario's, or automatic).", valueName: "crs"))
    var crs: String?

    @Option(help: ArgumentHelp("Which trace of the scenario or input, from 1 (default: 1).", valueName: "n"))
    var trace: Int = 1

    @Option(
        help: ArgumentHelp(
            "Draw map tiles from this URL template, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; the page then loads images from that host only (default: none).",
            valueName: "url-template"))
    var basemap: String?

    @OptionGroup var geotrigger: GeotriggerOptions
    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        if html.isEmpty { throw ValidationError("--html needs a file path") }
        if trace < 1 { throw ValidationError("--trace counts from 1") }
        if let basemap, MapTemplate.host(basemap) == nil {
            throw ValidationError(
                "--basemap needs an http(s) URL template with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        }
    }

    func run() throws {
        // The inputs are read as `report` reads them (scenario or traces, fences, frame, truth).
        var arguments = [input, "--workers", "1", "--quiet"]
        if let fences { arguments += ["--fences", fences] }
        if let crs { arguments += ["--crs", crs] }
        var report = try Report.parse(arguments)
        // The geotrigger, trace and fence options as `report` takes them (geotrigger options
        // for traces given on the command line; a scenario has its own).
        report.geotrigger = geotrigger
        report.traceOptions = traceOptions
        report.fenceOptions = fenceOptions
        let readOptions = try traceOptions.readOptions()
        let overrides = try geotrigger.overrides()
        let given = try crs.map(FrameChoice.parse)
        try Terminal.run {
            let degradeOverride = try degrade.map { text throws(FencesimError) in try Scenario.degradation(parsing: text) }
            let setup = try report.prepare(
                readOptions: readOptions, overrides: overrides, given: given, degradeOverride: degradeOverride)
            guard trace <= setup.traces.count else {
                throw FencesimError(.usage, "--trace \(trace): there are \(setup.traces.count) traces")
            }
            let chosen = setup.traces[trace - 1]
            // Every fix is kept up to the view's limit (the slider moves the device to each one);
            // a longer trace is thinned evenly and the page says so.
            let evaluator = Evaluator(
                Evaluator.Configuration(
                    replay: setup.replay, degradation: setup.degradation, truth: setup.truth,
                    trackPointLimit: ReplayView.fixLimit, drawnEventsKept: .max))
            let evaluations = try evaluator.run([chosen])
            for e in evaluations {
                Reporting.say(e.outcome, lenient: readOptions.lenient)
                if let error = e.error { throw error }
            }
            let model = AccuracyReport(
                evaluations: evaluations, fences: setup.replay.fences, title: setup.title,
                generator: "fencesim \(FencesimVersion.string)", truth: setup.truthDescription,
                degradation: setup.degradation)
            let events = evaluations.first?.outcome.events ?? []
            let output = FileIO.Output(path: html) { sink throws(FencesimError) in
                try sink.write(Array(ReplayView.render(model, events: events, basemap: basemap).utf8))
            }
            for path in try FileIO.writeTogether([output]) { Terminal.err("wrote \(path)") }
        }
    }
}
