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

    /// The in-app message the app shows for this event: the first applied `iam` consequence
    /// (seed 004: first-one-wins), or `nil` when none fired.
    public var shownMessage: FiredConsequence? {
        consequences.first { $0.isShownMessage == true }
    }

    /// Whether `fired`, an in-app message of this outcome, is shown, in words for log messages;
    /// `nil` for other consequences and when the event fires one message only.
    public func displayNote(for fired: FiredConsequence) -> String? {
        guard let isShown = fired.isShownMessage else { return nil }
        let count = consequences.count { $0.isShownMessage != nil }
        guard count > 1, let shown = shownMessage else { return nil }
        if isShown {
            return "shown: the first of the \(count) in-app messages this event fires (first-one-wins)"
        }
        return "not shown: in-app messages are first-one-wins, and \"\(shown.id)\" of rule \(shown.ruleIndex + 1) is shown for this event"
    }

    /// Marks each applied `iam` consequence shown (the first) or not shown (the others).
    mutating func markShownMessages() {
        var shown = false
        for k in consequences.indices where consequences[k].type == "iam" && consequences[k].isApplied {
            consequences[k].isShownMessage = !shown
            shown = true
        }
    }

    /// An outcome (built by ``RulesEngine``).
    public init(
        matchedRules: [Int] = [], consequences: [FiredConsequence] = [], event: RuleEvent, dispatchedEvents: [RuleEvent] = [],
        historyRecords: [RuleHistoryEvent] = [], warnings: [Diagnostic] = [], explanation: [RuleTrace] = []
    ) {
        self.matchedRules = matchedRules
        self.consequences = consequences
        self.event = event
        self.dispatchedEvents = dispatchedEvents
        self.historyRecords = historyRecords
        self.warnings = warnings
        self.explanation = explanation
    }
}
