import Files
import Geotriggers
import Support

/// Renders one log line at a time (SPEC §6.6) as the bytes of a line of JSON Lines or CSV, or
/// a GeoJSON feature, into a buffer the caller reuses: no per-event dictionary, JSON tree or
/// string. The line is rendered without its `seq`, which is known only when the event takes its
/// place in the whole log (traces replayed on several workers are numbered in input order): the
/// renderer returns where the number goes.
///
/// A ``LogEvent``'s fields are put in log order and written; an engine's line
/// (``EngineLogLine``) hands its fields, already in order, to the renderer as a
/// ``LogFieldSink``, which writes each one where it goes.
///
/// Not copyable: it owns the buffers it renders with (``Support/ByteBuffer``).
struct EventLineRenderer: ~Copyable {
    let format: EventLogFormat
    /// CSV columns after SPEC's, in order (keys outside ``LogEvent/fieldOrder``).
    let extraColumns: [String]
    /// By CSV column after the four fixed ones: the column of each extra key.
    private let extraRank: [String: Int]
    /// JSON: the bytes before the value of each key of ``LogEvent/fieldOrder`` (`,"key":`).
    private let jsonKeys: [[UInt8]]
    /// CSV columns after the four fixed ones and before the place.
    private let columns: Int
    /// The order of the fields of the event being rendered (reused).
    private var order: [(rank: Int, index: Int)] = []
    /// A CSV cell being rendered (reused).
    private var cell = ByteBuffer()
    /// The keys of recent events by place in their fields, and their ranks.
    private var recentKeys: [String] = []
    private var recentRanks: [Int] = []
    /// While a line is rendered: the caller's buffer, taken over (see ``rendering(into:_:)``).
    private var out = ByteBuffer(capacity: 16)
    /// While a CSV row is rendered: the next column whose cell is to be written.
    private var column = 0
    /// The trace last rendered and its text (a CSV cell or a JSON string): every line of a trace
    /// repeats it.
    private var trace = ""
    private var traceText = ByteBuffer()
    /// The time last rendered and its text: the lines of one fix share it.
    private var time: Timestamp?
    private var timeText = ByteBuffer(capacity: 48)
    private var timeWriter = Timestamp.ISO8601Writer()
    /// The last longitude and latitude written and their texts: the lines of one fix repeat
    /// them (on a drive, a third of the events share their fix with the event before).
    private var longitudeText = JSONWriter.RepeatedNumber()
    private var latitudeText = JSONWriter.RepeatedNumber()
    /// The last accuracy written and its text (the lines of one fix repeat it).
    private var accuracyText = JSONWriter.RepeatedNumber()

    init(format: EventLogFormat, extraColumns: [String] = []) {
        self.format = format
        self.extraColumns = extraColumns
        var rank: [String: Int] = [:]
        for (k, key) in extraColumns.enumerated() where rank[key] == nil { rank[key] = LogEvent.fieldOrder.count + k }
        extraRank = rank
        jsonKeys = LogEvent.fieldOrder.map { key in
            var bytes = ByteBuffer()
            bytes.append(UInt8(ascii: ","))
            JSONWriter.quote(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            return bytes.bytes
        }
        columns = LogEvent.fieldOrder.count + extraColumns.count
        order.reserveCapacity(32)
    }

    /// The header of the log (CSV's column names, GeoJSON's opening), possibly empty.
    func header(into out: inout ByteBuffer) {
        switch format {
        case .csv:
            let columns = ["time", "seq", "trace", "type"] + LogEvent.fieldOrder + extraColumns + ["longitude", "latitude"]
            for (k, column) in columns.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                var name = column
                name.withUTF8 { EventLineRenderer.appendCSVCell($0, to: &out) }
            }
            out.append(UInt8(ascii: "\n"))
        case .geojson:
            out.append("{\"type\":\"FeatureCollection\",\"features\":[\n")
        case .jsonl, .table:
            break
        }
    }

    /// Appends `line` to `out` (a line with its newline; a GeoJSON feature without a separator)
    /// and returns the offset in `out` where its `seq` is to be inserted.
    ///
    /// - Throws: ``Support/FencesimError`` `.internalError` for a CSV field whose key has no column
    ///   (the columns are fixed before the first event is written); nothing is appended then.
    mutating func render(_ line: LogLine, into out: inout ByteBuffer) throws(FencesimError) -> Int {
        switch line {
        case .event(let event): try render(event, into: &out)
        case .engine(let line): render(line, into: &out)
        }
    }

    /// Appends `event` to `out`, as ``render(_:into:)`` does.
    mutating func render(_ event: LogEvent, into out: inout ByteBuffer) throws(FencesimError) -> Int {
        sortFields(event)
        if format == .csv, let last = order.last, last.rank == Int.max {
            throw FencesimError(.internalError, "event field \"\(event.fields[last.index].0)\" has no CSV column")
        }
        return rendering(into: &out) { renderer in
            renderer.envelope(time: event.time, trace: event.trace, type: event.type, longitude: event.longitude, latitude: event.latitude)
            { renderer in
                for item in renderer.order {
                    let field = event.fields[item.index]
                    renderer.write(rank: item.rank, key: field.0, field.1)
                }
            }
        }
    }

    /// Appends an engine's line to `out`, as ``render(_:into:)`` does.
    mutating func render(_ line: EngineLogLine, into out: inout ByteBuffer) -> Int {
        render(engine: line.event, fenceID: line.fenceID, zone: line.zone, geotrigger: line.geotrigger, trace: line.trace, into: &out)
    }

    /// Appends the line of an engine's event, read in place (its fence's id and zone, its
    /// geotrigger when several watch the fences, and its trace given beside it), as
    /// ``render(_:into:)`` does.
    mutating func render(
        engine event: borrowing GeotriggerEvent, fenceID: String, zone: String?, geotrigger: String?, trace: String,
        into out: inout ByteBuffer
    ) -> Int {
        rendering(into: &out) { renderer in
            renderer.envelope(
                time: event.time, trace: trace, type: EngineLogLine.type(of: event.kind),
                longitude: event.longitude, latitude: event.latitude
            ) { renderer in
                EngineLogLine.fields(of: event, fenceID: fenceID, zone: zone, geotrigger: geotrigger, into: &renderer)
            }
        }
    }

    /// Runs `body` with the caller's buffer as ``out`` (swapped in and out: no copy).
    @inline(__always)
    private mutating func rendering(into buffer: inout ByteBuffer, _ body: (inout EventLineRenderer) -> Int) -> Int {
        swap(&out, &buffer)
        defer { swap(&out, &buffer) }
        return body(&self)
    }

    /// The line around its fields (written by `fields`, in log order), without `seq` (whose
    /// place is returned).
    @inline(__always)
    private mutating func envelope(
        time: Timestamp, trace: String, type: LogEvent.EventType, longitude: Double?, latitude: Double?,
        fields: (inout EventLineRenderer) -> Void
    ) -> Int {
        switch format {
        case .jsonl:
            let seqAt = jsonObject(time: time, trace: trace, type: type, fields: fields)
            out.append(UInt8(ascii: "\n"))
            return seqAt
        case .geojson:
            out.append("{\"type\":\"Feature\",\"geometry\":")
            if let longitude, let latitude {
                out.append("{\"type\":\"Point\",\"coordinates\":[")
                longitudeText.append(longitude, to: &out)
                out.append(UInt8(ascii: ","))
                latitudeText.append(latitude, to: &out)
                out.append("]}")
            } else {
                out.append("null")
            }
            out.append(",\"properties\":")
            let seqAt = jsonObject(time: time, trace: trace, type: type, fields: fields)
            out.append(UInt8(ascii: "}"))
            return seqAt
        case .csv:
            appendTime(time)
            out.append(UInt8(ascii: ","))
            let seqAt = out.count
            out.append(UInt8(ascii: ","))
            appendTrace(trace)
            out.append(UInt8(ascii: ","))
            EventLineRenderer.appendType(type, to: &out)
            column = 0
            fields(&self)
            // The empty cells after the last field, and the separator before the longitude.
            appendCommas(columns - column + 1)
            column = columns
            if let longitude { longitudeText.append(longitude, to: &out) }
            out.append(UInt8(ascii: ","))
            if let latitude { latitudeText.append(latitude, to: &out) }
            out.append(UInt8(ascii: "\n"))
            return seqAt
        case .table:
            preconditionFailure("a table is rendered whole (EventLogWriter keeps its events)")
        }
    }

    /// Fills ``order`` with the event's fields in ``LogEvent/fieldOrder`` order (stable for
    /// equal ranks; keys outside it after them, in the order given, or in their extra column's
    /// order for CSV).
    private mutating func sortFields(_ event: LogEvent) {
        order.removeAll(keepingCapacity: true)
        var sorted = true
        for k in event.fields.indices {
            let key = event.fields[k].0
            let rank: Int
            // Events of one kind come with the same keys in the same places: the previous event's
            // rank of the key at this place is taken when the key is the same (two words to
            // compare for a short key), saving a hash.
            if k < recentKeys.count, recentKeys[k] == key {
                rank = recentRanks[k]
            } else {
                rank = LogEvent.rank(of: key) ?? (format == .csv ? extraRank[key] ?? Int.max : LogEvent.fieldOrder.count)
                if k < recentKeys.count {
                    recentKeys[k] = key
                    recentRanks[k] = rank
                } else {
                    recentKeys.append(key)
                    recentRanks.append(rank)
                }
            }
            if let last = order.last, last.rank > rank { sorted = false }
            order.append((rank, k))
        }
        // Producers append fields in order; sort only when one did not (insertion sort: stable).
        if !sorted {
            for i in 1..<order.count {
                let item = order[i]
                var j = i
                while j > 0, order[j - 1].rank > item.rank {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = item
            }
        }
    }

    /// The line as a JSON object in log order, without `seq` (whose place is returned).
    @inline(__always)
    private mutating func jsonObject(time: Timestamp, trace: String, type: LogEvent.EventType, fields: (inout EventLineRenderer) -> Void)
        -> Int
    {
        out.append("{\"time\":\"")
        appendTime(time)
        out.append("\",\"seq\":")
        let seqAt = out.count
        out.append(",\"trace\":")
        appendTrace(trace)
        out.append(",\"type\":\"")
        EventLineRenderer.appendType(type, to: &out)
        out.append(UInt8(ascii: "\""))
        fields(&self)
        out.append(UInt8(ascii: "}"))
        return seqAt
    }

    /// The time as ISO 8601 (without quotes).
    @inline(__always)
    private mutating func appendTime(_ t: Timestamp) {
        if t != time {
            time = t
            timeText.removeAll()
            timeWriter.append(t, to: &timeText)
        }
        out.append(contentsOf: timeText)
    }

    /// The trace as a CSV cell or a JSON string.
    @inline(__always)
    private mutating func appendTrace(_ t: String) {
        if t != trace || traceText.isEmpty {
            trace = t
            traceText.removeAll()
            if format == .csv {
                var text = t
                text.withUTF8 { EventLineRenderer.appendCSVCell($0, to: &traceText) }
            } else {
                JSONWriter.quote(t, to: &traceText)
            }
        }
        out.append(contentsOf: traceText)
    }

    /// Writes a field of the line being rendered: its rank in log order (CSV: its column) and
    /// its key (for a key outside ``LogEvent/fieldOrder``).
    private mutating func write(rank: Int, key: String, _ value: JSONValue) {
        if format == .csv {
            guard csvCell(rank) else { return }
            switch value {
            case .string(let s):
                EventLineRenderer.appendCSVCell(s, to: &out)
            case .null: break
            case let value:
                cell.removeAll()
                JSONWriter.write(value, to: &cell)
                cell.withUnsafeBytes { EventLineRenderer.appendCSVCell($0.assumingMemoryBound(to: UInt8.self), to: &out) }
            }
        } else {
            if rank < jsonKeys.count {
                out.append(contentsOf: jsonKeys[rank])
            } else {
                out.append(UInt8(ascii: ","))
                JSONWriter.quote(key, to: &out)
                out.append(UInt8(ascii: ":"))
            }
            JSONWriter.write(value, to: &out)
        }
    }

    /// CSV: moves to the cell of column `rank` (after the four fixed ones); whether it is to be
    /// written (a repeated key's later values are not shown, as in every format that reads
    /// fields by key).
    @inline(__always)
    private mutating func csvCell(_ rank: Int) -> Bool {
        guard rank >= column else { return false }
        appendCommas(rank - column + 1)
        column = rank + 1
        return true
    }

    /// CSV: `count` separators (`count` is at most ``columns`` + 1).
    @inline(__always)
    private mutating func appendCommas(_ count: Int) {
        out.append(repeating: UInt8(ascii: ","), count: count)
    }

    /// The start of a field with a scalar value: JSON's key, or CSV's cell; whether its value is
    /// to be written.
    @inline(__always)
    private mutating func scalarField(_ key: LogEvent.Key) -> Bool {
        if format == .csv { return csvCell(key.rawValue) }
        out.append(contentsOf: jsonKeys[key.rawValue])
        return true
    }

    /// A CSV cell, in double quotes (inner quotes doubled) when it holds a comma, a quote or a
    /// line break (RFC 4180).
    static func appendCSVCell(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteBuffer) {
        guard needsQuotes(bytes) else { return out.append(contentsOf: bytes) }
        out.append(UInt8(ascii: "\""))
        for b in bytes {
            if b == UInt8(ascii: "\"") { out.append(b) }
            out.append(b)
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `bytes` holds a comma, a double quote or a line break (a CSV cell that needs
    /// quotes), looked for eight bytes at a time while eight remain: a byte equals one of them
    /// when its difference from it is zero, and a word has a zero byte when subtracting one from
    /// each byte borrows into a byte whose high bit was clear (exact for whether any byte is
    /// zero); the last bytes one by one.
    @inline(__always)
    static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let n = bytes.count
        @inline(__always) func special(_ w: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let high: UInt64 = 0x8080_8080_8080_8080
            @inline(__always) func hasZero(_ v: UInt64) -> Bool { (v &- ones) & ~v & high != 0 }
            return hasZero(w ^ (ones &* 0x2C)) || hasZero(w ^ (ones &* 0x22)) || hasZero(w ^ (ones &* 0x0A))
                || hasZero(w ^ (ones &* 0x0D))
        }
        var k = 0
        while k &+ 8 <= n {
            if special(UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)) { return true }
            k &+= 8
        }
        while k < n {
            let b = base[k]
            if b == UInt8(ascii: ",") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") { return true }
            k &+= 1
        }
        return false
    }

    /// `text` as a CSV cell (``appendCSVCell(_:to:)-(UnsafeBufferPointer<UInt8>,_)``), its bytes
    /// read in place (a copy to call `withUTF8` on retains it).
    @inline(__always)
    static func appendCSVCell(_ text: String, to out: inout ByteBuffer) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendCSVCell($0, to: &out) }
        if done != nil { return }
        var copy = text
        copy.withUTF8 { appendCSVCell($0, to: &out) }
    }

    static func appendType(_ type: LogEvent.EventType, to out: inout ByteBuffer) {
        var name = type.rawValue
        name.withUTF8 { out.append(contentsOf: $0) }
    }
}

/// The renderer takes the fields of an engine's line as they come, in log order, and writes
/// each scalar as its ``JSONValue`` would be written, without building it.
extension EventLineRenderer: LogFieldSink {
    mutating func field(_ key: LogEvent.Key, _ value: JSONValue) {
        write(rank: key.rawValue, key: key.name, value)
    }

    mutating func field(_ key: LogEvent.Key, string: String) {
        guard scalarField(key) else { return }
        if format == .csv {
            EventLineRenderer.appendCSVCell(string, to: &out)
        } else {
            JSONWriter.quote(string, to: &out)
        }
    }

    mutating func field(_ key: LogEvent.Key, int: Int64) {
        guard scalarField(key) else { return }
        JSONWriter.appendInteger(int, to: &out)
    }

    mutating func field(_ key: LogEvent.Key, number: Double) {
        guard scalarField(key) else { return }
        // The lines of one fix repeat its accuracy.
        if key == .accuracy { return accuracyText.append(number, to: &out) }
        JSONWriter.appendNumber(number, to: &out)
    }

    mutating func field(_ key: LogEvent.Key, bool: Bool) {
        guard scalarField(key) else { return }
        out.append(bool ? "true" : "false")
    }

    mutating func field(extra key: String, string: String) {
        // A CSV has the column when its writer was given it (a run with geotriggers: is).
        guard format != .csv || extraRank[key] != nil else { return }
        write(rank: extraRank[key] ?? jsonKeys.count, key: key, .string(string))
    }

    mutating func field(_ key: LogEvent.Key, time: Timestamp) {
        guard scalarField(key) else { return }
        // An ISO 8601 time needs neither JSON escapes nor CSV quotes.
        if format == .csv {
            time.appendISO8601(to: &out)
        } else {
            out.append(UInt8(ascii: "\""))
            time.appendISO8601(to: &out)
            out.append(UInt8(ascii: "\""))
        }
    }
}

/// Writes an event log (SPEC §6.6) as its events are produced: each event is rendered into a
/// reused buffer that goes to the sink whenever it fills, so memory does not grow with the log.
/// Events are numbered (`seq`) in the order they are appended.
///
/// The table format is the exception: its column widths depend on every row, so its events are
/// kept and the table is written by ``finish()`` (it is meant for a terminal, not for logs of
/// millions of events).
///
/// Not thread-safe: traces replayed on several workers reach it through ``OrderedEventLog``.
///
/// - Important: Used by one thread at a time (its owner's, or under ``OrderedEventLog``'s
///   lock), so the state it changes on every event is marked `@exclusivity(unchecked)` (as
///   ``OrderedEventLog/Channel``'s): the compiler still checks exclusive access statically, and
///   the runtime's check on each access (two an event) is left out.
public final class EventLogWriter {
    public let format: EventLogFormat
    let sink: any ByteSink
    @exclusivity(unchecked) var renderer: EventLineRenderer
    /// Rendered bytes not yet written.
    @exclusivity(unchecked) var buffer = ByteBuffer(capacity: EventLogWriter.flushBytes + 4096)
    /// Events written so far: the next event's `seq`.
    public var count: Int { seq.value }
    /// The next event's `seq` and its text.
    @exclusivity(unchecked) var seq = DecimalCounter()
    /// The table's events (table format only).
    var tableEvents: [LogEvent] = []
    var finished = false
    /// The digits of a `seq` (reused).
    @exclusivity(unchecked) var digits = ByteBuffer(capacity: 24)
    /// Bytes gathered before they go to the sink.
    static let flushBytes = 1 << 16

    /// A writer that writes the log's header (if the format has one) at once.
    ///
    /// - Parameter extraColumns: CSV only: columns after SPEC's for keys outside
    ///   ``LogEvent/fieldOrder`` (a CSV's columns are fixed before its first row; events that
    ///   fencesim makes have no such keys).
    public init(format: EventLogFormat, sink: any ByteSink, extraColumns: [String] = []) {
        self.format = format
        self.sink = sink
        renderer = EventLineRenderer(format: format, extraColumns: extraColumns)
        renderer.header(into: &buffer)
    }

    /// Appends `event` as the log's next event (its `seq` is the number of events before it).
    public func append(_ event: LogEvent) throws(FencesimError) {
        precondition(!finished, "an event after finish()")
        if format == .table {
            var numbered = event
            numbered.seq = count
            tableEvents.append(numbered)
            seq.increment()
            return
        }
        separate()
        let seqAt = try renderer.render(event, into: &buffer)
        insertSeq(at: seqAt)
        seq.increment()
        if buffer.count >= EventLogWriter.flushBytes { try flush() }
    }

    /// Appends an event rendered earlier by an ``EventLineRenderer`` of the same format: the
    /// bytes before and after its `seq`.
    func append(prefix: UnsafeRawBufferPointer, suffix: UnsafeRawBufferPointer) throws(FencesimError) {
        precondition(!finished && format != .table, "a rendered event after finish() or in a table")
        separate()
        buffer.append(contentsOf: prefix)
        seq.append(to: &buffer)
        buffer.append(contentsOf: suffix)
        seq.increment()
        if buffer.count >= EventLogWriter.flushBytes { try flush() }
    }

    /// GeoJSON features are separated by a comma and a line break.
    @inline(__always)
    private func separate() {
        if format == .geojson, count > 0 { buffer.append(",\n") }
    }

    /// Puts the `seq` of the event just rendered at `seqAt`.
    private func insertSeq(at seqAt: Int) {
        digits.removeAll()
        seq.append(to: &digits)
        digits.withUnsafeBytes { buffer.insert(contentsOf: $0, at: seqAt) }
    }

    /// Writes the end of the log (GeoJSON's closing, the whole table) and everything still
    /// buffered. The sink is left to the caller (an ``Support/AtomicFileWriter`` is committed
    /// after this).
    public func finish() throws(FencesimError) {
        precondition(!finished, "finish() twice")
        finished = true
        switch format {
        case .geojson:
            if count > 0 { buffer.append(UInt8(ascii: "\n")) }
            buffer.append("]}\n")
        case .table:
            var table = EventLogFormat.table(tableEvents)
            table.withUTF8 { buffer.append(contentsOf: $0) }
            tableEvents = []
        case .jsonl, .csv:
            break
        }
        try flush()
    }

    /// Writes the buffered bytes to the sink.
    func flush() throws(FencesimError) {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { (bytes) throws(FencesimError) in try sink.write(bytes) }
        buffer.removeAll()
    }
}
