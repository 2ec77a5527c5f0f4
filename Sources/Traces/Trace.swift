import Files
import Support

/// A whole trace in memory: its fixes in file order and what the reader saw.
///
/// For long traces prefer ``TraceReader/read(path:options:onFix:)``, which streams.
public struct Trace: Sendable {
    /// The path the trace was read from.
    public var file: String
    /// The format it was read as.
    public var format: TraceFormat
    /// The accepted fixes, in file order.
    public var fixes: [Fix]
    /// Counts, drops, warnings, span and extent.
    public var statistics: TraceStatistics

    /// Creates a trace from fixes already read.
    public init(file: String, format: TraceFormat, fixes: [Fix], statistics: TraceStatistics) {
        self.file = file
        self.format = format
        self.fixes = fixes
        self.statistics = statistics
    }

    /// The fewest bytes of a file a fix is taken to need when room is made for its fixes.
    static let fewestBytesPerFix = 40
    /// The most fixes room is made for before reading (beyond it the array grows as it fills).
    static let reservedFixesLimit = 4_000_000

    /// Reads every accepted fix of the trace at `path` into memory.
    ///
    /// - Throws: ``Support/FencesimError`` as ``TraceReader/read(path:options:onFix:)`` does.
    /// - Complexity: O(n) time and memory in the number of fixes.
    public static func load(path: String, options: TraceReadOptions = TraceReadOptions()) throws(FencesimError) -> Trace {
        var fixes: [Fix] = []
        // Room up front for as many fixes as the file could hold at the fewest bytes a fix
        // takes (a short CSV row), so that a long trace's array is not copied each time it
        // doubles; memory beyond what is filled is reserved, not touched.
        if let size = FileIO.regularFileSize(path) { fixes.reserveCapacity(min(size / Trace.fewestBytesPerFix, Trace.reservedFixesLimit)) }
        let statistics = try TraceReader.read(path: path, options: options) { fix in
            fixes.append(fix)
        }
        return Trace(file: path, format: statistics.format, fixes: fixes, statistics: statistics)
    }
}
