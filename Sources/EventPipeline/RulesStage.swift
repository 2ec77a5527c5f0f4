import Places
import Rules
import Scenarios
import Support

/// One trace's rules: evaluates the rules on each event the trace dispatches and turns what fires
/// into log lines (SPEC §5, §6.6).
///
/// Per event, as the SDK's event hub runs the rules engine as a preprocessor (research §2.6):
/// 1. every condition is evaluated on the event as it arrived, with the shared states as of the
///    event (Places as last published, the client-side profile as last written) and the history
///    recorded so far; time keys read the event's log time, `~cachebust` draws from the trace's
///    generator;
/// 2. the matched rules' consequences run in order (``Rules/RulesEngine/evaluate(_:context:rng:explain:)``):
///    `add`/`mod` change the event, `dispatch` creates events, `schema` history operations record
///    events, every other consequence is a `rule` line;
/// 3. the event, as `add`/`mod` left it, is recorded in the history when it has a mask (the hub
///    records the event after its preprocessors ran, when it has a mask:
///    aepsdk-core-ios `EventHub.swift`);
/// 4. the events dispatched by `dispatch` consequences are evaluated next, in order, and cannot
///    dispatch further (one level, as ``Rules/RulesEngine/evaluateWithDispatchedEvents(_:context:rng:explain:)``);
/// 5. `csp` consequences are applied to the profile, in order: the profile's shared state changes
///    for the next triggering event (fencesim's deterministic reading of the Profile extension
///    handling the consequence event after the triggering event's chain).
///
/// Not simulated: rules evaluated on the `Rules Consequence Event`s themselves (a rule matching
/// them would loop in the SDK too).
struct RulesStage {
    let setup: RulesSetup
    let trace: String
    /// The trace's `~cachebust` generator.
    var rng: SplitMix64
    var state: RulesDeviceState
    /// The Places shared state as last published, `nil` before the extension first registers.
    var placesSharedState: JSONValue?

    init(setup: RulesSetup, trace: String) {
        self.setup = setup
        self.trace = trace
        rng = SplitMix64(seed: setup.settings.traceSeed(for: trace))
        state = setup.initialStates[trace] ?? RulesDeviceState()
    }

    /// Evaluates the rules on `event`, dispatched with the log line `trigger`, and returns the
    /// lines to log after it: a `rule` line per consequence that becomes a consequence event, a
    /// `warning` line per consequence that did nothing.
    ///
    /// - Parameter mask: the event's history mask; `nil` when the SDK does not record the event.
    mutating func evaluate(_ event: RuleEvent, mask: [String]?, trigger: LogEvent) -> [LogEvent] {
        var lines: [LogEvent] = []
        var sharedStates: [String: JSONValue] = [ClientSideProfile.extensionName: state.profile.sharedState]
        if let placesSharedState { sharedStates[PlacesEvent.sharedStateName] = placesSharedState }
        // Each context is a temporary, so that appending to the history never copies it.
        let first = setup.engine.evaluate(event, context: context(sharedStates), rng: &rng)
        var outcomes = [first]
        state.history += first.historyRecords
        if let mask {
            state.history.append(RuleHistoryEvent(time: event.time, data: first.event.data ?? .orderedObject([]), mask: mask))
        }
        for dispatched in first.dispatchedEvents {
            let outcome = setup.engine.evaluate(dispatched, context: context(sharedStates), rng: &rng)
            state.history += outcome.historyRecords
            outcomes.append(outcome)
        }
        for (number, outcome) in outcomes.enumerated() {
            let on = number == 0 ? event : outcome.event
            for fired in outcome.consequences {
                switch fired.effect {
                case .ruleEvent, .recordedHistory:
                    lines.append(ruleLine(fired, note: outcome.displayNote(for: fired), on: on, dispatched: number, trigger: trigger))
                case .ignored(let reason):
                    let warning = Diagnostic(
                        .warning, "consequence \"\(fired.id)\" (\(fired.type)) of rule \(fired.ruleIndex + 1) did nothing: \(reason)",
                        at: fired.location, kind: "rules-consequence-ignored")
                    lines.append(warningLine(warning, consequence: fired, on: on, trigger: trigger))
                case .attachedData, .modifiedData, .dispatchedEvent:
                    break
                }
            }
        }
        for outcome in outcomes {
            for fired in outcome.consequences where fired.type == "csp" && fired.isApplied {
                if let warning = state.profile.apply(fired) {
                    lines.append(warningLine(warning, consequence: fired, on: event, trigger: trigger))
                }
            }
        }
        return lines
    }

    private func context(_ sharedStates: [String: JSONValue]) -> RulesContext {
        RulesContext(sharedStates: sharedStates, history: state.history, sdkVersion: setup.sdkVersion)
    }

    /// Fields every line about a rule copies from its trigger line, so that it can be filtered
    /// like it.
    private func context(of trigger: LogEvent, on event: RuleEvent) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        for key in ["fence", "zone"] {
            if let value = trigger.field(key) { fields.append((key, value)) }
        }
        fields.append(("trigger", .string(event.name)))
        for key in ["fix", "poi"] {
            if let value = trigger.field(key) { fields.append((key, value)) }
        }
        return fields
    }

    private func ruleLine(_ fired: FiredConsequence, note: String?, on event: RuleEvent, dispatched number: Int, trigger: LogEvent)
        -> LogEvent
    {
        var fields = context(of: trigger, on: event)
        fields.append(("consequence", fired.jsonObject()))
        var message = "rule \(fired.ruleIndex + 1)"
        if let location = setup.stable(fired.location) { message += " (consequence at \(location))" }
        message += " fired on \(event.name) (\(event.type), \(event.source))"
        if number > 0 { message += ", an event a dispatch consequence created" }
        if let note { message += "; " + note }
        fields.append(("message", .string(message)))
        return LogEvent(
            time: trigger.time, trace: trace, type: .rule, fields: fields, longitude: trigger.longitude, latitude: trigger.latitude)
    }

    private func warningLine(_ warning: Diagnostic, consequence: FiredConsequence, on event: RuleEvent, trigger: LogEvent) -> LogEvent {
        var fields = context(of: trigger, on: event)
        fields.append(("reason", .string(warning.kind ?? "rules")))
        fields.append(("consequence", .orderedObject([("id", .string(consequence.id)), ("type", .string(consequence.type))])))
        var stable = warning
        stable.location = setup.stable(warning.location)
        fields.append(("message", .string(stable.description)))
        return LogEvent(
            time: trigger.time, trace: trace, type: .warning, fields: fields, longitude: trigger.longitude, latitude: trigger.latitude)
    }
}
