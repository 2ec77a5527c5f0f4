/// Writes JSON text deterministically: members in the order given, numbers in their shortest
/// round-trip form, no whitespace (one value per line suits JSON Lines).
public enum JSONWriter {
    /// The JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        var out = ByteBuffer()
        write(value, to: &out)
        return out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the JSON text of `value` to `out`.
    public static func write(_ value: JSONValue, to out: inout String) {
        out += string(value)
    }

    /// Appends the JSON text of `value` to `out` as UTF-8 bytes (the one implementation the
    /// String forms read).
    public static func write(_ value: JSONValue, to out: inout ByteBuffer) {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .int(let i): appendInteger(i, to: &out)
        case .double(let d): appendNumber(d, to: &out)
        case .string(let s): quote(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for k in elements.indices {
                if k > elements.startIndex { out.append(UInt8(ascii: ",")) }
                write(elements[k].value, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for k in members.indices {
                if k > members.startIndex { out.append(UInt8(ascii: ",")) }
                quote(members[k].key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(members[k].node.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON number for `value`: integers without a fraction, others in Swift's shortest
    /// round-trip form; non-finite values become `null` (JSON has no NaN).
    public static func number(_ value: Double) -> String {
        var out = ByteBuffer()
        appendNumber(value, to: &out)
        return out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends ``number(_:)``'s text of `value` to `out`.
    @inlinable @inline(__always)
    public static func appendNumber(_ value: Double, to out: inout ByteBuffer) {
        guard value.isFinite else { return out.append("null") }
        // Integral: truncation is one instruction where rounding to nearest is a libm call.
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            return appendInteger(Int64(value), to: &out)
        }
        // A value with at most 3 decimals under 1e9, or 7 under 1e8 (metres to the millimetre,
        // degrees to 1e-7, as logs write them), whose double is the one nearest that decimal:
        // the decimal itself is its shortest round-trip form (no other decimal of as few digits
        // is within a spacing of doubles there), written without Swift's float formatting.
        if appendShortDecimal(value, decimals: 3, scale: 1e3, below: 1e9, to: &out)
            || appendShortDecimal(value, decimals: 7, scale: 1e7, below: 1e8, to: &out)
        {
            return
        }
        // Swift's shortest round-trip form; up to 15 bytes it is a small string (no allocation).
        var text = value.description
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends `value` as a decimal with at most `decimals` digits after the point, trailing
    /// zeros dropped, when `1e-4 <= abs(value) < below` and `value` is the double nearest
    /// `(value * scale).rounded() / scale`; otherwise appends nothing and returns false.
    @inlinable @inline(__always)
    static func appendShortDecimal(_ value: Double, decimals: Int, scale: Double, below: Double, to out: inout ByteBuffer) -> Bool {
        // Swift writes magnitudes under 1e-4 with an exponent.
        guard abs(value) < below, abs(value) >= 1e-4 else { return false }
        // Ties to even (one instruction): a product exactly halfway between two integers
        // passes the check below neither way (its value is half a unit from both decimals, far
        // more than the spacing of doubles under `below`), so the text is that of any rounding.
        let units = (value * scale).rounded(.toNearestOrEven)
        guard units / scale == value else { return false }
        let magnitude = UInt64(abs(units))
        let unitsPerOne = UInt64(scale)
        // The text, written from the right into 32 bytes (at most 9 integer digits, a point, 7
        // decimals and a sign): the decimals, the point, the integer's digits, the sign; then
        // appended at once, without the decimals' trailing zeros (or the point, when all are).
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &text) { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            writeFixedDigits(magnitude % unitsPerOne, count: decimals, before: base + 32)
            let point = 31 - decimals
            base[point] = UInt8(ascii: ".")
            var end = 32
            while end > point + 1, base[end - 1] == UInt8(ascii: "0") { end -= 1 }
            if end == point + 1 { end = point }
            var start = writeDigits(magnitude / unitsPerOne, before: base + point)
            if value < 0 {
                start -= 1
                start[0] = UInt8(ascii: "-")
            }
            out.append(contentsOf: UnsafeRawBufferPointer(start: start, count: base + end - start))
            return true
        }
    }

    /// Appends the decimal digits of `value` (with a minus sign when negative) to `out`.
    @inlinable @inline(__always)
    public static func appendInteger(_ value: Int64, to out: inout ByteBuffer) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so that Int64.min has one.
        let v = value.magnitude
        if v < 10 { return out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes, enough for 20 digits
        withUnsafeMutableBytes(of: &digits) { raw in
            let end = raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + 24
            let start = writeDigits(v, before: end)
            out.append(contentsOf: UnsafeRawBufferPointer(start: start, count: end - start))
        }
    }

    /// "00" to "99", each two-digit number's text at twice its value: decimal digits are written
    /// two a step (half the divisions of one a step).
    // swift-format-ignore
    @usableFromInline static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Writes the two digits of `pair` (0 to 99) at `place`.
    @inlinable @inline(__always)
    static func writePair(_ pair: UInt64, at place: UnsafeMutablePointer<UInt8>) {
        let from = digitPairs.utf8Start + 2 &* Int(truncatingIfNeeded: pair)
        place[0] = from[0]
        place[1] = from[1]
    }

    /// Writes the decimal digits of `value` (no leading zeros; "0" for 0) so that they end just
    /// before `end`, and returns where they start.
    @inlinable @inline(__always)
    static func writeDigits(_ value: UInt64, before end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var v = value
        var at = end
        while v >= 100 {
            let pair = v % 100
            v /= 100
            at -= 2
            writePair(pair, at: at)
        }
        if v >= 10 {
            at -= 2
            writePair(v, at: at)
        } else {
            at -= 1
            at[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
        }
        return at
    }

    /// Writes exactly `count` decimal digits of `value` (leading zeros kept; `value` below
    /// 10^`count`) so that they end just before `end`.
    @inlinable @inline(__always)
    static func writeFixedDigits(_ value: UInt64, count: Int, before end: UnsafeMutablePointer<UInt8>) {
        var v = value
        var at = end
        var left = count
        while left >= 2 {
            let pair = v % 100
            v /= 100
            at -= 2
            writePair(pair, at: at)
            left -= 2
        }
        if left == 1 {
            at -= 1
            at[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
        }
    }

    /// Appends `text` as a JSON string literal.
    public static func quote(_ text: String, to out: inout String) {
        var bytes = ByteBuffer()
        quote(text, to: &bytes)
        out += bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends `text` as a JSON string literal to `out`: `"` and `\` escaped, `\n`, `\r`,
    /// `\t`, other control characters as `\u00xx`; everything else as its UTF-8 bytes.
    public static func quote(_ text: String, to out: inout ByteBuffer) {
        out.append(UInt8(ascii: "\""))
        var copy = text
        copy.withUTF8 { bytes in
            var start = 0
            for k in 0..<bytes.count {
                let b = bytes[k]
                guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
                if k > start { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<k])) }
                start = k + 1
                switch b {
                case UInt8(ascii: "\""): out.append("\\\"")
                case UInt8(ascii: "\\"): out.append("\\\\")
                case UInt8(ascii: "\n"): out.append("\\n")
                case UInt8(ascii: "\r"): out.append("\\r")
                case UInt8(ascii: "\t"): out.append("\\t")
                default:
                    out.append("\\u00")
                    out.append(UInt8(ascii: "0") + (b >> 4))
                    out.append(b & 15 < 10 ? UInt8(ascii: "0") + (b & 15) : UInt8(ascii: "a") + (b & 15) - 10)
                }
            }
            if bytes.count > start { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// Builds an object from key/value pairs in the given order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { JSONMember(key: $0.key, node: JSONNode($0.value)) })
    }

    /// Builds an object from an ordered list of key/value pairs.
    public static func orderedObject(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(pairs.map { JSONMember(key: $0.0, node: JSONNode($0.1)) })
    }

    /// Builds an array of values.
    public static func list(_ values: [JSONValue]) -> JSONValue {
        .array(values.map { JSONNode($0) })
    }
}

extension JSONWriter {
    /// ``appendNumber(_:to:)`` for a value that often repeats the one before (a fix's
    /// coordinates, written on each of the fix's events): the last value's text is kept, and
    /// copied when the same value (bit for bit) comes again.
    public struct RepeatedNumber {
        @usableFromInline var bits: UInt64 = 0
        /// The kept text's length; 0 when none is kept (a number's text is never empty).
        @usableFromInline var length = 0
        @usableFromInline var text: (SIMD16<UInt8>, SIMD16<UInt8>) = (.zero, .zero)

        public init() {}

        /// Appends `value`'s text to `out`.
        @inlinable
        public mutating func append(_ value: Double, to out: inout ByteBuffer) {
            // The kept text is moved as 32 bytes, whatever its length: room for them first.
            out.reserve(64)
            if length > 0, value.bitPattern == bits {
                let (kept, n) = (text, length)
                out.append(maximum: 32) { at in
                    at.storeBytes(of: kept.0, as: SIMD16<UInt8>.self)
                    at.storeBytes(of: kept.1, toByteOffset: 16, as: SIMD16<UInt8>.self)
                    return n
                }
                return
            }
            let start = out.count
            JSONWriter.appendNumber(value, to: &out)
            let n = out.count - start
            // Texts longer than the room kept (an exponent form) are written afresh each time.
            guard n <= 32 else {
                length = 0
                return
            }
            bits = value.bitPattern
            length = n
            text = out.loadPaddedText(at: start)
        }
    }
}
