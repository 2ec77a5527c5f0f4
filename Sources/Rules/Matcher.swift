/// The twelve comparison operators of a `matcher` condition (seed 004, "Matcher types").
public enum Matcher: String, Sendable, CaseIterable, CustomStringConvertible {
    case eq, ne, ex, nx, gt, ge, lt, le, co, nc, sw, ew

    /// The matcher's name in rules.json.
    public var description: String { rawValue }

    /// Whether several values are AND-ed instead of OR-ed on `platform`.
    ///
    /// The documentation compares a key with its values "using OR", whatever the matcher (seed
    /// 004, "Matcher definition"), so with `docs` every matcher ORs, and a multi-valued `ne` or
    /// `nc` holds when the key differs from any one value. The SDKs AND `ne` and `nc` since June
    /// 2025 (adobe/aepsdk-core-ios PR #1147 "Fix logical operation for negative matchers with
    /// multiple values", in 5.5.1; adobe/aepsdk-core-android commit f2b5ee1c, `MatcherCondition.kt`,
    /// v3.5.0 and later; research §2.3, §4 item 1): `ios` and `android` reproduce that.
    public func combinesValuesWithAnd(on platform: RulesPlatform) -> Bool {
        switch platform {
        case .docs: false
        case .ios, .android: self == .ne || self == .nc
        }
    }

    /// `ex` and `nx` test presence and take no value.
    public var testsPresence: Bool {
        self == .ex || self == .nx
    }

    /// Matchers the documentation applies to numbers only (seed 004, "Application Type").
    var isNumericOnly: Bool {
        switch self {
        case .gt, .ge, .lt, .le: true
        default: false
        }
    }

    /// Matchers the documentation applies to strings only.
    var isStringOnly: Bool {
        switch self {
        case .co, .nc, .sw, .ew: true
        default: false
        }
    }

    /// The list of valid names, for messages.
    static let namesForMessages = allCases.map(\.rawValue).joined(separator: " ")
}
