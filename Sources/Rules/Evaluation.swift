import Support

/// The state of one evaluation: the key resolver over the triggering event, the history index,
/// and the history recorded so far.
struct Evaluation {
    var finder: TokenFinder
    let platform: RulesPlatform
    let explain: Bool
    private var historyIndex: EventHistory?
    private var recorded: [RuleHistoryEvent] = []

    init(event: RuleEvent, context: RulesContext, platform: RulesPlatform, explain: Bool) {
        finder = TokenFinder(event: event, context: context, platform: platform)
        self.platform = platform
        self.explain = explain
    }

    var event: RuleEvent { finder.event }

    mutating func history() -> EventHistory {
        if let historyIndex { return historyIndex }
        let index = EventHistory(finder.context.history + recorded, platform: platform)
        historyIndex = index
        return index
    }

    mutating func record(_ event: RuleHistoryEvent) {
        recorded.append(event)
        historyIndex = nil
    }

    /// Evaluates a condition; the trace is built only when explaining.
    mutating func evaluate(_ condition: Condition, rng: inout SplitMix64) -> (Bool, ConditionTrace?) {
        switch condition {
        case .group(let logic, let conditions, let location):
            var children: [ConditionTrace] = []
            var result: Bool
            var evaluated = 0
            switch logic {
            case .and:
                result = true
                for child in conditions {
                    let (r, trace) = evaluate(child, rng: &rng)
                    evaluated += 1
                    if let trace { children.append(trace) }
                    if !r { result = false; break }
                }
            case .or:
                result = false
                for child in conditions {
                    let (r, trace) = evaluate(child, rng: &rng)
                    evaluated += 1
                    if let trace { children.append(trace) }
                    if r { result = true; break }
                }
            case .unrecognized:
                result = false
            }
            guard explain else { return (result, nil) }
            var reason = ""
            if case .unrecognized(let text) = logic {
                reason = "logic \"\(text)\" is neither and nor or: iOS evaluates the group to false"
            } else if conditions.isEmpty {
                reason = logic == .and ? "no conditions: an empty and is true" : "no conditions: an empty or is false"
            }
            return (
                result,
                ConditionTrace(
                    node: .group(logic), location: location, result: result, reason: reason,
                    children: children, skipped: conditions.count - evaluated)
            )
        case .matcher(let key, let matcher, let values, let location):
            let lhs = finder.resolve(key, rng: &rng)
            let evaluation = MatcherEvaluator.evaluate(lhs, matcher: matcher, values: values, platform: platform)
            guard explain else { return (evaluation.matched, nil) }
            return (
                evaluation.matched,
                ConditionTrace(
                    node: .matcher(key: key, matcher: matcher, values: values), location: location,
                    result: evaluation.matched, resolved: lhs.traceDescription(for: platform),
                    reason: evaluation.reason)
            )
        case .historical(let historical, let location):
            let lhs = history().value(of: historical, eventTime: event.time)
            let result: Bool
            switch historical.matcher {
            case .eq: result = lhs == historical.value
            case .ne: result = lhs != historical.value
            case .gt: result = lhs > historical.value
            case .ge: result = lhs >= historical.value
            case .lt: result = lhs < historical.value
            case .le: result = lhs <= historical.value
            case .ex: result = true
            case .nx, .co, .nc, .sw, .ew: result = false
            }
            guard explain else { return (result, nil) }
            return (
                result,
                ConditionTrace(
                    node: .historical(historical), location: location, result: result,
                    resolved: "\(historical.searchType.rawValue) = \(lhs)",
                    reason: "\(lhs) \(historical.matcher) \(historical.value) is \(result)")
            )
        }
    }
}
