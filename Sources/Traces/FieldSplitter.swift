/// Splits a delimited line into field ranges, trimming white space (and NUL padding) and
/// surrounding double quotes, without copying.
enum FieldSplitter {
    /// Fills `spans` with `(start, end)` pairs for up to `limit` fields of `bytes[start..<end]`.
    ///
    /// `"`-quoted fields may contain the delimiter; a doubled `""` inside stays as it is (trace
    /// fields are numbers and times, so unescaping is never needed to read them).
    /// - Returns: the number of fields on the line (which may exceed `limit`).
    @inline(__always)
    static func split(
        _ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int, delimiter: UInt8,
        into spans: UnsafeMutablePointer<Int>, limit: Int
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
                fieldStart = j + 1
                fieldEnd = min(k, end)
                i = k < end ? k + 1 : end
                while i < end, bytes[i] != delimiter { i += 1 }
            } else {
                while i < end, bytes[i] != delimiter { i += 1 }
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
}
