/// An error a user can act on: what went wrong, where, and which exit code it maps to.
///
/// Libraries throw these; only the executable prints them (as `file:line:col: error: message`)
/// and turns ``Code`` into an exit status (SPEC §7).
public struct FencesimError: Error, Sendable, CustomStringConvertible {
    /// The class of failure; each maps to one exit code of SPEC §7.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case usage, badData, missingInput, io, checkFailed, internalError
        }
        private let kind: Kind

        /// Bad command-line usage (exit 64).
        public static let usage = Code(kind: .usage)
        /// Input data that cannot be used as it is (exit 65).
        public static let badData = Code(kind: .badData)
        /// An input file that does not exist or cannot be opened (exit 66).
        public static let missingInput = Code(kind: .missingInput)
        /// A read or write that failed (exit 74).
        public static let io = Code(kind: .io)
        /// A check that ran and failed (exit 1).
        public static let checkFailed = Code(kind: .checkFailed)
        /// A broken invariant inside fencesim or a C library (exit 70).
        public static let internalError = Code(kind: .internalError)

        /// The process exit status for this code (SPEC §7; sysexits.h values).
        public var exitStatus: Int32 {
            switch kind {
            case .usage: 64
            case .badData: 65
            case .missingInput: 66
            case .io: 74
            case .checkFailed: 1
            case .internalError: 70
            }
        }

        public var description: String {
            switch kind {
            case .usage: "usage"
            case .badData: "bad-data"
            case .missingInput: "missing-input"
            case .io: "io"
            case .checkFailed: "check-failed"
            case .internalError: "internal"
            }
        }
    }

    public var code: Code
    public var message: String
    public var location: SourceLocation?
    /// Further located findings that belong to the same failure (for example every bad row of a
    /// strict read, not only the first).
    public var related: [Diagnostic]
    /// The lower-level error that caused this one, if any.
    public var cause: (any Error & Sendable)?

    public init(
        _ code: Code, _ message: String, at location: SourceLocation? = nil,
        related: [Diagnostic] = [], cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.related = related
        self.cause = cause
    }

    /// `file:line:col: error: message`, or `error: message` without a location.
    public var description: String {
        Diagnostic(.error, message, at: location).description
    }

    /// The error line followed by each related finding, one per line.
    public var fullDescription: String {
        ([description] + related.map(\.description)).joined(separator: "\n")
    }
}
