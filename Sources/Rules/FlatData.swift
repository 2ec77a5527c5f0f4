import Support

/// Event data or a shared state flattened into dotted keys, as the SDKs' `TokenFinder` reads
/// them (research §2.2): nested objects join keys with `.`, arrays use their indices (`a.b.0.c`;
/// iOS Core ≥ 5.6.0 `Array+Flatten.swift`, Android Core ≥ 3.5.0), and only leaves survive, so a
/// key naming an object or an array is missing (research §1.8, last item).
struct FlatData: Sendable {
    private(set) var values: [String: TokenValue] = [:]

    /// Flattens a JSON object; anything else flattens to nothing.
    init(_ object: JSONValue) {
        guard case .object = object else { return }
        add(object, prefix: "")
    }

    subscript(key: String) -> TokenValue {
        values[key] ?? .missing
    }

    private mutating func add(_ value: JSONValue, prefix: String) {
        switch value {
        case .object:
            for (key, member) in value.uniqueMembers {
                add(member, prefix: prefix.isEmpty ? key : prefix + "." + key)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                add(element.value, prefix: prefix.isEmpty ? String(index) : prefix + "." + String(index))
            }
        case .null:
            // A later duplicate of a flattened key wins, also when it is null.
            values[prefix] = nil
        default:
            if let leaf = TokenValue(leaf: value) { values[prefix] = leaf }
        }
    }

    /// The `key=value` pairs of `~all_url` for a JSON object, in the object's member order:
    /// objects are flattened but arrays are not (`flattening(shouldFlattenList = false)` on
    /// Android); an array's elements are joined with commas as iOS `URLUtility.joinArray` does.
    static func queryPairs(_ object: JSONValue, platform: RulesPlatform) -> [(key: String, value: String)] {
        var pairs: [(String, String)] = []
        var index: [String: Int] = [:]
        func add(_ value: JSONValue, prefix: String) {
            switch value {
            case .object:
                for (key, member) in value.uniqueMembers {
                    add(member, prefix: prefix.isEmpty ? key : prefix + "." + key)
                }
            case .null:
                return
            default:
                let text = elementText(value, platform: platform)
                if let existing = index[prefix] {
                    pairs[existing].1 = text
                } else {
                    index[prefix] = pairs.count
                    pairs.append((prefix, text))
                }
            }
        }
        add(object, prefix: "")
        return pairs
    }

    private static func elementText(_ value: JSONValue, platform: RulesPlatform) -> String {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            return elements.map { elementText($0.value, platform: platform) }.joined(separator: ",")
        case .array:
            return "[]"
        case .object:
            return JSONWriter.string(value)
        case .null:
            return "null"
        default:
            return TokenValue(leaf: value)?.text(for: platform) ?? ""
        }
    }
}
