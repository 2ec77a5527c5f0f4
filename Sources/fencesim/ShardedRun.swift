import ArgumentParser
import Files
import Foundation
import Regression
import Scenarios
import Support

#if canImport(Glibc)
import Accuracy
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `report --shard` and `sweep --shard` share (SPEC §6.7): which traces a shard replays,
/// the digest that ties the shards of one run together, and where a part is written.
enum ShardedRun {
    /// The command a part was written by, parsed again from the arguments its header keeps
    /// (what merge prepares the single run from).
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` at `at` when they are not `command`'s.
    static func command<Command: ParsableCommand>(_ command: Command.Type, of header: RunPart.Header, at: SourceLocation)
        throws(FencesimError) -> Command
    {
        do {
            return try Command.parse(header.arguments)
        } catch {
            throw FencesimError(
                .badData,
                "the part's arguments are not those of fencesim \(Command.configuration.commandName ?? ""): \(Command.message(for: error))",
                at: at)
        }
    }

    /// Options that say where output goes or how fast it is made, not what it holds: left out
    /// of a part's arguments and of the run's digest. Each takes a value but `--quiet`.
    static let outputOptions: Set<String> = ["--shard", "--out", "--workers", "--html", "--basemap", "--json", "--plot"]
    static let outputFlags: Set<String> = ["--quiet"]

    /// The words after `command` on the command line but the output options (and their values)
    /// and the `also` options (with a value each).
    static func arguments(after command: String, also: Set<String> = [], in words: [String] = CommandLine.arguments) -> [String] {
        let options = outputOptions.union(also)
        var out: [String] = []
        var skipNext = false
        for word in words.drop(while: { $0 != command }).dropFirst() {
            if skipNext {
                skipNext = false
                continue
            }
            if outputFlags.contains(word) { continue }
            if options.contains(word) {
                skipNext = true
                continue
            }
            if let equals = word.firstIndex(of: "="), options.contains(String(word[..<equals])) { continue }
            out.append(word)
        }
        return out
    }

    /// Each trace's work for assignment: its file's size in bytes (a proxy for its fixes); the
    /// traces one file holds (a CSV of several devices) share its size in proportion to their
    /// rows. A file that cannot be read weighs 0 (its trace fails wherever it runs).
    static func weights(_ traces: [TraceInput]) -> [Int64] {
        var rows: [String: Int] = [:]
        for t in traces { if let s = t.selection { rows[t.path, default: 0] += max(1, s.rows) } }
        return traces.map { t in
            let size = Int64(FileIO.regularFileSize(t.path) ?? 0)
            guard let s = t.selection, let total = rows[t.path], total > 0 else { return size }
            return size * Int64(max(1, s.rows)) / Int64(total)
        }
    }

    /// The digest of a sharded run, the same in every shard of it: fencesim's version, the
    /// command (`run`, `report`, `sweep`), the shard count, the command's arguments but the
    /// output options (in their order), the bytes of `files` (scenario, fences, truth), and
    /// each trace's label, size and bytes.
    ///
    /// - Throws: ``Support/FencesimError`` when a file cannot be read; a trace that cannot is
    ///   counted by its label alone (its replay reports why).
    static func digest(command: String, arguments: [String], files: [String], traces: [TraceInput], shards: Int) throws(FencesimError)
        -> RunDigest
    {
        var digest = RunDigest()
        digest.add("fencesim \(FencesimVersion.string)")
        digest.add("\(command) shards \(shards)")
        digest.add("arguments \(arguments.count)")
        for a in arguments { digest.add(a) }
        for file in files {
            digest.add("file \(file)")
            try digest.addFile(file)
        }
        // A file several traces share is read once.
        var seen: [String: String] = [:]
        for t in traces {
            let size = FileIO.regularFileSize(t.path) ?? -1
            if seen[t.path] == nil {
                var content = RunDigest()
                do throws(FencesimError) { try content.addFile(t.path) } catch { content.add("unreadable") }
                seen[t.path] = content.hex
            }
            digest.add("trace \(t.label) \(size) \(seen[t.path] ?? "")")
        }
        return digest
    }

    /// Writes a part into `folder` atomically (a retried shard replaces its part whole) and says so.
    static func write(_ header: RunPart.Header, records: [JSONValue], name: String, folder: String) throws(FencesimError) {
        try Run.makeDirectory(folder)
        let path = (folder as NSString).appendingPathComponent(RunPart.fileName(name: name, kind: header.kind, shard: header.shard))
        try FileIO.writeAtomically(RunPart.text(header, records: records), to: path)
        Terminal.err("wrote \(path) (shard \(header.shard): \(header.positions.count) of \(header.traceCount) traces)")
    }

    /// A name usable in a file name: the scenario's, or `report`/`sweep` for traces given on the
    /// command line.
    static func fileStem(_ name: String?, kind: RunPart.Kind) -> String {
        guard let name, !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else { return kind.rawValue }
        return name
    }

    /// Reads every part in `files`, one at a time, checking that they are of one run and that
    /// every shard is there once, and hands each trace line to `record` with its position.
    ///
    /// - Parameter expected: the first part's header, already read; its run digest is checked
    ///   by the caller against the inputs as they are now.
    /// - Throws: ``Support/FencesimError`` `.badData`, located at the part concerned, for a part
    ///   of another kind or run, a shard given twice or missing, or what reading a part throws.
    static func readParts(_ files: [String], expected: RunPart.Header, record: (Int, PartNode) throws(FencesimError) -> Void)
        throws(FencesimError)
    {
        var byShard: [Int: String] = [:]
        var covered = [Bool](repeating: false, count: expected.traceCount)
        let first = files.first ?? ""
        func check(_ header: RunPart.Header, file: String) throws(FencesimError) {
            let at = SourceLocation(file: file, line: 1)
            guard header.kind == expected.kind else {
                throw FencesimError(
                    .badData,
                    "this part is of a \(header.kind.rawValue) and \(first) of a \(expected.kind.rawValue): merge the shards of one run",
                    at: at)
            }
            guard header.run == expected.run, header.shard.count == expected.shard.count, header.traceCount == expected.traceCount else {
                throw FencesimError(
                    .badData,
                    "this part is of another run than \(first) (run \(header.run), shard \(header.shard), \(header.traceCount) traces; not run \(expected.run) of \(expected.shard.count) shards, \(expected.traceCount) traces): its settings, inputs or fencesim version differ; merge the shards of one run",
                    at: at)
            }
            if let other = byShard[header.shard.index] {
                throw FencesimError(.badData, "shard \(header.shard) is given twice (also \(other))", at: at)
            }
            byShard[header.shard.index] = file
        }
        for file in files {
            let header = try RunPart.read(path: file) { (header, position, node) throws(FencesimError) in
                if position == header.positions.first { try check(header, file: file) }
                guard !covered[position] else { throw node.error("trace \(position) is also in another part: the parts are edited") }
                covered[position] = true
                try record(position, node)
            }
            if header.positions.isEmpty { try check(header, file: file) }
        }
        let missing = (0..<expected.shard.count).filter { byShard[$0] == nil }
        guard missing.isEmpty else {
            let names = missing.map { "\($0)/\(expected.shard.count)" }.joined(separator: ", ")
            throw FencesimError(
                .badData,
                "shard\(missing.count == 1 ? "" : "s") \(names) \(missing.count == 1 ? "is" : "are") missing: a merge needs every shard's part",
                at: SourceLocation(file: first, line: 1))
        }
        if let gap = covered.firstIndex(of: false) {
            throw FencesimError(
                .badData, "no part holds trace \(gap) of the \(expected.traceCount) traces", at: SourceLocation(file: first, line: 1))
        }
    }
}

extension ShardedRun {
    /// Checks that the inputs are still those the shards ran over: the digest of the run
    /// prepared again from the first part's arguments must be the part's.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` at the first part when it is not.
    static func checkInputs(_ first: RunPart.Header, files: [String], traces: [TraceInput], at: SourceLocation) throws(FencesimError) {
        guard traces.count == first.traceCount else {
            throw FencesimError(
                .badData,
                "the part is of a run of \(first.traceCount) traces and its inputs now give \(traces.count): they changed since the shards ran; run the shards again",
                at: at)
        }
        let digest = try digest(
            command: first.kind.rawValue, arguments: first.arguments, files: files, traces: traces, shards: first.shard.count
        ).hex
        guard digest == first.run else {
            throw FencesimError(
                .badData,
                "the part's run digest is \(first.run) and its inputs now give \(digest): the scenario, fences, truth or traces changed since the shards ran, or another fencesim version ran them; run the shards again",
                at: at)
        }
    }
}

extension TruthSource {
    /// The file truth is read from, if any.
    var files: [String] {
        switch self {
        case .trace: []
        case .reference(let path): [path]
        case .visits(let visits): [visits.file]
        }
    }
}
