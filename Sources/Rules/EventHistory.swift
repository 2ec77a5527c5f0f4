import Support

/// Searches of the simulated event history for `historical` conditions and for the
/// `insertIfNotExists` event-history operation (research §2.4, §2.5).
struct EventHistory {
    private let events: [(time: Timestamp, pairs: [String: String])]
    let platform: RulesPlatform

    init(_ history: [RuleHistoryEvent], platform: RulesPlatform) {
        self.platform = platform
        events = history.map { event in
            (event.time, Self.pairs(of: event.data, mask: event.mask, platform: platform))
        }
    }

    /// The flattened key/value pairs an event's hash covers: every leaf, or only the mask's keys.
    static func pairs(of data: JSONValue, mask: [String]?, platform: RulesPlatform) -> [String: String] {
        let flat = FlatData(data)
        var out: [String: String] = [:]
        if let mask {
            for key in mask {
                if let text = flat[key].text(for: platform) { out[key] = text }
            }
        } else {
            for (key, value) in flat.values {
                if let text = value.text(for: platform) { out[key] = text }
            }
        }
        return out
    }

    /// Times of the events whose pairs equal `description`'s, within `[from, to]`.
    private func occurrences(of description: [String: String], from: Timestamp?, to: Timestamp?) -> [Timestamp] {
        events.compactMap { event in
            if let from, event.time < from { return nil }
            if let to, event.time > to { return nil }
            return event.pairs == description ? event.time : nil
        }
    }

    /// Whether any recorded event has exactly these pairs, at any time.
    func contains(_ data: JSONValue) -> Bool {
        let description = Self.pairs(of: data, mask: nil, platform: platform)
        return events.contains { $0.pairs == description }
    }

    /// The left-hand side of a historical condition (research §2.4):
    /// - `any`: the number of matching events over all descriptions;
    /// - `ordered`: 1 when each description occurred at or after the oldest occurrence of the
    ///   previous one (the SDK starts each query at the previous result's oldest occurrence),
    ///   else 0;
    /// - `mostRecent`: the index of the description whose newest occurrence is the latest
    ///   (the first such index on a tie), or -1 when none occurred.
    ///
    /// - Complexity: O(history × descriptions).
    func value(of condition: HistoricalCondition, eventTime: Timestamp) -> Int64 {
        let from = condition.fromMilliseconds.map(Self.time(milliseconds:))
        let to = condition.toMilliseconds.map(Self.time(milliseconds:)) ?? eventTime
        let descriptions = condition.events.map { Self.pairs(of: $0, mask: nil, platform: platform) }
        switch condition.searchType {
        case .any:
            return descriptions.reduce(0) { $0 + Int64(occurrences(of: $1, from: from, to: to).count) }
        case .ordered:
            guard !descriptions.isEmpty else { return 0 }
            var start = from
            for description in descriptions {
                guard let oldest = occurrences(of: description, from: start, to: to).min() else { return 0 }
                start = oldest
            }
            return 1
        case .mostRecent:
            var best: (index: Int, time: Timestamp)?
            for (index, description) in descriptions.enumerated() {
                guard let newest = occurrences(of: description, from: from, to: to).max() else { continue }
                if best == nil || newest > (best?.time ?? newest) { best = (index, newest) }
            }
            return Int64(best?.index ?? -1)
        }
    }

    static func time(milliseconds: Int64) -> Timestamp {
        Timestamp(seconds: milliseconds / 1000, nanoseconds: (milliseconds % 1000) * 1_000_000)
    }
}
