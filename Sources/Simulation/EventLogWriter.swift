import Support

/// Renders one log event at a time (SPEC §6.6) as the bytes of a line of JSON Lines or CSV, or
/// a GeoJSON feature, into a buffer the caller reuses: no per-event dictionary, JSON tree or
/// string. The line is rendered without its `seq`, which is known only when the event takes its
/// place in the whole log (traces replayed on several workers are numbered in input order): the
/// renderer returns where the number goes.
struct EventLineRenderer {
    let format: EventLogFormat
    /// CSV columns after SPEC's, in order (keys outside ``LogEvent/fieldOrder``).
    let extraColumns: [String]
    /// By CSV column after the four fixed ones: the column of each extra key.
    private let extraRank: [String: Int]
    /// The order of the fields of the event being rendered (reused).
    private var order: [(rank: Int, index: Int)] = []
    /// A CSV cell being rendered (reused).
    private var cell: [UInt8] = []
    /// The keys of recent events by place in their fields, and their ranks.
    private var recentKeys: [String] = []
    private var recentRanks: [Int] = []

    init(format: EventLogFormat, extraColumns: [String] = []) {
        self.format = format
        self.extraColumns = extraColumns
        var rank: [String: Int] = [:]
        for (k, key) in extraColumns.enumerated() where rank[key] == nil { rank[key] = LogEvent.fieldOrder.count + k }
        extraRank = rank
        order.reserveCapacity(32)
        cell.reserveCapacity(64)
    }

    /// The header of the log (CSV's column names, GeoJSON's opening), possibly empty.
    func header(into out: inout [UInt8]) {
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
            JSONWriter.append("{\"type\":\"FeatureCollection\",\"features\":[\n", to: &out)
        case .jsonl, .table:
            break
        }
    }

    /// Appends `event` to `out` (a line with its newline; a GeoJSON feature without a separator)
    /// and returns the offset in `out` where its `seq` is to be inserted.
    ///
    /// - Throws: ``Support/FencesimError`` `.internalError` for a CSV field whose key has no column
    ///   (the columns are fixed before the first event is written).
    mutating func render(_ event: LogEvent, into out: inout [UInt8]) throws(FencesimError) -> Int {
        sortFields(event)
        switch format {
        case .jsonl:
            let seqAt = jsonObject(event, into: &out)
            out.append(UInt8(ascii: "\n"))
            return seqAt
        case .geojson:
            JSONWriter.append("{\"type\":\"Feature\",\"geometry\":", to: &out)
            if let lon = event.longitude, let lat = event.latitude {
                JSONWriter.append("{\"type\":\"Point\",\"coordinates\":[", to: &out)
                JSONWriter.appendNumber(lon, to: &out)
                out.append(UInt8(ascii: ","))
                JSONWriter.appendNumber(lat, to: &out)
                JSONWriter.append("]}", to: &out)
            } else {
                JSONWriter.append("null", to: &out)
            }
            JSONWriter.append(",\"properties\":", to: &out)
            let seqAt = jsonObject(event, into: &out)
            out.append(UInt8(ascii: "}"))
            return seqAt
        case .csv:
            return try csvRow(event, into: &out)
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

    /// The event as a JSON object in log order, without `seq` (whose place is returned).
    private func jsonObject(_ event: LogEvent, into out: inout [UInt8]) -> Int {
        JSONWriter.append("{\"time\":\"", to: &out)
        event.time.appendISO8601(to: &out)
        JSONWriter.append("\",\"seq\":", to: &out)
        let seqAt = out.count
        JSONWriter.append(",\"trace\":", to: &out)
        JSONWriter.quote(event.trace, to: &out)
        JSONWriter.append(",\"type\":\"", to: &out)
        EventLineRenderer.appendType(event.type, to: &out)
        out.append(UInt8(ascii: "\""))
        for item in order {
            let field = event.fields[item.index]
            out.append(UInt8(ascii: ","))
            JSONWriter.quote(field.0, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.write(field.1, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return seqAt
    }

    /// The CSV row of SPEC §6.6's columns, without `seq` (whose place is returned).
    private mutating func csvRow(_ event: LogEvent, into out: inout [UInt8]) throws(FencesimError) -> Int {
        event.time.appendISO8601(to: &out)
        out.append(UInt8(ascii: ","))
        let seqAt = out.count
        out.append(UInt8(ascii: ","))
        var trace = event.trace
        trace.withUTF8 { EventLineRenderer.appendCSVCell($0, to: &out) }
        out.append(UInt8(ascii: ","))
        EventLineRenderer.appendType(event.type, to: &out)
        let columns = LogEvent.fieldOrder.count + extraColumns.count
        var next = 0
        if let last = order.last, last.rank == Int.max {
            throw FencesimError(.internalError, "event field \"\(event.fields[last.index].0)\" has no CSV column")
        }
        for column in 0..<columns {
            out.append(UInt8(ascii: ","))
            // The first field of this column (a repeated key's later values are not shown, as
            // in every format that reads fields by key).
            guard next < order.count, order[next].rank == column else { continue }
            cell.removeAll(keepingCapacity: true)
            switch event.fields[order[next].index].1 {
            case .string(let s): cell.append(contentsOf: s.utf8)
            case .null: break
            case let value: JSONWriter.write(value, to: &cell)
            }
            cell.withUnsafeBufferPointer { EventLineRenderer.appendCSVCell($0, to: &out) }
            while next < order.count, order[next].rank == column { next += 1 }
        }
        out.append(UInt8(ascii: ","))
        if let lon = event.longitude { JSONWriter.appendNumber(lon, to: &out) }
        out.append(UInt8(ascii: ","))
        if let lat = event.latitude { JSONWriter.appendNumber(lat, to: &out) }
        out.append(UInt8(ascii: "\n"))
        return seqAt
    }

    /// A CSV cell, in double quotes (inner quotes doubled) when it holds a comma, a quote or a
    /// line break (RFC 4180).
    static func appendCSVCell(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        guard needsQuotes else { return out.append(contentsOf: bytes) }
        out.append(UInt8(ascii: "\""))
        for b in bytes {
            if b == UInt8(ascii: "\"") { out.append(b) }
            out.append(b)
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendType(_ type: LogEvent.EventType, to out: inout [UInt8]) {
        var name = type.rawValue
        name.withUTF8 { out.append(contentsOf: $0) }
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
public final class EventLogWriter {
    public let format: EventLogFormat
    let sink: any ByteSink
    var renderer: EventLineRenderer
    /// Rendered bytes not yet written.
    var buffer: [UInt8] = []
    /// Events written so far: the next event's `seq`.
    public private(set) var count = 0
    /// The table's events (table format only).
    var tableEvents: [LogEvent] = []
    var finished = false
    /// The digits of a `seq` (reused).
    var digits: [UInt8] = []
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
        buffer.reserveCapacity(EventLogWriter.flushBytes + 4096)
        renderer.header(into: &buffer)
    }

    /// Appends `event` as the log's next event (its `seq` is the number of events before it).
    public func append(_ event: LogEvent) throws(FencesimError) {
        precondition(!finished, "an event after finish()")
        if format == .table {
            var numbered = event
            numbered.seq = count
            tableEvents.append(numbered)
            count += 1
            return
        }
        separate()
        let seqAt = try renderer.render(event, into: &buffer)
        insertSeq(at: seqAt)
        count += 1
        if buffer.count >= EventLogWriter.flushBytes { try flush() }
    }

    /// Appends an event rendered earlier by an ``EventLineRenderer`` of the same format: the
    /// bytes before and after its `seq`.
    func append(prefix: UnsafeRawBufferPointer, suffix: UnsafeRawBufferPointer) throws(FencesimError) {
        precondition(!finished && format != .table, "a rendered event after finish() or in a table")
        separate()
        buffer.append(contentsOf: prefix)
        JSONWriter.appendInteger(Int64(count), to: &buffer)
        buffer.append(contentsOf: suffix)
        count += 1
        if buffer.count >= EventLogWriter.flushBytes { try flush() }
    }

    /// GeoJSON features are separated by a comma and a line break.
    @inline(__always)
    private func separate() {
        if format == .geojson, count > 0 { JSONWriter.append(",\n", to: &buffer) }
    }

    /// Puts the `seq` of the event just rendered at `seqAt`.
    private func insertSeq(at seqAt: Int) {
        digits.removeAll(keepingCapacity: true)
        JSONWriter.appendInteger(Int64(count), to: &digits)
        buffer.insert(contentsOf: digits, at: seqAt)
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
            JSONWriter.append("]}\n", to: &buffer)
        case .table:
            buffer.append(contentsOf: EventLogFormat.table(tableEvents).utf8)
            tableEvents = []
        case .jsonl, .csv:
            break
        }
        try flush()
    }

    /// Writes the buffered bytes to the sink.
    func flush() throws(FencesimError) {
        guard !buffer.isEmpty else { return }
        try sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
