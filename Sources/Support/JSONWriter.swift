/// Writes JSON text deterministically: members in the order given, numbers in their shortest
/// round-trip form, no whitespace (one value per line suits JSON Lines).
public enum JSONWriter {
    /// The JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    /// Appends the JSON text of `value` to `out`.
    public static func write(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += number(d)
        case .string(let s): quote(s, to: &out)
        case .array(let elements):
            out += "["
            for (k, e) in elements.enumerated() {
                if k > 0 { out += "," }
                write(e.value, to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (k, m) in members.enumerated() {
                if k > 0 { out += "," }
                quote(m.key, to: &out)
                out += ":"
                write(m.node.value, to: &out)
            }
            out += "}"
        }
    }

    /// A JSON number for `value`: integers without a fraction, others in Swift's shortest
    /// round-trip form; non-finite values become `null` (JSON has no NaN).
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// Appends `text` as a JSON string literal.
    public static func quote(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
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
