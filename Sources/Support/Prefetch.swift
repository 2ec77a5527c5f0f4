#if canImport(CLinux)
import CLinux
#endif

/// Hints to the processor about memory a loop will read soon: for tables indexed at random
/// (by fence, 3 MB and more for 100,000 fences) whose reads miss the cache, asked for early
/// enough that the line arrives before it is needed. A hint only: it changes nothing a program
/// computes, and does nothing where the C shim is not built (outside Linux).
public enum Prefetch {
    /// Asks for the cache line holding `element` of `table`, if `element` is one of its indices.
    @inlinable @inline(__always)
    public static func read<Element>(_ table: UnsafeBufferPointer<Element>, _ element: Int) {
        #if canImport(CLinux)
        guard let base = table.baseAddress, element >= 0, element < table.count else { return }
        fencesim_prefetch(base + element)
        #endif
    }

    /// Asks for every cache line of `element` of `table` (a value larger than a line spans
    /// several), if `element` is one of its indices.
    @inlinable @inline(__always)
    public static func readWhole<Element>(_ table: UnsafeBufferPointer<Element>, _ element: Int) {
        guard let base = table.baseAddress, element >= 0, element < table.count else { return }
        lines(of: UnsafeRawPointer(base + element), size: MemoryLayout<Element>.size, forWriting: false)
    }

    /// Asks for every cache line of the value at `place`, which is about to be written (it need
    /// not be initialized).
    @inlinable @inline(__always)
    public static func writeWhole<Element>(_ place: UnsafeMutablePointer<Element>) {
        lines(of: UnsafeRawPointer(place), size: MemoryLayout<Element>.size, forWriting: true)
    }

    /// Asks for every cache line of the `size` bytes at `start` (nothing when `size` is 0).
    @inlinable @inline(__always)
    static func lines(of start: UnsafeRawPointer, size: Int, forWriting: Bool) {
        #if canImport(CLinux)
        guard size > 0 else { return }
        var offset = 0
        while offset < size {
            if forWriting { fencesim_prefetch_write(start + offset) } else { fencesim_prefetch(start + offset) }
            offset += 64
        }
        if forWriting { fencesim_prefetch_write(start + (size - 1)) } else { fencesim_prefetch(start + (size - 1)) }
        #endif
    }

    /// Asks for the cache line holding the value at `place` (which must point into memory the
    /// caller owns: a table entry known to exist).
    @inlinable @inline(__always)
    public static func read<Element>(at place: UnsafePointer<Element>) {
        #if canImport(CLinux)
        fencesim_prefetch(place)
        #endif
    }

    /// ``read(_:_:)-(UnsafeBufferPointer<Element>,_)`` of an array's element.
    @inlinable @inline(__always)
    public static func read<Element>(_ table: [Element], _ element: Int) {
        table.withUnsafeBufferPointer { read($0, element) }
    }
}
