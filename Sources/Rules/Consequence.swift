import Support

/// What a rule does when its condition holds (seed 004 "Consequence object definition").
///
/// `detail` is kept as JSON: its shape depends on `type` and on the extension that consumes it
/// (research §2.5), and its strings may hold `{%…%}` tokens that are rendered per event.
public struct Consequence: Sendable {
    /// The consequence id (a sha1 in Launch exports), echoed in consequence events.
    public var id: String
    /// `add`, `mod`, `dispatch`, `schema`, or a type handled outside the rules engine (`an iam
    /// pb pii url csp` …), which becomes a rule consequence event.
    public var type: String
    /// A JSON object.
    public var detail: JSONValue
    /// Where the consequence object starts in the rules file.
    public var location: SourceLocation?

    /// A consequence; `detail` should be a JSON object.
    public init(id: String, type: String, detail: JSONValue, location: SourceLocation? = nil) {
        self.id = id
        self.type = type
        self.detail = detail
        self.location = location
    }

    /// Types the rules engine itself acts on.
    static let engineTypes: Set<String> = ["add", "mod", "dispatch", "schema"]
    /// Types the documentation and the research list (seed 004; research §2.5).
    static let knownTypes: Set<String> = engineTypes.union(["an", "iam", "pb", "pii", "url", "csp"])
}
