import Support

/// One evaluated node of a condition tree.
public struct ConditionTrace: Sendable {
    /// Which kind of condition was evaluated.
    public enum Node: Sendable {
        case group(GroupLogic)
        case matcher(key: String, matcher: Matcher, values: [JSONValue])
        case historical(HistoricalCondition)
    }

    /// The condition evaluated.
    public var node: Node
    /// Where the condition is in the rules file.
    public var location: SourceLocation?
    /// Whether the condition held.
    public var result: Bool
    /// For a matcher: the key's value as resolved, rendered with its type (`"AT&T" (string)`,
    /// `3 (int)`, `missing`); for a historical condition: the computed left-hand side.
    public var resolved: String?
    /// How the result came about, e.g. `int("3.5") is not an integer`, `3 gt 2`.
    public var reason: String
    /// Evaluated sub-conditions of a group, in order.
    public var children: [ConditionTrace]
    /// Sub-conditions of a group not evaluated because the result was already decided.
    public var skipped: Int

    /// A trace node; `children` and `skipped` are for groups.
    public init(
        node: Node, location: SourceLocation?, result: Bool, resolved: String? = nil, reason: String,
        children: [ConditionTrace] = [], skipped: Int = 0
    ) {
        self.node = node
        self.location = location
        self.result = result
        self.resolved = resolved
        self.reason = reason
        self.children = children
        self.skipped = skipped
    }

    func appendLines(to out: inout [String], depth: Int) {
        let indent = String(repeating: "  ", count: depth)
        var line = indent
        switch node {
        case .group(let logic):
            line += "\(logic): \(result)"
        case .matcher(let key, let matcher, let values):
            line += "\(key) \(matcher) \(JSONWriter.string(.list(values))): \(result)"
        case .historical(let condition):
            line += "historical \(condition.searchType.rawValue) \(condition.matcher) \(condition.value): \(result)"
        }
        if let resolved { line += " — \(resolved)" }
        if !reason.isEmpty { line += resolved == nil ? " — \(reason)" : "; \(reason)" }
        out.append(line)
        for child in children { child.appendLines(to: &out, depth: depth + 1) }
        if skipped > 0 {
            out.append(indent + "  (\(skipped) more not evaluated: the result was already decided)")
        }
    }
}
