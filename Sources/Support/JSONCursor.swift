import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A position in a JSON document being read, with the grammar of RFC 8259: whole values as
/// ``JSONNode``s, or objects and arrays member by member for streaming readers.
///
/// Valid only inside ``JSONParser/withCursor(_:_:)``, which owns the bytes.
public struct JSONCursor {
    /// Why the document could not be read, at a 0-based byte offset.
    public struct Failure: Error, Sendable {
        public var message: String
        public var offset: Int

        public init(message: String, offset: Int) {
            self.message = message
            self.offset = offset
        }
    }

    let buffer: UnsafeBufferPointer<UInt8>
    let end: Int
    /// 0-based byte offset of the next byte to read.
    public private(set) var position: Int
    var depth = 0

    init(buffer: UnsafeBufferPointer<UInt8>, end: Int, position: Int) {
        self.buffer = buffer
        self.end = end
        self.position = position
    }

    @inline(__always) var current: UInt8 { position < end ? buffer[position] : 0 }

    /// The next byte after whitespace (0 at the end).
    public mutating func peek() -> UInt8 {
        skipWhitespace()
        return current
    }

    public mutating func skipWhitespace() {
        while position < end {
            switch buffer[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// A short description of the next byte, for messages.
    public func describeCurrent() -> String {
        guard position < end else { return "end of file" }
        let byte = buffer[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// Fails unless only whitespace remains.
    public mutating func expectEnd() throws(Failure) {
        skipWhitespace()
        if position != end {
            throw Failure(message: "unexpected \(describeCurrent()) after the JSON value", offset: position)
        }
    }

    // MARK: Streaming objects and arrays

    /// Consumes `{`.
    public mutating func beginObject() throws(Failure) {
        skipWhitespace()
        guard current == UInt8(ascii: "{") else {
            throw Failure(message: "expected an object, found \(describeCurrent())", offset: position)
        }
        try enter()
    }

    /// The next member's key (the cursor then stands before its value), or `nil` after the
    /// closing `}`. `first` must start `true` for each object.
    public mutating func nextMember(_ first: inout Bool) throws(Failure) -> (key: String, offset: Int)? {
        skipWhitespace()
        if first {
            first = false
            if current == UInt8(ascii: "}") {
                position += 1
                depth -= 1
                return nil
            }
        } else {
            switch current {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return nil
            default:
                throw Failure(message: "expected ',' or '}' in object, found \(describeCurrent())", offset: position)
            }
        }
        guard current == UInt8(ascii: "\"") else {
            throw Failure(message: "expected a quoted member name, found \(describeCurrent())", offset: position)
        }
        let offset = position
        let key = try parseString()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else {
            throw Failure(message: "expected ':' after member name \"\(key)\", found \(describeCurrent())", offset: position)
        }
        position += 1
        skipWhitespace()
        return (key, offset)
    }

    /// Consumes `[`.
    public mutating func beginArray() throws(Failure) {
        skipWhitespace()
        guard current == UInt8(ascii: "[") else {
            throw Failure(message: "expected an array, found \(describeCurrent())", offset: position)
        }
        try enter()
    }

    /// Whether another element follows (the cursor then stands at it); consumes the separating
    /// `,` or the closing `]`. `first` must start `true` for each array.
    public mutating func nextElement(_ first: inout Bool) throws(Failure) -> Bool {
        skipWhitespace()
        if first {
            first = false
            if current == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return false
            }
            return true
        }
        switch current {
        case UInt8(ascii: ","):
            position += 1
            skipWhitespace()
            return true
        case UInt8(ascii: "]"):
            position += 1
            depth -= 1
            return false
        default:
            throw Failure(message: "expected ',' or ']' in array, found \(describeCurrent())", offset: position)
        }
    }

    /// How many arrays and objects are open at the cursor.
    public var nestingDepth: Int { depth }

    /// A cursor over the same bytes standing at `position` with `depth` levels open, for reading
    /// the elements found by ``elementRanges()`` separately (on several threads). Valid only inside
    /// the ``JSONParser/withCursor(_:_:)`` call that made this cursor.
    public func cursor(at position: Int, depth: Int) -> JSONCursor {
        var c = JSONCursor(buffer: buffer, end: end, position: position)
        c.depth = depth
        return c
    }

    /// The byte ranges of the elements of the array whose `[` the cursor has just consumed, and the
    /// offset of its closing `]`, found by a structural scan (brackets, commas and strings only;
    /// the grammar inside each element is not checked).
    ///
    /// `nil` when the scan meets anything it does not expect (an empty element, an unterminated
    /// string, text after a scalar, the end of the input): the caller then reads the array in
    /// order with the full grammar, which reports the problem where it is. Callers that use the
    /// ranges must check that reading each element ends exactly at its range's end.
    public func elementRanges() -> (ranges: [Range<Int>], close: Int)? {
        var p = position
        @inline(__always) func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
        while p < end, isSpace(buffer[p]) { p += 1 }
        guard p < end else { return nil }
        if buffer[p] == UInt8(ascii: "]") { return ([], p) }
        var ranges: [Range<Int>] = []
        while true {
            while p < end, isSpace(buffer[p]) { p += 1 }
            let start = p
            var open = 0
            scan: while p < end {
                let b = buffer[p]
                switch b {
                case UInt8(ascii: "\""):
                    guard let next = JSONCursor.skipString(buffer, at: p, end: end) else { return nil }
                    p = next
                    if open == 0 { break scan }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    open += 1
                    p += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if open == 0 { break scan }
                    open -= 1
                    p += 1
                    if open == 0 { break scan }
                case UInt8(ascii: ","):
                    if open == 0 { break scan }
                    p += 1
                case 0x20, 0x0A, 0x0D, 0x09:
                    if open == 0 { break scan }
                    p += 1
                default:
                    p += 1
                }
            }
            guard p < end, p > start else { return nil }
            ranges.append(start..<p)
            while p < end, isSpace(buffer[p]) { p += 1 }
            guard p < end else { return nil }
            switch buffer[p] {
            case UInt8(ascii: ","): p += 1
            case UInt8(ascii: "]"): return (ranges, p)
            default: return nil
            }
        }
    }

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
    public func elementRanges(parallelAbove threshold: Int) -> (ranges: [Range<Int>], close: Int)? {
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
              !first.lows.contains(where: { $0.depth == -1 }) else { return elementRanges() }
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

    /// The offset just past the string whose opening quote is at `start` (escapes skipped, not
    /// checked), or `nil` when it does not close before `end`: the structural scans' view of a
    /// string.
    @inline(__always)
    static func skipString(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> Int? {
        var p = start + 1
        while p < end, buffer[p] != UInt8(ascii: "\"") {
            p += buffer[p] == UInt8(ascii: "\\") ? 2 : 1
        }
        return p < end ? p + 1 : nil
    }

    /// Moves the cursor past the closing `]` at `close` of the array it stands in (after its
    /// elements were read separately, see ``elementRanges()``).
    public mutating func finishArray(closingAt close: Int) {
        position = close + 1
        depth -= 1
    }

    mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= JSONParser.maximumDepth else {
            throw Failure(message: "JSON nested deeper than \(JSONParser.maximumDepth) levels", offset: position)
        }
        position += 1
    }

    // MARK: Whole values

    /// Reads one value of any kind.
    public mutating func parseValue() throws(Failure) -> JSONNode {
        skipWhitespace()
        let start = position
        switch current {
        case UInt8(ascii: "{"):
            return JSONNode(try parseObject(), offset: start)
        case UInt8(ascii: "["):
            return JSONNode(try parseArray(), offset: start)
        case UInt8(ascii: "\""):
            return JSONNode(.string(try parseString()), offset: start)
        case UInt8(ascii: "t"):
            try literal("true")
            return JSONNode(.bool(true), offset: start)
        case UInt8(ascii: "f"):
            try literal("false")
            return JSONNode(.bool(false), offset: start)
        case UInt8(ascii: "n"):
            try literal("null")
            return JSONNode(.null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(try parseNumberValue(), offset: start)
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw Failure(message: "NaN and Infinity are not JSON numbers", offset: start)
        default:
            throw Failure(message: "expected a JSON value, found \(describeCurrent())", offset: start)
        }
    }

    /// Skips one value of any kind, checking its grammar, without building it.
    public mutating func skipValue() throws(Failure) {
        _ = try parseValue()
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let start = position
        let count = word.utf8CodeUnitCount
        let ptr = word.utf8Start
        for k in 0..<count {
            guard position < end, buffer[position] == ptr[k] else {
                throw Failure(message: "expected '\(word)'", offset: start)
            }
            position += 1
        }
    }

    mutating func parseObject() throws(Failure) -> JSONValue {
        try beginObject()
        var members: [JSONMember] = []
        var first = true
        while let (key, offset) = try nextMember(&first) {
            members.append(JSONMember(key: key, keyOffset: offset, node: try parseValue()))
        }
        return .object(members)
    }

    mutating func parseArray() throws(Failure) -> JSONValue {
        try beginArray()
        var elements: [JSONNode] = []
        var first = true
        while try nextElement(&first) {
            elements.append(try parseValue())
        }
        return .array(elements)
    }

    /// Reads a number as a `Double` (integers included).
    public mutating func parseNumber() throws(Failure) -> Double {
        skipWhitespace()
        let start = position
        guard current == UInt8(ascii: "-") || (current >= 48 && current <= 57) else {
            if current == UInt8(ascii: "N") || current == UInt8(ascii: "I") {
                throw Failure(message: "NaN and Infinity are not JSON numbers", offset: start)
            }
            throw Failure(message: "expected a number, found \(describeCurrent())", offset: start)
        }
        switch try parseNumberValue() {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: throw Failure(message: "expected a number", offset: start)
        }
    }

    mutating func parseNumberValue() throws(Failure) -> JSONValue {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        let intStart = position
        guard current >= 48 && current <= 57 else {
            throw Failure(message: "expected a digit", offset: position)
        }
        if current == 48 {
            position += 1
            if current >= 48 && current <= 57 {
                throw Failure(message: "numbers may not have leading zeros", offset: intStart)
            }
        } else {
            while current >= 48 && current <= 57 { position += 1 }
        }
        let intDigits = position - intStart
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard current >= 48 && current <= 57 else {
                throw Failure(message: "expected a digit after the decimal point", offset: position)
            }
            while current >= 48 && current <= 57 { position += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard current >= 48 && current <= 57 else {
                throw Failure(message: "expected a digit in the exponent", offset: position)
            }
            while current >= 48 && current <= 57 { position += 1 }
        }
        if isInteger && intDigits <= 18 {
            var value: Int64 = 0
            for k in intStart..<position { value = value * 10 + Int64(buffer[k] - 48) }
            return .int(buffer[start] == UInt8(ascii: "-") ? -value : value)
        }
        // The grammar above delimits the number; DecimalParser converts it exactly (Clinger's
        // fast path, else strtod on a copy), so the document needs no terminator.
        guard let base = buffer.baseAddress, let value = DecimalParser.parse(base, start, position) else {
            throw Failure(message: "not a number", offset: start)
        }
        guard value.isFinite else {
            throw Failure(message: "number out of range", offset: start)
        }
        return .double(value)
    }

    /// Reads a string (the cursor must stand at its opening quote).
    public mutating func parseString() throws(Failure) -> String {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else {
            throw Failure(message: "expected a string, found \(describeCurrent())", offset: position)
        }
        let open = position
        position += 1
        let contentStart = position
        var asciiOnly = true
        // Fast path: no escapes.
        while position < end {
            let byte = buffer[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: buffer[contentStart..<position])
                position += 1
                if asciiOnly { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw Failure(message: "string is not valid UTF-8", offset: open)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw Failure(message: "control character 0x\(String(byte, radix: 16)) in a string (escape it)", offset: position)
            }
            if byte >= 0x80 { asciiOnly = false }
            position += 1
        }
        guard position < end else {
            throw Failure(message: "unterminated string", offset: open)
        }
        // Slow path with escapes: collect bytes, then validate.
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: buffer[contentStart..<position]))
        while position < end {
            let byte = buffer[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw Failure(message: "string is not valid UTF-8", offset: open)
                }
                return text
            }
            if byte < 0x20 {
                throw Failure(message: "control character 0x\(String(byte, radix: 16)) in a string (escape it)", offset: position)
            }
            if byte != UInt8(ascii: "\\") {
                out.append(byte)
                position += 1
                continue
            }
            let escapeAt = position
            position += 1
            guard position < end else { break }
            switch buffer[position] {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(at: position + 1)
                position += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard position + 2 < end, buffer[position + 1] == UInt8(ascii: "\\"), buffer[position + 2] == UInt8(ascii: "u") else {
                        throw Failure(message: "unpaired UTF-16 surrogate in \\u escape", offset: escapeAt)
                    }
                    let low = try hex4(at: position + 3)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw Failure(message: "unpaired UTF-16 surrogate in \\u escape", offset: escapeAt)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    position += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw Failure(message: "unpaired UTF-16 surrogate in \\u escape", offset: escapeAt)
                }
                guard let unicode = UnicodeScalar(scalar) else {
                    throw Failure(message: "invalid \\u escape", offset: escapeAt)
                }
                out.append(contentsOf: Array(String(Character(unicode)).utf8))
            default:
                throw Failure(message: "invalid escape '\\\(Character(UnicodeScalar(buffer[position])))'", offset: escapeAt)
            }
            position += 1
        }
        throw Failure(message: "unterminated string", offset: open)
    }

    func hex4(at index: Int) throws(Failure) -> UInt32 {
        guard index + 4 <= end else { throw Failure(message: "truncated \\u escape", offset: index) }
        var value: UInt32 = 0
        for k in index..<(index + 4) {
            let b = buffer[k]
            let digit: UInt32
            switch b {
            case 48...57: digit = UInt32(b - 48)
            case 65...70: digit = UInt32(b - 55)
            case 97...102: digit = UInt32(b - 87)
            default: throw Failure(message: "expected 4 hex digits in \\u escape", offset: k)
            }
            value = value * 16 + digit
        }
        return value
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
    func scan(from: Int, to: Int) -> HalfScan? {
        var result = HalfScan()
        var depth = 0
        var lowest = 0
        var p = from
        while p < to {
            switch buffer[p] {
            case UInt8(ascii: "\""):
                guard let next = JSONCursor.skipString(buffer, at: p, end: to) else { return nil }
                p = next
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                p += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth < lowest {
                    lowest = depth
                    result.lows.append((p, depth))
                }
                p += 1
            case UInt8(ascii: ","):
                if depth <= 0 { result.commas.append((p, depth)) }
                p += 1
            default:
                p += 1
            }
        }
        result.depth = depth
        return result
    }
}

/// The two halves' results, each written by one thread and read after both have joined.
final class HalfScans: @unchecked Sendable {
    var first: HalfScan?
    var second: HalfScan?
}
