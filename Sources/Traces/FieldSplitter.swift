/// Splits a delimited line into field ranges, trimming white space (and NUL padding) and
/// surrounding double quotes, without copying.
enum FieldSplitter {
    /// Fills `spans` with `(start, end)` pairs for up to `limit` fields of `bytes[start..<end]`.
    ///
    /// `"`-quoted fields may contain the delimiter; a doubled `""` inside stays as it is (trace
    /// fields are numbers and times, so unescaping is never needed to read them). A quoted field
    /// not closed on the line runs to its end; its opening quote's offset is stored in
    /// `openQuote` when given (a quoted newline, which the readers do not support).
    /// - Returns: the number of fields on the line (which may exceed `limit`).
    @inline(__always)
    static func split(
        _ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int, delimiter: UInt8,
        into spans: UnsafeMutablePointer<Int>, limit: Int, openQuote: UnsafeMutablePointer<Int>? = nil
    ) -> Int {
        var count = 0
        var i = start
        while true {
            var fieldStart = i
            var fieldEnd: Int
            // Skip leading white space to see whether the field is quoted (rare: look only when
            // the field starts with a space or a quote).
            var j = i
            if j < end, bytes[j] <= 0x22 {
                while j < end, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0 { j += 1 }
            }
            if j < end, bytes[j] == 0x22, delimiter != 0x22 {
                var k = j + 1
                while k < end {
                    if bytes[k] == 0x22 {
                        if k + 1 < end, bytes[k + 1] == 0x22 {
                            k += 2
                            continue
                        }
                        break
                    }
                    k += 1
                }
                if k >= end { openQuote?.pointee = j }
                fieldStart = j + 1
                fieldEnd = min(k, end)
                i = k < end ? k + 1 : end
                i = nextDelimiter(bytes, i, end, delimiter)
            } else {
                i = nextDelimiter(bytes, i, end, delimiter)
                fieldEnd = i
                while fieldStart < fieldEnd, ByteClass.isSpace(bytes[fieldStart]) { fieldStart += 1 }
            }
            while fieldEnd > fieldStart, ByteClass.isSpace(bytes[fieldEnd - 1]) { fieldEnd -= 1 }
            if count < limit {
                spans[2 * count] = fieldStart
                spans[2 * count + 1] = fieldEnd
            }
            count += 1
            if i >= end { return count }
            i += 1  // the delimiter
        }
    }

    /// The offset of the first `delimiter` in `bytes[from..<end]`, or `end`: eight bytes at a
    /// time while eight remain (a byte equal to the delimiter becomes zero, and the lowest zero
    /// byte of a word is found exactly by the borrow trick; bits above it may be wrong, which
    /// does not matter), then byte by byte.
    @inline(__always)
    static func nextDelimiter(_ bytes: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ delimiter: UInt8) -> Int {
        var i = from
        let pattern = UInt64(delimiter) &* 0x0101_0101_0101_0101
        while i &+ 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self)) ^ pattern
            let zero = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            if zero != 0 { return i &+ zero.trailingZeroBitCount / 8 }
            i &+= 8
        }
        while i < end, bytes[i] != delimiter { i &+= 1 }
        return i
    }
}
