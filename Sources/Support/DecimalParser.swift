#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exact decimal-to-`Double` conversion straight from bytes, without allocating.
///
/// Values whose digits form an integer below 2^53 and whose decimal exponent is within ±22 (every coordinate,
/// accuracy and speed a trace carries in practice) take Clinger's fast path: the significand and
/// the power of ten are both exact doubles, so one IEEE multiplication or division gives the
/// correctly rounded result, the same `Double` as `strtod`. Anything longer falls back to `strtod`
/// on a NUL-terminated copy, so results are always correctly rounded.
public enum DecimalParser {
    /// 10^k for 0 ≤ k ≤ 22: every one is an exact `Double`.
    @inline(__always)
    static func powerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// 10^k as an integer for 0 ≤ k ≤ 8.
    @inline(__always)
    static func integerPowerOfTen(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }

    /// The run of ASCII digits at the start of the eight bytes at `raw` (0 to 8 of them) and its
    /// value, found eight bytes at a time: a byte is a digit when its high nibble is 3 both as it
    /// is and plus 6, and the digits are combined pairwise in three multiplications (the method
    /// simdjson uses for eight digits). A carry out of a byte of 0xFA or more can only disturb
    /// the bytes after it, which are past the run.
    @inline(__always)
    static func leadingDigits(_ raw: UnsafeRawPointer) -> (count: Int, value: UInt64) {
        let word = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let high = word & 0xF0F0_F0F0_F0F0_F0F0
        let plusSix = (word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
        let nonDigit = (high ^ 0x3030_3030_3030_3030) | (plusSix ^ 0x3030_3030_3030_3030)
        let count = nonDigit == 0 ? 8 : nonDigit.trailingZeroBitCount / 8
        guard count > 0 else { return (0, 0) }
        // The digits moved to the top bytes, zeros (leading zeros of the number) below them.
        var v = (word & 0x0F0F_0F0F_0F0F_0F0F) << UInt64(8 * (8 - count))
        v = (v &* 2561) >> 8
        v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
        return (count, v)
    }

    /// Adds the digits at `p` to `mantissa` (wrapping past 19 digits, which callers refuse),
    /// moving `p` past them: eight at a time while eight bytes remain before `limit`, then one by
    /// one.
    @inline(__always)
    static func accumulateDigits(_ bytes: UnsafePointer<UInt8>, _ limit: Int, _ p: inout Int, _ mantissa: inout UInt64) {
        while p &+ 8 <= limit {
            let (count, value) = leadingDigits(UnsafeRawPointer(bytes + p))
            mantissa = mantissa &* integerPowerOfTen(count) &+ value
            p &+= count
            if count < 8 { return }
        }
        while p < limit {
            let d = bytes[p] &- 48
            if d > 9 { return }
            mantissa = mantissa &* 10 &+ UInt64(d)
            p &+= 1
        }
    }

    /// Parses the longest number at the start of `bytes[start..<end]`.
    ///
    /// Accepts an optional sign, digits with an optional `.` fraction, an optional exponent, and
    /// the words `nan`, `inf` and `infinity` (any case), which trace files do contain.
    /// - Returns: the value and the index just past it, or `nil` when no number starts there.
    @inline(__always)
    public static func parsePrefix(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (value: Double, end: Int)? {
        var i = start
        var negative = false
        if i < end, bytes[i] == 0x2D || bytes[i] == 0x2B {
            negative = bytes[i] == 0x2D
            i += 1
        }
        // Every digit goes into the significand (leading zeros too); more than 19 digits, which
        // could overflow it, take the strtod path.
        var mantissa: UInt64 = 0
        let digitsStart = i
        while i < end {
            let d = bytes[i] &- 0x30
            if d > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
        }
        var digits = i - digitsStart
        var exponent = 0
        if i < end, bytes[i] == 0x2E {
            i += 1
            let fractionStart = i
            while i < end {
                let d = bytes[i] &- 0x30
                if d > 9 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                i += 1
            }
            exponent = fractionStart - i
            digits += i - fractionStart
        }
        if digits == 0 {
            return parseWord(bytes, i, end, negative: negative)
        }
        if i < end, bytes[i] | 0x20 == 0x65 {
            var j = i + 1
            var expNegative = false
            if j < end, bytes[j] == 0x2D || bytes[j] == 0x2B {
                expNegative = bytes[j] == 0x2D
                j += 1
            }
            var value = 0
            let expStart = j
            while j < end {
                let d = bytes[j] &- 0x30
                if d > 9 { break }
                if value < 100_000 { value = value * 10 + Int(d) }
                j += 1
            }
            if j > expStart {
                exponent += expNegative ? -value : value
                i = j
            }
        }
        if digits <= 19, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            var result = Double(mantissa)
            if exponent < 0 {
                result /= powerOfTen(-exponent)
            } else if exponent > 0 {
                result *= powerOfTen(exponent)
            }
            return (negative ? -result : result, i)
        }
        return (strtodSlow(bytes, start, i), i)
    }

    /// Parses `bytes[start..<end]` as one number with nothing before or after it.
    @inline(__always)
    public static func parse(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        guard let (value, stop) = parsePrefix(bytes, start, end), stop == end else { return nil }
        return value
    }

    /// Parses a whole `String` as a number (for values that arrive as strings, e.g. XML).
    public static func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { buffer -> Double? in
            guard let base = buffer.baseAddress else { return nil }
            var start = 0
            var end = buffer.count
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
            while start < end, isSpace(base[start]) { start += 1 }
            while end > start, isSpace(base[end - 1]) { end -= 1 }
            return parse(base, start, end)
        }
    }

    private static func parseWord(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int, negative: Bool) -> (value: Double, end: Int)? {
        func matches(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard end - start >= n else { return false }
            let w = word.utf8Start
            for k in 0..<n where bytes[start + k] | 0x20 != w[k] {
                return false
            }
            return true
        }
        if matches("nan") { return (.nan, start + 3) }
        if matches("infinity") { return (negative ? -.infinity : .infinity, start + 8) }
        if matches("inf") { return (negative ? -.infinity : .infinity, start + 3) }
        return nil
    }

    /// `strtod` on a NUL-terminated copy of the number's bytes (correctly rounded in glibc).
    private static func strtodSlow(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        let count = end - start
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer -> Double in
            for k in 0..<count { buffer[k] = CChar(bitPattern: bytes[start + k]) }
            buffer[count] = 0
            guard let base = buffer.baseAddress else { return .nan }
            return strtod(base, nil)
        }
    }
}
