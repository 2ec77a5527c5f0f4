import Support

extension Evaluation {
    static let eventHistorySchema = "https://ns.adobe.com/personalization/eventHistoryOperation"

    /// Runs one consequence of a matched rule (research §2.5 "Dispatch"; `LaunchRulesEngine.swift`
    /// `evaluateRules`, `LaunchRulesConsequence.kt` `process`).
    mutating func process(_ consequence: Consequence, of rule: Rule, into outcome: inout RulesOutcome, rng: inout SplitMix64) {
        let detail = TokenTemplate.render(consequence.detail, finder: &finder, rng: &rng)
        var fired = FiredConsequence(
            ruleIndex: rule.index, id: consequence.id, type: consequence.type, detail: detail,
            effect: .ruleEvent, location: consequence.location)
        func ignore(_ reason: String) {
            fired.effect = .ignored(reason)
            outcome.warnings.append(
                Diagnostic(
                    .warning, "consequence \"\(consequence.id)\" (\(consequence.type)) of rule \(rule.index + 1) did nothing: \(reason)",
                    at: consequence.location, kind: "rules-consequence-ignored"))
        }
        switch consequence.type {
        case "add", "mod":
            // Both need an `eventdata` object in the detail and data on the event.
            if let eventData = detail.member("eventdata"), eventData.isObject {
                if let data = outcome.event.data, data.isObject {
                    let overwrite = consequence.type == "mod"
                    outcome.event.data = EventDataMerger.merging(to: data, from: eventData, overwrite: overwrite)
                    fired.effect = overwrite ? .modifiedData : .attachedData
                } else {
                    ignore("the event has no data to \(consequence.type == "add" ? "attach to" : "modify")")
                }
            } else {
                ignore("the detail has no eventdata object")
            }
        case "dispatch":
            if let reason = dispatch(detail, into: &outcome) {
                ignore(reason)
            } else {
                fired.effect = .dispatchedEvent(outcome.dispatchedEvents.count - 1)
            }
        case "schema":
            if let reason = schema(detail, into: &outcome, fired: &fired) { ignore(reason) }
        default:
            fired.consequenceEvent = consequenceEvent(fired)
        }
        outcome.consequences.append(fired)
    }

    /// A `dispatch` consequence: `{type, source, eventdataaction: copy|new, eventdata?}`. Returns
    /// why nothing was dispatched, or `nil`.
    private func dispatch(_ detail: JSONValue, into outcome: inout RulesOutcome) -> String? {
        if event.chainDepth >= 1 {
            return "the event was itself dispatched by a rule, and chains stop after one dispatch (MAX_CHAINED_CONSEQUENCE_COUNT = 1)"
        }
        guard let type = detail.member("type")?.stringValue else { return "the detail has no type string" }
        guard let source = detail.member("source")?.stringValue else { return "the detail has no source string" }
        guard let action = detail.member("eventdataaction")?.stringValue else { return "the detail has no eventdataaction string" }
        let data: JSONValue?
        switch action {
        case "copy":
            // The data as modified by earlier add/mod consequences of this evaluation.
            data = outcome.event.data
        case "new":
            if let eventData = detail.member("eventdata"), eventData.isObject {
                data = .orderedObject(eventData.uniqueMembers.filter { !$0.value.isNull })
            } else {
                data = nil
            }
        default:
            return "eventdataaction \"\(action)\" is neither copy nor new"
        }
        outcome.dispatchedEvents.append(
            RuleEvent(
                name: RuleEvent.dispatchedEventName, type: type, source: source, data: data,
                time: event.time, chainDepth: event.chainDepth + 1))
        return nil
    }

    /// A `schema` consequence: `{id, schema, data}`. The event-history operation schema records
    /// `data.content` when `data.operation` is `insert`, or `insertIfNotExists` and no equal event
    /// is in the history; other schemas become consequence events (research §2.5; the validation
    /// matrix of `RulesEngineHistoricalTests.swift`: a missing or null `id`, a missing, null or
    /// empty `schema`, a missing, null or empty `data`, an unknown `operation` or a missing, null
    /// or empty `content` do nothing; an empty `id` is accepted).
    private mutating func schema(_ detail: JSONValue, into outcome: inout RulesOutcome, fired: inout FiredConsequence) -> String? {
        guard detail.member("id")?.stringValue != nil else { return "the detail has no id string" }
        guard let schema = detail.member("schema")?.stringValue, !schema.isEmpty else { return "the detail has no schema" }
        guard let data = detail.member("data"), data.isObject, !data.uniqueMembers.isEmpty else { return "the detail has no data object" }
        guard schema == Self.eventHistorySchema else {
            fired.consequenceEvent = consequenceEvent(fired)
            return nil
        }
        guard let operation = data.member("operation")?.stringValue, operation == "insert" || operation == "insertIfNotExists" else {
            return "the event-history operation is neither insert nor insertIfNotExists"
        }
        guard let content = data.member("content"), content.isObject, !content.uniqueMembers.isEmpty else {
            return "the event-history operation has no content"
        }
        if operation == "insertIfNotExists" && history().contains(content) {
            return "insertIfNotExists: an equal event is already in the history"
        }
        let entry = RuleHistoryEvent(time: event.time, data: content)
        record(entry)
        outcome.historyRecords.append(entry)
        fired.effect = .recordedHistory
        fired.consequenceEvent = RuleEvent(
            name: RuleEvent.dispatchedEventName, type: RuleEvent.rulesEngineType,
            source: RuleEvent.responseContentSource, data: content, time: event.time)
        return nil
    }

    /// The `Rules Consequence Event` the SDKs dispatch for a consequence.
    private func consequenceEvent(_ fired: FiredConsequence) -> RuleEvent {
        let triggered = JSONValue.orderedObject([("id", .string(fired.id)), ("type", .string(fired.type)), ("detail", fired.detail)])
        return RuleEvent(
            name: RuleEvent.consequenceEventName, type: RuleEvent.rulesEngineType, source: RuleEvent.responseContentSource,
            data: .orderedObject([("triggeredconsequence", triggered)]), time: event.time)
    }
}
