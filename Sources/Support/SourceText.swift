#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of an input file with its name, able to turn byte offsets into 1-based lines and
/// columns.
///
/// The table of line starts is built the first time a location is asked for, so files that
/// parse cleanly never pay for it. Not thread-safe: one reader owns it; readers working on
/// several threads share a ``Locator`` instead.
public final class SourceText {
    /// The file name used in locations.
    public let file: String
    /// The file's bytes.
    public let bytes: [UInt8]
    private var lineStarts: [Int]?

    public init(file: String, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
    }

    /// The location of the byte at `offset` (0-based); offsets past the end locate the end.
    public func location(ofOffset offset: Int) -> SourceLocation {
        locator().location(ofOffset: offset)
    }

    /// Turns offsets into locations without touching the `SourceText`: a value that threads may
    /// share.
    public struct Locator: Sendable {
        public let file: String
        let lineStarts: [Int]
        let count: Int

        /// The location of the byte at `offset` (0-based); offsets past the end locate the end.
        public func location(ofOffset offset: Int) -> SourceLocation {
            var hint = 0
            return location(ofOffset: offset, hint: &hint)
        }

        /// The location of the byte at `offset`, searched from the line `hint` (0-based) on when
        /// the offset is not before it, else from the start; `hint` becomes the offset's line.
        /// For offsets met in increasing order (the features of a file), each search looks at a
        /// few nearby line starts instead of halving the whole table.
        public func location(ofOffset offset: Int, hint: inout Int) -> SourceLocation {
            let clamped = max(0, min(offset, count))
            // The last line start <= offset, in lo...hi.
            var lo = hint >= 0 && hint < lineStarts.count && lineStarts[hint] <= clamped ? hint : 0
            var hi = lineStarts.count - 1
            // Gallop from `lo`: 1, 2, 4, ... lines on, until a line starts past the offset.
            var step = 1
            while lo + step <= hi, lineStarts[lo + step] <= clamped {
                lo += step
                step *= 2
            }
            hi = min(hi, lo + step - 1)
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if lineStarts[mid] <= clamped { lo = mid } else { hi = mid - 1 }
            }
            hint = lo
            return SourceLocation(file: file, line: lo + 1, column: clamped - lineStarts[lo] + 1)
        }
    }

    /// The locator of this text (building the table of line starts if needed).
    public func locator() -> Locator {
        Locator(file: file, lineStarts: lineStartTable(), count: bytes.count)
    }

    private func lineStartTable() -> [Int] {
        if let lineStarts { return lineStarts }
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            // memchr finds each newline many bytes at a time (large fence files hold millions).
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count, let hit = memchr(base + offset, 10, buffer.count - offset) {
                let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                starts.append(i + 1)
                offset = i + 1
            }
        }
        lineStarts = starts
        return starts
    }
}
