import Dispatch
import Support

#if canImport(CLinux)
import CLinux
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two-thread scan of a fence file's feature array (``RawDocument``): the one-thread
/// ``Support/JSONCursor/elementRanges()`` in two halves, for the arrays of many megabytes whose
/// features are then read on several threads.
extension JSONCursor {
    /// ``elementRanges()`` for a long array, scanned in two halves on two threads when the
    /// array's text is at least `threshold` bytes.
    ///
    /// The halves meet at a line break, where no string can be open (JSON strings hold no raw
    /// control characters). Each half counts brackets from zero and notes the commas and closing
    /// brackets at or below where it started; once the first half's depth at the line break is
    /// known, the second half's commas at that depth separate elements and its first bracket
    /// below it closes the array. For well-formed arrays the ranges are those of
    /// ``elementRanges()``. When anything does not fit (no line break, a string open at the break,
    /// the array closing in the first half, an empty element) the one-thread scan decides; a
    /// malformed element that still gets a range (text after a value) is caught by the caller's
    /// check that reading each element ends at its range's end.
    func elementRanges(parallelAbove threshold: Int) -> (ranges: [Range<Int>], close: Int)? {
        let length = end - position
        guard length >= max(threshold, 2) else { return elementRanges() }
        var middle = position + length / 2
        while middle < end, buffer[middle] != 0x0A { middle += 1 }
        return elementRanges(splitAt: middle)
    }

    /// ``elementRanges(parallelAbove:)`` with the halves meeting at `middle`, which should be a
    /// line break (anything else is left to the one-thread scan).
    func elementRanges(splitAt middle: Int) -> (ranges: [Range<Int>], close: Int)? {
        guard middle > position, middle < end, buffer[middle] == 0x0A else { return elementRanges() }
        let halves = HalfScans()
        let scanner = HalfScanner(buffer: buffer)
        let bounds = [(position, middle), (middle, end)]
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            let found = scanner.scan(from: bounds[k].0, to: bounds[k].1)
            if k == 0 { halves.first = found } else { halves.second = found }
        }
        guard let first = halves.first, let second = halves.second,
            !first.lows.contains(where: { $0.depth == -1 })
        else { return elementRanges() }
        let open = first.depth
        guard let close = second.lows.first(where: { $0.depth == -(open + 1) })?.offset else { return elementRanges() }
        let separators = first.commas.map(\.offset) + second.commas.filter { $0.depth == -open && $0.offset < close }.map(\.offset)
        @inline(__always) func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(separators.count + 1)
        var start = position
        for separator in separators + [close] {
            var s = start
            while s < separator, isSpace(buffer[s]) { s += 1 }
            var e = separator
            while e > s, isSpace(buffer[e - 1]) { e -= 1 }
            guard e > s else { return elementRanges() }
            ranges.append(s..<e)
            start = separator + 1
        }
        return (ranges, close)
    }
}

/// What one half of ``JSONCursor/elementRanges(parallelAbove:)`` found, with depths counted from
/// where the half starts: its depth at the end, the commas at or below its starting depth, and
/// each closing bracket that took it lower than before.
struct HalfScan {
    var depth = 0
    var commas: [(offset: Int, depth: Int)] = []
    var lows: [(offset: Int, depth: Int)] = []
}

/// The bytes a half scan reads (owned by ``JSONParser/withCursor(_:_:)`` for the whole scan).
struct HalfScanner: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<UInt8>

    /// The half `from..<to`, starting outside any string; `nil` when it ends inside a string.
    ///
    /// Sixty-four bytes at a time, as bit masks of their quotes, backslashes, brackets and
    /// commas (`fencesim_classify_json64`: SSE2 comparisons). Without a backslash, a block's
    /// bytes inside strings are those with an odd number of quotes at or before them (carried
    /// from the blocks before): the prefix XOR of the quote mask. Its brackets and commas
    /// outside strings are then taken one set bit at a time. A block with a backslash, or
    /// after one that ended on an escape, is read byte by byte (escapes are rare in fence
    /// files). A block whose closing brackets cannot bring the depth to zero only adds its
    /// brackets' counts to the depth (a feature's inner blocks). The last bytes of the half, fewer than 64, are classified from a copy padded
    /// with spaces. A byte-at-a-time loop over every byte took 8 instructions a byte (231 M of a
    /// 200,000-fix event log's 4.9 G on the large fences).
    func scan(from: Int, to: Int) -> HalfScan? {
        var result = HalfScan()
        guard from < to, let base = buffer.baseAddress else { return result }
        var depth = 0
        var lowest = 0
        // Whether the scan stands inside a string, and just after a backslash there.
        var inString = false
        var escaped = false
        @inline(__always) func structural(_ bits: UInt64, _ classes: Classes, at p: Int) {
            var bits = bits
            while bits != 0 {
                let k = bits.trailingZeroBitCount
                let bit: UInt64 = 1 << UInt64(k)
                if classes.opens & bit != 0 {
                    depth += 1
                } else if classes.closes & bit != 0 {
                    depth -= 1
                    if depth < lowest {
                        lowest = depth
                        result.lows.append((p + k, depth))
                    }
                } else if depth <= 0 {
                    result.commas.append((p + k, depth))
                }
                bits &= bits &- 1
            }
        }
        var p = from
        var tail = (SIMD32<UInt8>(), SIMD32<UInt8>())
        while p < to {
            let count = min(64, to - p)
            let classes = withUnsafeMutableBytes(of: &tail) { padded -> Classes in
                if count == 64 { return HalfScanner.classify(base + p) }
                let spaces = padded.baseAddress!.assumingMemoryBound(to: UInt8.self)
                spaces.initialize(repeating: 0x20, count: 64)
                spaces.update(from: base + p, count: count)
                return HalfScanner.classify(spaces)
            }
            if classes.backslashes == 0, !escaped {
                var inside = classes.quotes
                inside ^= inside << 1
                inside ^= inside << 2
                inside ^= inside << 4
                inside ^= inside << 8
                inside ^= inside << 16
                inside ^= inside << 32
                if inString { inside = ~inside }
                inString = inside >> 63 != 0
                let outside = ~inside
                let closes = (classes.closes & outside).nonzeroBitCount
                if depth - closes > 0 {
                    // The depth stays above zero through the block: no comma or new low to
                    // note, only the depth to carry.
                    depth += (classes.opens & outside).nonzeroBitCount - closes
                } else {
                    structural((classes.opens | classes.closes | classes.commas) & outside, classes, at: p)
                }
            } else {
                for k in 0..<count {
                    let b = base[p + k]
                    if inString {
                        if escaped {
                            escaped = false
                        } else if b == UInt8(ascii: "\\") {
                            escaped = true
                        } else if b == UInt8(ascii: "\"") {
                            inString = false
                        }
                    } else if b == UInt8(ascii: "\"") {
                        inString = true
                    } else {
                        structural((classes.opens | classes.closes | classes.commas) & (1 << UInt64(k)), classes, at: p)
                    }
                }
            }
            p += count
        }
        guard !inString else { return nil }
        result.depth = depth
        return result
    }

    typealias Classes = (quotes: UInt64, backslashes: UInt64, opens: UInt64, closes: UInt64, commas: UInt64)

    /// The masks of the 64 bytes at `p` (see ``scan(from:to:)``).
    @inline(__always)
    static func classify(_ p: UnsafePointer<UInt8>) -> Classes {
        #if canImport(CLinux)
        let c = fencesim_classify_json64(p)
        return (c.quotes, c.backslashes, c.opens, c.closes, c.commas)
        #else
        var c: Classes = (0, 0, 0, 0, 0)
        for k in 0..<64 {
            let b = p[k]
            let bit: UInt64 = 1 << UInt64(k)
            if b == UInt8(ascii: "\"") { c.quotes |= bit }
            if b == UInt8(ascii: "\\") { c.backslashes |= bit }
            if b | 0x20 == UInt8(ascii: "{") { c.opens |= bit }
            if b | 0x20 == UInt8(ascii: "}") { c.closes |= bit }
            if b == UInt8(ascii: ",") { c.commas |= bit }
        }
        return c
        #endif
    }
}

/// The two halves' results, each written by one thread and read after both have joined.
final class HalfScans: @unchecked Sendable {
    var first: HalfScan?
    var second: HalfScan?
}
