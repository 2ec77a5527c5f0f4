import ArgumentParser
import Fences
import Foundation
import Geotriggers
import Simulation
import Spatial
import Support
import Traces

/// `fencesim run SCENARIO`: replays every trace of a scenario and writes its event log.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario file and write its event log.",
        discussion: "Traces run on all cores; the log is identical whatever the number of workers."
    )

    @Argument(help: "Scenario file (YAML or JSON).")
    var scenario: String

    @Option(help: ArgumentHelp("Write <name>.events.<ext> into this folder (atomically) instead of standard output.", valueName: "dir"))
    var out: String?

    @OptionGroup var output: OutputOptions
    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func run() throws {
        let readOptions = try traceOptions.readOptions()
        try Terminal.run {
            let scenario = try ScenarioReader.read(path: scenario)
            for (key, location) in scenario.notYetSimulated {
                Terminal.err("\(location): warning: \"\(key)\" is read and checked but not simulated by this version of fencesim")
            }
            let fenceSet = try FenceReader.read(path: scenario.fencesPath, options: fenceOptions.readOptions)
            for w in fenceSet.warnings { Terminal.err(w.description) }
            let settings = try SettingsResolver.resolve(fenceSet, global: scenario.geotrigger, zones: scenario.zones,
                                                        requireDeclaredZones: !scenario.zones.isEmpty)
            let frame = try FrameChoice.frame(given: scenario.crs, fences: fenceSet, location: scenario.fencesLocation)
            let replayer = Replayer(Replayer.Configuration(fences: fenceSet, frame: frame, settings: settings, readOptions: readOptions,
                                                           workers: output.workers))
            let outcomes = try replayer.run(scenario.traces)
            try Reporting.finish(outcomes)
            let text = output.logFormat.render(Replayer.merge(outcomes))
            if let out {
                if !FileIO.isDirectory(out) {
                    do {
                        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                    } catch {
                        throw FencesimError(.io, "cannot create the output folder: \(error.localizedDescription)", at: SourceLocation(file: out))
                    }
                }
                let path = (out as NSString).appendingPathComponent("\(scenario.name).events.\(output.logFormat.fileExtension)")
                try FileIO.writeAtomically(text, to: path)
                Terminal.err("wrote \(path)")
            } else {
                Terminal.out(text)
            }
        }
    }
}
