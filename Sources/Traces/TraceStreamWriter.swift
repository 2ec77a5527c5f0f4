import Files
import Support

/// Writes a trace to a ``Support/ByteSink`` fix by fix, as ``TraceWriter/render(_:format:name:)``
/// renders it whole (the same bytes), holding at most one chunk of text: a trace of any length
/// costs the same memory.
public struct TraceStreamWriter {
    private let sink: ByteSink
    private let format: TraceWriter.Format
    private var pending: [UInt8] = []
    /// Bytes gathered before each write to the sink.
    static let chunkBytes = 1 << 16

    /// Writes the trace's header to `sink`.
    public init(format: TraceWriter.Format, name: String = "fencesim trace", to sink: ByteSink) throws(FencesimError) {
        self.sink = sink
        self.format = format
        pending.reserveCapacity(Self.chunkBytes + 1024)
        try append(TraceWriter.header(format: format, name: name))
    }

    /// Writes one fix.
    public mutating func write(_ fix: Fix) throws(FencesimError) {
        try append(TraceWriter.line(fix, format: format))
    }

    /// Writes the trace's end and whatever is still gathered.
    public mutating func finish() throws(FencesimError) {
        pending.append(contentsOf: TraceWriter.footer(format: format).utf8)
        try flush()
    }

    private mutating func append(_ text: String) throws(FencesimError) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= Self.chunkBytes { try flush() }
    }

    private mutating func flush() throws(FencesimError) {
        guard !pending.isEmpty else { return }
        try sink.write(pending)
        pending.removeAll(keepingCapacity: true)
    }
}
