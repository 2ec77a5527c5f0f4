/// A JSON value as read from a file, each node remembering the byte offset where it starts so that
/// later checks (a bad fence, an unknown scenario key, a rules matcher) can point at its line and
/// column.
public struct JSONNode: Sendable {
    public var value: JSONValue
    /// 0-based byte offset of the value's first character in the source.
    public var offset: Int

    public init(_ value: JSONValue, offset: Int = 0) {
        self.value = value
        self.offset = offset
    }
}

/// One member of a JSON object, in source order.
public struct JSONMember: Sendable {
    public var key: String
    /// 0-based byte offset of the key's opening quote.
    public var keyOffset: Int
    public var node: JSONNode

    public init(key: String, keyOffset: Int = 0, node: JSONNode) {
        self.key = key
        self.keyOffset = keyOffset
        self.node = node
    }
}

/// The JSON data model (RFC 8259), keeping integers apart from other numbers because the Adobe
/// rules engine coerces by the JSON type of a value.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONNode])
    /// Members in source order; duplicate keys are kept (see ``JSONNode/member(_:)``).
    case object([JSONMember])

    /// A short name of the value's JSON type, for messages ("a string", "an object").
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONNode {
    /// The last member named `key` (later duplicates win, as in most JSON readers), or `nil`.
    public func member(_ key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.last(where: { $0.key == key })?.node
    }

    public var members: [JSONMember]? {
        if case .object(let m) = value { return m }
        return nil
    }

    public var elements: [JSONNode]? {
        if case .array(let a) = value { return a }
        return nil
    }

    public var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    /// The value as a `Double` when it is a number.
    public var number: Double? {
        switch value {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    public var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    public var isNull: Bool {
        if case .null = value { return true }
        return false
    }
}
