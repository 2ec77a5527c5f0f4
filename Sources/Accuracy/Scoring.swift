import Dispatch
import EventPipeline
import Fences
import Scenarios
import Support
import Synchronization

/// Scores the notifications of one trace against its truth visits (SPEC §6.3).
///
/// - A detected visit runs from an `enter` of a fence to the next `exit` of that fence (open at
///   the end of the trace); a further `enter` while it is open is counted, not a new visit;
///   an `exit` with no open visit is counted as an orphan. `passthrough` reports are not
///   detections (the app is never told); `suppressed` events of signal loss are counted.
/// - Matching, per fence, detected visits in time order: each takes the earliest truth visit it
///   overlaps in time that no earlier detected visit took. One that overlaps only taken truth
///   visits is a flap of the earliest of them; one that overlaps none is a false detection.
/// - Per truth visit: enter latency (matched enter − true entry), exit latency (exit of the
///   last detected visit belonging to it − true exit), dwell error (that detected span − the
///   true duration), flaps, false exits (a detected exit while the device was inside, followed
///   by a re-entry before the true exit, or by the end of the trace with the device inside),
///   and for a miss the reason (`gap` when a passthrough overlaps it, `entryLoss`, else
///   `undetected`).
public enum Scoring {
    /// Which notifications are scored: the geometry engine's (`enter`, `exit`), or, with an
    /// operating-system profile, what the app was delivered (`delivered` and `duplicate` at
    /// their delivery time; `dropped` ones counted as lost, but for `unconfirmed` ones, which
    /// the platform's rule never made notifications).
    public enum View: String, Sendable, CaseIterable {
        case geometry, app
    }

    /// What scoring reads of a logged event: a few words, where the event is hundreds of bytes
    /// (a report keeps these, not the log).
    public struct Event: Sendable, Hashable {
        public enum Kind: UInt8, Sendable {
            case enter, exit, passthrough, lostEnter, lostExit

            /// What scoring reads an event of `type` as (a suppressed one by its `reason`); `nil`
            /// for what it does not read.
            init?(_ type: LogEvent.EventType, reason: () -> String?, view: View = .geometry, trigger: () -> String? = { nil }) {
                if view == .app {
                    switch type {
                    case .delivered, .duplicate:
                        switch trigger() {
                        case "enter"?: self = .enter
                        case "exit"?: self = .exit
                        default: return nil
                        }
                    case .dropped:
                        // What the platform lost or would not monitor; a transition its own rule
                        // did not confirm was never a notification.
                        guard reason() != OSProfile.DropReason.unconfirmed.rawValue else { return nil }
                        switch trigger() {
                        case "enter"?: self = .lostEnter
                        case "exit"?: self = .lostExit
                        default: return nil
                        }
                    default:
                        return nil
                    }
                    return
                }
                switch type {
                case .enter: self = .enter
                case .exit: self = .exit
                case .passthrough: self = .passthrough
                case .suppressed:
                    switch reason() {
                    case SignalLoss.entryReason?: self = .lostEnter
                    case SignalLoss.exitReason?: self = .lostExit
                    default: return nil
                    }
                default:
                    return nil
                }
            }
        }

        public var kind: Kind
        /// An enter interpolated between two fixes.
        public var interpolated: Bool
        /// The fence's index in the fence set.
        public var fence: Int32
        /// When it happened; a passthrough's when its span began (``enter``).
        public var time: Timestamp
        /// A passthrough's span's end (``exit``); the event's time for any other.
        private var until: Timestamp

        /// A passthrough's span (its time when the event gives none). Kept as the time and one
        /// more instant, as scoring reads no other event's span: 40 bytes an event, where three
        /// instants made it 64 (a long drive's report holds one for each of its 700,000 enters
        /// and exits, in a list grown by doubling).
        public var enter: Timestamp { time }
        public var exit: Timestamp { until }

        public init(kind: Kind, fence: Int32, time: Timestamp, interpolated: Bool, enter: Timestamp? = nil, exit: Timestamp? = nil) {
            self.kind = kind
            self.interpolated = interpolated
            self.fence = fence
            if kind == .passthrough {
                self.time = enter ?? time
                until = exit ?? time
            } else {
                self.time = time
                until = time
            }
        }
    }

    /// Turns logged events into what scoring reads, in order; the rest of the log is not kept.
    public struct Reader {
        /// The ids events name fences by, for one fence set: made once and shared by the readers
        /// of every trace scored against it. (Made by each trace's reader, a table of 100,000 ids
        /// was a serial stretch before each replay, and a batch of short drives cost time in the
        /// size of the fence set for each drive.)
        public final class Names: Sendable {
            let index: [String: Int]
            /// By fence index: the first fence of the same id (whose index events are scored
            /// under), and the id.
            let first: [Int32]
            let ids: [String]

            public init(_ fences: FenceSet) {
                var index: [String: Int] = [:]
                var first: [Int32] = []
                var ids: [String] = []
                // Room for every id at once (growing rehashed every id at each doubling), and
                // one hash of each: its slot found once, filled when empty.
                index.reserveCapacity(fences.fences.count)
                first.reserveCapacity(fences.fences.count)
                ids.reserveCapacity(fences.fences.count)
                /// The value of a dictionary slot reached through `subscript(_:default:)`'s modify
                /// accessor, which stores the default in an empty slot: a lookup and an insert in one.
                func stored(_ slot: inout Int) -> Int { slot }
                // Each fence's id read in place: a copy of a fence retains a dozen references.
                fences.fences.withUnsafeBufferPointer { fences in
                    for j in fences.indices {
                        let id = fences[j].id
                        first.append(Int32(stored(&index[id, default: j])))
                        ids.append(id)
                    }
                }
                self.index = index
                self.first = first
                self.ids = ids
            }
        }

        let names: Names
        var index: [String: Int] { names.index }
        var first: [Int32] { names.first }
        var ids: [String] { names.ids }
        /// Which notifications it reads.
        public let view: View
        public private(set) var events: [Event] = []

        /// The events taken so far, moved out (the reader holds none after).
        public mutating func takeEvents() -> [Event] {
            defer { events = [] }
            return events
        }
        /// Events of named geotriggers (`geotriggers:`): by fence, how many have the device inside.
        var watchedInside: [Int32: Int32] = [:]

        /// A reader of events naming the fences of `fences` (the first fence of an id).
        public init(fences: FenceSet, view: View = .geometry) {
            self.init(names: Names(fences), view: view)
        }

        /// A reader of events naming the fences `names` was made for.
        public init(names: Names, view: View = .geometry) {
            self.names = names
            self.view = view
        }

        /// Takes a line of the log as the replay releases it: a geotrigger event read from its
        /// own fields (no ``LogEvent`` is built), any other line as ``take(_:)-(LogEvent)``.
        mutating func take(_ line: LogLine) {
            guard case .engine(let engine) = line else {
                if case .event(let e) = line { take(e) }
                return
            }
            // The engine's lines are the geometry view.
            guard view == .geometry else { return }
            let e = engine.event
            guard let kind = Event.Kind(engine.type, reason: { e.reason }) else { return }
            // The engine's fence is one of the set the reader was made for when its id is.
            guard first.indices.contains(e.fence), engine.fenceID == ids[e.fence] else {
                return take(engine.logEvent)
            }
            if engine.geotrigger != nil, !watched(kind, first[e.fence]) { return }
            var span: (enter: Timestamp?, exit: Timestamp?) = (nil, nil)
            if kind == .passthrough {
                // As the log writes them and ``take(_:)-(LogEvent)`` reads them back: to the millisecond.
                span = (
                    e.enterTime.flatMap { LabelledVisits.time($0.description) }, e.exitTime.flatMap { LabelledVisits.time($0.description) }
                )
            }
            append(
                Event(
                    kind: kind, fence: first[e.fence], time: e.time, interpolated: kind == .enter && e.interpolated, enter: span.enter,
                    exit: span.exit))
        }

        /// Events a reader holds before it makes room for a long trace's (``eventsReserved``).
        static let longTrace = 1 << 16

        /// Events a long trace's reader makes room for at once: 64 MB of them (1.6 million), a
        /// block the allocator maps alone (``Support/Allocator/keepFreedMemory()``), whose pages
        /// count only once written. Grown by doubling, the list of a long drive's 700,000 events
        /// was copied at every step into fresh memory: 16,800 page faults on the replay's thread
        /// of the large workload's report, 7,800 now.
        static let eventsReserved = (64 << 20) / MemoryLayout<Event>.stride

        @inline(__always)
        private mutating func append(_ event: Event) {
            if events.count == events.capacity, events.count >= Reader.longTrace, events.count < Reader.eventsReserved {
                events.reserveCapacity(Reader.eventsReserved)
            }
            events.append(event)
        }

        /// Takes `e` when scoring reads it (enter, exit, passthrough of a fence of the set; an
        /// enter or exit suppressed by signal loss).
        public mutating func take(_ e: LogEvent) {
            guard
                let kind = Event.Kind(
                    e.type, reason: { Scoring.text(e.field("reason")) }, view: view,
                    trigger: { Scoring.text(e.field("trigger")) })
            else { return }
            guard let id = Scoring.text(e.field("fence")), let j = index[id] else { return }
            if e.field(Scenario.geotriggerKey) != nil, !watched(kind, Int32(j)) { return }
            var span: (enter: Timestamp?, exit: Timestamp?) = (nil, nil)
            if kind == .passthrough {
                span = (
                    Scoring.text(e.field("enterTime")).flatMap { LabelledVisits.time($0) },
                    Scoring.text(e.field("exitTime")).flatMap { LabelledVisits.time($0) }
                )
            }
            append(
                Event(
                    kind: kind, fence: Int32(j), time: e.time, interpolated: kind == .enter && Scoring.flag(e.field("interpolated")),
                    enter: span.enter, exit: span.exit))
        }
    }

    /// Scores one trace from its logged events (see ``score(truth:read:fences:trace:durationSeconds:bands:)``).
    public static func score(
        truth: [TruthVisit], events: [LogEvent], fences: FenceSet, trace: String, durationSeconds: Double,
        bands: [SpeedBand] = SpeedBand.standard
    ) -> TraceScore {
        var reader = Reader(fences: fences)
        for e in events { reader.take(e) }
        return score(truth: truth, read: reader.events, fences: fences, trace: trace, durationSeconds: durationSeconds, bands: bands)
    }

    /// Scores one trace.
    ///
    /// - Parameters:
    ///   - truth: the truth visits (any order).
    ///   - read: what a ``Reader`` took of the trace's event log, in time order.
    ///   - fences: the fence set the events name.
    ///   - trace: the trace's name.
    ///   - durationSeconds: the true path's duration.
    ///   - bands: speed bands for ``VisitScore/speedBand``.
    /// - Complexity: O((events + visits) × log visits of a fence).
    public static func score(
        truth: [TruthVisit], read events: [Event], fences: FenceSet, trace: String, durationSeconds: Double,
        bands: [SpeedBand] = SpeedBand.standard
    ) -> TraceScore {
        score(
            truth: truth, detected: Detections(read: events, fences: fences), fences: fences, trace: trace,
            durationSeconds: durationSeconds, bands: bands)
    }

    /// What a trace's notifications say before any truth is known: its detected visits in the
    /// order they began, grouped by fence, and its passthroughs and lost notifications. Made as
    /// soon as the replay ends, while the ground truth may still be walking the path (it is the
    /// serial start of scoring a long drive).
    public struct Detections: Sendable {
        /// In the order they began (visits of one fence that begin at one instant in the order
        /// they were read).
        public private(set) var visits: [DetectedVisit] = []
        /// Positions in ``visits`` by fence, fences ascending.
        let byFence: [(fence: Int, positions: ArraySlice<Int>)]
        /// By fence, the spans of its passthroughs and the instants of its lost enters.
        let passthroughSpans: [Int: [(Timestamp, Timestamp)]]
        let lostEnterTimes: [Int: [Timestamp]]
        public private(set) var orphanExits = 0
        public private(set) var passthroughs = 0
        public private(set) var lostEnters = 0
        public private(set) var lostExits = 0

        /// The detections of `events` (what a ``Reader`` took of a trace's log, in time order),
        /// naming fences of `fences`.
        public init(read events: [Event], fences: FenceSet) {
            self.init(read: events, fenceCount: fences.fences.count) { j in fences.fences[j].id }
        }

        /// The detections of `events`, naming fences of the set `names` was made of: each
        /// visit's id read from its compact table (1.6 MB for 100,000 fences), where reading it
        /// from the fence itself missed the cache at each enter (most of this, the serial start
        /// of a long drive's scoring, in perf).
        init(read events: [Event], names: Reader.Names) {
            self.init(read: events, fenceCount: names.ids.count) { j in names.ids[j] }
        }

        private init(read events: [Event], fenceCount: Int, id: (Int) -> String) {
            // Detected visits in the order they began; the open one of each fence by its position.
            var detections: [DetectedVisit] = []
            // Room for a visit per enter at once (an enter while its fence's visit is open adds
            // none): grown by doubling, a long drive's list was copied at every step into fresh
            // memory, on the replay's thread.
            var enters = 0
            for e in events where e.kind == .enter { enters += 1 }
            detections.reserveCapacity(enters)
            var open = OpenDetections(events: events.count, fences: fenceCount)
            var passthroughs: [Int: [(Timestamp, Timestamp)]] = [:]
            var lostEnters: [Int: [Timestamp]] = [:]
            for e in events {
                let j = Int(e.fence)
                switch e.kind {
                case .enter:
                    if let n = open[j] {
                        detections[n].duplicateEnters += 1
                    } else {
                        open.set(j, detections.count)
                        detections.append(
                            DetectedVisit(fence: j, fenceID: id(j), enter: e.time, interpolated: e.interpolated))
                    }
                case .exit:
                    if let n = open.remove(j) {
                        detections[n].exit = e.time
                    } else {
                        orphanExits += 1
                    }
                case .passthrough:
                    passthroughs[j, default: []].append((e.enter, e.exit))
                    self.passthroughs += 1
                case .lostEnter:
                    lostEnters[j, default: []].append(e.time)
                    self.lostEnters += 1
                case .lostExit:
                    lostExits += 1
                }
            }
            // Copied to its exact size when repeated enters left much of the room unused (a
            // list with slack sorted in place kept it: 22 MB more at the peak of the large
            // workload's report when the list grew by doubling). Stable: visits of one fence
            // that begin at one instant stay in the order they began (their positions break
            // ties).
            if detections.capacity - detections.count > detections.count / 8 { detections = detections.compacted() }
            detections.sortInEntryOrder { _, i, j in i < j }
            visits = detections
            byFence = Scoring.positionsByFence(detections.indices.map { detections[$0].fence })
            passthroughSpans = passthroughs
            lostEnterTimes = lostEnters
        }
    }

    /// Scores one trace against what its notifications say (``Detections``).
    ///
    /// - Complexity: O((detections + visits) × log visits of a fence).
    public static func score(
        truth: [TruthVisit], detected: Detections, fences: FenceSet, trace: String, durationSeconds: Double,
        bands: [SpeedBand] = SpeedBand.standard
    ) -> TraceScore {
        func zone(_ j: Int) -> String { fences.fences.indices.contains(j) ? fences.fences[j].zone ?? "default" : "default" }

        var result = TraceScore(
            trace: trace, durationSeconds: durationSeconds, detections: detected.visits, passthroughs: detected.passthroughs,
            lostEnters: detected.lostEnters, lostExits: detected.lostExits, orphanExits: detected.orphanExits)
        let detections = detected.visits
        let passthroughs = detected.passthroughSpans
        let lostEnters = detected.lostEnterTimes

        // The truth visits in report order (time, then fence id; visits of fences sharing an id
        // that begin together by fence index), and by fence: positions in that order.
        // Truth from ``GroundTruth`` comes in that order already: shared, not copied and sorted.
        var truths = truth
        // Checked in place (pairs of a zip were copies of both visits).
        let inOrder = truths.withUnsafeBufferPointer { v in
            v.indices.dropFirst().allSatisfy { k in
                v[k].enter != v[k - 1].enter ? v[k - 1].enter < v[k].enter : !(v[k].fenceID < v[k - 1].fenceID)
            }
        }
        if !inOrder { truths.sort(by: TruthVisit.ordered) }
        var run = 0
        while run < truths.count {
            var end = run + 1
            while end < truths.count, truths[end].enter == truths[run].enter, truths[end].fenceID == truths[run].fenceID { end += 1 }
            if end - run > 1 { truths[run..<end].sort { $0.fence < $1.fence } }
            run = end
        }
        let truthByFence = Scoring.positionsByFence(truths.indices.map { truths[$0].fence })
        let detectedByFence = detected.byFence

        // The fences with truth visits or detections, in fence order, with theirs.
        var jobs: [(fence: Int, truths: ArraySlice<Int>, detected: ArraySlice<Int>)] = []
        var t = 0
        var d = 0
        while t < truthByFence.count || d < detectedByFence.count {
            let j = min(t < truthByFence.count ? truthByFence[t].fence : .max, d < detectedByFence.count ? detectedByFence[d].fence : .max)
            var job: (fence: Int, truths: ArraySlice<Int>, detected: ArraySlice<Int>) = (j, [], [])
            if t < truthByFence.count, truthByFence[t].fence == j {
                job.truths = truthByFence[t].positions
                t += 1
            }
            if d < detectedByFence.count, detectedByFence[d].fence == j {
                job.detected = detectedByFence[d].positions
                d += 1
            }
            jobs.append(job)
        }
        /// Scores the fences of `jobs[range]`, each truth visit's score made once, in its place;
        /// the false detections in fence order, and how many scores were made.
        func score(_ range: Range<Int>, into place: UnsafeMutablePointer<VisitScore>) -> (falses: [TraceScore.FalseDetection], made: Int) {
            // The half's own copy of the trace's name, which every score it makes holds: two
            // threads retaining one string object fight over its reference count's cache line at
            // every score (a quarter of the scoring's time in perf).
            let trace = String(decoding: Array(trace.utf8), as: UTF8.self)
            var falses: [TraceScore.FalseDetection] = []
            var made = 0
            // Per fence, kept from one fence to the next (four arrays a fence were four
            // allocations, and the generic array metadata looked up for each).
            var detected: [DetectedVisit] = []
            var match: [DetectedVisit?] = []
            var last: [DetectedVisit?] = []
            var flaps: [Int] = []
            var falseExits: [Int] = []
            for q in range {
                if q + Scoring.prefetchedJobs < range.upperBound { prefetch(jobs[q + Scoring.prefetchedJobs], into: place) }
                let (j, mine, positions) = jobs[q]
                detected.removeAll(keepingCapacity: true)
                for p in positions { detected.append(detections[p]) }
                var timeline = TruthTimeline(mine.lazy.map { truths[$0] })
                match.removeAll(keepingCapacity: true)
                match.append(contentsOf: repeatElement(nil, count: mine.count))
                last.removeAll(keepingCapacity: true)
                last.append(contentsOf: repeatElement(nil, count: mine.count))
                flaps.removeAll(keepingCapacity: true)
                flaps.append(contentsOf: repeatElement(0, count: mine.count))
                falseExits.removeAll(keepingCapacity: true)
                falseExits.append(contentsOf: repeatElement(0, count: mine.count))
                for (n, d) in detected.enumerated() {
                    // The truth visits `d` overlaps: begun by its exit, not ended before its enter.
                    let begun = timeline.entered(by: d.exit)
                    if let u = timeline.firstUnmatched(endingAtOrAfter: d.enter, among: begun) {
                        match[u] = d
                        last[u] = d
                        timeline.markMatched(u)
                    } else if let c = timeline.first(endingAtOrAfter: d.enter, among: begun) {
                        flaps[c] += 1
                        if let l = last[c], d.enter >= l.enter { last[c] = d }
                    } else {
                        falses.append(TraceScore.FalseDetection(trace: trace, zone: zone(j), visit: d))
                    }
                    // A false exit: out while truly inside, and back in (or the trace over) before the true exit.
                    guard let exit = d.exit,
                        let u = timeline.first(endingAfter: exit, among: timeline.entered(by: exit))
                    else { continue }
                    if n + 1 < detected.count {
                        let next = detected[n + 1].enter
                        if truths[mine[mine.startIndex + u]].exit.map({ next <= $0 }) ?? true { falseExits[u] += 1 }
                    } else if truths[mine[mine.startIndex + u]].exit == nil {
                        falseExits[u] += 1
                    }
                }
                var gaps: MissEvidence?
                var losses: MissEvidence?
                for (k, p) in mine.enumerated() {
                    let t = truths[p]
                    var s = VisitScore(
                        trace: trace, zone: zone(j), truth: t, match: match[k], detectedExit: last[k]?.exit, flaps: flaps[k],
                        falseExits: falseExits[k], speedBand: SpeedBand.label(for: t.enterSpeed, in: bands))
                    if let m = match[k] {
                        s.enterLatency = m.enter.seconds(since: t.enter)
                        if let x = s.detectedExit, let tx = t.exit {
                            s.exitLatency = x.seconds(since: tx)
                            s.dwellError = x.seconds(since: m.enter) - tx.seconds(since: t.enter)
                        }
                    } else {
                        if gaps == nil { gaps = MissEvidence(intervals: passthroughs[j] ?? []) }
                        if losses == nil { losses = MissEvidence(instants: lostEnters[j] ?? []) }
                        if gaps?.meets(enter: t.enter, exit: t.exit) == true {
                            s.missReason = .gap
                        } else if losses?.meets(enter: t.enter, exit: t.exit) == true {
                            s.missReason = .entryLoss
                        } else {
                            s.missReason = .undetected
                        }
                    }
                    (place + p).initialize(to: consume s)
                    made += 1
                }
            }
            return (falses, made)
        }
        /// Asks for what `job` reads and writes: its truth visits, its detections and the places
        /// of its scores, scattered over lists in time order (hundreds of megabytes on a long
        /// drive) while fences are scored in fence order: read as each fence came, each missed
        /// the cache (most of scoring's time in perf). At most ``prefetchedVisits`` of each.
        func prefetch(_ job: (fence: Int, truths: ArraySlice<Int>, detected: ArraySlice<Int>), into place: UnsafeMutablePointer<VisitScore>)
        {
            truths.withUnsafeBufferPointer { t in
                for p in job.truths.prefix(Scoring.prefetchedVisits) {
                    Prefetch.readWhole(t, p)
                    Prefetch.writeWhole(place + p)
                }
            }
            detections.withUnsafeBufferPointer { d in
                for p in job.detected.prefix(Scoring.prefetchedVisits) { Prefetch.readWhole(d, p) }
            }
        }
        // A long trace's fences are scored in two halves side by side (halves by work: visits
        // and detections), each writing its own places; false detections keep fence order.
        let scored = [VisitScore](unsafeUninitializedCapacity: truths.count) { place, made in
            guard let base = place.baseAddress else { return }
            var halves = [0..<jobs.count]
            if truths.count + detections.count >= Scoring.parallelAbove {
                var work = 0
                var split = 0
                let total = truths.count + detections.count
                while split < jobs.count, 2 * work < total {
                    work += jobs[split].truths.count + jobs[split].detected.count
                    split += 1
                }
                halves = [0..<split, split..<jobs.count]
            }
            struct Shared: @unchecked Sendable {
                let body: (Int) -> (falses: [TraceScore.FalseDetection], made: Int)
            }
            let parts = PthreadLock<[(falses: [TraceScore.FalseDetection], made: Int)?]>(Array(repeating: nil, count: halves.count))
            let shared = Shared { k in score(halves[k], into: base) }
            if halves.count == 1 {
                parts.withLock { $0[0] = shared.body(0) }
            } else {
                DispatchQueue.concurrentPerform(iterations: halves.count) { k in
                    let part = shared.body(k)
                    parts.withLock { $0[k] = part }
                }
            }
            for part in parts.withLock({ $0 }) {
                guard let part else { continue }
                result.falseDetections += part.falses
                made += part.made
            }
            precondition(made == truths.count, "a truth visit was scored \(made < truths.count ? "never" : "twice")")
        }
        result.visits = scored
        result.falseDetections.sort { a, b in
            a.visit.enter != b.visit.enter ? a.visit.enter < b.visit.enter : a.visit.fenceID < b.visit.fenceID
        }
        return result
    }

    /// How many fences ahead scoring asks for the visits it will read (``score(truth:detected:fences:trace:durationSeconds:bands:)``).
    static let prefetchedJobs = 2
    /// The most truth visits, and detections, of one fence asked for ahead.
    static let prefetchedVisits = 16

    /// By fence, the position of its open detection while scoring reads a trace's events: a slot
    /// per fence of the set when the events are many for it (a long drive: a hash an event was
    /// most of the serial start of its scoring), else a table of its own (a batch of short
    /// drives over a large fence set scores each trace in time that grows with its events, not
    /// with the fences).
    struct OpenDetections {
        /// By fence index, the position, -1 for none; empty when ``table`` is used.
        private var slots: [Int]
        private var table: [Int: Int] = [:]

        init(events: Int, fences: Int) {
            slots = events >= fences / 4 ? [Int](repeating: -1, count: fences) : []
        }

        subscript(fence: Int) -> Int? {
            if slots.isEmpty { return table[fence] }
            let n = slots[fence]
            return n >= 0 ? n : nil
        }

        mutating func set(_ fence: Int, _ position: Int) {
            if slots.isEmpty { table[fence] = position } else { slots[fence] = position }
        }

        /// The fence's open detection, no longer open.
        mutating func remove(_ fence: Int) -> Int? {
            if slots.isEmpty { return table.removeValue(forKey: fence) }
            let n = slots[fence]
            slots[fence] = -1
            return n >= 0 ? n : nil
        }
    }

    /// Positions `0..<fences.count` grouped by `fences[position]` (fence indices, at least 0),
    /// fences ascending, positions ascending within each.
    ///
    /// - Complexity: O(positions + highest index) with a counting sort (stable) when the indices
    ///   are dense (a long drive's visits over its fence set: a comparison sort of them was the
    ///   scoring's largest serial step), else O(positions × log positions) with a comparison
    ///   sort, so that a short trace over a large fence set costs nothing per fence.
    static func positionsByFence(_ fences: [Int]) -> [(fence: Int, positions: ArraySlice<Int>)] {
        guard let top = fences.max() else { return [] }
        precondition(fences.allSatisfy { $0 >= 0 }, "fence indices are at least 0")
        let order: [Int]
        if top < 2 * fences.count + 1024 {
            var starts = [Int](repeating: 0, count: top + 2)
            for j in fences { starts[j + 1] += 1 }
            for j in 0...top { starts[j + 1] += starts[j] }
            order = [Int](unsafeUninitializedCapacity: fences.count) { buffer, count in
                guard let base = buffer.baseAddress else { return }
                for (position, j) in fences.enumerated() {
                    (base + starts[j]).initialize(to: position)
                    starts[j] += 1
                }
                count = fences.count
            }
        } else {
            order = fences.indices.sorted { a, b in fences[a] != fences[b] ? fences[a] < fences[b] : a < b }
        }
        var groups: [(fence: Int, positions: ArraySlice<Int>)] = []
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count, fences[order[end]] == fences[order[start]] { end += 1 }
            groups.append((fences[order[start]], order[start..<end]))
            start = end
        }
        return groups
    }

    /// Truth visits and detections of a trace from which its fences are scored on two threads.
    static let parallelAbove = 20_000

    static func text(_ value: JSONValue?) -> String? {
        if case .string(let s)? = value { return s }
        return nil
    }

    static func flag(_ value: JSONValue?) -> Bool {
        if case .bool(let b)? = value { return b }
        return false
    }
}
