import EventPipeline
import Support

/// The differences between a golden event log and a run's events (SPEC §6.5), as events, not
/// bytes: per trace, which events are missing, which are extra and which changed, field by field.
///
/// Two events are the same when their time (to the millisecond, as logged), trace, type and
/// fields are; `seq` is ignored (it only numbers the log, and one missing event would shift every
/// later one). Per trace, the longest common subsequence of equal events anchors the comparison;
/// between anchors, an expected and an actual event of the same type about the same subject
/// (`fence`, `poi`, `consequence`, `action` or `reason`, the first present) are paired, in order,
/// as one changed event; the rest are missing (expected, not produced) or extra (produced, not
/// expected). Traces are listed in the order the golden log has them, then traces only the run
/// has.
public struct EventDiff: Sendable {
    /// A field's value on each side; `nil` where the event has no such field.
    public struct FieldChange: Hashable, Sendable {
        public var key: String
        public var expected: String?
        public var actual: String?
    }

    /// One difference.
    public enum Change: Sendable {
        /// In the golden log (at `line`), not produced.
        case missing(LogEvent, line: Int)
        /// Produced, not in the golden log.
        case extra(LogEvent)
        /// The golden log's event at `line` came out with other values.
        case changed(expected: LogEvent, line: Int, actual: LogEvent, fields: [FieldChange])

        /// The time it is listed at (the expected event's for a change).
        var time: Timestamp {
            switch self {
            case .missing(let e, _), .extra(let e), .changed(let e, _, _, _): e.time
            }
        }
    }

    /// The differences of one trace, in time order.
    public struct TraceDiff: Sendable {
        public var trace: String
        public var changes: [Change]

        public var missing: Int { changes.count { if case .missing = $0 { true } else { false } } }
        public var extra: Int { changes.count { if case .extra = $0 { true } else { false } } }
        public var changed: Int { changes.count { if case .changed = $0 { true } else { false } } }
    }

    /// Traces with at least one difference.
    public var traces: [TraceDiff]

    /// Whether the run produced exactly the golden events.
    public var isEmpty: Bool { traces.isEmpty }

    /// The number of differences over every trace.
    public var count: Int { traces.reduce(0) { $0 + $1.changes.count } }

    /// The largest middle part of a trace (golden × actual events) aligned by longest common
    /// subsequence; larger ones pair events by subject only.
    static let alignmentLimit = 4_000_000

    /// Compares a golden log with a run's events.
    ///
    /// - Complexity: O(n + d²) per trace for n events and d events between the common prefix and
    ///   suffix (bounded by ``alignmentLimit``).
    public static func compare(expected: [RecordedEvent], actual: [LogEvent]) -> EventDiff {
        var order: [String] = []
        var expectedByTrace: [String: [RecordedEvent]] = [:]
        var actualByTrace: [String: [LogEvent]] = [:]
        for r in expected {
            if expectedByTrace[r.event.trace] == nil { order.append(r.event.trace) }
            expectedByTrace[r.event.trace, default: []].append(r)
        }
        for e in actual {
            if expectedByTrace[e.trace] == nil, actualByTrace[e.trace] == nil { order.append(e.trace) }
            actualByTrace[e.trace, default: []].append(e)
        }
        var traces: [TraceDiff] = []
        for trace in order {
            let changes = compareTrace(expectedByTrace[trace] ?? [], actualByTrace[trace] ?? [])
            if !changes.isEmpty { traces.append(TraceDiff(trace: trace, changes: changes)) }
        }
        return EventDiff(traces: traces)
    }

    /// The text two events are compared by: time as logged, type and fields in log order.
    static func key(_ e: LogEvent) -> String {
        var out = e.time.description + " " + e.type.rawValue + " "
        JSONWriter.write(.orderedObject(e.orderedFields), to: &out)
        return out
    }

    /// The type and subject that make two unequal events one changed event.
    static func subject(_ e: LogEvent) -> String {
        for key in ["fence", "poi", "consequence", "action", "reason"] {
            if let v = e.field(key) { return e.type.rawValue + " " + key + "=" + JSONWriter.string(v) }
        }
        return e.type.rawValue
    }

    static func compareTrace(_ expected: [RecordedEvent], _ actual: [LogEvent]) -> [Change] {
        let ek = expected.map { key($0.event) }
        let ak = actual.map(key)
        var prefix = 0
        while prefix < ek.count, prefix < ak.count, ek[prefix] == ak[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < ek.count - prefix, suffix < ak.count - prefix, ek[ek.count - 1 - suffix] == ak[ak.count - 1 - suffix] { suffix += 1 }
        let e0 = prefix, e1 = ek.count - suffix
        let a0 = prefix, a1 = ak.count - suffix
        guard e0 < e1 || a0 < a1 else { return [] }
        // Matched pairs (expected index, actual index) in the middle, in order.
        let anchors = longestCommonSubsequence(Array(ek[e0..<e1]), Array(ak[a0..<a1])).map { ($0.0 + e0, $0.1 + a0) }
        var changes: [Change] = []
        var ei = e0
        var ai = a0
        for (em, am) in anchors + [(e1, a1)] {
            changes += pair(Array(expected[ei..<em]), Array(actual[ai..<am]))
            ei = em + 1
            ai = am + 1
        }
        // Time order; for one instant, the order the gaps produced them in.
        return changes.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
    }

    /// Index pairs of a longest common subsequence of `a` and `b`; none when `a.count × b.count`
    /// exceeds ``alignmentLimit``.
    static func longestCommonSubsequence(_ a: [String], _ b: [String]) -> [(Int, Int)] {
        let n = a.count, m = b.count
        guard n > 0, m > 0, n * m <= alignmentLimit else { return [] }
        // lengths[i][j]: LCS length of a[i...] and b[j...], flattened.
        var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * (m + 1) + j] =
                    a[i] == b[j]
                    ? lengths[(i + 1) * (m + 1) + j + 1] + 1
                    : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
            }
        }
        var out: [(Int, Int)] = []
        var i = 0, j = 0
        while i < n, j < m {
            if a[i] == b[j] {
                out.append((i, j))
                i += 1
                j += 1
            } else if lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return out
    }

    /// The changes of one gap between anchors: same-subject events paired in order as changed,
    /// the rest missing or extra.
    ///
    /// - Complexity: O(n + m): the actual events wait in a queue per subject, in order (the
    ///   first unused one of a subject is the front of its queue), where each expected event
    ///   looked through every actual one (issue 21: two large, different logs did not end).
    static func pair(_ expected: [RecordedEvent], _ actual: [LogEvent]) -> [Change] {
        var used = [Bool](repeating: false, count: actual.count)
        var queues: [String: (indices: [Int], next: Int)] = [:]
        for (j, e) in actual.enumerated() { queues[subject(e), default: ([], 0)].indices.append(j) }
        var out: [Change] = []
        for r in expected {
            let s = subject(r.event)
            var found: Int?
            if let queue = queues[s], queue.next < queue.indices.count {
                found = queue.indices[queue.next]
                queues[s]?.next += 1
            }
            if let j = found {
                used[j] = true
                out.append(.changed(expected: r.event, line: r.line, actual: actual[j], fields: fieldChanges(r.event, actual[j])))
            } else {
                out.append(.missing(r.event, line: r.line))
            }
        }
        for (j, e) in actual.enumerated() where !used[j] { out.append(.extra(e)) }
        return out
    }

    /// The fields (and time) that differ, in the expected event's field order, then fields only
    /// the actual event has.
    static func fieldChanges(_ expected: LogEvent, _ actual: LogEvent) -> [FieldChange] {
        var out: [FieldChange] = []
        let et = expected.time.description, at = actual.time.description
        if et != at { out.append(FieldChange(key: "time", expected: et, actual: at)) }
        let ef = expected.orderedFields, af = actual.orderedFields
        var keys = ef.map(\.0)
        for (k, _) in af where !keys.contains(k) { keys.append(k) }
        for k in keys {
            let e = ef.first(where: { $0.0 == k }).map { JSONWriter.string($0.1) }
            let a = af.first(where: { $0.0 == k }).map { JSONWriter.string($0.1) }
            if e != a { out.append(FieldChange(key: k, expected: e, actual: a)) }
        }
        return out
    }

    /// The diff as text for a terminal or a JUnit failure: per trace a count line, then one line
    /// per difference (`-` missing, `+` extra, `~` changed, with the golden line) and, for a
    /// change, one line per differing field (`expected -> actual`).
    ///
    /// - Parameter limit: the most differences listed per trace; the rest are counted.
    public func render(limit: Int = 50) -> String {
        var out = ""
        for t in traces {
            var counts: [String] = []
            if t.missing > 0 { counts.append("\(t.missing) missing") }
            if t.extra > 0 { counts.append("\(t.extra) extra") }
            if t.changed > 0 { counts.append("\(t.changed) changed") }
            out += "trace \(t.trace): \(counts.joined(separator: ", "))\n"
            for change in t.changes.prefix(limit) {
                switch change {
                case .missing(let e, let line):
                    out += "  - missing  \(EventDiff.summary(e))  (golden line \(line))\n"
                case .extra(let e):
                    out += "  + extra    \(EventDiff.summary(e))\n"
                case .changed(let e, let line, _, let fields):
                    out += "  ~ changed  \(EventDiff.summary(e))  (golden line \(line))\n"
                    for f in fields {
                        out += "      \(f.key): \(f.expected ?? "(absent)") -> \(f.actual ?? "(absent)")\n"
                    }
                }
            }
            if t.changes.count > limit { out += "  ... and \(t.changes.count - limit) more\n" }
        }
        return out
    }

    /// `time type subject`, e.g. `2026-01-01T00:01:10.000Z enter fence="store-a"`.
    static func summary(_ e: LogEvent) -> String {
        var text = e.time.description + " " + e.type.rawValue
        for key in ["fence", "poi", "consequence", "action", "reason"] {
            if let v = e.field(key) {
                text += " \(key)=\(JSONWriter.string(v))"
                break
            }
        }
        return text
    }
}
