import Support

/// A consequence of a matched rule, with its `{%…%}` tokens rendered, and what it did.
public struct FiredConsequence: Sendable {
    /// What the engine did with a fired consequence (research §2.5).
    public enum Effect: Sendable {
        /// Recorded as a rule consequence event (`an iam pb pii url csp`, other schemas, unknown
        /// types); see ``FiredConsequence/consequenceEvent``.
        case ruleEvent
        /// `add`: data merged into the event without overwriting.
        case attachedData
        /// `mod`: data merged into the event with overwriting.
        case modifiedData
        /// `dispatch`: a new event, at this index of ``RulesOutcome/dispatchedEvents``.
        case dispatchedEvent(Int)
        /// `schema` with the event-history operation: the content was recorded (see
        /// ``RulesOutcome/historyRecords``) and a consequence event dispatched.
        case recordedHistory
        /// Nothing happened; the reason is also in ``RulesOutcome/warnings``.
        case ignored(String)
    }

    /// 0-based index of the rule in the file.
    public var ruleIndex: Int
    /// The consequence's id and type, as in the rules file.
    public var id: String
    public var type: String
    /// The detail with every token rendered.
    public var detail: JSONValue
    /// What the engine did with it.
    public var effect: Effect
    /// Where the consequence is in the rules file.
    public var location: SourceLocation?
    /// The event the SDK dispatches for this consequence: `Rules Consequence Event`
    /// (`com.adobe.eventType.rulesEngine`, `responseContent`, data `{"triggeredconsequence":
    /// {id, type, detail}}`) for ``Effect/ruleEvent``, and the recorded `Dispatch Consequence
    /// Result` for ``Effect/recordedHistory``; `nil` otherwise.
    public var consequenceEvent: RuleEvent?
    /// For an applied in-app message (`iam`): whether the app shows it. In-app messages are
    /// first-one-wins (seed 004, "Consequence object definition"): of the messages one event
    /// fires, only the first in rule order is displayed, the others are not, while every other
    /// consequence still runs. `nil` for every other consequence. Set by ``RulesEngine``.
    public var isShownMessage: Bool?

    /// A fired consequence (built by ``RulesEngine``; public for callers' tests).
    public init(
        ruleIndex: Int, id: String, type: String, detail: JSONValue, effect: Effect,
        location: SourceLocation? = nil, consequenceEvent: RuleEvent? = nil
    ) {
        self.ruleIndex = ruleIndex
        self.id = id
        self.type = type
        self.detail = detail
        self.effect = effect
        self.location = location
        self.consequenceEvent = consequenceEvent
    }

    /// Whether the consequence had an effect (anything but ``Effect/ignored(_:)``).
    public var isApplied: Bool {
        if case .ignored = effect { return false }
        return true
    }

    /// `{"id":…,"type":…,"detail":{…}}`, the line `fencesim rules eval` prints, with
    /// `"shown":true|false` after the detail for an in-app message (``isShownMessage``).
    public var jsonLine: String {
        JSONWriter.string(jsonObject())
    }

    /// The consequence as the outputs show it: `id`, `type`, `detail`, `shown` for an in-app
    /// message, then `extra`.
    public func jsonObject(appending extra: [(String, JSONValue)] = []) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id)), ("type", .string(type)), ("detail", detail)]
        if let isShownMessage { members.append(("shown", .bool(isShownMessage))) }
        return .orderedObject(members + extra)
    }
}
