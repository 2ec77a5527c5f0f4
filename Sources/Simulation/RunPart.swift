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
        var out: [UInt8] = []
        JSONWriter.write(header.json, to: &out)
        out.append(0x0A)
        for (position, record) in zip(header.positions, records) {
            var members: [(String, JSONValue)] = [("index", .int(Int64(position)))]
            if case .object(let m) = record { members += m.map { ($0.key, $0.node.value) } }
            JSONWriter.write(.orderedObject(members), to: &out)
            out.append(0x0A)
        }
        return out
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
    public static func read(_ source: SourceText, record: (Header, Int, PartNode) throws(FencesimError) -> Void) throws(FencesimError) -> Header {
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
            throw FencesimError(.badData, "the header lists \(header.positions.count) traces and the file holds \(next): the part is truncated (run its shard again)",
                                at: SourceLocation(file: source.file, line: (lines.last?.0 ?? 1)))
        }
        if let last = source.bytes.last, last != 0x0A {
            throw FencesimError(.badData, "the part does not end with a line break: it is truncated (run its shard again)",
                                at: SourceLocation(file: source.file, line: lines.last?.0 ?? 1))
        }
        return header
    }

    static let notAPart = "not a part of fencesim report --shard or sweep --shard (its first line must be the header {\"fencesim\":\"partial-report\" or \"partial-sweep\", ...})"

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
            throw node.error("part version \(version) is not supported (this fencesim reads version \(RunPart.version)): run its shard again with this fencesim")
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

/// A value of a part's line, with its place for errors: typed accessors throw `.badData`
/// located at the value (file, line, column).
public struct PartNode {
    public let node: JSONNode
    public let line: Int
    public let file: String

    static func parse(_ bytes: ArraySlice<UInt8>, line: Int, file: String) throws(FencesimError) -> PartNode {
        do {
            return PartNode(node: try JSONParser.parse(SourceText(file: file, bytes: Array(bytes))), line: line, file: file)
        } catch {
            var located = error
            located.location = SourceLocation(file: file, line: line, column: error.location?.column)
            located.message = "line \(line) of the part is not JSON (is the part truncated?): \(error.message)"
            throw located
        }
    }

    /// A `.badData` error at this value.
    public func error(_ message: String) -> FencesimError {
        FencesimError(.badData, message, at: SourceLocation(file: file, line: line, column: node.offset + 1))
    }

    /// The member `key`, which must be there (it may be null).
    public func member(_ key: String) throws(FencesimError) -> PartNode {
        guard let m = node.member(key) else { throw error("\"\(key)\" is missing") }
        return PartNode(node: m, line: line, file: file)
    }

    /// The member `key`, or `nil` when it is missing or null.
    public func optional(_ key: String) -> PartNode? {
        guard let m = node.member(key), !m.isNull else { return nil }
        return PartNode(node: m, line: line, file: file)
    }

    public var int: Int {
        get throws(FencesimError) {
            guard case .int(let v) = node.value, v >= Int64(Int.min), v <= Int64(Int.max) else { throw error("expected a whole number") }
            return Int(v)
        }
    }

    public var int64: Int64 {
        get throws(FencesimError) {
            guard case .int(let v) = node.value else { throw error("expected a whole number") }
            return v
        }
    }

    public var string: String {
        get throws(FencesimError) {
            guard let s = node.string else { throw error("expected a string") }
            return s
        }
    }

    public var bool: Bool {
        get throws(FencesimError) {
            guard let b = node.bool else { throw error("expected true or false") }
            return b
        }
    }

    public var list: [PartNode] {
        get throws(FencesimError) {
            guard let a = node.elements else { throw error("expected a list") }
            return a.map { PartNode(node: $0, line: line, file: file) }
        }
    }

    /// A double written by ``PartValue/double(_:)``: the hexadecimal bits.
    public var double: Double {
        get throws(FencesimError) {
            guard let s = node.string, s.utf8.count == 16, let bits = UInt64(s, radix: 16) else {
                throw error("expected a number as 16 hexadecimal digits (its bits)")
            }
            return Double(bitPattern: bits)
        }
    }

    /// A timestamp written by ``PartValue/time(_:)``: `[seconds, nanoseconds]`.
    public var time: Timestamp {
        get throws(FencesimError) {
            let pair = try list
            guard pair.count == 2 else { throw error("expected a time as [seconds, nanoseconds]") }
            let ns = try pair[1].int64
            guard ns >= 0, ns < 1_000_000_000 else { throw pair[1].error("nanoseconds must be 0 to 999999999") }
            return Timestamp(seconds: try pair[0].int64, nanoseconds: ns)
        }
    }
}

/// How a part writes values that must come back exactly.
public enum PartValue {
    /// A double as its 16 hexadecimal bits (every bit kept, -0 and NaN included).
    public static func double(_ value: Double) -> JSONValue {
        let hex = String(value.bitPattern, radix: 16)
        return .string(String(repeating: "0", count: 16 - hex.utf8.count) + hex)
    }

    public static func double(_ value: Double?) -> JSONValue {
        value.map { double($0) } ?? .null
    }

    /// A timestamp as `[seconds, nanoseconds]`.
    public static func time(_ value: Timestamp) -> JSONValue {
        .list([.int(value.seconds), .int(Int64(value.nanoseconds))])
    }

    public static func time(_ value: Timestamp?) -> JSONValue {
        value.map { time($0) } ?? .null
    }

    /// An error of a trace: its code, message, location and related findings, so that its
    /// ``Support/FencesimError/fullDescription`` and exit status come back the same.
    public static func error(_ e: FencesimError) -> JSONValue {
        .orderedObject([
            ("code", .string(e.code.description)), ("message", .string(e.message)),
            ("file", e.location.map { .string($0.file) } ?? .null), ("line", e.location?.line.map { .int(Int64($0)) } ?? .null),
            ("column", e.location?.column.map { .int(Int64($0)) } ?? .null),
            ("related", .list(e.related.map { .string($0.description) })),
        ])
    }
}

extension PartNode {
    /// An error written by ``PartValue/error(_:)``. Related findings come back as text after
    /// the message, so that its full description is the same.
    public var fencesimError: FencesimError {
        get throws(FencesimError) {
            let name = try member("code").string
            let codes: [FencesimError.Code] = [.usage, .badData, .missingInput, .io, .checkFailed, .internalError]
            guard let code = codes.first(where: { $0.description == name }) else { throw try member("code").error("unknown error code \"\(name)\"") }
            var location: SourceLocation?
            if let file = optional("file") {
                location = SourceLocation(file: try file.string, line: try optional("line")?.int, column: try optional("column")?.int)
            }
            var message = try member("message").string
            for r in try member("related").list { message += "\n" + (try r.string) }
            return FencesimError(code, message, at: location)
        }
    }
}
