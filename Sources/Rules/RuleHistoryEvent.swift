import Support

/// A past event in the simulated event history that `historical` conditions search (research
/// §1.7 item 2, §2.4).
///
/// The SDK records an event's FNV-1a hash over its flattened data restricted to the event's
/// mask; a historical condition counts events whose hash equals that of its description. Here
/// the comparison is made on the flattened key/value pairs themselves, which is the same test
/// without hash collisions.
public struct RuleHistoryEvent: Sendable {
    /// When the event happened.
    public var time: Timestamp
    /// The event data (a JSON object).
    public var data: JSONValue
    /// The keys (flattened, dotted) the SDK hashes; `nil` hashes every key of the data.
    public var mask: [String]?

    /// A past event; `data` should be a JSON object.
    public init(time: Timestamp, data: JSONValue, mask: [String]? = nil) {
        self.time = time
        self.data = data
        self.mask = mask
    }
}
