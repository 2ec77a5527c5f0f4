#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict RFC 8259 JSON reader that keeps byte offsets for every value and reports errors as
/// `file:line:col`.
///
/// Foundation's `JSONSerialization` reports neither the line nor the column of a problem, and
/// fencesim must point users at the exact place of a bad fence, scenario key or rules matcher;
/// hence this reader. Numbers go through the C library's `strtod` (correctly rounded) after the
/// grammar is checked here. Nesting deeper than ``maximumDepth`` is refused rather than
/// overflowing the stack.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 512

    /// Parses a whole JSON document.
    ///
    /// - Parameter source: the file's bytes and name (used for error locations).
    /// - Throws: ``FencesimError`` with code `.badData`, located at the offending byte.
    /// - Complexity: O(n) in the size of the input.
    public static func parse(_ source: SourceText) throws(FencesimError) -> JSONNode {
        var bytes = source.bytes
        // Skip a UTF-8 byte order mark, which some editors write.
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        bytes.append(0)  // strtod needs a terminator; the grammar check stops before it.
        let result: Result<JSONNode, Failure> = bytes.withUnsafeBufferPointer { buffer in
            var parser = Cursor(buffer: buffer, end: buffer.count - 1, position: start)
            do throws(Failure) {
                parser.skipWhitespace()
                let node = try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                if parser.position != parser.end {
                    throw Failure(message: "unexpected \(parser.describeCurrent()) after the JSON value", offset: parser.position)
                }
                return .success(node)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let node):
            return node
        case .failure(let failure):
            throw FencesimError(.badData, failure.message, at: source.location(ofOffset: failure.offset))
        }
    }

    /// Parses JSON text held in a string (for tests and command-line arguments).
    public static func parse(_ text: String, file: String = "<string>") throws(FencesimError) -> JSONNode {
        try parse(SourceText(file: file, bytes: Array(text.utf8)))
    }

    struct Failure: Error {
        var message: String
        var offset: Int
    }

    struct Cursor {
        let buffer: UnsafeBufferPointer<UInt8>
        let end: Int
        var position: Int

        @inline(__always) var current: UInt8 { position < end ? buffer[position] : 0 }

        mutating func skipWhitespace() {
            while position < end {
                switch buffer[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        func describeCurrent() -> String {
            guard position < end else { return "end of file" }
            let byte = buffer[position]
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
            return "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }

        mutating func parseValue(depth: Int) throws(Failure) -> JSONNode {
            let start = position
            switch current {
            case UInt8(ascii: "{"):
                return JSONNode(try parseObject(depth: depth + 1), offset: start)
            case UInt8(ascii: "["):
                return JSONNode(try parseArray(depth: depth + 1), offset: start)
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
                return JSONNode(try parseNumber(), offset: start)
            case UInt8(ascii: "N"), UInt8(ascii: "I"):
                throw Failure(message: "NaN and Infinity are not JSON numbers", offset: start)
            default:
                throw Failure(message: "expected a JSON value, found \(describeCurrent())", offset: start)
            }
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

        mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else {
                throw Failure(message: "JSON nested deeper than \(JSONParser.maximumDepth) levels", offset: position)
            }
            position += 1
            var members: [JSONMember] = []
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else {
                    throw Failure(message: "expected a quoted member name, found \(describeCurrent())", offset: position)
                }
                let keyOffset = position
                let key = try parseString()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else {
                    throw Failure(message: "expected ':' after member name \"\(key)\", found \(describeCurrent())", offset: position)
                }
                position += 1
                skipWhitespace()
                let value = try parseValue(depth: depth)
                members.append(JSONMember(key: key, keyOffset: keyOffset, node: value))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","):
                    position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(members)
                default:
                    throw Failure(message: "expected ',' or '}' in object, found \(describeCurrent())", offset: position)
                }
            }
        }

        mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else {
                throw Failure(message: "JSON nested deeper than \(JSONParser.maximumDepth) levels", offset: position)
            }
            position += 1
            var elements: [JSONNode] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","):
                    position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(elements)
                default:
                    throw Failure(message: "expected ',' or ']' in array, found \(describeCurrent())", offset: position)
                }
            }
        }

        mutating func parseNumber() throws(Failure) -> JSONValue {
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
            // The grammar above guarantees strtod consumes exactly [start, position).
            let base = UnsafeMutableRawPointer(mutating: buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            let value = strtod(base + start, nil)
            guard value.isFinite else {
                throw Failure(message: "number out of range", offset: start)
            }
            return .double(value)
        }

        mutating func parseString() throws(Failure) -> String {
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
}
