import ArgumentParser
import EventPipeline
import Execution
import Files
import Foundation
import Regression
import Reports
import Support

/// `fencesim merge PARTS...`: combines the partial logs of `run --shard K/N` into the log of a
/// single run (SPEC §6.7), and the parts of `report --shard` and `sweep --shard` into the files,
/// table and verdict of a single run, byte for byte.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the parts of run, report or sweep --shard K/N into the output of a single run.",
        discussion: """
            Give every shard's part (<name>.events|report|sweep.part-K-of-N.jsonl), or folders \
            holding them. Event logs: events come out trace by trace in the scenario's order with \
            seq renumbered, the same bytes as one run without --shard, in any --format (--out). \
            Reports: --html and --json write the files, and the table is printed, as report does \
            without --shard. Sweeps: --plot and --json, the grid and the verdict, as sweep does. \
            Reports and sweeps are prepared again from the arguments the shards were given \
            (relative paths from the current folder) and nothing is replayed. A missing or \
            repeated shard, parts of different runs, a truncated or foreign part, or inputs \
            changed since the shards ran are errors (exit 65). Parts are read one at a time.
            """
                + HelpExamples.text(
                    "fencesim merge parts/ --out demo.events.jsonl",
                    "fencesim merge parts/demo-delivery.events.part-*.jsonl --format table",
                    "fencesim merge report-parts/ --html report.html --json report.json",
                    "fencesim merge sweep-parts/ --plot sweep.svg --json sweep.json --quiet")
    )

    @Argument(help: "Partial logs, or folders holding *.part-*.jsonl files.")
    var parts: [String]

    @Option(help: ArgumentHelp("Write the merged log to this file, atomically (default: standard output).", valueName: "file"))
    var out: String?

    @Option(help: "Event log format: jsonl, csv, geojson or table.")
    var format: String = "jsonl"

    @Option(help: ArgumentHelp("Report parts: write the HTML report to this file (default: none).", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Report or sweep parts: write the JSON to this file (default: none).", valueName: "file"))
    var json: String?

    @Option(
        help: ArgumentHelp(
            "Report parts: draw map tiles from this URL template, as report --basemap does (default: none).", valueName: "url-template"))
    var basemap: String?

    @Option(help: ArgumentHelp("Sweep parts: write the plot (SVG) to this file (default: none).", valueName: "file"))
    var plot: String?

    @Flag(help: "Report or sweep parts: print nothing on standard output but a sweep's verdict.")
    var quiet = false

    func validate() throws {
        if let basemap, MapTemplate.host(basemap) == nil {
            throw ValidationError(
                "--basemap needs an http(s) URL template with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        }
        guard EventLogFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be one of \(EventLogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if parts.isEmpty { throw ValidationError("give the partial logs of every shard") }
    }

    func run() throws {
        try Terminal.run {
            var files: [String] = []
            for path in parts {
                if FileIO.isDirectory(path) {
                    let found = try MergeCommand.partialLogs(in: path)
                    guard !found.isEmpty else {
                        throw FencesimError(
                            .missingInput, "no partial logs (*.part-*.jsonl) in this folder", at: SourceLocation(file: path))
                    }
                    files += found
                } else {
                    files.append(path)
                }
            }
            if let first = files.first, let header = try? RunPart.header(path: first) {
                guard out == nil, format == "jsonl" else {
                    throw FencesimError(
                        .usage,
                        "--out and --format are for event logs; a \(header.kind.rawValue)'s files are \(header.kind == .report ? "--html and --json" : "--plot and --json")"
                    )
                }
                let status: Int32
                switch header.kind {
                case .report:
                    guard plot == nil else { throw FencesimError(.usage, "--plot is for sweeps; a report's files are --html and --json") }
                    status = try Report.merge(files, first: header, html: html, json: json, quiet: quiet, basemap: basemap)
                case .sweep:
                    guard html == nil else { throw FencesimError(.usage, "--html is for reports; a sweep's files are --plot and --json") }
                    status = try SweepCommand.merge(files, first: header, plot: plot, json: json, quiet: quiet)
                }
                if status != 0 { throw ExitCode(status) }
                return
            }
            guard html == nil, json == nil, plot == nil else {
                throw FencesimError(
                    .usage,
                    "--html, --json and --plot are for the parts of report and sweep; an event log is written with --out and --format")
            }
            var logs: [PartialEventLog] = []
            for file in files { logs.append(try PartialEventLog.read(path: file)) }
            let events = try EventLogMerge.merge(logs)
            // The run's own columns (every part of a run has the same), as the single run writes them.
            let text = (EventLogFormat(rawValue: format) ?? .jsonl).render(events, extraColumns: logs.first?.columns ?? [])
            if let out {
                try Run.makeDirectory((out as NSString).deletingLastPathComponent)
                try FileIO.writeAtomically(text, to: out)
                Terminal.err("wrote \(out) (\(events.count) events from \(logs.count) shards)")
            } else {
                Terminal.out(text)
            }
        }
    }

    /// The partial logs in `folder`, sorted by name.
    static func partialLogs(in folder: String) throws(FencesimError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw FencesimError(.io, "cannot list the folder: \(error.localizedDescription)", at: SourceLocation(file: folder))
        }
        return names.filter { $0.contains(".part-") && $0.hasSuffix(".jsonl") && !$0.hasPrefix(".") }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
    }
}
