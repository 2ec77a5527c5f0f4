import Support

/// Evaluates a ``RuleSet`` on events, as the Adobe mobile SDKs' Launch rules engine does
/// (SPEC §5; research §2.2–§2.5). Pure and deterministic: time comes from the event, randomness
/// from the generator passed in, shared states and history from the ``RulesContext``.
///
/// ```swift
/// let engine = RulesEngine(ruleSet: rules, platform: .ios)
/// var rng = SplitMix64(seed: 42)
/// let outcome = engine.evaluate(event, context: context, rng: &rng)
/// ```
public struct RulesEngine: Sendable {
    /// The rules evaluated, in file order.
    public let ruleSet: RuleSet
    /// Whose matching semantics apply.
    public let platform: RulesPlatform

    /// - Parameters:
    ///   - ruleSet: decoded rules.
    ///   - platform: whose matching semantics to use; by default the platform the rules were
    ///     decoded for.
    public init(ruleSet: RuleSet, platform: RulesPlatform? = nil) {
        self.ruleSet = ruleSet
        self.platform = platform ?? ruleSet.platform
    }

    /// Evaluates every rule on `event` and processes the consequences of those that match.
    ///
    /// As in the SDKs, every condition is evaluated on the event as it arrived, then the
    /// consequences of the matched rules run in rule order: `add`/`mod` change the event that
    /// later consequences (and downstream listeners) see, `dispatch` creates events (one level of
    /// chaining), `schema` event-history operations record events, and every other type becomes
    /// a rule consequence event. Tokens are rendered against the event as it arrived
    /// (`LaunchRulesEngine.evaluateRules`, `LaunchRulesConsequence.process`). Of the in-app
    /// messages the event fires, the first is marked shown and the others not
    /// (``FiredConsequence/isShownMessage``; seed 004, first-one-wins).
    ///
    /// - Parameters:
    ///   - event: the triggering event.
    ///   - context: shared states, event history and SDK version.
    ///   - rng: the seeded generator `~cachebust` draws from.
    ///   - explain: whether to build ``RulesOutcome/explanation``.
    /// - Complexity: O(size of the rules + size of the event data), plus O(history) per
    ///   historical condition evaluated.
    public func evaluate(_ event: RuleEvent, context: RulesContext, rng: inout SplitMix64, explain: Bool = false) -> RulesOutcome {
        var evaluation = Evaluation(event: event, context: context, platform: platform, explain: explain)
        var matched: [Rule] = []
        var traces: [RuleTrace] = []
        for rule in ruleSet.rules {
            let (result, trace) = evaluation.evaluate(rule.condition, rng: &rng)
            if result { matched.append(rule) }
            if let trace { traces.append(RuleTrace(ruleIndex: rule.index, location: rule.location, matched: result, condition: trace)) }
        }
        var outcome = RulesOutcome(matchedRules: matched.map(\.index), event: event, explanation: traces)
        for rule in matched {
            for consequence in rule.consequences {
                evaluation.process(consequence, of: rule, into: &outcome, rng: &rng)
            }
        }
        outcome.markShownMessages()
        return outcome
    }

    /// Evaluates `event`, then each event its `dispatch` consequences created (which cannot
    /// dispatch further), as the event hub would deliver them to the rules engine.
    ///
    /// History recorded by an evaluation is visible to the following ones; shared states are
    /// not changed (a `csp` write is for the caller to apply, see ``ClientSideProfile``).
    ///
    /// - Returns: the trigger's outcome first, then one per dispatched event, in order.
    public func evaluateWithDispatchedEvents(
        _ event: RuleEvent, context: RulesContext, rng: inout SplitMix64,
        explain: Bool = false
    ) -> [RulesOutcome] {
        var context = context
        let first = evaluate(event, context: context, rng: &rng, explain: explain)
        var outcomes = [first]
        context.history += first.historyRecords
        for dispatched in first.dispatchedEvents {
            let outcome = evaluate(dispatched, context: context, rng: &rng, explain: explain)
            context.history += outcome.historyRecords
            outcomes.append(outcome)
        }
        return outcomes
    }
}
