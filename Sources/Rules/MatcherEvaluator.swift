import Support

/// How a `matcher` condition compares a resolved key with its values on each platform
/// (research §2.3, "Matcher semantics").
///
/// Each rule value becomes one comparison; the JSON type of the value chooses the transform
/// applied to the data side (string → `string()`, integer → `int()`, double → `double()`,
/// boolean → `bool()`), and the transformed value must have that type or the comparison fails.
/// Several values are OR-ed, except for `ne` and `nc` on the SDK platforms, which AND them
/// (``Matcher/combinesValuesWithAnd(on:)``). String comparisons
/// ignore case on every platform (`ConditionEvaluator(options: .caseInsensitive)`,
/// `Option.CASE_INSENSITIVE`).
enum MatcherEvaluator {
    struct Result {
        var matched: Bool
        var reason: String
    }

    static func evaluate(_ lhs: TokenValue, matcher: Matcher, values: [JSONValue], platform: RulesPlatform) -> Result {
        // `ex`/`nx` read the raw key on every platform.
        if matcher == .ex { return Result(matched: !lhs.isMissing, reason: lhs.isMissing ? "the key is missing" : "the key exists") }
        if matcher == .nx { return Result(matched: lhs.isMissing, reason: lhs.isMissing ? "the key is missing" : "the key exists") }
        if lhs.isMissing && platform == .docs {
            // fencesim's documented reading: a key that does not exist has no value to compare,
            // so only `nx` holds (the docs define no coercion of a missing value).
            return Result(matched: false, reason: "the key is missing: only nx matches a missing key")
        }
        var effectiveValues = values
        if values.isEmpty {
            switch platform {
            case .android:
                // Android builds a unary expression; only `ex`/`nx` evaluate (research §2.3).
                return Result(matched: false, reason: "no values: Android evaluates only ex and nx without values")
            case .ios, .docs:
                // iOS compares against "" (research §2.3, "values empty or missing").
                effectiveValues = [.string("")]
            }
        }
        let and = matcher.combinesValuesWithAnd(on: platform)
        var reasons: [String] = []
        for value in effectiveValues {
            let (matched, reason) = compare(lhs, matcher, value, platform: platform)
            reasons.append(reason)
            // Short-circuit as LogicalExpression does.
            if and && !matched {
                return Result(matched: false, reason: combined(reasons, and: and, count: effectiveValues.count))
            }
            if !and && matched {
                return Result(matched: true, reason: combined(reasons, and: and, count: effectiveValues.count))
            }
        }
        return Result(matched: and, reason: combined(reasons, and: and, count: effectiveValues.count))
    }

    private static func combined(_ reasons: [String], and: Bool, count: Int) -> String {
        guard count > 1 else { return reasons.first ?? "" }
        return (and ? "all of: " : "any of: ") + reasons.joined(separator: " | ")
    }

    /// One comparison of the data side with one rule value.
    static func compare(_ lhs: TokenValue, _ matcher: Matcher, _ value: JSONValue, platform: RulesPlatform) -> (Bool, String) {
        switch platform {
        case .ios, .docs: compareIOS(lhs, matcher, value)
        case .android: compareAndroid(lhs, matcher, value)
        }
    }

    // MARK: iOS

    /// iOS: `ComparisonExpression` over typed operands (`Operand<String|Int|Double|Bool>`). A
    /// transformed value of the wrong type fails; an operator not defined for the type fails
    /// (there is no `gt` for strings, so `launches gt "2"` is false; no `co` for numbers).
    private static func compareIOS(_ lhs: TokenValue, _ matcher: Matcher, _ value: JSONValue) -> (Bool, String) {
        let platform = RulesPlatform.ios
        switch value {
        case .string(let s):
            guard case .string(let l) = Coercion.string.apply(lhs, platform: platform) else { return (false, "string() failed") }
            let prefix = "string() = \(quoted(l))"
            guard let result = stringOperation(matcher, l, s, asciiFolding: false) else {
                return (false, prefix + "; \(matcher) is not defined for strings on iOS")
            }
            return (result, prefix + "; \(quoted(l)) \(matcher) \(quoted(s)) is \(result)")
        case .int(let i):
            let coerced = Coercion.int.apply(lhs, platform: platform)
            guard case .int(let l) = coerced else {
                return (false, "int() gives \(coerced.traceDescription(for: platform)), not an integer")
            }
            guard let result = numericOperation(matcher, Double(l), Double(i), exactInts: (l, i)) else {
                return (false, "int() = \(l); \(matcher) is not defined for numbers on iOS")
            }
            return (result, "int() = \(l); \(l) \(matcher) \(i) is \(result)")
        case .double(let d):
            let coerced = Coercion.double.apply(lhs, platform: platform)
            guard case .double(let l) = coerced else {
                return (false, "double() gives \(coerced.traceDescription(for: platform)), not a double")
            }
            guard let result = numericOperation(matcher, l, d, exactInts: nil) else {
                return (false, "double() = \(NumberText.swift(l)); \(matcher) is not defined for numbers on iOS")
            }
            return (result, "double() = \(NumberText.swift(l)); \(NumberText.swift(l)) \(matcher) \(NumberText.swift(d)) is \(result)")
        case .bool(let b):
            guard case .bool(let l) = Coercion.bool.apply(lhs, platform: platform) else { return (false, "bool() failed") }
            guard let result = boolOperation(matcher, l, b) else {
                return (false, "bool() = \(l); \(matcher) is not defined for booleans")
            }
            return (result, "bool() = \(l); \(l) \(matcher) \(b) is \(result)")
        case .null, .array, .object:
            // Dropped while loading on iOS; a programmatically built condition fails here.
            return (false, "a \(value.typeDescription) value never matches on iOS")
        }
    }

    // MARK: Android

    /// Android: `ComparisonExpression` over `OperandMustacheToken`s checked against a class
    /// (String, Number, Boolean); a null or wrongly typed operand is `INVALID_OPERAND` (false
    /// for every operator, `ne` and `nc` included). Ordering operators convert both sides with
    /// `Double.valueOf(toString())`, so `launches gt "2"` compares numbers and is true; `co`/`nc`
    /// on non-strings are false/true; `sw`/`ew` use a `(?i)` regex, which folds ASCII only
    /// (research §2.3 table). A rule value that is neither a string, a 32-bit integer, a double
    /// nor a boolean (a long such as `4070908800`, an object) is compared with the raw key
    /// (`MatcherCondition.kt`, `else -> Pair(Any::class.java, "{{key}}")`).
    private static func compareAndroid(_ lhs: TokenValue, _ matcher: Matcher, _ value: JSONValue) -> (Bool, String) {
        let platform = RulesPlatform.android
        if lhs.isMissing {
            return (false, "the key is missing: an invalid operand on Android, every comparison but nx fails")
        }
        switch value {
        case .string(let s):
            guard case .string(let l) = Coercion.string.apply(lhs, platform: platform) else { return (false, "string() failed") }
            let prefix = "string() = \(quoted(l))"
            if matcher.isNumericOnly {
                guard let ld = NumberText.javaParseDouble(l), let rd = NumberText.javaParseDouble(s),
                    let result = numericOperation(matcher, ld, rd, exactInts: nil)
                else { return (false, prefix + "; Double.valueOf fails, so \(matcher) is false") }
                return (result, prefix + "; compared as numbers: \(NumberText.java(ld)) \(matcher) \(NumberText.java(rd)) is \(result)")
            }
            let result = stringOperation(matcher, l, s, asciiFolding: true) ?? false
            return (result, prefix + "; \(quoted(l)) \(matcher) \(quoted(s)) is \(result)")
        case .int(let i) where Int64(Int32(truncatingIfNeeded: i)) == i:
            let coerced = Coercion.int.apply(lhs, platform: platform)
            guard case .int(let l) = coerced else { return (false, "int() gives \(coerced.traceDescription(for: platform)), not a number") }
            return nonStringOperation(
                matcher, Double(l), Double(i), exactInts: (l, i), lhsText: String(l), rhsText: String(i), prefix: "int() = \(l)")
        case .double(let d):
            let coerced = Coercion.double.apply(lhs, platform: platform)
            guard case .double(let l) = coerced else {
                return (false, "double() gives \(coerced.traceDescription(for: platform)), not a number")
            }
            return nonStringOperation(
                matcher, l, d, exactInts: nil, lhsText: NumberText.java(l), rhsText: NumberText.java(d),
                prefix: "double() = \(NumberText.java(l))")
        case .bool(let b):
            guard case .bool(let l) = Coercion.bool.apply(lhs, platform: platform) else { return (false, "bool() failed") }
            let prefix = "bool() = \(l)"
            if let result = boolOperation(matcher, l, b) { return (result, prefix + "; \(l) \(matcher) \(b) is \(result)") }
            let result = matcher == .nc
            return (result, prefix + "; \(matcher) on booleans is \(result) on Android")
        case .null:
            // `MatcherCondition.convert` builds a unary expression for a null value; it evaluates
            // only `exists`/`notExist` (code reading; research §2.1 groups null values with
            // unknown matchers).
            return (false, "a null value: Android evaluates only ex and nx")
        case .int, .array, .object:
            return rawOperation(lhs, matcher, value)
        }
    }

    /// Android comparison with the raw key for values of another class (inference from
    /// `MatcherCondition.kt`; the evaluator's equality across classes is not pinned by the
    /// research): ordering through `Double.valueOf(toString())`, equality numeric when both
    /// sides read as numbers and case-insensitive on the text otherwise.
    private static func rawOperation(_ lhs: TokenValue, _ matcher: Matcher, _ value: JSONValue) -> (Bool, String) {
        let l = lhs.text(for: .android) ?? ""
        let r = TokenValue(leaf: value)?.text(for: .android) ?? JSONWriter.string(value)
        let prefix = "raw value \(quoted(l)) against \(r)"
        let ld = NumberText.javaParseDouble(l)
        let rd = NumberText.javaParseDouble(r)
        switch matcher {
        case .gt, .ge, .lt, .le:
            guard let ld, let rd, let result = numericOperation(matcher, ld, rd, exactInts: nil) else {
                return (false, prefix + "; Double.valueOf fails, so \(matcher) is false")
            }
            return (result, prefix + "; \(NumberText.java(ld)) \(matcher) \(NumberText.java(rd)) is \(result)")
        case .eq, .ne:
            let equal = if let ld, let rd { ld == rd } else { l.lowercased() == r.lowercased() }
            let result = matcher == .eq ? equal : !equal
            return (result, prefix + "; \(matcher) is \(result)")
        default:
            let result = matcher == .nc
            return (result, prefix + "; \(matcher) on a non-string is \(result) on Android")
        }
    }

    private static func nonStringOperation(
        _ matcher: Matcher, _ l: Double, _ r: Double, exactInts: (Int64, Int64)?,
        lhsText: String, rhsText: String, prefix: String
    ) -> (Bool, String) {
        if let result = numericOperation(matcher, l, r, exactInts: exactInts) {
            return (result, prefix + "; \(lhsText) \(matcher) \(rhsText) is \(result)")
        }
        let result = matcher == .nc
        return (result, prefix + "; \(matcher) on a number is \(result) on Android")
    }

    // MARK: Operators

    private static func stringOperation(_ matcher: Matcher, _ l: String, _ r: String, asciiFolding: Bool) -> Bool? {
        let a = l.lowercased()
        let b = r.lowercased()
        switch matcher {
        case .eq: return a == b
        case .ne: return a != b
        case .co: return a.contains(b)
        case .nc: return !a.contains(b)
        case .sw: return asciiFolding ? asciiFolded(l).hasPrefix(asciiFolded(r)) : a.hasPrefix(b)
        case .ew: return asciiFolding ? asciiFolded(l).hasSuffix(asciiFolded(r)) : a.hasSuffix(b)
        case .gt, .ge, .lt, .le, .ex, .nx: return nil
        }
    }

    /// ASCII-only lower-casing: Java's `(?i)` without `UNICODE_CASE` (research §2.3:
    /// `"Straße Café"` sw `"STRAßE CAFÉ"` is false on Android).
    private static func asciiFolded(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar(UInt8($0.value + 32)) : $0 }))
    }

    private static func numericOperation(_ matcher: Matcher, _ l: Double, _ r: Double, exactInts: (Int64, Int64)?) -> Bool? {
        if let (li, ri) = exactInts {
            switch matcher {
            case .eq: return li == ri
            case .ne: return li != ri
            case .gt: return li > ri
            case .ge: return li >= ri
            case .lt: return li < ri
            case .le: return li <= ri
            default: return nil
            }
        }
        switch matcher {
        case .eq: return l == r
        case .ne: return l != r
        case .gt: return l > r
        case .ge: return l >= r
        case .lt: return l < r
        case .le: return l <= r
        default: return nil
        }
    }

    private static func boolOperation(_ matcher: Matcher, _ l: Bool, _ r: Bool) -> Bool? {
        switch matcher {
        case .eq: return l == r
        case .ne: return l != r
        default: return nil
        }
    }

    private static func quoted(_ s: String) -> String {
        JSONWriter.string(.string(s))
    }
}
