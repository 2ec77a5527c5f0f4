import Fences
import Spatial
import Support

/// The per-device, per-fence geotrigger state machines of SPEC §2: the one engine every
/// command replays through.
///
/// Feed it the samples of one trace in time order with ``process(_:into:)``; it appends the events
/// each sample causes, sorted by time, then fence id, then kind. It never reads the clock or does I/O.
///
/// Per sample it looks only at fences whose state could change:
/// - A *scheduled* fence (``FenceIndex/isScheduled(kind:fenceKind:settings:noise:)``: its state after a
///   fix depends on that fix alone) is tested once, then again only when the device could have
///   reached its boundary: its condition cannot change until the device (its position, and the
///   radius of its accuracy disc when the fence uses the accuracy feed) has moved at least as far
///   as the fence's clearance at its last test (``FenceDecision``). A calendar of odometer buckets
///   hands back the fences that are due (see `GeotriggerEngine+Calendar.swift`). A visit hidden
///   between two fixes lies within that distance too, so it is looked for when the fence is
///   tested.
/// - Every other fence (a filter, dwell, debounce, a noisy beacon, a line) is tested at every fix
///   whose query (the feed's disc and, when movement between fixes matters, the segment from the
///   previous fix) reaches its grid cells, and at every fix while it is inside or about to flip.
///
/// What the engine makes of the state changes is fixed at construction (``Output``): events with
/// their provenance, or enters and exits counted.
///
/// - Important: Not thread-safe (it drives its ``CompiledFences``' GEOS context). Use one engine
///   per trace and worker. Because of that, the state it changes on every sample is marked
///   `@exclusivity(unchecked)`: the compiler still checks exclusive access statically, and the
///   runtime's bookkeeping, about 2% of a bench replay's CPU (perf), is left out.
public final class GeotriggerEngine {
    /// What the engine makes of state changes.
    public enum Output: Sendable {
        /// Every event, with the signed distance to the boundary (provenance), and visits hidden
        /// between fixes (per the fences' `gapPolicy`).
        case events
        /// Enters and exits only counted, as ``tallies`` (bench summaries need nothing else, and
        /// an event is a large value); no distances, no hidden visits. Other kinds of events are
        /// still made.
        case counts
    }

    /// Counts over the samples processed so far.
    public struct Statistics: Hashable, Sendable {
        public var samples = 0
        /// (sample, fence) pairs a fence's filter rejected.
        public var filtered = 0
        /// (sample, fence) pairs whose feed was inside the fence after the sample.
        public var insidePairs = 0
        /// State flips that did not last long enough to be confirmed (debounce).
        public var suppressedFlips = 0
        /// Gaps longer than the global `maxGap` (each starts a new segment).
        public var gaps = 0
        /// Samples refused because their time was earlier than the previous sample's.
        public var outOfOrder = 0

        public init() {}
    }

    /// Something about the trace itself that the engine noticed (for `warning` events).
    public struct Finding: Hashable, Sendable {
        public var fixIndex: Int
        public var time: Timestamp
        public var message: String
        public var kind: String
    }

    struct Pending {
        var since: Timestamp
        var sinceFix: Int
        var count: Int
    }

    /// The settings the per-sample path needs, as plain values (no reference counting).
    struct Profile {
        var accuracyFeed: Bool
        var relationship: GeotriggerSettings.Relationship
        var maxGap: Double
        var hiddenVisits: Bool
        var dwell: Double?
        var filterID: Int
        var isLine: Bool
        var feed: GeotriggerSettings.Feed
        var notifyEnter: Bool
        var notifyExit: Bool
        var hasMessage: Bool
        var immediateEnter: Bool
        var immediateExit: Bool
        var initialNone: Bool
        /// Whether its changes of state are kept for an `inside` line (``levelChanges``).
        var level: Bool
        /// Whether it exists only part of the time (``exists``; `GeotriggerEngine+Validity.swift`).
        var hasValidity = false
    }

    /// Each fence's ``Profile`` in a cache line of its own (each at a multiple of 64 bytes), read
    /// by every engine over the fences without reference counting.
    ///
    /// An enter or exit reads its fence's profile twice (deciding the transition, then making the
    /// event), fences far apart in memory from one event to the next. In an array, a profile of
    /// 58 bytes after the array's 32-byte header straddled two cache lines: the event's read of
    /// the second was three quarters of `makeEvent`'s samples in perf (a load from memory per
    /// event).
    struct ProfileTable: @unchecked Sendable {
        /// Bytes from one profile to the next: the profile's size rounded up to whole lines.
        static let stride = (MemoryLayout<Profile>.stride + 63) / 64 * 64
        private let storage: Storage
        private let base: UnsafeMutableRawPointer

        /// Owns the memory (freed with the last table that reads it).
        private final class Storage {
            let base: UnsafeMutableRawPointer
            let count: Int
            init(count: Int) {
                self.count = count
                base = .allocate(byteCount: max(1, count) * ProfileTable.stride, alignment: 64)
            }
            deinit {
                for j in 0..<count { (base + j * ProfileTable.stride).assumingMemoryBound(to: Profile.self).deinitialize(count: 1) }
                base.deallocate()
            }
        }

        init(_ profiles: [Profile]) {
            storage = Storage(count: profiles.count)
            base = storage.base
            for (j, profile) in profiles.enumerated() { (base + j * ProfileTable.stride).initializeMemory(as: Profile.self, to: profile) }
        }

        var count: Int { storage.count }

        subscript(fence: Int) -> Profile {
            @inline(__always) get {
                precondition(fence >= 0 && fence < storage.count, "a fence of the table")
                return (base + fence * ProfileTable.stride).assumingMemoryBound(to: Profile.self).pointee
            }
        }
    }

    struct FenceState {
        var inside = false
        var pending: Pending?
        var enteredAt: Timestamp?
        var dwellDone = false
    }

    public let fences: CompiledFences
    /// What state changes become.
    public let output: Output
    /// With ``Output/events``: the fences' labels, which the engine asks the processor to fetch
    /// for each event it makes (``FenceLabels/prefetch(_:)``).
    let labels: FenceLabels?
    /// With ``Output/counts``: the enters and exits since the caller last emptied this list.
    @exclusivity(unchecked) public var tallies: [Tally] = []

    /// An enter or exit counted without its event (see ``Output/counts``).
    public struct Tally: Hashable, Sendable {
        public var enter: Bool
        public var fixIndex: Int
        public var fence: Int
    }
    let profiles: ProfileTable
    // The compiled shapes as plain arrays (see CompiledFences): `let`, so reads need no access
    // bookkeeping.
    let kinds: [FenceIndex.Kind]
    let centerX: [Double]
    let centerY: [Double]
    let radius: [Double]
    let exitRadius: [Double]
    /// Slot to fence and fence to slot (see ``FenceIndex/slotFence``).
    let slotFence: [Int32]
    let fenceSlot: [Int32]
    /// The grid, read through plain pointers into the index (which `fences` keeps alive).
    let cellTable: FenceIndex.CellTable
    /// Whether any fence uses the accuracy feed (queries then cover the disc), and whether the
    /// query covers the movement from the previous fix (lines, or visits hidden between fixes
    /// with events): read from the index once.
    let usesAccuracyFeed: Bool
    let queriesMovement: Bool
    /// The trace's name, for message templates.
    public var traceName: String
    @exclusivity(unchecked) public internal(set) var statistics = Statistics()
    @exclusivity(unchecked) public internal(set) var findings: [Finding] = []
    /// The changes of state of fences whose settings ask for ``GeotriggerSettings/Level``, in
    /// the order made, since they were last taken (``takeLevelChanges(_:)``).
    @exclusivity(unchecked) var levelChanges: [LevelChange] = []
    /// Global maximum gap (the smallest of all fences' `maxGap`) used for segment findings.
    let globalMaxGap: Double
    /// The fences with a validity (`GeotriggerEngine+Validity.swift`), and by fence, whether it
    /// exists now and since when (both empty when no fence has a validity).
    let validityFences: [Int32]
    /// Those with a schedule (looked at every fix), and the `validFrom` and `validUntil` of the
    /// others in time order, read from ``boundaryCursor`` on (the first not yet passed).
    let scheduleFences: [Int32]
    let validityBoundaries: [(time: Timestamp, fence: Int32)]
    @exclusivity(unchecked) var boundaryCursor = 0
    @exclusivity(unchecked) var exists: [Bool]
    @exclusivity(unchecked) var existsSince: [Timestamp]

    /// By fence: its place in ``states`` (-1 for a scheduled fence, whose state is its watch).
    let scannedOrdinal: [Int32]
    let stateCount: Int
    /// Per-fence state (by place) and query marks (by slot) of the fences tested at every fix, in
    /// memory owned by the engine: the hot loop reads and writes them without copy-on-write or
    /// exclusivity bookkeeping. Both element types are trivial (no references), so raw storage
    /// is safe; freed in `deinit`.
    let states: UnsafeMutablePointer<FenceState>
    let marks: UnsafeMutablePointer<UInt32>
    /// The slots of the fences tested at every fix that the device is inside or about to change.
    @exclusivity(unchecked) var active: [Int32] = []
    @exclusivity(unchecked) var stamp: UInt32 = 0
    @exclusivity(unchecked) var previous: Sample?
    let filters: [FilterExpression]
    @exclusivity(unchecked) var filterPass: [Bool]
    /// Per filter (by `filterID`, from 1), the previous sample that passed it (segments for
    /// crossings use it); a fence without a filter moves from ``previous``.
    @exclusivity(unchecked) var previousPassing: [Sample?]

    /// The previous sample that passed filter `filterID` (0: no filter, the previous sample).
    @inline(__always)
    func lastPassing(_ filterID: Int) -> Sample? {
        filterID == 0 ? previous : previousPassing[filterID]
    }
    @exclusivity(unchecked) var scratch: [GeotriggerEvent] = []
    /// The sort keys of the scratch events, and the storage they are reordered into (reused; see
    /// ``orderScratch()``).
    @exclusivity(unchecked) var orderKeys: [OrderKey] = []
    @exclusivity(unchecked) var spareScratch: [GeotriggerEvent] = []

    /// What orders the events of one fix: time, then fence id (its rank), then kind, then the
    /// order made (a stable sort).
    struct OrderKey {
        var time: Timestamp
        var fenceRank: Int32
        var kindRank: Int32
        var index: Int

        @inline(__always)
        static func < (a: OrderKey, b: OrderKey) -> Bool {
            if a.time != b.time { return a.time < b.time }
            if a.fenceRank != b.fenceRank { return a.fenceRank < b.fenceRank }
            if a.kindRank != b.kindRank { return a.kindRank < b.kindRank }
            return a.index < b.index
        }
    }

    /// Sorts ``scratch`` by time, then fence id, then kind, stably: the small keys are sorted
    /// and each event is moved once, instead of the large events being moved about while sorted
    /// (sorting them was 2 % of an event-log replay in perf).
    func orderScratch() {
        let rank = idRank
        orderKeys.removeAll(keepingCapacity: true)
        var inOrder = true
        for k in scratch.indices {
            let key = OrderKey(time: scratch[k].time, fenceRank: rank[scratch[k].fence], kindRank: Int32(scratch[k].kind.rank), index: k)
            if let last = orderKeys.last, !(last < key) { inOrder = false }
            orderKeys.append(key)
        }
        if inOrder { return }
        orderKeys.sort { $0 < $1 }
        spareScratch.removeAll(keepingCapacity: true)
        for key in orderKeys { spareScratch.append(scratch[key.index]) }
        swap(&scratch, &spareScratch)
    }
    /// The storage of the previous sample's active list, kept for the next one's (see `process`).
    @exclusivity(unchecked) var spareActive: [Int32] = []
    /// The movement last made into a GEOS line, with its ends (fences with filters move from
    /// their own last passing fix, so one fix can need several).
    @exclusivity(unchecked) var segmentGeometry: (from: XY, to: XY, geometry: Geometry)?
    var bufferedAreas: [Int: (radius: Double, geometry: Geometry)] = [:]
    /// Each fence's rank in id order, for ordering the events of one instant (fetched once).
    lazy var idRank: [Int32] = fences.index.idRank
    /// The sample being processed, while the scheduled fences are tested (read when a fence
    /// flips; not copied for every fix).
    @exclusivity(unchecked) var current: UnsafePointer<Sample>?
    /// The fence whose test is making its enter or exit, and the signed distance to the
    /// millimetre the test measured (`nil` when the test's distance cannot settle it): the event
    /// need not measure the fence again (see ``eventDistance(_:_:)``).
    @exclusivity(unchecked) var measuredFence = -1
    @exclusivity(unchecked) var measuredMillimetres: Double?
    /// The scheduled fences' calendar (see `GeotriggerEngine+Calendar.swift`).
    @exclusivity(unchecked) var calendar: Calendar

    public init(fences: CompiledFences, traceName: String, output: Output = .events) {
        self.fences = fences
        self.traceName = traceName
        self.output = output
        labels = output == .events ? fences.index.labels : nil
        kinds = fences.index.kinds
        centerX = fences.index.centerX
        centerY = fences.index.centerY
        radius = fences.index.radius
        exitRadius = fences.index.exitRadius
        slotFence = fences.index.slotFence
        fenceSlot = fences.index.fenceSlot
        cellTable = fences.index.cellTable
        usesAccuracyFeed = fences.index.usesAccuracyFeed
        queriesMovement = fences.index.hasLines || (fences.index.needsSegments && output == .events)
        scannedOrdinal = fences.index.scannedOrdinal
        stateCount = max(1, fences.index.scannedOrdinal.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) })
        states = UnsafeMutablePointer<FenceState>.allocate(capacity: stateCount)
        states.initialize(repeating: FenceState(), count: stateCount)
        marks = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, fences.count))
        marks.initialize(repeating: 0, count: max(1, fences.count))
        // Worked out once for the index and shared by every worker's engine.
        let setup = fences.index.engineSetup
        filters = setup.filters
        validityFences = setup.validityFences
        (scheduleFences, validityBoundaries) = GeotriggerEngine.validityTimeline(fences.fenceSet, validityFences)
        profiles = setup.profiles
        exists = Array(repeating: true, count: validityFences.isEmpty ? 0 : fences.count)
        existsSince = Array(repeating: .earliest, count: validityFences.isEmpty ? 0 : fences.count)
        filterPass = Array(repeating: true, count: setup.filters.count + 1)
        previousPassing = Array(repeating: nil, count: setup.filters.count + 1)
        globalMaxGap = setup.globalMaxGap
        calendar = Calendar(index: fences.index)
    }

    /// What every engine over a fence set derives from its settings: the distinct filters, each
    /// fence's ``Profile`` (whose `filterID` is 0 for none, else 1 + the filter's place in
    /// `filters`) and the smallest `maxGap`.
    struct Setup {
        let filters: [FilterExpression]
        let profiles: ProfileTable
        let globalMaxGap: Double
        /// The fences with a validity (``Fences/Fence/hasValidity``), in fence order.
        let validityFences: [Int32]

        /// Each distinct settings value's profile worked out once, in the order of the first
        /// fence that has it (so filters are numbered in the order of the fences, as when each
        /// fence was read in turn), then given to each of its fences.
        /// `validityFences`: the fences with a validity (``Fences/Fence/hasValidity``).
        init(settings: FenceSettings, shapes: [FenceIndex.Shape], validityFences: [Int32] = []) {
            var filters: [FilterExpression] = []
            var byPosition = [Profile?](repeating: nil, count: settings.distinct.count)
            for p in settings.positionsInUse() {
                let s = settings.distinct[p]
                var id = 0
                if let f = s.filter {
                    if let k = filters.firstIndex(of: f) {
                        id = k + 1
                    } else {
                        filters.append(f)
                        id = filters.count
                    }
                }
                byPosition[p] = Profile(
                    accuracyFeed: s.feed == .accuracy, relationship: s.relationship,
                    maxGap: s.maxGapSeconds, hiddenVisits: s.gapPolicy != .ignore,
                    dwell: s.dwellSeconds, filterID: id, isLine: false, feed: s.feed,
                    notifyEnter: s.notify.includesEnter, notifyExit: s.notify.includesExit,
                    hasMessage: s.message != nil, immediateEnter: s.enterAfter.isImmediate,
                    immediateExit: s.exitAfter.isImmediate, initialNone: s.initialTrigger == .none,
                    level: s.level != .none)
            }
            var profiles: [Profile] = []
            profiles.reserveCapacity(settings.count)
            for j in settings.indices {
                var profile = byPosition[settings.position(of: j)]!
                if case .line = shapes[j] { profile.isLine = true }
                profiles.append(profile)
            }
            for j in validityFences { profiles[Int(j)].hasValidity = true }
            self.filters = filters
            self.validityFences = validityFences
            self.profiles = ProfileTable(profiles)
            globalMaxGap = GeotriggerEngine.smallestMaxGap(settings)
        }
    }

    /// The `maxGap` beyond which two fixes are of different segments: the smallest of the
    /// fences' (as `Sequence.min()` finds it: the first value, then any smaller one), read in
    /// place; 120 s when there are no fences.
    public static func smallestMaxGap(_ settings: FenceSettings) -> Double {
        var maxGap = Double.infinity
        // The distinct values in the order of their first fences: repeats change nothing.
        for (k, p) in settings.positionsInUse().enumerated() where k == 0 || settings.distinct[p].maxGapSeconds < maxGap {
            maxGap = settings.distinct[p].maxGapSeconds
        }
        return settings.isEmpty ? 120 : maxGap
    }

    deinit {
        states.deinitialize(count: stateCount)
        states.deallocate()
        marks.deallocate()
        calendar.deallocate()
    }

    /// The value of a fix field for filters and messages.
    static func field(_ f: FixField, _ s: Sample, first: Timestamp?, previous: Sample?) -> Double? {
        switch f {
        case .accuracy: s.accuracy
        case .speed: s.speed
        case .course: s.course
        case .altitude: s.altitude
        case .hdop: s.hdop
        case .satellites: s.satellites.map(Double.init)
        case .latitude: s.latitude
        case .longitude: s.longitude
        case .elapsed: first.map { s.time.seconds(since: $0) }
        case .interval: previous.map { s.time.seconds(since: $0.time) }
        }
    }

    @exclusivity(unchecked) var firstTime: Timestamp?

    /// Processes the next sample of the trace and appends the events it causes to `events`.
    ///
    /// - Complexity: proportional to the scheduled fences whose boundary the device may have
    ///   reached, plus the other fences whose envelopes the sample reaches or that the device is
    ///   inside.
    public func process(_ sample: Sample, into events: inout [GeotriggerEvent]) {
        // The previous sample's time and index read in place: `if let previous` copies the
        // whole sample (two copies a fix, a fifth of the engine's own `memcpy`s).
        if let previousTime = previous?.time, let previousIndex = previous?.index, sample.time < previousTime {
            statistics.outOfOrder += 1
            findings.append(
                Finding(
                    fixIndex: sample.index, time: sample.time,
                    message: "fix \(sample.index) is earlier than fix \(previousIndex); skipped", kind: "time-backwards"))
            return
        }
        statistics.samples += 1
        let isFirst = previous == nil
        if isFirst { firstTime = sample.time }
        if let previousTime = previous?.time, let previousIndex = previous?.index,
            sample.time.seconds(since: previousTime) > globalMaxGap
        {
            statistics.gaps += 1
            let gap = sample.time.seconds(since: previousTime)
            findings.append(
                Finding(
                    fixIndex: sample.index, time: sample.time,
                    message:
                        "gap of \(MessageTemplate.format(gap)) s between fixes \(previousIndex) and \(sample.index) starts a new segment (maxGap \(MessageTemplate.format(globalMaxGap)) s)",
                    kind: "gap"))
        }
        scratch.removeAll(keepingCapacity: true)
        // Fences that appeared or disappeared since the previous fix, tested there (the filters
        // still hold that fix's answers).
        if !validityFences.isEmpty {
            if let previous { applyValidityChanges(from: previous, to: sample) } else { startValidity(at: sample) }
        }
        // Filters: evaluate each distinct expression once.
        for k in 0..<filters.count {
            filterPass[k + 1] = filters[k].accepts { GeotriggerEngine.field($0, sample, first: firstTime, previous: previous) }
        }
        if segmentGeometry != nil { segmentGeometry = nil }

        // The query covers the feed disc and, when movement between fixes matters, the movement
        // from the previous sample (or, for a fence with a filter, from the last sample that
        // passed it) swept by the larger of the two discs.
        let reach = usesAccuracyFeed ? sample.accuracy : 0
        var box = BoundingBox(
            minX: sample.position.x - reach, minY: sample.position.y - reach,
            maxX: sample.position.x + reach, maxY: sample.position.y + reach)
        if queriesMovement {
            for k in previousPassing.indices {
                guard let from = lastPassing(k) else { continue }
                let wider = usesAccuracyFeed ? max(reach, from.accuracy) : 0
                box.include(
                    BoundingBox(
                        minX: from.position.x - wider, minY: from.position.y - wider,
                        maxX: from.position.x + wider, maxY: from.position.y + wider))
                box.include(
                    BoundingBox(
                        minX: sample.position.x - wider, minY: sample.position.y - wider,
                        maxX: sample.position.x + wider, maxY: sample.position.y + wider))
            }
        }
        // A nanometre more, so that a disc that just touches a fence's envelope reaches its cells
        // whichever way the arithmetic rounds (see FenceDecision.beyondEnvelope).
        let range = cellTable.cells(box.expanded(by: FenceDecision.envelopeMargin))

        // Scheduled fences: those whose boundary the device may have reached since their last
        // test, and those of cells the query has just reached.
        withUnsafePointer(to: sample) { current in
            self.current = current
            schedule(sample, range: range, isFirst: isFirst)
            self.current = nil
        }

        // Every other fence of the cells the query reaches, then those registered in no cell,
        // then those the device is inside or about to flip, even far from the sample.
        if cellTable.hasScanned {
            stamp &+= 1
            if stamp == 0 {
                marks.update(repeating: 0, count: fences.count)
                stamp = 1
            }
            let currentStamp = stamp
            var stillActive: [Int32] = []
            swap(&stillActive, &spareActive)
            stillActive.removeAll(keepingCapacity: true)
            let table = cellTable
            if let range {
                let multiCell = range.c0 != range.c1 || range.r0 != range.r1
                let marks = self.marks
                for row in range.r0...range.r1 {
                    for column in range.c0...range.c1 {
                        let cell = row * table.columns + column
                        for k in Int(table.scannedStarts[cell])..<Int(table.scannedStarts[cell + 1]) {
                            let slot = Int(table.scannedSlots[k])
                            if multiCell, marks[slot] == currentStamp { continue }
                            marks[slot] = currentStamp
                            evaluateAndTrack(slot: slot, sample, isFirst: isFirst, &stillActive)
                        }
                    }
                }
            }
            for slot in table.largeScanned where marks[Int(slot)] != currentStamp {
                marks[Int(slot)] = currentStamp
                evaluateAndTrack(slot: Int(slot), sample, isFirst: isFirst, &stillActive)
            }
            for slot in active where marks[Int(slot)] != currentStamp {
                marks[Int(slot)] = currentStamp
                evaluateAndTrack(slot: Int(slot), sample, isFirst: isFirst, &stillActive)
            }
            // The two lists trade places (swaps move them, without reference counting).
            swap(&spareActive, &active)
            swap(&active, &stillActive)
        }
        if scratch.count > 1 { orderScratch() }
        if !scratch.isEmpty {
            // Into the caller's empty buffer (a replay empties it at every fix) the events move
            // with the storage, swapped: no copy of each event. The caller's storage is reused
            // as the scratch list.
            if events.isEmpty { swap(&events, &scratch) } else { events.append(contentsOf: scratch) }
        }
        previous = sample
        for k in 1..<previousPassing.count where filterPass[k] {
            previousPassing[k] = sample
        }
    }

    /// Whether these settings change a fence's state at a sample from that sample and the state
    /// before it alone (no filter, dwell or debounce, which look at earlier samples or at time).
    public static func hasPlainTransitions(_ settings: FenceSettings) -> Bool {
        settings.allSatisfy { s in
            s.filter == nil && s.dwellSeconds == nil && s.enterAfter.isImmediate && s.exitAfter.isImmediate
        }
    }

    /// Whether a fence enters and stays on one condition: not a beacon whose proximity is
    /// nearer than its range (it checks in within the proximity and out beyond the range), and
    /// not `contains-intersects` with the accuracy feed (in on containment, out when the disc no
    /// longer touches). Otherwise its state remembers which condition it last met.
    public static func entersAndStaysAlike(
        _ kind: Fence.Kind, relationship: GeotriggerSettings.Relationship,
        feed: GeotriggerSettings.Feed, bufferMeters: Double
    ) -> Bool {
        if case .beacon(let range, let proximity) = kind, proximity.distance(range: range) != range + max(0, bufferMeters) {
            return false
        }
        return relationship != .containsIntersects || feed == .point
    }

    /// Whether these fences and settings make every fence's state after a sample depend only on
    /// that sample (``hasPlainTransitions(_:)`` and
    /// ``entersAndStaysAlike(_:relationship:feed:bufferMeters:)``, and no hidden-visit
    /// detection), and no fence exists only part of the time: then a trace can be cut into slices replayed independently, each engine
    /// first ``resynchronize(with:)``-ing on the sample before its slice.
    public static func isMemoryless(_ settings: FenceSettings, fences: [Fence]) -> Bool {
        // Read in place: copying a fence or its settings costs a dozen reference counts.
        guard hasPlainTransitions(settings) else { return false }
        return settings.distinct.withUnsafeBufferPointer { distinct in
            fences.withUnsafeBufferPointer { fences in
                zip(fences.indices, settings.indices).allSatisfy { j, k in
                    let s = distinct.baseAddress! + settings.position(of: k)
                    return !fences[j].hasValidity
                        && entersAndStaysAlike(
                            fences[j].kind, relationship: s.pointee.relationship, feed: s.pointee.feed,
                            bufferMeters: s.pointee.bufferMeters)
                }
            }
        }
    }

    /// Forgets every fence's state and takes the state `sample` gives, without events or
    /// statistics: for replaying a slice of a trace whose previous sample is `sample` (valid
    /// when the fences and settings are ``isMemoryless(_:fences:)`` and hidden visits are not
    /// detected).
    public func resynchronize(with sample: Sample) {
        restart()
        let savedStatistics = statistics
        let savedFindings = findings.count
        let savedTallies = tallies.count
        var discarded: [GeotriggerEvent] = []
        process(sample, into: &discarded)
        statistics = savedStatistics
        findings.removeLast(findings.count - savedFindings)
        tallies.removeLast(tallies.count - savedTallies)
    }

    /// Hands `body` the findings since the last call, in the order found, and forgets them (a
    /// long trace's findings are not kept).
    /// Hands over the changes of state kept for `inside` lines since the last call, in the order
    /// made (see ``GeotriggerSettings/Level``).
    public func takeLevelChanges(_ body: (LevelChange) -> Void) {
        guard !levelChanges.isEmpty else { return }
        for change in levelChanges { body(change) }
        levelChanges.removeAll(keepingCapacity: true)
    }

    public func takeFindings(_ body: (Finding) -> Void) {
        guard !findings.isEmpty else { return }
        for finding in findings { body(finding) }
        findings.removeAll(keepingCapacity: true)
    }

    /// Forgets every fence's state and the previous sample, as if no sample had been processed
    /// (statistics and findings are kept): for replaying another trace with the same engine.
    public func restart() {
        for slot in active {
            states[Int(scannedOrdinal[Int(slotFence[Int(slot)])])] = FenceState()
        }
        active.removeAll(keepingCapacity: true)
        calendar.restart()
        previous = nil
        for k in previousPassing.indices { previousPassing[k] = nil }
    }

    /// A standard normal deviate for beacon `fence` at fix `fix`: a pure function of the seed and
    /// the pair, so the noise does not depend on evaluation order or the number of workers.
    static func signalNoise(seed: UInt64, fence: Int, fix: Int) -> Double {
        var rng = SplitMix64(
            seed: seed ^ (UInt64(truncatingIfNeeded: fence) &* 0x9E37_79B9_7F4A_7C15)
                ^ (UInt64(truncatingIfNeeded: fix) &* 0xC2B2_AE3D_27D4_EB4F))
        return rng.nextGaussian()
    }

    /// `evaluate` of the fence in `slot`, then the active list.
    @inline(__always)
    func evaluateAndTrack(slot: Int, _ sample: Sample, isFirst: Bool, _ stillActive: inout [Int32]) {
        let j = Int(slotFence[slot])
        evaluate(j, sample, isFirst: isFirst)
        let state = states[Int(scannedOrdinal[j])]
        if state.inside || state.pending != nil { stillActive.append(Int32(slot)) }
    }

    /// Evaluates fence `j` at `sample`: state transitions, debounce, dwell, crossings.
    ///
    /// The common case (no change of state, no pending flip) reads only the fence's plain
    /// ``Profile``; the full settings are read only when an event may be written.
    func evaluate(_ j: Int, _ sample: Sample, isFirst: Bool) {
        let profile = profiles[j]
        if profile.hasValidity, !exists[j] { return }
        guard filterPass[profile.filterID] else {
            statistics.filtered += 1
            if states[Int(scannedOrdinal[j])].inside { statistics.insidePairs += 1 }
            return
        }
        // Line fences: crossings of the movement segment.
        if profile.isLine {
            if let previousSample = lastPassing(profile.filterID), sample.continues(previousSample, maxGap: profile.maxGap),
                existed(j, since: previousSample.time), case .line(let points) = fences.shapes[j]
            {
                lineCrossings(j, points, previousSample, sample, fences.settings[j])
            }
            return
        }

        let a = profile.accuracyFeed ? sample.accuracy : 0
        let (enterCondition, stayCondition) = conditions(j, sample.position, a, profile.relationship, sampleIndex: sample.index)
        let ordinal = Int(scannedOrdinal[j])
        var state = states[ordinal]
        let wasInside = state.inside
        // A flip pending from the previous fix means that fix already met the enter condition:
        // the segment does not start outside, so no visit can be hidden in it.
        let startedPending = state.pending != nil
        let desired = wasInside ? stayCondition : enterCondition

        if desired != wasInside || startedPending {
            transition(j, sample, &state, desired: desired, isFirst: isFirst)
        }

        if !wasInside, !state.inside, !startedPending, state.pending == nil, profile.hiddenVisits, output == .events,
            let previousSample = lastPassing(profile.filterID), sample.continues(previousSample, maxGap: profile.maxGap),
            existed(j, since: previousSample.time)
        {
            hiddenVisits(j, previousSample, sample, fences.settings[j])
        }

        if state.inside {
            statistics.insidePairs += 1
            if let dwell = profile.dwell, !state.dwellDone, let enteredAt = state.enteredAt,
                sample.time.seconds(since: enteredAt) >= dwell
            {
                state.dwellDone = true
                var event = makeEvent(.dwell, j, sample, time: enteredAt.adding(seconds: dwell))
                event.dwellSeconds = dwell
                scratch.append(event)
            }
        }
        states[ordinal] = state
    }

    /// A fence whose condition differs from its state, or that has a flip pending: debounce and
    /// the enter or exit.
    func transition(_ j: Int, _ sample: Sample, _ state: inout FenceState, desired: Bool, isFirst: Bool) {
        let profile = profiles[j]
        let wasInside = state.inside
        if desired == wasInside {
            if let pending = state.pending {
                let settings = fences.settings[j]
                statistics.suppressedFlips += 1
                emit(
                    .suppressed, j, sample, time: sample.time,
                    reason:
                        "debounce: \(wasInside ? "exit" : "enter") seen since fix \(pending.sinceFix) was not confirmed (\((wasInside ? settings.exitAfter : settings.enterAfter)))"
                )
                state.pending = nil
            }
            return
        }
        var reason: String?
        if !(wasInside ? profile.immediateExit : profile.immediateEnter) {
            let settings = fences.settings[j]
            let threshold = wasInside ? settings.exitAfter : settings.enterAfter
            var pending = state.pending ?? Pending(since: sample.time, sinceFix: sample.index, count: 0)
            pending.count += 1
            let confirmed: Bool
            switch threshold {
            case .seconds(let s): confirmed = sample.time.seconds(since: pending.since) >= s
            case .fixes(let n): confirmed = pending.count >= n
            }
            guard confirmed else {
                state.pending = pending
                return
            }
            reason = "debounce: confirmed after \(pending.count) fixes since fix \(pending.sinceFix) (\(threshold))"
        }
        state.pending = nil
        state.inside = !wasInside
        if profile.level {
            levelChanges.append(
                LevelChange(
                    fence: j, time: sample.time, inside: state.inside, fixIndex: sample.index, interpolated: false,
                    longitude: sample.longitude, latitude: sample.latitude))
        }
        if state.inside {
            state.enteredAt = sample.time
            state.dwellDone = false
            if !(isFirst && profile.initialNone) {
                emit(.enter, j, sample, time: sample.time, reason: reason)
            } else {
                state.dwellDone = profile.dwell == nil
            }
        } else {
            state.enteredAt = nil
            emit(.exit, j, sample, time: sample.time, reason: reason)
        }
    }

    /// Whether the feed (the point, or the disc of radius `a`) satisfies the fence's enter
    /// condition and its stay condition, under `relationship` (``FenceDecision``). The boundary
    /// counts as inside. `sampleIndex` draws a noisy beacon's noise for that fix; `nil` (a point
    /// between fixes) draws none.
    @inline(__always)
    func conditions(_ j: Int, _ p: XY, _ a: Double, _ relationship: GeotriggerSettings.Relationship, sampleIndex: Int?) -> (Bool, Bool) {
        let decision = decide(j, p, a, relationship, sampleIndex: sampleIndex)
        return (decision.enter, decision.stay)
    }

    /// The ``FenceDecision`` of fence `j` for the feed at `p` with radius `a`.
    func decide(_ j: Int, _ p: XY, _ a: Double, _ relationship: GeotriggerSettings.Relationship, sampleIndex: Int?) -> FenceDecision {
        switch kinds[j] {
        case .circle, .beacon:
            let dx = p.x - centerX[j]
            let dy = p.y - centerY[j]
            var d = (dx * dx + dy * dy).squareRoot()
            let noise = fences.index.beaconNoise[j]
            if noise.sigma > 0, let sampleIndex {
                d = max(0, d + noise.sigma * GeotriggerEngine.signalNoise(seed: noise.seed, fence: j, fix: sampleIndex))
            }
            return .disc(relationship, distance: d, enterRadius: radius[j], stayRadius: exitRadius[j], accuracy: a)
        case .area:
            guard let area = fences.area(j) else { return .never }
            let e = area.envelope
            let ex = max(e.minX - p.x, p.x - e.maxX, 0)
            let ey = max(e.minY - p.y, p.y - e.maxY, 0)
            if let beyond = FenceDecision.beyondEnvelope(dx: ex, dy: ey, accuracy: a) { return beyond }
            let (inside, d) = area.locate(p)
            return .area(relationship, inside: inside, boundaryDistance: d, accuracy: a)
        case .line, .empty:
            return .never
        }
    }

    func makeEvent(_ kind: GeotriggerEvent.Kind, _ j: Int, _ sample: Sample, time: Timestamp, reason: String? = nil) -> GeotriggerEvent {
        labels?.prefetch(j)
        let profile = profiles[j]
        let notified: Bool
        switch kind {
        case .enter: notified = profile.notifyEnter
        case .exit: notified = profile.notifyExit
        default: notified = true
        }
        // Made where it is returned: an event made once and returned from either branch was
        // copied twice on the way (its strings retained and released each time).
        guard notified, kind != .suppressed, profile.hasMessage, let template = fences.settings[j].message else {
            return event(kind, j, sample, time: time, reason: reason, notified: notified, profile: profile)
        }
        var event = event(kind, j, sample, time: time, reason: reason, notified: notified, profile: profile)
        event.message = render(template, event, sample)
        return event
    }

    /// An event without its message (``makeEvent(_:_:_:time:reason:)``).
    @inline(__always)
    private func event(
        _ kind: GeotriggerEvent.Kind, _ j: Int, _ sample: Sample, time: Timestamp, reason: String?, notified: Bool, profile: Profile
    ) -> GeotriggerEvent {
        GeotriggerEvent(
            kind: kind, time: time, fence: j, fixIndex: sample.index, fixTime: sample.time, feed: profile.feed,
            feedRadius: profile.accuracyFeed ? sample.accuracy : 0,
            distance: output == .events ? eventDistance(j, sample.position) : nil, accuracy: sample.accuracy,
            reason: reason, notified: notified, longitude: sample.longitude, latitude: sample.latitude)
    }

    /// An event's signed distance from fence `j` at `p`, to the millimetre (the precision of the
    /// log): the distance the fence's test measured when it settles the millimetre, else
    /// measured now.
    @inline(__always)
    func eventDistance(_ j: Int, _ p: XY) -> Double? {
        if j == measuredFence, let known = measuredMillimetres { return known }
        return fences.signedDistance(fence: j, at: p).map(GeotriggerEvent.millimetres)
    }

    func emit(_ kind: GeotriggerEvent.Kind, _ j: Int, _ sample: Sample, time: Timestamp, reason: String? = nil) {
        if output == .counts, kind == .enter || kind == .exit {
            tallies.append(Tally(enter: kind == .enter, fixIndex: sample.index, fence: j))
            return
        }
        scratch.append(makeEvent(kind, j, sample, time: time, reason: reason))
    }

    func render(_ template: MessageTemplate, _ event: GeotriggerEvent, _ sample: Sample) -> String {
        let fence = fences.fenceSet.fences[event.fence]
        let previous = self.previous
        let first = firstTime
        return template.render(
            MessageTemplate.Context(
                fenceProperty: { key in
                    switch key {
                    case "id": return fence.id
                    case "name": return fence.name
                    case "zone": return fence.zone
                    default:
                        guard let node = fence.property(key) else { return nil }
                        if let s = node.string { return s }
                        if node.isNull { return nil }
                        return JSONWriter.string(node.value)
                    }
                },
                fixField: { GeotriggerEngine.field($0, sample, first: first, previous: previous) },
                fixTime: sample.time.description,
                fixIndex: sample.index,
                eventType: event.kind.rawValue,
                trace: traceName))
    }
}
