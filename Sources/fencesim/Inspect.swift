import ArgumentParser
import Fences
import Files
import Spatial
import Support
import Traces

/// `fencesim inspect FILE...`: what is in trace and fence files, and what is wrong with them.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe trace and fence files: counts, extent, times, speeds, accuracy sources and problems.",
        discussion: """
            For a trace: format, tracks/segments, points, time span, bounding box, speed \
            percentiles, accuracy sources and warnings. For fences: count by kind, bounding box \
            and validity findings. Files that cannot be read are reported and the others still \
            inspected; the exit code is that of the worst failure.
            """
                + HelpExamples.text(
                    "fencesim inspect traces/demo-drive.gpx traces/demo-fences.geojson", "fencesim inspect --json --lenient ride.csv")
    )

    @Argument(help: "Trace files (GPX, CSV, NMEA, PLT, optionally .gz) or GeoJSON fence files.")
    var files: [String]

    @Flag(help: "Print one JSON object per file (JSON Lines) instead of text.")
    var json = false

    @Option(help: "Treat every file as this kind: trace or fences (default: detected per file).")
    var kind: FileKind?

    @OptionGroup var fenceOptions: FenceOptions
    @OptionGroup var traceOptions: TraceOptions

    enum FileKind: String, ExpressibleByArgument, CaseIterable {
        case trace, fences
    }

    func run() throws {
        var worst: FencesimError?
        for file in files {
            do {
                let kind = try self.kind ?? FileKind.detect(file)
                switch kind {
                case .fences:
                    let set = try FenceReader.read(path: file, options: fenceOptions.readOptions)
                    Terminal.out(json ? FenceInspection(set).jsonLine : FenceInspection(set).text)
                case .trace:
                    // A file holding several traces is inspected trace by trace, as commands
                    // that replay read it.
                    let options = try traceOptions.readOptions(replaying: false)
                    let split = try TraceReader.traces(path: file, options: options)
                    for selection in split.map({ $0.traces.map(Optional.some) }) ?? [nil] {
                        var one = options
                        one.selection = selection
                        let inspection = try TraceInspection(path: file, options: one, split: split)
                        Terminal.out(json ? inspection.jsonLine : inspection.text)
                    }
                }
            } catch let error as FencesimError {
                Terminal.err(error.fullDescription)
                if worst == nil || error.code.exitStatus > (worst?.code.exitStatus ?? 0) { worst = error }
            }
        }
        if let worst { throw ExitCode(worst.code.exitStatus) }
    }
}

extension Inspect.FileKind {
    /// Fences are GeoJSON: a `.geojson` name, or a `.json` file that holds a Feature or
    /// FeatureCollection; everything else is a trace.
    static func detect(_ path: String) throws -> Inspect.FileKind {
        let lower = path.lowercased()
        if lower.hasSuffix(".geojson") { return .fences }
        if lower.hasSuffix(".json") {
            let file = try ChunkedFile(path: path)
            defer { file.close() }
            var head = [UInt8](repeating: 0, count: 4096)
            let n = try file.read(into: &head)
            let text = String(decoding: head[0..<n], as: UTF8.self)
            if text.contains("\"FeatureCollection\"") || text.contains("\"Feature\"") { return .fences }
        }
        return .trace
    }
}
