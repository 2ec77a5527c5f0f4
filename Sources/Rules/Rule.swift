import Support

/// One rule: a condition and the consequences that follow when it holds.
public struct Rule: Sendable {
    /// 0-based position of the rule in the file's `rules` array (kept when other rules are
    /// dropped, so messages and traces name the rule as it is in the file).
    public var index: Int
    /// What must hold for the rule to fire.
    public var condition: Condition
    /// What the rule does, in order.
    public var consequences: [Consequence]
    /// Where the rule object starts in the rules file.
    public var location: SourceLocation?

    /// A rule at position `index` of its file.
    public init(index: Int, condition: Condition, consequences: [Consequence], location: SourceLocation? = nil) {
        self.index = index
        self.condition = condition
        self.consequences = consequences
        self.location = location
    }
}
