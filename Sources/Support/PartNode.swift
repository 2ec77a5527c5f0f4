/// A value of a part's line, with its place for errors: typed accessors throw `.badData`
/// located at the value (file, line, column).
public struct PartNode {
    public let node: JSONNode
    public let line: Int
    public let file: String

    package static func parse(_ bytes: ArraySlice<UInt8>, line: Int, file: String) throws(FencesimError) -> PartNode {
        do {
            return PartNode(node: try JSONParser.parse(SourceText(file: file, bytes: Array(bytes))), line: line, file: file)
        } catch {
            var located = error
            located.location = SourceLocation(file: file, line: line, column: error.location?.column)
            located.message = "line \(line) of the part is not JSON (is the part truncated?): \(error.message)"
            throw located
        }
    }

    /// A `.badData` error at this value.
    public func error(_ message: String) -> FencesimError {
        FencesimError(.badData, message, at: SourceLocation(file: file, line: line, column: node.offset + 1))
    }

    /// The member `key`, which must be there (it may be null).
    public func member(_ key: String) throws(FencesimError) -> PartNode {
        guard let m = node.member(key) else { throw error("\"\(key)\" is missing") }
        return PartNode(node: m, line: line, file: file)
    }

    /// The member `key`, or `nil` when it is missing or null.
    public func optional(_ key: String) -> PartNode? {
        guard let m = node.member(key), !m.isNull else { return nil }
        return PartNode(node: m, line: line, file: file)
    }

    /// Whether the value is null.
    public var isNull: Bool { node.isNull }

    public var int: Int {
        get throws(FencesimError) {
            guard case .int(let v) = node.value, v >= Int64(Int.min), v <= Int64(Int.max) else { throw error("expected a whole number") }
            return Int(v)
        }
    }

    public var int64: Int64 {
        get throws(FencesimError) {
            guard case .int(let v) = node.value else { throw error("expected a whole number") }
            return v
        }
    }

    public var string: String {
        get throws(FencesimError) {
            guard let s = node.string else { throw error("expected a string") }
            return s
        }
    }

    public var bool: Bool {
        get throws(FencesimError) {
            guard let b = node.bool else { throw error("expected true or false") }
            return b
        }
    }

    public var list: [PartNode] {
        get throws(FencesimError) {
            guard let a = node.elements else { throw error("expected a list") }
            return a.map { PartNode(node: $0, line: line, file: file) }
        }
    }

    /// A double written by ``PartValue/double(_:)``: the hexadecimal bits.
    public var double: Double {
        get throws(FencesimError) {
            guard let s = node.string, s.utf8.count == 16, let bits = UInt64(s, radix: 16) else {
                throw error("expected a number as 16 hexadecimal digits (its bits)")
            }
            return Double(bitPattern: bits)
        }
    }

    /// A timestamp written by ``PartValue/time(_:)``: `[seconds, nanoseconds]`.
    public var time: Timestamp {
        get throws(FencesimError) {
            let pair = try list
            guard pair.count == 2 else { throw error("expected a time as [seconds, nanoseconds]") }
            let ns = try pair[1].int64
            guard ns >= 0, ns < 1_000_000_000 else { throw pair[1].error("nanoseconds must be 0 to 999999999") }
            return Timestamp(seconds: try pair[0].int64, nanoseconds: ns)
        }
    }
}

extension PartNode {
    /// An error written by ``PartValue/error(_:)``. Related findings come back as text after
    /// the message, so that its full description is the same.
    public var fencesimError: FencesimError {
        get throws(FencesimError) {
            let name = try member("code").string
            let codes: [FencesimError.Code] = [.usage, .badData, .missingInput, .io, .checkFailed, .internalError]
            guard let code = codes.first(where: { $0.description == name }) else {
                throw try member("code").error("unknown error code \"\(name)\"")
            }
            var location: SourceLocation?
            if let file = optional("file") {
                location = SourceLocation(file: try file.string, line: try optional("line")?.int, column: try optional("column")?.int)
            }
            var message = try member("message").string
            for r in try member("related").list { message += "\n" + (try r.string) }
            return FencesimError(code, message, at: location)
        }
    }
}
