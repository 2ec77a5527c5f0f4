import Support

/// Where bytes are written as they are produced: a file that appears whole
/// (``AtomicFileWriter``), standard output, or memory.
public protocol ByteSink: AnyObject {
    /// Writes every byte of `bytes`, or throws ``FencesimError`` `.io` located at the
    /// destination.
    func write(_ bytes: UnsafeRawBufferPointer) throws(FencesimError)
}

extension ByteSink {
    /// Writes every byte of `bytes` (see ``write(_:)-(UnsafeRawBufferPointer)``).
    public func write(_ bytes: [UInt8]) throws(FencesimError) {
        var failure: FencesimError?
        bytes.withUnsafeBytes { raw in
            do throws(FencesimError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

/// Bytes kept in memory (for rendering a whole output as one value, and for tests).
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws(FencesimError) {
        self.bytes.append(contentsOf: bytes)
    }
}
