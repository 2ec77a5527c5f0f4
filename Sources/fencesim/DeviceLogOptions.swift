import Accuracy
import ArgumentParser

/// The inputs `score` and `calibrate` share: device logs recorded in the field, the truth they
/// are scored against, the fences, and how to read the logs.
struct DeviceLogOptions: ParsableArguments {
    @Argument(help: "Device logs (.jsonl, .csv, .rec).")
    var logs: [String]

    @Option(
        help: ArgumentHelp(
            "Truth: a trace file (the true path) or a visits CSV; repeatable (default: none; at least one is required).", valueName: "file")
    )
    var truth: [String] = []

    @Option(help: ArgumentHelp("GeoJSON fence file.", valueName: "file"))
    var fences: String

    @Option(help: ArgumentHelp("The logs' format: jsonl, csv or owntracks (default: from each file's extension).", valueName: "format"))
    var format: DeviceLog.Format?

    @Option(help: ArgumentHelp("The trace name of a log that names none (default: the file name without extensions).", valueName: "name"))
    var trace: String?

    @Option(help: ArgumentHelp("Metric frame: a PROJ string or an EPSG code (default: automatic).", valueName: "crs"))
    var crs: String?

    func validate() throws {
        guard !logs.isEmpty else { throw ValidationError("give a device log") }
        guard !truth.isEmpty else { throw ValidationError("give --truth (a trace file or a visits CSV)") }
    }
}
