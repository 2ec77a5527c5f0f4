import Support

/// Reads delimited-text traces (SPEC §1.1) in one streaming pass, parsing numbers and times
/// straight from the line buffer.
///
/// Layout: blank lines and `#` comment lines before the header are skipped (the last one may be
/// a units row); the first other line is the header (see ``CSVLayout`` for the names, units and
/// dialects recognised), unless a column mapping says the file has none. Rows: fields are
/// trimmed of white space, NUL padding and quotes; trailing empty columns are ignored;
/// blank and `#` lines are skipped.
///
/// Values: coordinates may carry a hemisphere letter (`49.0733336N`, `W125.76`) or take it from
/// `N/S`, `E/W` columns; numbers may carry a unit suffix (`374.812 m`, `0.865 km/h`). Times are
/// ISO-8601 (no zone = UTC), an epoch number (unit by magnitude, see
/// ``CSVColumnMapping/TimeFormat/epoch``), or a date column (`2013/04/30`, `2014-03-29`,
/// `250724` as YYMMDD) with a time-of-day column (`14:23:57`, `12:52:47.000`, `173418`), shifted
/// to UTC by a `UTCOfst` column when there is one. An empty time field means "no time".
enum CSVReader {
    static func read(
        path: String, scanner: LineScanner, options: TraceReadOptions, compressed: Bool,
        onFix: (Fix) throws(FencesimError) -> Void
    ) throws(FencesimError) -> TraceStatistics {
        var sink = FixSink(file: path, options: options, format: .csv, dialect: "CSV")
        var pending: Fix?
        var headerLine = 1
        let selection = options.selection
        do throws(FencesimError) {
            var parser: CSVRowParser
            (parser, _, headerLine) = try preamble(path: path, scanner: scanner, options: options, compressed: compressed, sink: &sink) {
                parser, sink, bytes, start, end, line throws(FencesimError) in
                var candidate = FixCandidate(line: line)
                if parser.parse(bytes, start, end, line: line, into: &candidate, sink: &sink) { pending = candidate.fix }
            }
            defer { parser.deallocate() }
            if let pending { try onFix(pending) }
            // The rows: the hot path. One trace of several is read from its first row (straight
            // there in a plain file) to its last; the parser skips the rows of the others in
            // between.
            if let selection, let offset = selection.firstOffset, selection.firstLine > headerLine {
                _ = scanner.seek(toOffset: offset, line: selection.firstLine)
            }
            var candidate = FixCandidate(line: 0)
            try scanner.forEachLine { bytes, start, end, line throws(FencesimError) -> Bool in
                if let selection {
                    if line < selection.firstLine { return true }
                    if line > selection.lastLine { return false }
                }
                if parser.parse(bytes, start, end, line: line, into: &candidate, sink: &sink) {
                    try onFix(candidate.fix)
                }
                return true
            }
            sink.statistics.segments = parser.segmentsSeen
            sink.statistics.zonelessTimes = parser.zonelessTimes
        } catch {
            throw sink.fatal(error)
        }
        if sink.holdsNoRecords {
            throw FencesimError(
                .badData, "no fixes: the header is followed by no data rows, so there is no trace in it",
                at: SourceLocation(file: path, line: headerLine, column: 1))
        }
        return try sink.finish()
    }

    /// The traces a CSV holds when it has a trace column (``CSVColumnMapping/Field/trace``) with
    /// more than one value: one pass that reads that column alone.
    ///
    /// A column found by its header name (not mapped) whose every value holds a single row is a
    /// row number, not a device: the file is then one trace (`nil`). So is one whose first
    /// ``rowNumberEvidence`` rows all differ, where the pass stops, so that a long file numbered
    /// row by row costs neither a whole pass nor memory for every row.
    ///
    /// - Complexity: O(n) time in the file's size; memory O(number of ids).
    static func traces(path: String, scanner: LineScanner, options: TraceReadOptions, compressed: Bool) throws(FencesimError) -> TraceSplit?
    {
        var sink = FixSink(file: path, options: options, format: .csv, dialect: "CSV")
        var order: [String] = []
        var found: [String: TraceSelection] = [:]
        var last: String?
        var rows = 0
        func note(_ id: String, line: Int, offset: Int) {
            rows += 1
            if var selection = found[id] {
                if last != id { selection.interleaved = true }
                selection.lastLine = line
                selection.rows += 1
                found[id] = selection
            } else {
                order.append(id)
                found[id] = TraceSelection(id: id, firstLine: line, lastLine: line, rows: 1, firstOffset: offset)
            }
            last = id
        }
        var (parser, layout, _) = try preamble(path: path, scanner: scanner, options: options, compressed: compressed, sink: &sink) {
            parser, _, bytes, start, end, line throws(FencesimError) in
            if let id = parser.traceID(bytes, start, end) { note(id, line: line, offset: scanner.lineOffset) }
        }
        defer { parser.deallocate() }
        guard let column = layout.column[.trace] else { return nil }
        let mapped = options.csv.mapping?.columns[.trace] != nil
        try scanner.forEachLine { bytes, start, end, line throws(FencesimError) -> Bool in
            if let id = parser.traceID(bytes, start, end) { note(id, line: line, offset: scanner.lineOffset) }
            return mapped || rows != Self.rowNumberEvidence || order.count != rows
        }
        guard order.count > 1 else { return nil }
        if !mapped, order.count == rows { return nil }
        let name = layout.hasHeader && column < layout.names.count ? layout.names[column].trimmingSpaces() : "#\(column + 1)"
        return TraceSplit(column: name, traces: order.compactMap { found[$0] })
    }

    /// Rows all holding different values after which a trace column found by name is taken for
    /// row numbers.
    static let rowNumberEvidence = 10_000

    /// Reads the comments and the header (or a first data row, handed to `firstRow`) and returns
    /// the row parser for the rest (the caller deallocates it), the layout and the header's line.
    private static func preamble(
        path: String, scanner: LineScanner, options: TraceReadOptions, compressed: Bool, sink: inout FixSink,
        firstRow: (inout CSVRowParser, inout FixSink, UnsafePointer<UInt8>, Int, Int, Int) throws(FencesimError) -> Void
    ) throws(FencesimError) -> (CSVRowParser, CSVLayout, headerLine: Int) {
        var header: (CSVRowParser, CSVLayout)?
        var lastComment: [String]?
        var dialect = "CSV"
        var headerLine = 1
        try scanner.forEachLine { bytes, start, end, line throws(FencesimError) -> Bool in
            var s = start
            while s < end, ByteClass.isSpace(bytes[s]) { s += 1 }
            if s == end { return true }
            if bytes[s] == 0x23 {
                let text = String(decoding: UnsafeBufferPointer(start: bytes + s + 1, count: end - s - 1), as: UTF8.self).trimmingSpaces()
                lastComment =
                    text.isEmpty ? nil : text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
                return true
            }
            let delimiter = options.csv.delimiter ?? CSVLayout.detectDelimiter(bytes, s, end)
            let (fields, fieldColumns) = Self.strings(bytes, start, end, delimiter: delimiter)
            let mapping = options.csv.mapping
            var hasHeader = mapping?.hasHeader ?? true
            if mapping?.hasHeader == nil, let mapping, case .index(let index)? = mapping.columns[.latitude],
                index - 1 < fields.count, DecimalParser.parse(fields[index - 1]) != nil || Self.hasHemisphereNumber(fields[index - 1])
            {
                hasHeader = false
            }
            let units = lastComment.flatMap { $0.count >= fields.count - 1 ? $0 : nil }
            let layout = try CSVLayout(
                delimiter: delimiter, header: hasHeader ? fields : nil, unitsRow: units, mapping: mapping,
                headerLocation: SourceLocation(file: path, line: line, column: s - start + 1))
            if let (field, original, repeated) = layout.repeatedColumn(mapping: mapping) {
                throw FencesimError(
                    .badData,
                    "column \(repeated + 1) '\(fields[repeated].trimmingSpaces())' repeats column \(original + 1) '\(fields[original].trimmingSpaces())' (read as \(field)): which one holds the value is ambiguous; rename one, or map the columns by number with --columns",
                    at: SourceLocation(file: path, line: line, column: fieldColumns[repeated]))
            }
            headerLine = line
            dialect = "CSV " + Self.delimiterName(delimiter)
            if !layout.dialect.isEmpty { dialect += " " + layout.dialect }
            if compressed { dialect += " (gzip)" }
            if options.requiresTime, layout.column[.time] == nil {
                throw FencesimError(
                    .badData, Self.noTimeMessage(layout: layout), at: SourceLocation(file: path, line: line, column: s - start + 1))
            }
            var parser = CSVRowParser(layout: layout, selection: options.selection, timeZone: options.timeZone)
            if !hasHeader { try firstRow(&parser, &sink, bytes, start, end, line) }
            header = (parser, layout)
            return false
        }
        sink.statistics.dialect = dialect
        guard let header else {
            throw FencesimError(.badData, "no header and no data: the file holds only comments", at: SourceLocation(file: path))
        }
        return (header.0, header.1, headerLine)
    }

    /// Why a trace with no time column cannot be replayed, naming the columns it has.
    private static func noTimeMessage(layout: CSVLayout) -> String {
        guard layout.hasHeader else {
            return
                "no time column: the file has no header and the column mapping maps none; a replay needs a time for every fix (--columns time=N)"
        }
        let names = layout.names.map { "'\($0.trimmingSpaces())'" }.joined(separator: ", ")
        return
            "no time column in the header (looked for time, timestamp, datetime, tracked_at, utc, gps_time, ts, t, or date with time); the columns are: \(names); a replay needs a time for every fix: name the column with --columns time=NAME"
    }

    static func delimiterName(_ delimiter: UInt8) -> String {
        delimiter == 0x09 ? "tab" : "'\(Character(UnicodeScalar(delimiter)))'"
    }

    /// The fields of a line and the 1-based byte column where each starts.
    private static func strings(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int, delimiter: UInt8) -> ([String], [Int]) {
        let limit = 4096
        let spans = UnsafeMutablePointer<Int>.allocate(capacity: 2 * limit)
        defer { spans.deallocate() }
        let count = min(limit, FieldSplitter.split(bytes, start, end, delimiter: delimiter, into: spans, limit: limit))
        let fields = (0..<count).map { k in
            String(decoding: UnsafeBufferPointer(start: bytes + spans[2 * k], count: spans[2 * k + 1] - spans[2 * k]), as: UTF8.self)
        }
        return (fields, (0..<count).map { spans[2 * $0] - start + 1 })
    }

    private static func hasHemisphereNumber(_ text: String) -> Bool {
        var text = text
        guard let last = text.popLast(), "NSEWnsew".contains(last) else { return false }
        return DecimalParser.parse(text) != nil
    }
}
