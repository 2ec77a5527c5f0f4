import Support

/// Why one rule did or did not match: the rule's condition tree as evaluated, each node with its
/// result and, for matchers, the key's value and how it was coerced and compared.
///
/// Modelled on `AEPRulesEngine`'s `RulesTracer` (which reports a rule, whether it matched and a
/// `RulesFailure`), but typed and complete: every evaluated node is kept, and nodes skipped by
/// short-circuit evaluation are counted.
public struct RuleTrace: Sendable {
    /// 0-based index of the rule in its file.
    public var ruleIndex: Int
    /// Where the rule is in the rules file.
    public var location: SourceLocation?
    /// Whether the rule's condition held.
    public var matched: Bool
    /// The evaluated condition tree.
    public var condition: ConditionTrace

    /// The trace of one rule.
    public init(ruleIndex: Int, location: SourceLocation?, matched: Bool, condition: ConditionTrace) {
        self.ruleIndex = ruleIndex
        self.location = location
        self.matched = matched
        self.condition = condition
    }

    /// The trace as indented text, one line per evaluated condition, e.g.
    /// `rule 2 (rules.json:40:5): no match` then `  and: false` then
    /// `    ~state.…/launches gt [2]: false — 2 (int); int(2) = 2; 2 gt 2 is false`.
    public var lines: [String] {
        var out = ["rule \(ruleIndex + 1)\(location.map { " (\($0))" } ?? ""): \(matched ? "matched" : "no match")"]
        condition.appendLines(to: &out, depth: 1)
        return out
    }
}
