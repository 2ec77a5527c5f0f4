import Support

/// Everything outside the triggering event that rules can read (research §2.2): the shared
/// states of other extensions, the event history, and the SDK version.
///
/// A value the caller builds for each evaluation, so that a rule sees the shared state as of the
/// triggering event (research §2.2, adobe/aepsdk-core-ios#296).
public struct RulesContext: Sendable {
    /// Shared states by extension name (e.g. `com.adobe.module.places`,
    /// `com.adobe.module.userProfile`), each a JSON object; read with
    /// `~state.<extension>/<flattened.key>`. An absent extension reads like a pending state: every
    /// key is missing.
    public var sharedStates: [String: JSONValue]
    /// Past events, in any order, for `historical` conditions and `insertIfNotExists`.
    public var history: [RuleHistoryEvent]
    /// `~sdkver`.
    public var sdkVersion: String
    /// The device's offset from UTC in seconds, for `~timestampz` (local time on a device).
    /// fencesim never reads the host's time zone; the default is UTC.
    public var utcOffsetSeconds: Int

    /// A context; by default no shared states, no history, UTC, and the documented SDK version.
    public init(
        sharedStates: [String: JSONValue] = [:], history: [RuleHistoryEvent] = [],
        sdkVersion: String = RulesPlatform.docs.defaultSDKVersion, utcOffsetSeconds: Int = 0
    ) {
        self.sharedStates = sharedStates
        self.history = history
        self.sdkVersion = sdkVersion
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}
