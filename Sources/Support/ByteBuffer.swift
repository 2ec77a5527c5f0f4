/// A growable run of bytes that text is rendered into, owned through one pointer: appending a
/// byte, a literal or a short run is a capacity check and a store or two, inlined where it is
/// called. An `[UInt8]`'s `append(contentsOf:)` is a generic call with a uniqueness check and a
/// `memcpy` each time, about a sixth of an event log's instructions when lines were rendered
/// into arrays.
///
/// Not copyable: its one owner appends to it and frees its bytes when it ends. Whoever needs an
/// array of the bytes takes ``bytes`` (a copy).
public struct ByteBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutableRawPointer
    @usableFromInline var length: Int
    @usableFromInline var allocated: Int

    /// An empty buffer with room for `capacity` bytes before it first grows.
    public init(capacity: Int = 64) {
        allocated = max(capacity, 16)
        base = .allocate(byteCount: allocated, alignment: 16)
        length = 0
    }

    deinit { base.deallocate() }

    /// The number of bytes.
    @inlinable
    public var count: Int { length }

    @inlinable
    public var isEmpty: Bool { length == 0 }

    /// The number of bytes it holds before it grows.
    @inlinable
    public var capacity: Int { allocated }

    /// A copy of the bytes as an array.
    public var bytes: [UInt8] {
        Array(UnsafeRawBufferPointer(start: base, count: length))
    }

    /// Makes room for `extra` more bytes without growing again.
    ///
    /// The arithmetic on counts here and in the appends does not check for overflow (`&+`): a
    /// count is at most the bytes allocated, and the checks were a third of an append's
    /// instructions.
    @inlinable @inline(__always)
    public mutating func reserve(_ extra: Int) {
        if allocated &- length < extra { grow(length + extra) }
    }

    /// Moves the bytes to a block of at least `minimum` bytes (twice the capacity, so that
    /// appends cost amortized O(1)).
    @usableFromInline @inline(never)
    mutating func grow(_ minimum: Int) {
        let newCapacity = max(allocated * 2, minimum)
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        newBase.copyMemory(from: base, byteCount: length)
        base.deallocate()
        base = newBase
        allocated = newCapacity
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: length, as: UInt8.self)
        length &+= 1
    }

    /// Appends the bytes of the ASCII or UTF-8 literal `text`.
    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(from: UnsafeRawPointer(text.utf8Start), count: text.utf8CodeUnitCount)
    }

    @inlinable @inline(__always)
    public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress else { return }
        append(from: start, count: bytes.count)
    }

    @inlinable @inline(__always)
    public mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: UnsafeRawBufferPointer(bytes))
    }

    @inlinable @inline(__always)
    public mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(contentsOf: $0) }
    }

    @inlinable @inline(__always)
    public mutating func append(contentsOf other: borrowing ByteBuffer) {
        append(from: other.base, count: other.length)
    }

    /// Appends `count` copies of `byte`. Up to 64 are written 16 at a time without a loop (the
    /// last store may write past the new end, into room reserved for it): a few stores for the
    /// runs of separators in CSV rows, where `memset` is a call.
    @inlinable @inline(__always)
    public mutating func append(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        reserve(count &+ 16)
        let fill = SIMD16<UInt8>(repeating: byte)
        let to = base + length
        to.storeBytes(of: fill, as: SIMD16<UInt8>.self)
        if count > 16 {
            to.storeBytes(of: fill, toByteOffset: 16, as: SIMD16<UInt8>.self)
            if count > 32 {
                to.storeBytes(of: fill, toByteOffset: 32, as: SIMD16<UInt8>.self)
                if count > 48 { to.storeBytes(of: fill, toByteOffset: 48, as: SIMD16<UInt8>.self) }
                if count > 64 { (to + 64).initializeMemory(as: UInt8.self, repeating: byte, count: count - 64) }
            }
        }
        length &+= count
    }

    /// Appends `count` bytes from `source`. Runs of up to 32 bytes (most of what renderers
    /// append) are copied as two overlapping loads and stores of 2, 4, 8 or 16 bytes, without a
    /// call; longer ones by `memcpy`.
    @inlinable @inline(__always)
    public mutating func append(from source: UnsafeRawPointer, count n: Int) {
        reserve(n)
        let to = base + length
        if n <= 16 {
            if n >= 8 {
                let head = source.loadUnaligned(as: UInt64.self)
                let tail = source.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
                to.storeBytes(of: head, as: UInt64.self)
                to.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
            } else if n >= 4 {
                let head = source.loadUnaligned(as: UInt32.self)
                let tail = source.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
                to.storeBytes(of: head, as: UInt32.self)
                to.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
            } else if n >= 2 {
                let head = source.loadUnaligned(as: UInt16.self)
                let tail = source.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self)
                to.storeBytes(of: head, as: UInt16.self)
                to.storeBytes(of: tail, toByteOffset: n - 2, as: UInt16.self)
            } else if n == 1 {
                to.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
            }
        } else if n <= 32 {
            let head = source.loadUnaligned(as: SIMD16<UInt8>.self)
            let tail = source.loadUnaligned(fromByteOffset: n - 16, as: SIMD16<UInt8>.self)
            to.storeBytes(of: head, as: SIMD16<UInt8>.self)
            to.storeBytes(of: tail, toByteOffset: n - 16, as: SIMD16<UInt8>.self)
        } else {
            to.copyMemory(from: source, byteCount: n)
        }
        length &+= n
    }

    /// Appends up to `maximum` bytes that `body` writes at the given address (room for
    /// `maximum`) and counts (its result): a text of several fields written with plain stores,
    /// where each byte appended alone is a capacity check and an update of the count.
    @inlinable @inline(__always)
    public mutating func append(maximum: Int, _ body: (UnsafeMutableRawPointer) -> Int) {
        reserve(maximum)
        let written = body(base + length)
        precondition(written >= 0 && written <= maximum, "at most the room given")
        length &+= written
    }

    /// Inserts `bytes` at `offset`, moving the bytes after it.
    ///
    /// - Complexity: O(`count` - `offset`).
    public mutating func insert(contentsOf bytes: UnsafeRawBufferPointer, at offset: Int) {
        precondition(offset >= 0 && offset <= length, "an offset within the buffer")
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + offset + bytes.count).copyMemory(from: base + offset, byteCount: length - offset)
        (base + offset).copyMemory(from: source, byteCount: bytes.count)
        length += bytes.count
    }

    /// Removes every byte, keeping the capacity.
    @inlinable
    public mutating func removeAll() {
        length = 0
    }

    /// Removes the bytes from `offset` on.
    @inlinable
    public mutating func removeSubrange(from offset: Int) {
        precondition(offset >= 0 && offset <= length, "an offset within the buffer")
        length = offset
    }

    /// Writes `value`'s bytes over the ones at `offset` (any alignment).
    @inlinable
    public mutating func storeBytes<T: BitwiseCopyable>(of value: T, toByteOffset offset: Int, as type: T.Type) {
        precondition(offset >= 0 && offset + MemoryLayout<T>.size <= length, "bytes within the buffer")
        base.storeBytes(of: value, toByteOffset: offset, as: T.self)
    }

    /// The 32 bytes from `offset` on (within the capacity; those past ``count`` are whatever the
    /// memory holds), for a short text copied as a whole later.
    @inlinable @inline(__always)
    public func loadPaddedText(at offset: Int) -> (SIMD16<UInt8>, SIMD16<UInt8>) {
        precondition(offset >= 0 && offset + 32 <= allocated, "32 bytes within the capacity")
        return (
            base.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self),
            base.loadUnaligned(fromByteOffset: offset + 16, as: SIMD16<UInt8>.self)
        )
    }

    /// Calls `body` with the bytes (valid only during the call).
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: length))
    }
}
