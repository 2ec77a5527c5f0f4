/// A notification message with placeholders, such as `"Entered {fence.name} at {fix.speed} m/s"`
/// (the ArcGIS message expression, simplified to substitution).
///
/// Placeholders: `{fence.id}`, `{fence.name}`, `{fence.zone}`, `{fence.<property>}` (any fence
/// property), `{fix.<field>}` (see ``FixField``), `{fix.time}`, `{fix.index}`, `{event.type}`,
/// `{trace}`. `{{` and `}}` write literal braces. A placeholder whose value is missing renders as an
/// empty string.
public struct MessageTemplate: Hashable, Sendable, CustomStringConvertible {
    /// The template as written.
    public let text: String
    let parts: [Part]

    enum Part: Hashable, Sendable {
        case literal(String)
        case fenceProperty(String)
        case fixField(FixField)
        case fixTime, fixIndex, eventType, trace
    }

    /// A template error with the 1-based column of the problem.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var column: Int
        public var message: String
        public var description: String { "column \(column): \(message)" }
    }

    public init(_ text: String) throws(ParseError) {
        self.text = text
        var parts: [Part] = []
        var literal = ""
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "{" {
                if i + 1 < chars.count, chars[i + 1] == "{" {
                    literal.append("{")
                    i += 2
                    continue
                }
                guard let close = chars[(i + 1)...].firstIndex(of: "}") else {
                    throw ParseError(column: i + 1, message: "unclosed '{' (write {{ for a literal brace)")
                }
                let name = String(chars[(i + 1)..<close]).trimmingCharacters(in: " ")
                if !literal.isEmpty {
                    parts.append(.literal(literal))
                    literal = ""
                }
                parts.append(try MessageTemplate.placeholder(name, column: i + 2))
                i = close + 1
                continue
            }
            if c == "}" {
                guard i + 1 < chars.count, chars[i + 1] == "}" else {
                    throw ParseError(column: i + 1, message: "unmatched '}' (write }} for a literal brace)")
                }
                literal.append("}")
                i += 2
                continue
            }
            literal.append(c)
            i += 1
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    static func placeholder(_ name: String, column: Int) throws(ParseError) -> Part {
        let pieces = name.split(separator: ".", maxSplits: 1).map(String.init)
        switch (pieces.first ?? "", pieces.count > 1 ? pieces[1] : nil) {
        case ("fence", let key?) where !key.isEmpty: return .fenceProperty(key)
        case ("fix", "time"?): return .fixTime
        case ("fix", "index"?): return .fixIndex
        case ("fix", let key?):
            guard let field = FixField.named(key) else {
                throw ParseError(column: column, message: "unknown fix field '\(key)' in {\(name)}")
            }
            return .fixField(field)
        case ("event", "type"?): return .eventType
        case ("trace", nil): return .trace
        default:
            throw ParseError(
                column: column,
                message: "unknown placeholder {\(name)} (use fence.<property>, fix.<field>, fix.time, fix.index, event.type or trace)")
        }
    }

    public var description: String { text }

    /// The values a rendering needs.
    public struct Context {
        public var fenceProperty: (String) -> String?
        public var fixField: (FixField) -> Double?
        public var fixTime: String
        public var fixIndex: Int
        public var eventType: String
        public var trace: String

        public init(
            fenceProperty: @escaping (String) -> String?, fixField: @escaping (FixField) -> Double?, fixTime: String, fixIndex: Int,
            eventType: String, trace: String
        ) {
            self.fenceProperty = fenceProperty
            self.fixField = fixField
            self.fixTime = fixTime
            self.fixIndex = fixIndex
            self.eventType = eventType
            self.trace = trace
        }
    }

    /// The message for one notification.
    public func render(_ context: Context) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let s): out += s
            case .fenceProperty(let key): out += context.fenceProperty(key) ?? ""
            case .fixField(let f): out += context.fixField(f).map(MessageTemplate.fieldText) ?? ""
            case .fixTime: out += context.fixTime
            case .fixIndex: out += String(context.fixIndex)
            case .eventType: out += context.eventType
            case .trace: out += context.trace
            }
        }
        return out
    }

    /// A fix's field in a message as precise as it was read: the shortest text that reads back
    /// as the same number (47.375 stays 47.375), whole numbers without a fraction.
    static func fieldText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Numbers in the engine's own messages (distances, durations): up to two decimals,
    /// trailing zeros dropped.
    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = "\(rounded)"
        if text.contains("e") { text = "\(value)" }
        return text
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
