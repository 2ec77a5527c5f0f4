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
        var header: CSVRowParser?
        var lastComment: [String]?
        var pending: Fix?
        var headerLine = 1

        do throws(FencesimError) {
            // The preamble: comments, then the header (or a first data row).
            try scanner.forEachLine { bytes, start, end, line throws(FencesimError) -> Bool in
                var s = start
                while s < end, ByteClass.isSpace(bytes[s]) { s += 1 }
                if s == end { return true }
                if bytes[s] == 0x23 {
                    let text = String(decoding: UnsafeBufferPointer(start: bytes + s + 1, count: end - s - 1), as: UTF8.self).trimmingSpaces()
                    lastComment = text.isEmpty ? nil : text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
                    return true
                }
                let delimiter = options.csv.delimiter ?? CSVLayout.detectDelimiter(bytes, s, end)
                let (fields, fieldColumns) = Self.strings(bytes, start, end, delimiter: delimiter)
                let mapping = options.csv.mapping
                var hasHeader = mapping?.hasHeader ?? true
                if mapping?.hasHeader == nil, let mapping, case .index(let index)? = mapping.columns[.latitude],
                   index - 1 < fields.count, DecimalParser.parse(fields[index - 1]) != nil || Self.hasHemisphereNumber(fields[index - 1]) {
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
                var dialect = "CSV " + Self.delimiterName(delimiter)
                if !layout.dialect.isEmpty { dialect += " " + layout.dialect }
                if compressed { dialect += " (gzip)" }
                sink.statistics.dialect = dialect
                var parser = CSVRowParser(layout: layout)
                var candidate = FixCandidate(line: line)
                if !hasHeader, parser.parse(bytes, start, end, line: line, into: &candidate, sink: &sink) {
                    pending = candidate.fix
                }
                header = parser
                return false
            }
            guard var parser = header else {
                throw FencesimError(.badData, "no header and no data: the file holds only comments", at: SourceLocation(file: path))
            }
            defer { parser.deallocate() }
            if let pending { try onFix(pending) }
            // The rows: the hot path.
            var candidate = FixCandidate(line: 0)
            try scanner.forEachLine { bytes, start, end, line throws(FencesimError) -> Bool in
                if parser.parse(bytes, start, end, line: line, into: &candidate, sink: &sink) {
                    try onFix(candidate.fix)
                }
                return true
            }
            sink.statistics.segments = parser.segmentsSeen
        } catch {
            throw sink.fatal(error)
        }
        if sink.holdsNoRecords {
            throw FencesimError(.badData, "no fixes: the header is followed by no data rows, so there is no trace in it",
                                at: SourceLocation(file: path, line: headerLine, column: 1))
        }
        return try sink.finish()
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
