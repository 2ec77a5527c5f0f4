import Support

/// One trace's log on its way out, put in log order and handed on as soon as no later event can
/// come before it, so that a replay holds only the events of the last instant, not the trace's
/// whole log.
///
/// Log order is time order, stable: events the pipeline dispatches in the order they come, then,
/// at the same instant, the engine's findings about the trace (gaps) in the order found. The
/// replayer tells the log, after each fix, that no event still to come is earlier than that fix's
/// time (``advance(to:)``): the engine's events for the next fix lie between the two fixes (hidden
/// visits, crossings) or at the next fix, a dwell ends after the fix that did not see it end,
/// check-ins, Places and rules take their trigger's time, and sessions and expiries come at
/// instants after the last fix. Events earlier than that time are handed on then.
///
/// A finding earlier than an event already handed on (a fix the engine skipped because its time
/// is earlier than the fix before it) keeps its time and is placed at the instant it was found.
package final class TraceLog {
    /// An event waiting for its place.
    struct Entry {
        /// The time that orders it: its own, or the instant it was found when that is later.
        var key: Timestamp
        var finding: Bool
        var line: LogLine
    }

    /// Where events go, in log order.
    let release: (LogLine) -> Void
    /// Waiting events in log order, from ``first``.
    private var waiting: [Entry] = []
    private var first = 0
    /// No event still to come is earlier than this.
    private var floor: Timestamp?

    package init(release: @escaping (LogLine) -> Void) {
        self.release = release
    }

    /// Events waiting (for tests of the log's memory).
    var waitingCount: Int { waiting.count - first }

    /// Adds an event the pipeline dispatched.
    func append(_ event: LogEvent) {
        append(.event(event))
    }

    /// Adds a line the pipeline dispatched.
    func append(_ line: LogLine) {
        let time = line.time
        insert(Entry(key: floor.map { max($0, time) } ?? time, finding: false, line: line))
    }

    /// Adds a finding of the engine about the trace (a `warning`).
    package func appendFinding(_ event: LogEvent) {
        insert(Entry(key: floor.map { max($0, event.time) } ?? event.time, finding: true, line: .event(event)))
    }

    /// Events come almost always in order: appended, or moved back past the few later ones.
    private func insert(_ entry: Entry) {
        waiting.append(entry)
        var k = waiting.count - 1
        while k > first, TraceLog.precedes(entry, waiting[k - 1]) {
            waiting.swapAt(k, k - 1)
            k -= 1
        }
    }

    /// Whether `a` comes before `b`, which was added earlier.
    @inline(__always)
    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        if a.key != b.key { return a.key < b.key }
        // At the same instant, dispatched events before findings.
        return !a.finding && b.finding
    }

    /// No event still to come is earlier than `time`: hands on every event before it.
    package func advance(to time: Timestamp) {
        if let floor, time <= floor { return }
        floor = time
        while first < waiting.count, waiting[first].key < time {
            release(waiting[first].line)
            first += 1
        }
        compact()
    }

    /// Hands on every waiting event: the trace has ended.
    package func finish() {
        while first < waiting.count {
            release(waiting[first].line)
            first += 1
        }
        compact()
    }

    private func compact() {
        if first == waiting.count {
            waiting.removeAll(keepingCapacity: waiting.capacity <= 1024)
            first = 0
        } else if first > 1024, first * 2 > waiting.count {
            waiting.removeFirst(first)
            first = 0
        }
    }
}
