import ArgumentParser
import Fences
import Foundation
import Geotriggers
import Simulation
import Spatial
import Support
import Traces

/// `fencesim run SCENARIO`: replays every trace of a scenario through the geotrigger engine,
/// check-ins and (when the scenario has `places:` or `sessions:`) Places, and writes its event log.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario file and write its event log.",
        discussion: """
            Traces run on all cores; the log is identical whatever the number of workers. \
            --state keeps the Places state between runs: a file for a one-trace scenario, or a \
            directory (an existing one, or a path ending in /) holding <trace file name>.places.json \
            per trace. A missing state file starts fresh; a corrupt one is an error and is left as it is.
            """
    )

    @Argument(help: "Scenario file (YAML or JSON).")
    var scenario: String

    @Option(help: ArgumentHelp("Write <name>.events.<ext> into this folder (atomically) instead of standard output.", valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("Read the Places state from, and write it back to (atomically), this file or directory.", valueName: "path"))
    var state: String?

    @Option(name: .customLong("places-platform"), help: ArgumentHelp("Override places.platform: docs, ios or android.", valueName: "platform"))
    var placesPlatform: String?

    @Option(name: .customLong("region-budget"), help: ArgumentHelp("Override places.regionBudget: monitor only the nearest N POIs.", valueName: "n"))
    var regionBudget: Int?

    @OptionGroup var output: OutputOptions
    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        if let placesPlatform, !PlacesSettings.platformNames.contains(placesPlatform) {
            throw ValidationError("--places-platform must be one of \(PlacesSettings.platformNames.joined(separator: ", ")), not \"\(placesPlatform)\"")
        }
        if let regionBudget, regionBudget < 1 {
            throw ValidationError("--region-budget must be a number of POIs, 1 or more")
        }
        if let state, state.isEmpty {
            throw ValidationError("--state needs a file or directory path")
        }
    }

    func run() throws {
        let readOptions = try traceOptions.readOptions()
        try Terminal.run {
            let scenario = try ScenarioReader.read(path: scenario)
            for (key, location) in scenario.notYetSimulated {
                Terminal.err("\(location): warning: \"\(key)\" is read and checked but not simulated by this version of fencesim")
            }
            var places = scenario.places
            if state != nil || placesPlatform != nil || regionBudget != nil {
                guard let settings = places else {
                    let option = state != nil ? "--state" : placesPlatform != nil ? "--places-platform" : "--region-budget"
                    throw FencesimError(.usage, "\(option) needs Places, and the scenario has neither places: nor sessions:",
                                        at: SourceLocation(file: scenario.file))
                }
                places = settings.overridden(platform: placesPlatform, regionBudget: regionBudget)
            }
            let statePaths = try state.map { path throws(FencesimError) in try PlacesStateFiles.paths(for: scenario.traces, option: path) }
            let fenceSet = try FenceReader.read(path: scenario.fencesPath, options: fenceOptions.readOptions)
            for w in fenceSet.warnings { Terminal.err(w.description) }
            // Zones are checked here, every problem at once, before anything is replayed.
            let pipeline = try Pipeline(scenario: scenario, fences: fenceSet, places: places)
            for finding in pipeline.findings { Terminal.err(finding.description) }
            let settings = try SettingsResolver.resolve(fenceSet, global: scenario.geotrigger, zones: scenario.zones,
                                                        requireDeclaredZones: !scenario.zones.isEmpty)
            let frame = try FrameChoice.frame(given: scenario.crs, fences: fenceSet, location: scenario.fencesLocation)
            let initialStates = try statePaths.map { paths throws(FencesimError) in
                try PlacesStateFiles.load(paths, settings: places ?? PlacesSettings())
            } ?? []
            let replayer = Replayer(Replayer.Configuration(fences: fenceSet, frame: frame, settings: settings, readOptions: readOptions,
                                                           workers: output.workers, pipeline: pipeline))
            let outcomes = try replayer.run(scenario.traces, placesStates: initialStates)
            try Reporting.finish(outcomes)
            let text = output.logFormat.render(Replayer.merge(outcomes))
            if let out {
                try Run.makeDirectory(out)
                let path = (out as NSString).appendingPathComponent("\(scenario.name).events.\(output.logFormat.fileExtension)")
                try FileIO.writeAtomically(text, to: path)
                Terminal.err("wrote \(path)")
            } else {
                Terminal.out(text)
            }
            if let statePaths {
                for (outcome, path) in zip(outcomes, statePaths) {
                    guard let final = outcome.placesState else { continue }
                    try Run.makeDirectory((path as NSString).deletingLastPathComponent)
                    try FileIO.writeAtomically(PlacesStateFiles.text(of: final), to: path)
                }
            }
        }
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
