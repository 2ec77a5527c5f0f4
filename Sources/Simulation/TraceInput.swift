/// A trace to replay: its path on disk and the name it has in the event log.
public struct TraceInput: Hashable, Sendable {
    public var path: String
    /// The `trace` value of its events (the path as the scenario or command line wrote it).
    public var label: String

    public init(path: String, label: String? = nil) {
        self.path = path
        self.label = label ?? path
    }
}
