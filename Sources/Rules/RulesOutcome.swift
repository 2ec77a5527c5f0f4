import Support

/// Everything one evaluation of the rules on one event produced.
public struct RulesOutcome: Sendable {
    /// The 0-based indices of the rules whose condition held, in file order.
    public var matchedRules: [Int]
    /// The consequences of every matched rule, in rule order then consequence order, including
    /// ignored ones (``FiredConsequence/isApplied`` is false for those).
    public var consequences: [FiredConsequence]
    /// The triggering event after every `add` and `mod`, as downstream listeners see it.
    public var event: RuleEvent
    /// Events created by `dispatch` consequences, at chain depth one more than the trigger's.
    public var dispatchedEvents: [RuleEvent]
    /// Events that `schema` event-history operations recorded, for the caller to append to its
    /// history.
    public var historyRecords: [RuleHistoryEvent]
    /// Consequences that did nothing and why, located at the consequence in the rules file.
    public var warnings: [Diagnostic]
    /// Why each rule did or did not match, when asked for; empty otherwise.
    public var explanation: [RuleTrace]

    /// An outcome (built by ``RulesEngine``).
    public init(matchedRules: [Int] = [], consequences: [FiredConsequence] = [], event: RuleEvent, dispatchedEvents: [RuleEvent] = [],
                historyRecords: [RuleHistoryEvent] = [], warnings: [Diagnostic] = [], explanation: [RuleTrace] = []) {
        self.matchedRules = matchedRules
        self.consequences = consequences
        self.event = event
        self.dispatchedEvents = dispatchedEvents
        self.historyRecords = historyRecords
        self.warnings = warnings
        self.explanation = explanation
    }
}
