import ArgumentParser
import Foundation
import Simulation
import Support

/// `fencesim merge PARTS...`: combines the partial logs of `run --shard K/N` into the log of a
/// single run (SPEC §6.7), byte for byte.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the partial event logs of run --shard K/N into the log of a single run.",
        discussion: """
            Give every shard's partial log (<name>.events.part-K-of-N.jsonl), or folders holding \
            them. Events come out trace by trace in the scenario's order with seq renumbered: the \
            same bytes as one run without --shard, in any --format. A missing or repeated shard, \
            or parts of different runs, are errors (exit 65).
            """ + HelpExamples.text("fencesim merge parts/ --out demo.events.jsonl", "fencesim merge parts/demo-delivery.events.part-*.jsonl --format table")
    )

    @Argument(help: "Partial logs, or folders holding *.part-*.jsonl files.")
    var parts: [String]

    @Option(help: ArgumentHelp("Write the merged log to this file, atomically (default: standard output).", valueName: "file"))
    var out: String?

    @Option(help: "Event log format: jsonl, csv, geojson or table.")
    var format: String = "jsonl"

    func validate() throws {
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
                        throw FencesimError(.missingInput, "no partial logs (*.part-*.jsonl) in this folder", at: SourceLocation(file: path))
                    }
                    files += found
                } else {
                    files.append(path)
                }
            }
            var logs: [PartialEventLog] = []
            for file in files { logs.append(try PartialEventLog.read(path: file)) }
            let events = try EventLogMerge.merge(logs)
            let text = (EventLogFormat(rawValue: format) ?? .jsonl).render(events)
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
