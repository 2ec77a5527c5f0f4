import Support

/// Renders the `{%…%}` tokens of consequence details (research §2.5 "Token syntax";
/// `Template` with the `{%`/`%}` delimiter pair).
///
/// A token is a key (`{%~type%}`, `{%lifecyclecontextdata.launches%}`) or one function applied
/// to a key: `urlenc`, `int`, `double`, `string`, `bool`. An unknown function name returns the
/// key's value unchanged (`urlenc1(x y)` → `x y`, iOS test `testUrlenc_invalidFnName`); a missing
/// key renders as `""`; every rendered token is a string, so `"{%…launches%}"` becomes `"2"`.
/// Only one level of functions is supported, as in the SDKs: in `urlenc(int(k))` the key is
/// `int(k)`, which does not exist. An unterminated `{%` is kept as text.
enum TokenTemplate {
    /// Renders every string inside `value`, recursing into objects and arrays (arrays since
    /// iOS #988 / Android #600); other values are kept.
    static func render(_ value: JSONValue, finder: inout TokenFinder, rng: inout SplitMix64) -> JSONValue {
        switch value {
        case .string(let s):
            return .string(render(s, finder: &finder, rng: &rng))
        case .array(let elements):
            return .array(elements.map { JSONNode(render($0.value, finder: &finder, rng: &rng), offset: $0.offset) })
        case .object(let members):
            return .object(
                members.map {
                    JSONMember(
                        key: $0.key, keyOffset: $0.keyOffset,
                        node: JSONNode(render($0.node.value, finder: &finder, rng: &rng), offset: $0.node.offset))
                })
        default:
            return value
        }
    }

    /// Renders the tokens of one string.
    static func render(_ text: String, finder: inout TokenFinder, rng: inout SplitMix64) -> String {
        guard text.contains("{%") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{%") {
            out += rest[..<open.lowerBound]
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.firstRange(of: "%}") else {
                out += rest[open.lowerBound...]
                return out
            }
            out += value(of: String(afterOpen[..<close.lowerBound]), finder: &finder, rng: &rng)
            rest = afterOpen[close.upperBound...]
        }
        out += rest
        return out
    }

    /// The rendered text of one token's content.
    static func value(of token: String, finder: inout TokenFinder, rng: inout SplitMix64) -> String {
        let platform = finder.platform
        if let (name, key) = functionCall(token) {
            let resolved = finder.resolve(key, rng: &rng)
            switch name {
            case "urlenc":
                guard case .string(let s) = resolved else { return resolved.text(for: platform) ?? "" }
                return URLEncoding.urlenc(s, platform: platform)
            default:
                if let coercion = Coercion(rawValue: name) {
                    return coercion.apply(resolved, platform: platform).text(for: platform) ?? ""
                }
                return resolved.text(for: platform) ?? ""
            }
        }
        return finder.resolve(token, rng: &rng).text(for: platform) ?? ""
    }

    /// `name(key)` → (name, key) when the token is a function call: a name of letters, digits and
    /// underscores, then the key in parentheses.
    static func functionCall(_ token: String) -> (String, String)? {
        guard token.hasSuffix(")"), let open = token.firstIndex(of: "(") else { return nil }
        let name = token[..<open]
        guard !name.isEmpty,
            name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
            )
        else { return nil }
        let key = token[token.index(after: open)..<token.index(before: token.endIndex)]
        return (String(name), String(key))
    }
}
