import EventPipeline
import Execution
import Files
import Support

/// The results of one shard of a sharded `report` or `sweep` (SPEC §6.7), which `fencesim merge`
/// combines with the other shards' into exactly the outputs of a single run.
///
/// A JSON Lines file: a header line, then one line per trace of the shard, in the order of
/// ``Header/positions``, each `{"index": position, ...}` with what the command needs of that
/// trace (its report entry, or its score in every combination of a sweep). The header:
///
/// ```json
/// {"fencesim":"partial-report","version":1,"run":"5c1e…","shard":0,"shards":3,"traceCount":6,
///  "positions":[0,4],"arguments":["scenarios/demo.yaml","--truth","trace"]}
/// ```
///
/// `run` is the run's ``RunDigest``: `merge` refuses parts whose digests differ. `arguments` are
/// the command's words that change its results (not `--shard`, `--out`, `--workers` or output
/// files), from which `merge` prepares the run again (fences, truth, titles) without replaying.
///
/// Numbers that must survive exactly (every `Double`) are written as the hexadecimal bits of the
/// double, so that a merged report has the bytes of a single run's.
public struct RunPart: Sendable {
    /// What kind of results a part holds.
    public enum Kind: String, Sendable, CaseIterable {
        case report, sweep

        /// The header's `fencesim` marker.
        public var marker: String { "partial-\(rawValue)" }
    }

    /// The header line.
    public struct Header: Sendable, Equatable {
        public var kind: Kind
        /// The run's ``RunDigest`` in hex: parts of one run carry the same.
        public var run: String
        public var shard: Shard
        /// Traces in the whole run.
        public var traceCount: Int
        /// The shard's traces' positions in the run, ascending; one line follows for each.
        public var positions: [Int]
        /// The command's words that change its results.
        public var arguments: [String]

        public init(kind: Kind, run: String, shard: Shard, traceCount: Int, positions: [Int], arguments: [String]) {
            self.kind = kind
            self.run = run
            self.shard = shard
            self.traceCount = traceCount
            self.positions = positions
            self.arguments = arguments
        }

        var json: JSONValue {
            .orderedObject([
                ("fencesim", .string(kind.marker)), ("version", .int(Int64(RunPart.version))), ("run", .string(run)),
                ("shard", .int(Int64(shard.index))), ("shards", .int(Int64(shard.count))), ("traceCount", .int(Int64(traceCount))),
                ("positions", .list(positions.map { .int(Int64($0)) })), ("arguments", .list(arguments.map { .string($0) })),
            ])
        }
    }

    /// The header's version.
    public static let version = 1

    /// The file name of a shard's part: `<name>.<kind>.part-<K>-of-<N>.jsonl`.
    public static func fileName(name: String, kind: Kind, shard: Shard) -> String {
        "\(name).\(kind.rawValue).part-\(shard.index)-of-\(shard.count).jsonl"
    }

    /// A part's text: the header, then each trace's line (`records[k]` is the trace at
    /// `header.positions[k]`; its `index` member is added first).
    public static func text(_ header: Header, records: [JSONValue]) -> [UInt8] {
        precondition(records.count == header.positions.count, "one record per position")
        var out = ByteBuffer()
        JSONWriter.write(header.json, to: &out)
        out.append(0x0A)
        for (position, record) in zip(header.positions, records) {
            var members: [(String, JSONValue)] = [("index", .int(Int64(position)))]
            if case .object(let m) = record { members += m.map { ($0.key, $0.node.value) } }
            JSONWriter.write(.orderedObject(members), to: &out)
            out.append(0x0A)
        }
        return out.bytes
    }

    /// Reads the part at `path`: its header, then hands each trace line, in order, to `record`
    /// with the trace's position. The file is read whole (one part in memory at a time).
    ///
    /// - Throws: ``Support/FencesimError``: `.missingInput` when it does not exist, `.badData`
    ///   located at the first problem (not a part, another kind or version, a bad header, a line
    ///   that is not JSON or not of the next trace, fewer trace lines than the header lists: a
    ///   truncated part), or what `record` throws.
    public static func read(path: String, record: (Header, Int, PartNode) throws(FencesimError) -> Void) throws(FencesimError) -> Header {
        try read(SourceText(file: path, bytes: try FileIO.readAll(path)), record: record)
    }

    /// Reads only the header of the part at `path` (its first line).
    public static func header(path: String) throws(FencesimError) -> Header {
        let bytes = try FileIO.readAll(path)
        let end = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        return try header(SourceText(file: path, bytes: Array(bytes[..<end])), line: 1, bytes: bytes[..<end])
    }

    /// Reads a part held in memory (see ``read(path:record:)``).
    public static func read(_ source: SourceText, record: (Header, Int, PartNode) throws(FencesimError) -> Void) throws(FencesimError)
        -> Header
    {
        let lines = EventLogReader.lines(of: source.bytes).filter { _, bytes in
            bytes.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) })
        }
        guard let (headerLine, headerBytes) = lines.first else {
            throw FencesimError(.badData, "the file is empty: \(notAPart)", at: SourceLocation(file: source.file, line: 1))
        }
        let header = try header(source, line: headerLine, bytes: headerBytes)
        var next = 0
        for (line, bytes) in lines.dropFirst() {
            let node = try PartNode.parse(bytes, line: line, file: source.file)
            guard next < header.positions.count else {
                throw node.error("more lines than the header's \(header.positions.count) traces: the part is edited")
            }
            let index = try node.member("index").int
            guard index == header.positions[next] else {
                throw node.error("this line is of trace \(index), but the header puts trace \(header.positions[next]) here")
            }
            try record(header, index, node)
            next += 1
        }
        guard next == header.positions.count else {
            throw FencesimError(
                .badData,
                "the header lists \(header.positions.count) traces and the file holds \(next): the part is truncated (run its shard again)",
                at: SourceLocation(file: source.file, line: (lines.last?.0 ?? 1)))
        }
        if let last = source.bytes.last, last != 0x0A {
            throw FencesimError(
                .badData, "the part does not end with a line break: it is truncated (run its shard again)",
                at: SourceLocation(file: source.file, line: lines.last?.0 ?? 1))
        }
        return header
    }

    static let notAPart =
        "not a part of fencesim report --shard or sweep --shard (its first line must be the header {\"fencesim\":\"partial-report\" or \"partial-sweep\", ...})"

    static func header(_ source: SourceText, line: Int, bytes: ArraySlice<UInt8>) throws(FencesimError) -> Header {
        let node: PartNode
        do throws(FencesimError) {
            node = try PartNode.parse(bytes, line: line, file: source.file)
        } catch {
            throw FencesimError(.badData, notAPart, at: SourceLocation(file: source.file, line: line, column: error.location?.column))
        }
        guard let marker = node.node.member("fencesim")?.string, let kind = Kind.allCases.first(where: { $0.marker == marker }) else {
            throw node.error(notAPart)
        }
        let version = try node.member("version").int
        guard version == RunPart.version else {
            throw node.error(
                "part version \(version) is not supported (this fencesim reads version \(RunPart.version)): run its shard again with this fencesim"
            )
        }
        let run = try node.member("run").string
        let shard: Shard
        do {
            shard = try Shard(index: try node.member("shard").int, count: try node.member("shards").int)
        } catch {
            throw node.error("the header's shard is wrong: \(error.message)")
        }
        let traceCount = try node.member("traceCount").int
        var positions: [Int] = []
        for item in try node.member("positions").list {
            let p = try item.int
            guard p < traceCount, positions.last.map({ $0 < p }) ?? true else {
                throw item.error("positions must be ascending, each under traceCount (\(traceCount))")
            }
            positions.append(p)
        }
        let arguments = try node.member("arguments").list.map { (a) throws(FencesimError) in try a.string }
        return Header(kind: kind, run: run, shard: shard, traceCount: traceCount, positions: positions, arguments: arguments)
    }
}
