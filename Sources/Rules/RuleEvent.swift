import Support

/// An event as the rules engine sees it: the Adobe `Event` fields rules can read (research §2.2).
public struct RuleEvent: Sendable {
    /// The event name (not readable by rules; carried for event logs).
    public var name: String
    /// `~type`, e.g. `com.adobe.eventType.places`.
    public var type: String
    /// `~source`, e.g. `com.adobe.eventSource.responseContent`.
    public var source: String
    /// The event data: a JSON object, or `nil` for an event without data. The difference
    /// matters: on both SDKs every plain key of an event without data reads as `""`, so `ex` is
    /// true for any key (research §2.2).
    public var data: JSONValue?
    /// The simulated time of the event; every time-derived key reads it (SPEC §5).
    public var time: Timestamp
    /// How many `dispatch` consequences led to this event: 0 for an event from outside the rules
    /// engine. An event at depth 1 or more cannot dispatch further (`MAX_CHAINED_CONSEQUENCE_COUNT
    /// = 1`, research §2.5).
    public var chainDepth: Int

    /// An event; `data` should be a JSON object or `nil`.
    public init(name: String = "", type: String, source: String, data: JSONValue?, time: Timestamp, chainDepth: Int = 0) {
        self.name = name
        self.type = type
        self.source = source
        self.data = data
        self.time = time
        self.chainDepth = chainDepth
    }

    /// The name the SDKs give events created by a `dispatch` consequence.
    public static let dispatchedEventName = "Dispatch Consequence Result"
    /// The name, type and source of the event the SDKs dispatch for other consequences.
    public static let consequenceEventName = "Rules Consequence Event"
    /// `com.adobe.eventType.rulesEngine`, the type of consequence events.
    public static let rulesEngineType = "com.adobe.eventType.rulesEngine"
    /// `com.adobe.eventSource.responseContent`, the source of consequence events.
    public static let responseContentSource = "com.adobe.eventSource.responseContent"
}
