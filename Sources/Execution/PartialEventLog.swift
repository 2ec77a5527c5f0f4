import EventPipeline
import Files
import Support

/// The event log of one shard of a run (SPEC §6.7), which `fencesim merge` combines with the
/// other shards' into exactly the log of a single run.
///
/// A JSON Lines file: a header line, then the shard's events as the JSON Lines log writes them
/// (traces in scenario order, `seq` numbered within the shard), each followed by a `position`
/// member (`[longitude, latitude]`, left out for events without a place) that the CSV and GeoJSON
/// formats need. The header:
///
/// ```json
/// {"fencesim":"partial-event-log","version":2,"scenario":"demo-delivery","run":"5c1e…","shard":0,
///  "shards":3,"traceCount":6,"traces":[{"index":0,"trace":"../traces/a.gpx","events":12}, ...]}
/// ```
///
/// `run` is the run's ``RunDigest``: `merge` refuses parts whose digests differ (parts of runs
/// with other settings, inputs or fencesim versions).
///
/// `traces` lists the shard's traces with their position in the scenario and how many of the
/// lines that follow are theirs, so that merging needs neither the scenario nor unique labels.
/// `columns`, present when the run's CSV log has columns after SPEC's (a `geotrigger` column
/// with several geotriggers), names them, so that a merged CSV has them even when no event of
/// the run fills them, as the single run's does.
public struct PartialEventLog: Sendable {
    /// One trace of the shard.
    public struct Trace: Hashable, Sendable {
        /// 0-based position in the scenario's trace list.
        public var index: Int
        /// The `trace` value of its events.
        public var label: String
        /// How many events it has (consecutive, after the previous trace's).
        public var events: Int

        public init(index: Int, label: String, events: Int) {
            self.index = index
            self.label = label
            self.events = events
        }
    }

    /// The file it was read from (empty for one built in memory).
    public var file: String
    /// The scenario's name.
    public var scenario: String
    /// The run's ``RunDigest`` in hex: parts of one run carry the same.
    public var run: String
    public var shard: Shard
    /// Traces in the whole scenario.
    public var traceCount: Int
    /// The shard's traces, in scenario order.
    public var traces: [Trace]
    /// Their events, trace after trace.
    public var events: [LogEvent]
    /// The CSV log's columns after SPEC's (``Scenarios/Scenario/logExtraColumns``).
    public var columns: [String]

    /// The marker and version of the header line.
    public static let marker = "partial-event-log"
    public static let version = 2

    public init(
        file: String = "", scenario: String, run: String, shard: Shard, traceCount: Int, traces: [Trace], events: [LogEvent],
        columns: [String] = []
    ) {
        self.file = file
        self.columns = columns
        self.scenario = scenario
        self.run = run
        self.shard = shard
        self.traceCount = traceCount
        self.traces = traces
        self.events = events
    }

    /// The partial log of a shard's run.
    ///
    /// - Parameters:
    ///   - outcomes: the replays of the shard's traces, in scenario order.
    ///   - positions: each outcome's 0-based position in the scenario's trace list.
    ///   - columns: the CSV log's columns after SPEC's.
    public init(
        scenario: String, run: String, shard: Shard, traceCount: Int, outcomes: [Replayer.Outcome], positions: [Int],
        columns: [String] = []
    ) {
        precondition(outcomes.count == positions.count, "one position per outcome")
        let traces = zip(outcomes, positions).map { Trace(index: $1, label: $0.input.label, events: $0.events.count) }
        self.init(
            scenario: scenario, run: run, shard: shard, traceCount: traceCount, traces: traces, events: Replayer.merge(outcomes),
            columns: columns)
    }

    /// The file name of a shard's partial log: `<scenario>.events.part-<K>-of-<N>.jsonl`.
    public static func fileName(scenario: String, shard: Shard) -> String {
        "\(scenario).events.part-\(shard.index)-of-\(shard.count).jsonl"
    }

    /// The header line's object.
    var header: JSONValue {
        var members: [(String, JSONValue)] = [
            ("fencesim", .string(PartialEventLog.marker)), ("version", .int(Int64(PartialEventLog.version))),
            ("scenario", .string(scenario)), ("run", .string(run)), ("shard", .int(Int64(shard.index))),
            ("shards", .int(Int64(shard.count))),
            ("traceCount", .int(Int64(traceCount))),
            (
                "traces",
                .list(
                    traces.map { t in
                        .orderedObject([("index", .int(Int64(t.index))), ("trace", .string(t.label)), ("events", .int(Int64(t.events)))])
                    })
            ),
        ]
        if !columns.isEmpty { members.append(("columns", .list(columns.map(JSONValue.string)))) }
        return .orderedObject(members)
    }

    /// The file's text.
    public var text: String {
        var out = ""
        JSONWriter.write(header, to: &out)
        out += "\n"
        for e in events {
            var pairs: [(String, JSONValue)] = [
                ("time", .string(e.time.description)), ("seq", .int(Int64(e.seq))),
                ("trace", .string(e.trace)), ("type", .string(e.type.rawValue)),
            ]
            pairs += e.orderedFields
            if let lon = e.longitude, let lat = e.latitude {
                pairs.append((EventLogReader.positionKey, .list([.double(lon), .double(lat)])))
            }
            JSONWriter.write(.orderedObject(pairs), to: &out)
            out += "\n"
        }
        return out
    }

    /// Reads the partial log at `path`.
    ///
    /// - Throws: ``Support/FencesimError``: `.missingInput` when it does not exist, `.badData`
    ///   located at the first problem (no header, a bad header, a bad event line, event counts
    ///   that do not add up, an event of another trace).
    public static func read(path: String) throws(FencesimError) -> PartialEventLog {
        try parse(SourceText(file: path, bytes: try FileIO.readAll(path)))
    }

    /// Reads a partial log held in memory.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData`, located (see ``read(path:)``).
    public static func parse(_ source: SourceText) throws(FencesimError) -> PartialEventLog {
        let file = source.file
        let lines = EventLogReader.lines(of: source.bytes).filter { _, bytes in
            bytes.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) })
        }
        func fail(_ message: String, line: Int = 1, column: Int? = nil) -> FencesimError {
            FencesimError(.badData, message, at: SourceLocation(file: file, line: line, column: column))
        }
        let notPartial =
            "not a partial event log of fencesim run --shard (its first line must be the shard header {\"fencesim\":\"\(marker)\", ...})"
        guard let (headerLine, headerBytes) = lines.first else { throw fail("the file is empty: \(notPartial)") }
        let parsed: JSONNode?
        do throws(FencesimError) {
            parsed = try EventLogReader.parseLine(headerBytes, line: headerLine, file: file)
        } catch {
            throw fail(notPartial, line: headerLine, column: error.location?.column)
        }
        guard let header = parsed else { throw fail(notPartial, line: headerLine) }
        guard header.member("fencesim")?.string == marker else { throw fail(notPartial, line: headerLine, column: header.offset + 1) }
        func int(_ key: String) throws(FencesimError) -> Int {
            guard let node = header.member(key), case .int(let v) = node.value, v >= 0, v <= Int64(Int32.max) else {
                throw fail(
                    "the shard header needs \"\(key)\", a whole number 0 or more", line: headerLine,
                    column: (header.member(key) ?? header).offset + 1)
            }
            return Int(v)
        }
        let version = try int("version")
        guard version == PartialEventLog.version else {
            let older =
                version < PartialEventLog.version ? "; it has no run digest to check it against the other parts: run its shard again" : ""
            throw fail(
                "partial log version \(version) is not supported (this fencesim reads version \(PartialEventLog.version))\(older)",
                line: headerLine)
        }
        guard let scenario = header.member("scenario")?.string else {
            throw fail("the shard header needs \"scenario\", a string", line: headerLine)
        }
        guard let run = header.member("run")?.string, !run.isEmpty else {
            throw fail("the shard header needs \"run\", the run's digest", line: headerLine, column: header.offset + 1)
        }
        let shard: Shard
        do {
            shard = try Shard(index: try int("shard"), count: try int("shards"))
        } catch {
            throw fail("the shard header's shard is wrong: \(error.message)", line: headerLine)
        }
        let traceCount = try int("traceCount")
        guard let list = header.member("traces")?.elements else {
            throw fail("the shard header needs \"traces\", a list of {index, trace, events}", line: headerLine)
        }
        var traces: [Trace] = []
        for item in list {
            guard let i = item.member("index"), case .int(let index) = i.value, index >= 0, index < traceCount,
                let label = item.member("trace")?.string,
                let n = item.member("events"), case .int(let count) = n.value, count >= 0
            else {
                throw fail(
                    "each of the shard header's traces must be {index (0 to traceCount−1), trace, events}", line: headerLine,
                    column: item.offset + 1)
            }
            traces.append(Trace(index: Int(index), label: label, events: Int(count)))
        }
        var columns: [String] = []
        if let node = header.member("columns") {
            guard let list = node.elements, list.allSatisfy({ $0.string != nil }) else {
                throw fail("the shard header's \"columns\" must be a list of column names", line: headerLine, column: node.offset + 1)
            }
            columns = list.compactMap(\.string)
        }
        var events: [LogEvent] = []
        var remaining = traces.makeIterator()
        var current = remaining.next()
        var left = current?.events ?? 0
        for (line, bytes) in lines.dropFirst() {
            guard let node = try EventLogReader.parseLine(bytes, line: line, file: file) else { continue }
            let event = try EventLogReader.event(node, line: line, file: file, positions: true)
            while left == 0, current != nil {
                current = remaining.next()
                left = current?.events ?? 0
            }
            guard let trace = current else {
                throw fail("more events than the shard header's traces account for (\(traces.reduce(0) { $0 + $1.events }))", line: line)
            }
            guard event.trace == trace.label else {
                throw fail(
                    "this event is of trace \"\(event.trace)\", but the shard header puts trace \"\(trace.label)\"'s events here",
                    line: line)
            }
            left -= 1
            events.append(event)
        }
        let expected = traces.reduce(0) { $0 + $1.events }
        guard events.count == expected else {
            throw fail(
                "the shard header accounts for \(expected) events and the file has \(events.count): it is truncated or edited",
                line: lines.last?.0 ?? 1)
        }
        return PartialEventLog(
            file: file, scenario: scenario, run: run, shard: shard, traceCount: traceCount, traces: traces, events: events,
            columns: columns)
    }
}
