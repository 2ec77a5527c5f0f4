/// The twelve comparison operators of a `matcher` condition (seed 004, "Matcher types").
public enum Matcher: String, Sendable, CaseIterable, CustomStringConvertible {
    case eq, ne, ex, nx, gt, ge, lt, le, co, nc, sw, ew

    /// The matcher's name in rules.json.
    public var description: String { rawValue }

    /// Whether several values are AND-ed instead of OR-ed: `ne` and `nc` since June 2025
    /// (adobe/aepsdk-core-ios PR #1147, core-android f2b5ee1c; research §2.3, §4 item 1).
    public var combinesValuesWithAnd: Bool {
        self == .ne || self == .nc
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
