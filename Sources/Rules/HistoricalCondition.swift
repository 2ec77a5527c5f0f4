import Support

/// A `historical` condition: how often (or in which order) given events happened, compared with
/// an integer (research §2.4; `JSONRulesParser.extractHistoricalCondition`,
/// `HistoricalCondition.kt`).
public struct HistoricalCondition: Sendable {
    /// How the left-hand side is computed from the history.
    public enum SearchType: String, Sendable, CaseIterable {
        /// The number of past events matching any of the event descriptions (a sum of counts).
        case any
        /// 1 when the events happened in the listed order, else 0.
        case ordered
        /// The 0-based index of the description whose latest occurrence is the newest, or -1
        /// when none occurred.
        case mostRecent
    }

    /// Event descriptions: JSON objects of key/value pairs (keys may be dotted paths) that an
    /// event's (masked) data must equal exactly, as the SDK compares FNV-1a hashes of them.
    public var events: [JSONValue]
    /// How the history is searched.
    public var searchType: SearchType
    /// Compares the search result with ``value`` (`eq ne gt ge lt le`).
    public var matcher: Matcher
    /// The integer the search result is compared with.
    public var value: Int64
    /// Window start in milliseconds since the epoch, inclusive; `nil` for no bound.
    public var fromMilliseconds: Int64?
    /// Window end in milliseconds since the epoch, inclusive; `nil` means the triggering
    /// event's time.
    public var toMilliseconds: Int64?

    /// A historical condition over `events` (JSON objects).
    public init(
        events: [JSONValue], searchType: SearchType, matcher: Matcher, value: Int64,
        fromMilliseconds: Int64? = nil, toMilliseconds: Int64? = nil
    ) {
        self.events = events
        self.searchType = searchType
        self.matcher = matcher
        self.value = value
        self.fromMilliseconds = fromMilliseconds
        self.toMilliseconds = toMilliseconds
    }
}
