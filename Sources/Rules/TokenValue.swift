import Support

/// The value a rule key resolves to: a leaf of flattened JSON, a special key's value, or nothing.
///
/// Flattening keeps only leaves, so objects and arrays never appear here; a JSON `null` leaf
/// reads as missing (a decision of fencesim's: the SDKs' dictionaries hold `NSNull`/`null`
/// objects whose rendering differs per platform and is not pinned by any test).
enum TokenValue: Sendable {
    case missing
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)

    /// The leaf value of `json`, or `nil` for `null`, arrays and objects.
    init?(leaf json: JSONValue) {
        switch json {
        case .string(let s): self = .string(s)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .bool(let b): self = .bool(b)
        case .null, .array, .object: return nil
        }
    }

    var isMissing: Bool {
        if case .missing = self { return true }
        return false
    }

    /// The SDK's `toString` of the value: Swift `String(describing:)` on iOS, Java/Kotlin
    /// `toString()` on Android (`10.3`, `5`, `true`; `1e+20` on iOS but `1.0E20` on Android);
    /// `nil` when missing.
    func text(for platform: RulesPlatform) -> String? {
        switch self {
        case .missing: nil
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): platform == .android ? NumberText.java(d) : NumberText.swift(d)
        case .bool(let b): b ? "true" : "false"
        }
    }

    /// The value with its type, for traces: `"AT&T" (string)`, `3 (int)`, `missing`.
    func traceDescription(for platform: RulesPlatform) -> String {
        switch self {
        case .missing: "missing"
        case .string(let s): "\(JSONWriter.string(.string(s))) (string)"
        case .int(let i): "\(i) (int)"
        case .double: "\(text(for: platform) ?? "") (double)"
        case .bool(let b): "\(b) (bool)"
        }
    }

    /// The value as JSON (`null` when missing).
    var json: JSONValue {
        switch self {
        case .missing: .null
        case .string(let s): .string(s)
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        case .bool(let b): .bool(b)
        }
    }
}
