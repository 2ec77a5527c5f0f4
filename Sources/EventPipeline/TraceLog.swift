import Geotriggers
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
///
/// A line is moved, not copied, from the pipeline to ``release``: each copy of a line retains
/// its strings (a fifth of the hand-off's instructions went to copies and their releases).
///
/// - Important: Used by one trace's pipeline, on one thread, so the state it changes on every
///   event is marked `@exclusivity(unchecked)` (as ``OrderedEventLog/Channel``'s): the compiler
///   still checks exclusive access statically, and the runtime's check on each access is left
///   out.
package final class TraceLog {
    /// An event waiting for its place.
    struct Entry {
        /// The time that orders it: its own, or the instant it was found when that is later.
        var key: Timestamp
        var finding: Bool
        /// The line; `nil` once handed on (taken out, so that it is not copied).
        var line: LogLine?
    }

    /// Where events go, in log order.
    let release: (LogLine) -> Void
    /// The channel ``release`` hands lines to, when it is one: an engine's events can go to it
    /// without a line being made (``appendEngineEvents(_:fixTime:labels:trace:alone:)``).
    let channel: OrderedEventLog.Channel?
    /// Waiting events in log order, from ``first``.
    @exclusivity(unchecked) private var waiting: [Entry] = []
    @exclusivity(unchecked) private var first = 0
    /// Entries handed on that are kept until this many are, then dropped at once.
    static let spentBatch = 64
    /// No event still to come is earlier than this.
    @exclusivity(unchecked) private var floor: Timestamp?

    package init(release: @escaping (LogLine) -> Void) {
        self.release = release
        channel = nil
    }

    /// A log whose lines go to `channel`.
    package init(channel: OrderedEventLog.Channel) {
        release = { channel.append($0) }
        self.channel = channel
    }

    /// Events waiting (for tests of the log's memory).
    var waitingCount: Int { waiting.count - first }
    /// Engine events that went straight to the channel or to ``release`` (for tests).
    private(set) var passedStraight = 0

    /// Adds an event the pipeline dispatched.
    func append(_ event: consuming LogEvent) {
        append(.event(consume event))
    }

    /// Adds a line the pipeline dispatched.
    func append(_ line: consuming LogLine) {
        let time = line.time
        insert(key: floor.map { max($0, time) } ?? time, finding: false, consume line)
    }

    /// Adds an engine's line the pipeline dispatched (its time read from the line itself: read
    /// through ``LogLine/time``, the line is copied out of the enum).
    func append(_ line: consuming EngineLogLine) {
        let time = line.event.time
        insert(key: floor.map { max($0, time) } ?? time, finding: false, .engine(consume line))
    }

    /// Adds the notified ones of a fix's engine events: `events` as the engine hands them over
    /// (in time order, none later than the fix: ``Geotriggers/GeotriggerEngine/process(_:into:)``),
    /// made at the fix of time `fixTime`.
    ///
    /// When the pipeline logs nothing else at this fix but the engine's findings (`alone`; a
    /// finding is at the fix's time, so after these events), nothing is waiting, and the events
    /// are indeed in order and no later than the fix, they go straight to the ``channel``, each
    /// rendered from the engine's event in place: no line is made, moved or kept (the moves of
    /// each event between the engine, its line, the waiting list and the channel were about 8 % of
    /// an event-log replay's instructions); or, without a channel, straight to ``release`` as
    /// lines, without waiting in the list. No line still to come can come before them: the next
    /// fix's are not earlier than this one, and at one instant dispatched events come before
    /// findings. Otherwise each waits its turn as a line.
    func appendEngineEvents(_ events: borrowing [GeotriggerEvent], fixTime: Timestamp, labels: FenceLabels, trace: String, alone: Bool) {
        if alone, first == waiting.count, TraceLog.inOrder(events, through: fixTime) {
            if let channel {
                for k in events.indices where events[k].notified {
                    let label = labels[events[k].fence]
                    channel.append(engine: events[k], fenceID: label.id, zone: label.zone, trace: trace)
                    passedStraight += 1
                }
            } else {
                // A log handed to a closure (a report's scoring): the lines go to it at once,
                // without waiting in the list for the next fix.
                for k in events.indices where events[k].notified {
                    release(.engine(EngineLogLine(events[k], labels: labels, trace: trace)))
                    passedStraight += 1
                }
            }
            return
        }
        // By index: a loop variable would copy each event.
        for k in events.indices where events[k].notified { append(EngineLogLine(events[k], labels: labels, trace: trace)) }
    }

    /// Whether `events` are in time order, none later than `time`.
    @inline(__always)
    private static func inOrder(_ events: borrowing [GeotriggerEvent], through time: Timestamp) -> Bool {
        var last: Timestamp?
        for k in events.indices {
            let t = events[k].time
            if let last, t < last { return false }
            last = t
        }
        return last.map { $0 <= time } ?? true
    }

    /// Adds a finding of the engine about the trace (a `warning`).
    package func appendFinding(_ event: consuming LogEvent) {
        let time = event.time
        insert(key: floor.map { max($0, time) } ?? time, finding: true, .event(consume event))
    }

    /// Events come almost always in order: appended, or moved back past the few later ones.
    private func insert(key: Timestamp, finding: Bool, _ line: consuming LogLine) {
        waiting.append(Entry(key: key, finding: finding, line: consume line))
        var k = waiting.count - 1
        while k > first, TraceLog.precedes(key, finding, waiting[k - 1]) {
            waiting.swapAt(k, k - 1)
            k -= 1
        }
    }

    /// Whether an entry of `key` (a finding or not) comes before `b`, which was added earlier.
    @inline(__always)
    private static func precedes(_ key: Timestamp, _ finding: Bool, _ b: Entry) -> Bool {
        if key != b.key { return key < b.key }
        // At the same instant, dispatched events before findings.
        return !finding && b.finding
    }

    /// Hands on the line of the first waiting entry, taken out of it.
    @inline(__always)
    private func releaseFirst() {
        if let line = waiting[first].line.take() { release(line) }
        first += 1
    }

    /// No event still to come is earlier than `time`: hands on every event before it, and the
    /// dispatched events at `time` that no finding precedes (a line still to come at that instant
    /// goes after them: a dispatched one in the order added, a finding after dispatched ones).
    package func advance(to time: Timestamp) {
        if let floor, time < floor { return }
        floor = time
        while first < waiting.count, waiting[first].key < time || (waiting[first].key == time && !waiting[first].finding) {
            releaseFirst()
        }
        compact()
    }

    /// Hands on every waiting event: the trace has ended.
    package func finish() {
        while first < waiting.count {
            releaseFirst()
        }
        compact()
    }

    /// Drops the entries handed on. Once all are, in batches of ``spentBatch``: emptying the
    /// array at every fix (through the array's general removal) cost more than the hand-off of
    /// the few lines it held.
    private func compact() {
        if first == waiting.count {
            guard first >= TraceLog.spentBatch || waiting.capacity > 1024 else { return }
            waiting.removeAll(keepingCapacity: waiting.capacity <= 1024)
            first = 0
        } else if first > 1024, first * 2 > waiting.count {
            waiting.removeFirst(first)
            first = 0
        }
    }
}
