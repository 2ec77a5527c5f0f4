import Dispatch
import Support

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

    /// What the scan does with each byte: 0 nothing (most bytes), else one of the cases below.
    static let byteClasses: [UInt8] = {
        var classes = [UInt8](repeating: 0, count: 256)
        classes[Int(UInt8(ascii: "\""))] = 1
        classes[Int(UInt8(ascii: "{"))] = 2
        classes[Int(UInt8(ascii: "["))] = 2
        classes[Int(UInt8(ascii: "}"))] = 3
        classes[Int(UInt8(ascii: "]"))] = 3
        classes[Int(UInt8(ascii: ","))] = 4
        return classes
    }()

    /// The half `from..<to`, starting outside any string; `nil` when it ends inside a string.
    ///
    /// Bytes are classified through a table, in a short loop over the bytes that do not matter
    /// (numbers and names).
    func scan(from: Int, to: Int) -> HalfScan? {
        var result = HalfScan()
        guard from < to, let base = buffer.baseAddress else { return result }
        var depth = 0
        var lowest = 0
        var p = from
        let complete = HalfScanner.byteClasses.withUnsafeBufferPointer { table -> Bool in
            let classes = table.baseAddress!
            while p < to {
                var c = classes[Int(base[p])]
                while c == 0 {
                    p &+= 1
                    guard p < to else { return true }
                    c = classes[Int(base[p])]
                }
                switch c {
                case 1:
                    // The closing quote is the first one not escaped (preceded by an even
                    // number of backslashes); memchr finds the candidates.
                    var from = p &+ 1
                    while true {
                        guard from < to, let hit = memchr(base + from, 0x22, to - from) else { return false }
                        let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                        var backslashes = 0
                        while at - backslashes - 1 > p, base[at - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                        from = at &+ 1
                        if backslashes & 1 == 0 { break }
                    }
                    p = from
                case 2:
                    depth += 1
                    p += 1
                case 3:
                    depth -= 1
                    if depth < lowest {
                        lowest = depth
                        result.lows.append((p, depth))
                    }
                    p += 1
                default:
                    if depth <= 0 { result.commas.append((p, depth)) }
                    p += 1
                }
            }
            return true
        }
        guard complete else { return nil }
        result.depth = depth
        return result
    }
}

/// The two halves' results, each written by one thread and read after both have joined.
final class HalfScans: @unchecked Sendable {
    var first: HalfScan?
    var second: HalfScan?
}
