import Accuracy
import ArgumentParser
import EventPipeline
import Fences
import Files
import Foundation
import Geotriggers
import Scenarios
import Spatial
import Support
import Traces

/// `fencesim calibrate DEVICE-LOG... --truth T --fences F --profile P --out FILE`: fits a
/// profile's free parameters to recorded logs and writes the profile with the fit beside it.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Fit an OS profile's delivery delay, exit loss and decision distances to recorded device logs.",
        discussion: """
            Reads device logs as score does, takes their truth as score does, and fits the base \
            profile's delivery delay (minimum and mean, from events that say when the phone \
            decided), exit loss share, and entry and exit distances past the boundary (from events \
            with a distance or a position). Writes the profile (YAML) with each fitted parameter's \
            sample size and residual; the others keep the base profile's values and sources. Use \
            the written file with --profile.
            """
                + HelpExamples.text(
                    "fencesim calibrate phone.jsonl --truth drive.gpx --fences stores.geojson --profile android-geofencing --out my-profile.yaml",
                    "fencesim calibrate logs/*.csv --truth visits.csv --fences stores.geojson --profile ios-region --out ios-fit.yaml")
    )

    @Option(
        help: ArgumentHelp(
            "The profile to start from: ios-region, ios-monitor, android-geofencing, or a profile file.", valueName: "profile"))
    var profile: String

    @Option(help: ArgumentHelp("Write the fitted profile here, atomically.", valueName: "file"))
    var out: String

    @OptionGroup var inputs: DeviceLogOptions
    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        guard !out.isEmpty else { throw ValidationError("--out needs a file path") }
    }

    func run() throws {
        let readOptions = try traceOptions.readOptions()
        let given = try inputs.crs.map(FrameChoice.parse)
        try Terminal.run {
            let base = try OSProfile.named(profile)
            let fenceSet = try FenceReader.read(path: inputs.fences, options: fenceOptions.readOptions)
            for w in fenceSet.warnings { Terminal.err(w.description) }
            let frame = try SettingsResolver.frame(given: given, fences: fenceSet, location: nil)
            let settings = try SettingsResolver.resolve(fenceSet, global: GeotriggerOverrides())
            let setup = DeviceLog.ScoringSetup(
                fences: fenceSet, frame: frame, truths: inputs.truth, readOptions: readOptions,
                maxGapSeconds: Replayer.Configuration(fences: fenceSet, frame: frame, settings: settings).maxGapSeconds)
            var read: [DeviceLog] = []
            for path in inputs.logs {
                read.append(try DeviceLog.read(path: path, format: inputs.format, trace: inputs.trace, fences: fenceSet))
            }
            let calibration = try Calibration.fit(logs: read, base: base, setup: setup)
            for (key, why) in calibration.notFitted { Terminal.err("note: \(key) not fitted: \(why); kept the base profile's") }
            let header = [
                "fencesim calibrate: \(base.platform.rawValue) fitted to \(inputs.logs.count) device log\(inputs.logs.count == 1 ? "" : "s") (\(read.reduce(0) { $0 + $1.traces.count }) traces)",
                "use it with --profile \((out as NSString).lastPathComponent) or profile: in a scenario",
            ]
            let text = calibration.profile.yaml(header: header, fits: calibration.fits)
            try FileIO.writeAtomically(text, to: out)
            Terminal.err("wrote \(out)")
        }
    }
}
