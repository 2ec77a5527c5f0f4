/// An event read back from a JSON Lines event log (a golden log, a shard's partial log), with the
/// line it was read from.
public struct RecordedEvent: Sendable {
    public var event: LogEvent
    /// The 1-based line of the file holding it.
    public var line: Int

    public init(event: LogEvent, line: Int) {
        self.event = event
        self.line = line
    }
}
