import Support

/// Reads trace files of every supported format and streams their fixes (SPEC §1.1).
///
/// One entry point for GPX, CSV, NMEA 0183 and GeoLife PLT, plain or gzip-compressed. Each
/// accepted fix goes to the caller in file order as soon as it is read; CSV, NMEA and PLT are
/// read in chunks, so memory does not grow with the trace; GPX is parsed with a streaming (SAX)
/// XML parser over the file's bytes, never into a document tree.
///
/// Strict mode (the default) refuses a trace with any invalid coordinate, unparsable time, time
/// going backwards or duplicate time: it reads on to the end and throws one error located at the
/// first problem, with every further problem (up to 50, then a count) in `related`. Nothing is
/// delivered after the first problem. Lenient mode turns each problem into a located warning,
/// counts it, and drops the fix. Backward and duplicate times are judged against the previous
/// accepted timed fix, across the whole file. Implausible jumps are warnings in both modes.
public enum TraceReader {
    /// Reads the trace at `path`, calling `onFix` with each accepted fix in file order.
    ///
    /// - Parameters:
    ///   - path: the file, as the user named it (used in every message).
    ///   - options: format, strictness, accuracy policy and CSV layout.
    ///   - onFix: receives each fix; an error it throws stops the read and is rethrown.
    /// - Returns: counts, drops, warnings, time span and extent of what was read.
    /// - Throws: ``Support/FencesimError``: `.missingInput` when the file cannot be opened,
    ///   `.badData` for a directory, an empty or binary file, unsupported JSON, malformed
    ///   content, or (strict) bad fixes; `.io` when reading fails.
    /// - Complexity: O(n) in the file's size; memory O(1) in the number of fixes for CSV, NMEA
    ///   and PLT, O(file size) for GPX.
    public static func read(
        path: String, options: TraceReadOptions = TraceReadOptions(), onFix: (Fix) throws(FencesimError) -> Void
    ) throws(FencesimError) -> TraceStatistics {
        let source = try ByteSource(path: path)
        let scanner = LineScanner(source: source)
        let sample = try scanner.peek()
        let format: TraceFormat
        if let forced = options.format {
            if sample.isEmpty {
                throw FencesimError(.badData, "empty file: there is no trace in it", at: SourceLocation(file: path, line: 1, column: 1))
            }
            format = forced
        } else {
            format = try TraceFormat.detect(path: path, sample: sample)
        }
        switch format {
        case .csv:
            return try CSVReader.read(path: path, scanner: scanner, options: options, compressed: source.isCompressed, onFix: onFix)
        case .nmea:
            return try NMEAReader.read(path: path, scanner: scanner, options: options, onFix: onFix)
        case .plt:
            return try PLTReader.read(path: path, scanner: scanner, options: options, onFix: onFix)
        case .gpx:
            let bytes = try scanner.readRemaining()
            return try GPXReader.read(path: path, bytes: bytes, options: options, onFix: onFix)
        }
    }

    /// The traces a file holds when it holds several: a CSV with a trace column (`uid`,
    /// `trajectory_id`, `device`, ..., or `--columns trace=NAME`) with more than one value. `nil`
    /// for any other file, which is one trace.
    ///
    /// Each selection, set as ``TraceReadOptions/selection``, reads one trace: rows of other ids
    /// are skipped, so rows need not be grouped by id, and reading stops at the id's last row.
    ///
    /// - Throws: ``Support/FencesimError`` as ``read(path:options:onFix:)`` does for the file and
    ///   its header; the rows themselves are not checked here.
    /// - Complexity: one pass over the file reading one column; memory O(number of ids). A file
    ///   of another format costs the detection of its format only.
    public static func traces(path: String, options: TraceReadOptions = TraceReadOptions()) throws(FencesimError) -> TraceSplit? {
        // Small chunks: most files are looked at only to see that they are not CSV, and a
        // folder may hold thousands.
        let source = try ByteSource(path: path, chunkSize: 64 << 10)
        let scanner = LineScanner(source: source, chunkSize: 64 << 10)
        let sample = try scanner.peek()
        guard !sample.isEmpty else { return nil }
        let format: TraceFormat
        if let forced = options.format { format = forced } else { format = try TraceFormat.detect(path: path, sample: sample) }
        guard format == .csv else { return nil }
        var whole = options
        whole.selection = nil
        return try CSVReader.traces(path: path, scanner: scanner, options: whole, compressed: source.isCompressed)
    }
}
