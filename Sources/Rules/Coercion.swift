/// The SDKs' type transforms `int()`, `double()`, `string()`, `bool()`, which a matcher applies
/// to the data side according to the JSON type of the rule value, and which tokens may call
/// (research §2.3 "How a matcher compiles" and "Coercions"; `LaunchRuleTransformer.swift`,
/// `LaunchRuleTransformer.kt`).
enum Coercion: String, Sendable, CaseIterable {
    case int, double, string, bool

    /// The transform of `value` on `platform`. A value the transform cannot convert comes back
    /// unchanged, as in the SDKs, and then fails the typed comparison.
    ///
    /// Divergences (research §2.3 table):
    /// - A missing key: iOS passes `""` into the transform (`RI/Template/MustacheToken.swift`), so
    ///   `string()` gives `""` and `bool()` gives `false`; Android passes `null`, which every
    ///   transform returns as `null` (an invalid operand).
    /// - `int()`: iOS integers are 64-bit; Android's are 32-bit: a string beyond the range fails
    ///   to parse, a long wraps around (`3e9` becomes negative) and a double saturates (Kotlin
    ///   `toInt()`).
    /// - `double()` of a string: Swift `Double(_:)` on iOS; Java `Double.parseDouble` on Android
    ///   (surrounding whitespace and a trailing `d`/`f` accepted).
    /// - `string()` of a double: Swift `description` (`1e+20`) versus Java `toString` (`1.0E20`).
    func apply(_ value: TokenValue, platform: RulesPlatform) -> TokenValue {
        if platform == .android {
            return applyAndroid(value)
        }
        return applyIOS(value.isMissing ? .string("") : value)
    }

    private func applyIOS(_ value: TokenValue) -> TokenValue {
        switch (self, value) {
        case (_, .missing):
            return value
        case (.string, _):
            return .string(value.text(for: .ios) ?? "")
        case (.int, .string(let s)):
            return Int64(s).map(TokenValue.int) ?? value
        case (.int, .double(let d)):
            // `Int(doubleValue)` truncates; out of range it would trap on a device, here it fails.
            guard d.isFinite, d >= -9.223372036854775808e18, d < 9.223372036854775808e18 else { return value }
            return .int(Int64(d))
        case (.int, .bool(let b)):
            return .int(b ? 1 : 0)
        case (.int, .int):
            return value
        case (.double, .string(let s)):
            return Double(s).map(TokenValue.double) ?? value
        case (.double, .int(let i)):
            return .double(Double(i))
        case (.double, .bool(let b)):
            return .double(b ? 1 : 0)
        case (.double, .double):
            return value
        case (.bool, .string(let s)):
            return .bool(s.lowercased() == "true")
        case (.bool, .int(let i)):
            return .bool(i == 1)
        case (.bool, .double(let d)):
            return .bool(d == 1)
        case (.bool, .bool):
            return value
        }
    }

    private func applyAndroid(_ value: TokenValue) -> TokenValue {
        switch (self, value) {
        case (_, .missing):
            return value
        case (.string, _):
            return .string(value.text(for: .android) ?? "")
        case (.int, .string(let s)):
            return Int32(s).map { .int(Int64($0)) } ?? value
        case (.int, .int(let i)):
            return .int(Int64(Int32(truncatingIfNeeded: i)))
        case (.int, .double(let d)):
            return .int(Int64(Self.kotlinToInt(d)))
        case (.int, .bool(let b)):
            return .int(b ? 1 : 0)
        case (.double, .string(let s)):
            return NumberText.javaParseDouble(s).map(TokenValue.double) ?? value
        case (.double, .int(let i)):
            return .double(Double(i))
        case (.double, .bool(let b)):
            return .double(b ? 1 : 0)
        case (.double, .double):
            return value
        case (.bool, .string(let s)):
            return .bool(s.lowercased() == "true")
        case (.bool, .int(let i)):
            return .bool(i == 1)
        case (.bool, .double(let d)):
            return .bool(d == 1)
        case (.bool, .bool):
            return value
        }
    }

    /// Kotlin `Double.toInt()`: NaN is 0, values beyond the 32-bit range saturate, others truncate.
    static func kotlinToInt(_ d: Double) -> Int32 {
        if d.isNaN { return 0 }
        if d >= 2_147_483_647 { return .max }
        if d <= -2_147_483_648 { return .min }
        return Int32(d)
    }
}
