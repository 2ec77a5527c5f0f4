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

    package let buffer: UnsafeBufferPointer<UInt8>
    package let end: Int
    /// 0-based byte offset of the next byte to read.
    public private(set) var position: Int
    var depth = 0
    /// Whether ``parseValue()`` refuses an object with two members of the same name (RFC 8259
    /// leaves which one counts to the reader). Streaming readers check their own members with
    /// ``JSONKeys``.
    public var refusesDuplicateKeys = false
    /// Strings the reader expects often (a file format's member and type names), handed out
    /// without building a `String` from the bytes; `nil`: none.
    public var words: JSONWords?

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
        c.refusesDuplicateKeys = refusesDuplicateKeys
        c.words = words
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
        // The first members are gathered on the stack, then moved into an array of their exact
        // count: an array reserved for a fence's usual properties held 480 bytes whatever its
        // members (48 MB of a 100,000-fence replay's peak), and one grown member by member moved
        // them three or four times. Members past the stack's room go to an array.
        return try withUnsafeTemporaryAllocation(of: JSONMember.self, capacity: JSONCursor.stackedMembers) {
            (stack: UnsafeMutableBufferPointer<JSONMember>) throws(Failure) -> JSONValue in
            let base = stack.baseAddress!
            var stacked = 0
            defer { base.deinitialize(count: stacked) }
            var members: [JSONMember] = []
            var first = true
            var keys: Set<String>?
            while let (key, offset) = try nextMember(&first) {
                if refusesDuplicateKeys {
                    // Objects are mostly a few members, compared pairwise; long ones go through a
                    // set so that a hostile object of many keys stays linear.
                    if members.isEmpty {
                        for k in 0..<stacked where base[k].key == key { throw JSONKeys.duplicate(key, at: offset) }
                    } else if members.count < JSONKeys.pairwiseLimit {
                        for member in members where member.key == key { throw JSONKeys.duplicate(key, at: offset) }
                    } else {
                        if keys == nil { keys = Set(members.map(\.key)) }
                        guard keys?.insert(key).inserted == true else { throw JSONKeys.duplicate(key, at: offset) }
                    }
                }
                let member = JSONMember(key: key, keyOffset: offset, node: try parseValue())
                if members.isEmpty, stacked < stack.count {
                    (base + stacked).initialize(to: member)
                    stacked += 1
                    continue
                }
                if members.isEmpty {
                    let moved = stacked
                    members = Array(unsafeUninitializedCapacity: 2 * stack.count) { buffer, count in
                        buffer.baseAddress!.moveInitialize(from: base, count: moved)
                        count = moved
                    }
                    stacked = 0
                }
                members.append(member)
            }
            guard members.isEmpty else { return .object(members) }
            let n = stacked
            guard n > 0 else { return .object([]) }
            stacked = 0
            // Reserved, then appended (specialized for the element type): the generic
            // `Array(unsafeUninitializedCapacity:)` looked up the storage class's metadata at
            // run time on every call (360 instructions of an object's 4,500 in a fence file).
            var exact: [JSONMember] = []
            exact.reserveCapacity(n)
            for k in 0..<n { exact.append((base + k).move()) }
            return .object(exact)
        }
    }

    /// Members of an object gathered on the stack before they are moved into its array (see
    /// ``parseObject()``): a fence's usual properties.
    static let stackedMembers = 8

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

    /// Reads a number whose first byte is at the cursor, checking RFC 8259's grammar and
    /// gathering its digits in the same pass: integers of up to 18 digits are exact `Int`s, and
    /// decimals without an exponent whose digits fit in 2^53 take Clinger's fast path (one
    /// correctly rounded division by an exact power of ten); the rest go to ``DecimalParser``.
    mutating func parseNumberValue() throws(Failure) -> JSONValue {
        let start = position
        // A local index and plain reads (0 past the end), so that the digit loops keep the
        // position in a register instead of the cursor.
        var p = position
        let limit = end
        guard let bytes = buffer.baseAddress else {
            throw Failure(message: "expected a digit", offset: position)
        }
        @inline(__always) func at(_ i: Int) -> UInt8 { i < limit ? bytes[i] : 0 }
        @inline(__always) func digit(_ c: UInt8) -> UInt64? {
            let d = c &- 48
            return d <= 9 ? UInt64(d) : nil
        }
        let negative = at(p) == UInt8(ascii: "-")
        if negative { p += 1 }
        let intStart = p
        guard digit(at(p)) != nil else {
            throw Failure(message: "expected a digit", offset: p)
        }
        var mantissa: UInt64 = 0
        if at(p) == 48 {
            p += 1
            if digit(at(p)) != nil {
                throw Failure(message: "numbers may not have leading zeros", offset: intStart)
            }
        } else {
            while let d = digit(at(p)) {
                mantissa = mantissa &* 10 &+ d
                p += 1
            }
        }
        let intDigits = p - intStart
        var fractionDigits = 0
        var isInteger = true
        if at(p) == UInt8(ascii: ".") {
            isInteger = false
            p += 1
            let fractionStart = p
            guard digit(at(p)) != nil else {
                throw Failure(message: "expected a digit after the decimal point", offset: p)
            }
            while let d = digit(at(p)) {
                mantissa = mantissa &* 10 &+ d
                p += 1
            }
            fractionDigits = p - fractionStart
        }
        var hasExponent = false
        if at(p) | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            hasExponent = true
            p += 1
            if at(p) == UInt8(ascii: "+") || at(p) == UInt8(ascii: "-") { p += 1 }
            guard digit(at(p)) != nil else {
                throw Failure(message: "expected a digit in the exponent", offset: p)
            }
            while digit(at(p)) != nil { p += 1 }
        }
        position = p
        if isInteger && intDigits <= 18 {
            // At most 18 digits: the mantissa is exact and below Int64.max.
            let value = Int64(mantissa)
            return .int(negative ? -value : value)
        }
        if !hasExponent, intDigits + fractionDigits <= 19, mantissa < (1 << 53), fractionDigits <= 22 {
            // DecimalParser's fast path, on the digits already gathered.
            var result = Double(mantissa)
            if fractionDigits > 0 { result /= DecimalParser.powerOfTen(fractionDigits) }
            return .double(negative ? -result : result)
        }
        // The grammar above delimits the number; DecimalParser converts it exactly (Clinger's
        // fast path, else strtod on a copy), so the document needs no terminator.
        guard let value = DecimalParser.parse(bytes, start, p) else {
            throw Failure(message: "not a number", offset: start)
        }
        guard value.isFinite else {
            throw Failure(message: "number out of range", offset: start)
        }
        return .double(value)
    }

    /// Reads an array of short number arrays, `[[a, b], [a, b, c], ...]` (two to four numbers
    /// each), and hands `body` the first two numbers of each, in one pass over the bytes with the
    /// position in a register (what a file of coordinates is mostly made of; what they mean is
    /// the caller's).
    ///
    /// `false` for anything else or anything this path does not handle (an empty array, an
    /// exponent, a malformed number, nesting too deep...), with the cursor left anywhere and
    /// `body` perhaps called: read the value again with the general methods, which report what is
    /// wrong. When it returns `true` the numbers are those ``parseNumber()`` gives.
    public mutating func readNumberPairs(_ body: (Double, Double) -> Void) -> Bool {
        guard depth + 2 <= JSONParser.maximumDepth, let bytes = buffer.baseAddress else { return false }
        var p = position
        let limit = end
        typealias Fast = JSONCursor
        Fast.skipSpace(bytes, limit, &p)
        guard Fast.byte(bytes, limit, p) == UInt8(ascii: "[") else { return false }
        p &+= 1
        Fast.skipSpace(bytes, limit, &p)
        guard Fast.byte(bytes, limit, p) != UInt8(ascii: "]") else { return false }
        while true {
            guard let (x, y) = Fast.position(bytes, limit, &p) else { return false }
            body(x, y)
            Fast.skipSpace(bytes, limit, &p)
            let b = Fast.byte(bytes, limit, p)
            p &+= 1
            if b == UInt8(ascii: "]") { break }
            guard b == UInt8(ascii: ",") else { return false }
        }
        position = p
        return true
    }

    /// Reads one short number array, `[a, b]` to `[a, b, c, d]`, and returns its first two
    /// numbers (a GeoJSON position), in one pass as ``readNumberPairs(_:)`` reads many.
    ///
    /// `nil` for anything else or anything this path does not handle, with the cursor left
    /// where it was: read the value with the general methods, which report what is wrong. When
    /// it returns a pair the numbers are those ``parseNumber()`` gives.
    public mutating func readNumberPair() -> (x: Double, y: Double)? {
        guard depth + 1 <= JSONParser.maximumDepth, let bytes = buffer.baseAddress else { return nil }
        var p = position
        guard let pair = JSONCursor.position(bytes, end, &p) else { return nil }
        position = p
        return pair
    }

    /// The position at `p` (whitespace first): `[a, b]` to `[a, b, c, d]` of numbers
    /// ``plainNumber(_:_:_:)`` reads, its first two numbers, with `p` moved past its `]`; `nil`
    /// (and `p` anywhere) for anything else. One position of ``readNumberPairs(_:)`` or
    /// ``readNumberPair()``.
    @inline(__always)
    static func position(_ bytes: UnsafePointer<UInt8>, _ limit: Int, _ p: inout Int) -> (x: Double, y: Double)? {
        skipSpace(bytes, limit, &p)
        guard byte(bytes, limit, p) == UInt8(ascii: "[") else { return nil }
        p &+= 1
        var x = 0.0, y = 0.0
        var count = 0
        while true {
            skipSpace(bytes, limit, &p)
            guard let value = plainNumber(bytes, limit, &p) else { return nil }
            if count == 0 { x = value } else if count == 1 { y = value }
            count += 1
            skipSpace(bytes, limit, &p)
            let b = byte(bytes, limit, p)
            p &+= 1
            if b == UInt8(ascii: "]") { break }
            guard b == UInt8(ascii: ","), count < 4 else { return nil }
        }
        return count >= 2 ? (x, y) : nil
    }

    /// The byte at `i`, or 0 at or past `limit`.
    @inline(__always)
    static func byte(_ bytes: UnsafePointer<UInt8>, _ limit: Int, _ i: Int) -> UInt8 { i < limit ? bytes[i] : 0 }

    @inline(__always)
    static func skipSpace(_ bytes: UnsafePointer<UInt8>, _ limit: Int, _ p: inout Int) {
        while true {
            let b = byte(bytes, limit, p)
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            p &+= 1
        }
    }

    /// A number at `p` without an exponent, as ``parseNumber()`` would read it, with `p` moved
    /// past it; `nil` (and `p` anywhere) for anything else or anything the general path must
    /// convert.
    @inline(__always)
    static func plainNumber(_ bytes: UnsafePointer<UInt8>, _ limit: Int, _ p: inout Int) -> Double? {
        let negative = byte(bytes, limit, p) == UInt8(ascii: "-")
        if negative { p &+= 1 }
        let intStart = p
        var mantissa: UInt64 = 0
        let d = byte(bytes, limit, p) &- 48
        guard d <= 9 else { return nil }
        if d == 0 {
            p &+= 1
            guard byte(bytes, limit, p) &- 48 > 9 else { return nil }
        } else {
            DecimalParser.accumulateDigits(bytes, limit, &p, &mantissa)
        }
        let intDigits = p - intStart
        var fractionDigits = 0
        if byte(bytes, limit, p) == UInt8(ascii: ".") {
            p &+= 1
            let fractionStart = p
            guard byte(bytes, limit, p) &- 48 <= 9 else { return nil }
            DecimalParser.accumulateDigits(bytes, limit, &p, &mantissa)
            fractionDigits = p - fractionStart
        }
        guard byte(bytes, limit, p) | 0x20 != UInt8(ascii: "e") else { return nil }
        if fractionDigits == 0 {
            // An integer: as parseNumberValue's `.int`, converted (so "-0" is +0).
            guard intDigits <= 18 else { return nil }
            let value = Int64(mantissa)
            return Double(negative ? -value : value)
        }
        guard intDigits + fractionDigits <= 19, mantissa < (1 << 53), fractionDigits <= 22 else { return nil }
        let result = Double(mantissa) / DecimalParser.powerOfTen(fractionDigits)
        return negative ? -result : result
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
        // Fast path: no escapes. A local index, so that the loop keeps it in a register.
        var p = position
        let limit = end
        while p < limit {
            if p + 8 <= limit, let base = buffer.baseAddress {
                // Eight bytes at a time up to the first that needs a look: a quote, a backslash,
                // a control character or a byte of a multi-byte character (the lowest flag of
                // these bit tricks is exact; flags above it may not be, and are not used).
                let w = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
                let quotes = w ^ 0x2222_2222_2222_2222
                let backslashes = w ^ 0x5C5C_5C5C_5C5C_5C5C
                let ones: UInt64 = 0x0101_0101_0101_0101
                let high: UInt64 = 0x8080_8080_8080_8080
                let flags =
                    (((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                        | ((w &- 0x2020_2020_2020_2020) & ~w) | w) & high
                if flags == 0 {
                    p &+= 8
                    continue
                }
                p &+= flags.trailingZeroBitCount >> 3
            }
            let byte = buffer[p]
            if byte == UInt8(ascii: "\"") {
                position = p + 1
                if asciiOnly, let words, let base = buffer.baseAddress, let known = words.word(base + contentStart, p - contentStart) {
                    return known
                }
                let slice = UnsafeBufferPointer(rebasing: buffer[contentStart..<p])
                if asciiOnly { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw Failure(message: "string is not valid UTF-8", offset: open)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw Failure(message: "control character 0x\(String(byte, radix: 16)) in a string (escape it)", offset: p)
            }
            if byte >= 0x80 { asciiOnly = false }
            p += 1
        }
        position = p
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

/// The member names of one object read member by member (``JSONCursor/nextMember(_:)``), to
/// refuse a name given twice.
///
/// A Feature has four members and a geometry two: the first four names are kept inline, so
/// that checking the objects of a 100,000-feature file allocates nothing.
public struct JSONKeys {
    /// Objects with fewer members than this are checked pairwise, longer ones with a set.
    static let pairwiseLimit = 16

    private var inline: (String, String, String, String) = ("", "", "", "")
    private var count = 0
    private var more: [String] = []
    private var set: Set<String>?

    public init() {}

    /// Records `key`, whose opening quote is at `offset`.
    ///
    /// - Throws: a failure at `offset` when the object already has a member of that name.
    public mutating func insert(_ key: String, at offset: Int) throws(JSONCursor.Failure) {
        if count < 4 {
            if (count > 0 && inline.0 == key) || (count > 1 && inline.1 == key) || (count > 2 && inline.2 == key) {
                throw Self.duplicate(key, at: offset)
            }
            switch count {
            case 0: inline.0 = key
            case 1: inline.1 = key
            case 2: inline.2 = key
            default: inline.3 = key
            }
            count += 1
            return
        }
        if set == nil, count < Self.pairwiseLimit {
            if inline.0 == key || inline.1 == key || inline.2 == key || inline.3 == key || more.contains(key) {
                throw Self.duplicate(key, at: offset)
            }
            more.append(key)
            count += 1
            return
        }
        if set == nil { set = Set([inline.0, inline.1, inline.2, inline.3] + more) }
        guard set?.insert(key).inserted == true else { throw Self.duplicate(key, at: offset) }
    }

    static func duplicate(_ key: String, at offset: Int) -> JSONCursor.Failure {
        JSONCursor.Failure(
            message: "duplicate key \"\(key)\": the object already has a member of that name (which one counts would be a guess)",
            offset: offset)
    }
}
