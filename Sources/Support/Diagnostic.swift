/// A located finding: an error, a warning or a note, as compilers print them.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable, Comparable {
        case error, warning, note

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    public var message: String
    public var location: SourceLocation?
    /// A short stable identifier for grouping and counting (e.g. `time-backwards`).
    public var kind: String?

    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil, kind: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.kind = kind
    }

    /// `file:line:col: severity: message`.
    public var description: String {
        if let location {
            return "\(location): \(severity.rawValue): \(message)"
        }
        return "\(severity.rawValue): \(message)"
    }
}
