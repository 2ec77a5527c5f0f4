/// One trace of a file that holds several: the rows of one value of a CSV's trace column
/// (`uid`, `trajectory_id`, `device`, ... or `--columns trace=NAME`).
///
/// Found by ``TraceReader/traces(path:options:)``; set as ``TraceReadOptions/selection`` to read
/// that trace alone. The rows of one id need not be contiguous: rows of other ids between its
/// first and last row are skipped, and reading stops after its last row. A plain file is read
/// from the id's first row (a seek); a gzip file is inflated from its start.
public struct TraceSelection: Sendable, Hashable {
    /// The trace column's value, as written (trimmed of spaces and quotes).
    public var id: String
    /// The 1-based line of the id's first row.
    public var firstLine: Int
    /// The 1-based line of the id's last row.
    public var lastLine: Int
    /// Where the id's first row starts in the file (bytes, after inflating gzip): a plain file
    /// is read from there on, not from its start.
    public var firstOffset: Int?
    /// Rows holding the id.
    public var rows: Int
    /// Whether rows of other ids lie between its first and last row.
    public var interleaved: Bool

    /// Creates a selection.
    public init(id: String, firstLine: Int, lastLine: Int, rows: Int, interleaved: Bool = false, firstOffset: Int? = nil) {
        self.id = id
        self.firstLine = firstLine
        self.firstOffset = firstOffset
        self.lastLine = lastLine
        self.rows = rows
        self.interleaved = interleaved
    }
}

/// The traces a file holds: its trace column and one selection per id, in order of first row.
public struct TraceSplit: Sendable, Hashable {
    /// The header name (or `#N`) of the trace column.
    public var column: String
    /// One selection per id, by first row.
    public var traces: [TraceSelection]
}
