/// The logical operator of a `group` condition.
public enum GroupLogic: Sendable, Hashable, CustomStringConvertible {
    case and
    case or
    /// A logic string other than `and`/`or`. Only the iOS platform keeps such a group: its
    /// `LogicalExpression` matches logic names case-sensitively and evaluates anything else to
    /// false (research §2.1, "Logic strings").
    case unrecognized(String)

    /// `and`, `or`, or the unrecognized text.
    public var description: String {
        switch self {
        case .and: "and"
        case .or: "or"
        case .unrecognized(let text): text
        }
    }
}
