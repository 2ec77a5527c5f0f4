import Fences
import Spatial
import Support

/// The per-device, per-fence geotrigger state machines of SPEC §2.
///
/// Feed it the samples of one trace in time order with ``process(_:into:)``; it appends the events
/// each sample causes, sorted by time, then fence id, then kind. It never reads the clock or does I/O.
///
/// Per sample it looks only at the fences whose envelopes the sample (or, when crossings between
/// fixes matter, the segment from the previous sample) can reach, found through a grid, plus the
/// fences it is currently inside or about to change: the cost grows with the fences near the
/// device, not with the fence set. Circles, beacons and accuracy discs are tested by distance;
/// polygons with prepared GEOS geometries.
///
/// - Important: Not thread-safe (it drives its ``CompiledFences``' GEOS context). Use one engine
///   per trace and worker. Because of that, the state it changes on every sample is marked
///   `@exclusivity(unchecked)`: the compiler still checks exclusive access statically, and the
///   runtime's bookkeeping, about 2% of a bench replay's CPU (perf), is left out.
public final class GeotriggerEngine {
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

    /// The settings the per-sample fast path needs, as plain values (no reference counting).
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
    }

    struct FenceState {
        var inside = false
        var pending: Pending?
        var enteredAt: Timestamp?
        var dwellDone = false
    }

    public let fences: CompiledFences
    /// Whether the enters and exits that state changes cause are only counted, as ``tallies``,
    /// instead of made into events: bench summaries need nothing else, and an event is a large
    /// value copied several times (other kinds of events are still made). Off by default.
    @exclusivity(unchecked) public var countsOnly = false
    /// With ``countsOnly``: the enters and exits since the caller last emptied this list.
    @exclusivity(unchecked) public var tallies: [Tally] = []

    /// An enter or exit counted without its event (see ``countsOnly``).
    public struct Tally: Hashable, Sendable {
        public var enter: Bool
        public var fixIndex: Int
        public var fence: Int
    }
    /// Whether events carry the signed distance to the boundary (provenance). Off for bench
    /// summaries, where a GEOS distance per polygon event would be wasted.
    @exclusivity(unchecked) public var computesDistances = true
    /// Whether visits hidden between fixes are looked for (per the fences' `gapPolicy`). Off for
    /// bench summaries, which count only enters and exits.
    @exclusivity(unchecked) public var detectsHiddenVisits = true
    let profiles: [Profile]
    // The compiled shapes as plain arrays (see CompiledFences): `let`, so reads need no access
    // bookkeeping.
    let kinds: [FenceIndex.Kind]
    let centerX: [Double]
    let centerY: [Double]
    let radius: [Double]
    let exitRadius: [Double]
    let areas: [CompiledFences.AreaFence?]
    let polygonXs: UnsafePointer<Double>
    let polygonYs: UnsafePointer<Double>
    let polygonRingEnds: UnsafePointer<Int>
    /// By slot (``FenceIndex/slotFence``): the last exact look at the fence's polygon (see the
    /// inline path in `process`).
    let polygonCache: UnsafeMutablePointer<PolygonLook>

    /// Where a polygon was last tested exactly: a point, whether it was inside, and its distance
    /// to the boundary. Until the device has moved that far (less a small slack for rounding),
    /// the answer cannot have changed.
    struct PolygonLook {
        var x: Double
        var y: Double
        var distance: Double
        var inside: Bool
    }

    /// Metres kept in hand when reusing a look: far above rounding (~1e-11 m here), far below
    /// any fence.
    static let cacheSlack = 1e-6
    /// By slot: where each polygon's vertices are.
    let polygonRings: [(vertexStart: Int, ringStart: Int, ringCount: Int)]
    /// Slot to fence and fence to slot (see ``FenceIndex/slotFence``).
    let slotFence: [Int32]
    let fenceSlot: [Int32]
    /// The grid, read through plain pointers into the index (which `fences` keeps alive).
    let cellTable: FenceIndex.CellTable
    /// The trace's name, for message templates.
    public var traceName: String
    @exclusivity(unchecked) public private(set) var statistics = Statistics()
    @exclusivity(unchecked) public internal(set) var findings: [Finding] = []
    /// Global maximum gap (the smallest of all fences' `maxGap`) used for segment findings.
    let globalMaxGap: Double

    /// Per-fence state (by fence) and query marks (by slot), in memory owned by the engine: the
    /// hot loop reads and writes them without copy-on-write or exclusivity bookkeeping. Both
    /// element types are trivial (no references), so raw storage is safe; freed in `deinit`.
    let states: UnsafeMutablePointer<FenceState>
    let marks: UnsafeMutablePointer<UInt32>
    /// By slot: ``insideBit`` and ``pendingBit``, mirrored from `states` for the inline path.
    let hot: UnsafeMutablePointer<UInt8>
    /// The slots of the fences the device is inside or about to change.
    @exclusivity(unchecked) var active: [Int32] = []
    @exclusivity(unchecked) var stamp: UInt32 = 0
    @exclusivity(unchecked) var previous: Sample?
    let filters: [FilterExpression]
    @exclusivity(unchecked) var filterPass: [Bool]
    /// Per filter, the previous sample that passed it (segments for crossings use it).
    @exclusivity(unchecked) var previousPassing: [Sample?]
    @exclusivity(unchecked) var scratch: [GeotriggerEvent] = []
    /// The storage of the previous sample's active list, kept for the next one's (see `process`).
    @exclusivity(unchecked) var spareActive: [Int32] = []
    @exclusivity(unchecked) var segmentGeometry: Geometry?
    var bufferedAreas: [Int: (radius: Double, geometry: Geometry)] = [:]

    public init(fences: CompiledFences, traceName: String) {
        precondition(fences.index.hasCellRecords, "an index laid out for the general engine (cellRecords: true)")
        self.fences = fences
        self.traceName = traceName
        kinds = fences.index.kinds
        centerX = fences.index.centerX
        centerY = fences.index.centerY
        radius = fences.index.radius
        exitRadius = fences.index.exitRadius
        areas = fences.areas
        // The flat vertex arrays live in the shared index (which `fences` keeps alive).
        polygonXs = fences.index.polygonXs
        polygonYs = fences.index.polygonYs
        polygonCache = UnsafeMutablePointer<PolygonLook>.allocate(capacity: max(1, fences.count))
        polygonCache.initialize(repeating: PolygonLook(x: 0, y: 0, distance: -.infinity, inside: false), count: max(1, fences.count))
        polygonRingEnds = fences.index.polygonRingEnds
        polygonRings = fences.index.polygonRings
        slotFence = fences.index.slotFence
        fenceSlot = fences.index.fenceSlot
        cellTable = fences.index.cellTable
        states = UnsafeMutablePointer<FenceState>.allocate(capacity: max(1, fences.count))
        states.initialize(repeating: FenceState(), count: max(1, fences.count))
        marks = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, fences.count))
        marks.initialize(repeating: 0, count: max(1, fences.count))
        hot = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, fences.count))
        hot.initialize(repeating: 0, count: max(1, fences.count))
        // Worked out once for the index and shared by every worker's engine.
        let setup = fences.index.engineSetup
        filters = setup.filters
        profiles = setup.profiles
        filterPass = Array(repeating: true, count: setup.filters.count + 1)
        previousPassing = Array(repeating: nil, count: setup.filters.count + 1)
        globalMaxGap = setup.globalMaxGap
    }

    /// What every engine over a fence set derives from its settings: the distinct filters, each
    /// fence's ``Profile`` (whose `filterID` is 0 for none, else 1 + the filter's place in
    /// `filters`) and the smallest `maxGap`.
    struct Setup {
        let filters: [FilterExpression]
        let profiles: [Profile]
        let globalMaxGap: Double

        /// Reads each fence's settings in place (a copy retains its filter and message).
        init(settings: [GeotriggerSettings], shapes: [FenceIndex.Shape]) {
            var filters: [FilterExpression] = []
            var profiles: [Profile] = []
            profiles.reserveCapacity(settings.count)
            for j in settings.indices {
                var id = 0
                if let f = settings[j].filter {
                    if let k = filters.firstIndex(of: f) { id = k + 1 } else {
                        filters.append(f)
                        id = filters.count
                    }
                }
                var isLine = false
                if case .line = shapes[j] { isLine = true }
                profiles.append(Profile(accuracyFeed: settings[j].feed == .accuracy, relationship: settings[j].relationship,
                                        maxGap: settings[j].maxGapSeconds, hiddenVisits: settings[j].gapPolicy != .ignore,
                                        dwell: settings[j].dwellSeconds, filterID: id, isLine: isLine, feed: settings[j].feed,
                                        notifyEnter: settings[j].notify.includesEnter, notifyExit: settings[j].notify.includesExit,
                                        hasMessage: settings[j].message != nil, immediateEnter: settings[j].enterAfter.isImmediate,
                                        immediateExit: settings[j].exitAfter.isImmediate, initialNone: settings[j].initialTrigger == .none))
            }
            self.filters = filters
            self.profiles = profiles
            globalMaxGap = Setup.smallestMaxGap(settings)
        }

        /// Only the smallest `maxGap` (what an index laid out for ``SummaryEngine`` alone needs).
        init(globalMaxGapOf settings: [GeotriggerSettings]) {
            filters = []
            profiles = []
            globalMaxGap = Setup.smallestMaxGap(settings)
        }

        /// The smallest `maxGap`, as `Sequence.min()` finds it (the first value, then any smaller
        /// one), read in place; 120 s when there are no fences.
        static func smallestMaxGap(_ settings: [GeotriggerSettings]) -> Double {
            var maxGap = Double.infinity
            for j in settings.indices where j == 0 || settings[j].maxGapSeconds < maxGap { maxGap = settings[j].maxGapSeconds }
            return settings.isEmpty ? 120 : maxGap
        }
    }

    deinit {
        states.deinitialize(count: max(1, fences.count))
        states.deallocate()
        marks.deallocate()
        hot.deallocate()
        polygonCache.deallocate()
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
    /// - Complexity: proportional to the fences whose envelopes the sample reaches plus the fences
    ///   the device is inside.
    public func process(_ sample: Sample, into events: inout [GeotriggerEvent]) {
        if let previous, sample.time < previous.time {
            statistics.outOfOrder += 1
            findings.append(Finding(fixIndex: sample.index, time: sample.time,
                                    message: "fix \(sample.index) is earlier than fix \(previous.index); skipped", kind: "time-backwards"))
            return
        }
        statistics.samples += 1
        let isFirst = previous == nil
        if isFirst { firstTime = sample.time }
        if let previous, sample.time.seconds(since: previous.time) > globalMaxGap {
            statistics.gaps += 1
            let gap = sample.time.seconds(since: previous.time)
            findings.append(Finding(fixIndex: sample.index, time: sample.time,
                                    message: "gap of \(MessageTemplate.format(gap)) s between fixes \(previous.index) and \(sample.index) starts a new segment (maxGap \(MessageTemplate.format(globalMaxGap)) s)",
                                    kind: "gap"))
        }
        // Filters: evaluate each distinct expression once.
        for k in 0..<filters.count {
            filterPass[k + 1] = filters[k].accepts { GeotriggerEngine.field($0, sample, first: firstTime, previous: previous) }
        }

        stamp &+= 1
        if stamp == 0 {
            marks.update(repeating: 0, count: fences.count)
            stamp = 1
        }
        scratch.removeAll(keepingCapacity: true)
        if segmentGeometry != nil { segmentGeometry = nil }

        // The query covers the feed disc and, when crossings between fixes matter, the segment
        // from the previous sample.
        let reach = fences.index.usesAccuracyFeed ? sample.accuracy : 0
        var box = BoundingBox(minX: sample.position.x - reach, minY: sample.position.y - reach,
                              maxX: sample.position.x + reach, maxY: sample.position.y + reach)
        if fences.index.hasLines || (fences.index.needsSegments && detectsHiddenVisits), let previous {
            box.include(previous.position)
        }
        let currentStamp = stamp
        let px = sample.position.x
        let py = sample.position.y
        let accuracy = sample.accuracy
        let hiddenOn = detectsHiddenVisits && previous != nil
        let qx = previous?.position.x ?? px
        let qy = previous?.position.y ?? py
        let widestAccuracy = max(accuracy, previous?.accuracy ?? accuracy)
        var insidePairs = 0
        // Fences still inside or pending after this sample (moved out of the property so the
        // loops touch no class storage per element).
        var stillActive: [Int32] = []
        swap(&stillActive, &spareActive)
        stillActive.removeAll(keepingCapacity: true)

        // Candidates come cell by cell from contiguous records; plain circles whose state does
        // not change are settled inline (one distance), everything else goes to `evaluate`.
        let table = cellTable
        if let range = table.cells(box) {
            let multiCell = range.c0 != range.c1 || range.r0 != range.r1
            let records = table.records
            let starts = table.starts
            // Locals, so that the stores through `marks` and `polygonCache` (which could alias
            // anything as far as the compiler knows) do not make it reload the pointers from
            // the engine on every record.
            let marks = self.marks
            let hotFlags = self.hot
            let polygonCache = self.polygonCache
            for row in range.r0...range.r1 {
                for column in range.c0...range.c1 {
                    let cell = row * table.columns + column
                    for k in Int(starts[cell])..<Int(starts[cell + 1]) {
                        let record = records[k]
                        let slot = Int(record.slot)
                        if multiCell, marks[slot] == currentStamp { continue }
                        marks[slot] = currentStamp
                        let hot = hotFlags[slot]
                        let flags = record.flags
                        if flags & FenceIndex.CellRecord.inline != 0, hot & GeotriggerEngine.pendingBit == 0 {
                            let a = flags & FenceIndex.CellRecord.accuracyFeed != 0 ? accuracy : 0
                            let inside = hot & GeotriggerEngine.insideBit != 0
                            let holds: Bool
                            if flags & FenceIndex.CellRecord.area == 0 {
                                let dx = px - record.x
                                let dy = py - record.y
                                holds = GeotriggerEngine.isWithin(dx * dx + dy * dy, inside ? record.rx + a : record.r + a)
                            } else if px < record.x - a || px > record.r + a || py < record.y - a || py > record.rx + a {
                                holds = false
                            } else {
                                // The last exact look at this polygon (where, inside or
                                // not, how far from the boundary) settles the test while
                                // the device has moved less than that distance allows.
                                let cache = polygonCache[slot]
                                let mx = px - cache.x
                                let my = py - cache.y
                                // Compared squared: the slack is far above the rounding.
                                let moved2 = mx * mx + my * my
                                let clear = cache.inside ? cache.distance - GeotriggerEngine.cacheSlack
                                    : cache.distance - a - GeotriggerEngine.cacheSlack
                                if clear > 0, moved2 < clear * clear {
                                    holds = cache.inside
                                } else {
                                    let ring = polygonRings[slot]
                                    guard let l = PlanarPolygon.locate(
                                        XY(px, py), xs: polygonXs, ys: polygonYs, start: ring.vertexStart,
                                        ringEnds: UnsafeBufferPointer(start: polygonRingEnds + ring.ringStart, count: ring.ringCount))
                                    else {
                                        evaluateAndTrack(slot: slot, sample, isFirst: isFirst, &stillActive)
                                        continue
                                    }
                                    polygonCache[slot] = PolygonLook(x: px, y: py, distance: l.boundaryDistance, inside: l.inside)
                                    holds = l.inside || l.boundaryDistance <= a
                                }
                            }
                            if holds == inside {
                                if inside {
                                    insidePairs += 1
                                    stillActive.append(Int32(slot))
                                    continue
                                }
                                if !hiddenOn || flags & FenceIndex.CellRecord.hiddenVisits == 0 { continue }
                                // Could a visit hide between the fixes? Not if the segment
                                // stays clear of everything a disc could reach.
                                let spread = flags & FenceIndex.CellRecord.accuracyFeed != 0 ? widestAccuracy : 0
                                if flags & FenceIndex.CellRecord.area == 0 {
                                    if segmentDistance(XY(record.x, record.y), XY(qx, qy), XY(px, py)) > record.r + spread { continue }
                                } else if max(px, qx) < record.x - spread || min(px, qx) > record.r + spread
                                            || max(py, qy) < record.y - spread || min(py, qy) > record.rx + spread {
                                    continue
                                }
                            }
                            // The state changes, or a visit may hide between the fixes:
                            // `holds` is the fence's condition, not worked out again.
                            evaluateAndTrack(slot: slot, sample, isFirst: isFirst, &stillActive, known: holds)
                            continue
                        }
                        evaluateAndTrack(slot: slot, sample, isFirst: isFirst, &stillActive)
                    }
                }
            }
        }
        for j in table.large {
            let slot = Int(fenceSlot[Int(j)])
            if marks[slot] == currentStamp { continue }
            marks[slot] = currentStamp
            evaluateAndTrack(slot: slot, sample, isFirst: isFirst, &stillActive)
        }
        // Fences the device is inside (or about to flip) must be re-evaluated even when the sample
        // is far from them.
        for slot in active where marks[Int(slot)] != currentStamp {
            marks[Int(slot)] = currentStamp
            evaluateAndTrack(slot: Int(slot), sample, isFirst: isFirst, &stillActive)
        }
        statistics.insidePairs += insidePairs
        // The two lists trade places (swaps move them, without reference counting).
        swap(&spareActive, &active)
        swap(&active, &stillActive)

        if scratch.count > 1 {
            let rank = fences.index.idRank
            scratch.sort { a, b in
                if a.time != b.time { return a.time < b.time }
                if a.fence != b.fence { return rank[a.fence] < rank[b.fence] }
                return a.kind.rank < b.kind.rank
            }
        }
        if !scratch.isEmpty { events.append(contentsOf: scratch) }
        previous = sample
        for k in 0..<previousPassing.count where filterPass[k] {
            previousPassing[k] = sample
        }
    }

    /// `d2.squareRoot() <= limit`, without the square root unless `d2` is within a part in a
    /// billion of `limit * limit`, where rounding could tell the two forms apart. The answer is
    /// the square root's in every case (the hot path's distances stay those of `evaluate`).
    @inline(__always)
    static func isWithin(_ d2: Double, _ limit: Double) -> Bool {
        if !(limit >= 0) { return false }
        let l2 = limit * limit
        if d2 < l2 * (1 - 1e-9) { return true }
        if d2 > l2 * (1 + 1e-9) { return false }
        return d2.squareRoot() <= limit
    }

    /// Whether these settings change a fence's state at a sample from that sample and the state
    /// before it alone (no filter, dwell or debounce, which look at earlier samples or at time).
    public static func hasPlainTransitions(_ settings: [GeotriggerSettings]) -> Bool {
        settings.indices.allSatisfy { k in
            settings[k].filter == nil && settings[k].dwellSeconds == nil && settings[k].enterAfter.isImmediate
                && settings[k].exitAfter.isImmediate
        }
    }

    /// Whether a fence enters and stays on one condition: not a beacon whose proximity is
    /// nearer than its range (it checks in within the proximity and out beyond the range), and
    /// not `contains-intersects` with the accuracy feed (in on containment, out when the disc no
    /// longer touches). Otherwise its state remembers which condition it last met.
    public static func entersAndStaysAlike(_ kind: Fence.Kind, relationship: GeotriggerSettings.Relationship,
                                           feed: GeotriggerSettings.Feed, bufferMeters: Double) -> Bool {
        if case .beacon(let range, let proximity) = kind, proximity.distance(range: range) != range + max(0, bufferMeters) {
            return false
        }
        return relationship != .containsIntersects || feed == .point
    }

    /// Whether these fences and settings make every fence's state after a sample depend only on
    /// that sample (``hasPlainTransitions(_:)`` and
    /// ``entersAndStaysAlike(_:relationship:feed:bufferMeters:)``, and no hidden-visit
    /// detection): then a trace can be cut into slices replayed independently, each engine
    /// first ``resynchronize(with:)``-ing on the sample before its slice.
    public static func isMemoryless(_ settings: [GeotriggerSettings], fences: [Fence]) -> Bool {
        // Read in place: copying a fence or its settings costs a dozen reference counts.
        hasPlainTransitions(settings) && zip(fences.indices, settings.indices).allSatisfy { j, k in
            entersAndStaysAlike(fences[j].kind, relationship: settings[k].relationship, feed: settings[k].feed,
                                bufferMeters: settings[k].bufferMeters)
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
    public func takeFindings(_ body: (Finding) -> Void) {
        guard !findings.isEmpty else { return }
        for finding in findings { body(finding) }
        findings.removeAll(keepingCapacity: true)
    }

    /// Forgets every fence's state and the previous sample, as if no sample had been processed
    /// (statistics and findings are kept): for replaying another trace with the same engine.
    public func restart() {
        for slot in active {
            states[Int(slotFence[Int(slot)])] = FenceState()
            hot[Int(slot)] = 0
        }
        active.removeAll(keepingCapacity: true)
        previous = nil
        for k in previousPassing.indices { previousPassing[k] = nil }
    }

    /// A standard normal deviate for beacon `fence` at fix `fix`: a pure function of the seed and
    /// the pair, so the noise does not depend on evaluation order or the number of workers.
    static func signalNoise(seed: UInt64, fence: Int, fix: Int) -> Double {
        var rng = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: fence) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(truncatingIfNeeded: fix) &* 0xC2B2_AE3D_27D4_EB4F))
        return rng.nextGaussian()
    }

    static let insideBit: UInt8 = 1
    static let pendingBit: UInt8 = 2

    /// `evaluate` of the fence in `slot`, then its compact flags, and the active list.
    @inline(__always)
    func evaluateAndTrack(slot: Int, _ sample: Sample, isFirst: Bool, _ stillActive: inout [Int32], known: Bool? = nil) {
        let j = Int(slotFence[slot])
        evaluate(j, sample, isFirst: isFirst, known: known)
        let state = states[j]
        let flags = (state.inside ? GeotriggerEngine.insideBit : 0) | (state.pending != nil ? GeotriggerEngine.pendingBit : 0)
        hot[slot] = flags
        if flags != 0 { stillActive.append(Int32(slot)) }
    }

    /// Evaluates fence `j` at `sample`: state transitions, debounce, dwell, crossings.
    ///
    /// The common case (no change of state, no pending flip) reads only the fence's plain
    /// ``Profile``; the full settings are read only when an event may be written.
    ///
    /// `known`: whether the condition for the fence's current state (staying when inside,
    /// entering when outside) holds at this sample, when the caller has just worked it out (the
    /// inline path); it is not tested again.
    func evaluate(_ j: Int, _ sample: Sample, isFirst: Bool, known: Bool? = nil) {
        let profile = profiles[j]
        guard filterPass[profile.filterID] else {
            statistics.filtered += 1
            if states[j].inside { statistics.insidePairs += 1 }
            return
        }
        // Line fences: crossings of the movement segment.
        if profile.isLine {
            if let previousSample = previousPassing[profile.filterID], sample.time.seconds(since: previousSample.time) <= profile.maxGap,
               case .line(let points) = fences.shapes[j] {
                lineCrossings(j, points, previousSample, sample, fences.settings[j])
            }
            return
        }

        let a = profile.accuracyFeed ? sample.accuracy : 0
        let (enterCondition, stayCondition) = known.map { ($0, $0) }
            ?? conditions(j, sample.position, a, profile.relationship, sampleIndex: sample.index)
        var state = states[j]
        let wasInside = state.inside
        // A flip pending from the previous fix means that fix already met the enter condition:
        // the segment does not start outside, so no visit can be hidden in it.
        let startedPending = state.pending != nil
        let desired = wasInside ? stayCondition : enterCondition

        if desired != wasInside || startedPending {
            transition(j, sample, &state, desired: desired, isFirst: isFirst)
        }

        if !wasInside, !state.inside, !startedPending, state.pending == nil, profile.hiddenVisits, detectsHiddenVisits,
           let previousSample = previousPassing[profile.filterID], sample.time.seconds(since: previousSample.time) <= profile.maxGap {
            hiddenVisits(j, previousSample, sample, fences.settings[j])
        }

        if state.inside {
            statistics.insidePairs += 1
            if let dwell = profile.dwell, !state.dwellDone, let enteredAt = state.enteredAt,
               sample.time.seconds(since: enteredAt) >= dwell {
                state.dwellDone = true
                var event = makeEvent(.dwell, j, sample, time: enteredAt.adding(seconds: dwell))
                event.dwellSeconds = dwell
                scratch.append(event)
            }
        }
        states[j] = state
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
                emit(.suppressed, j, sample, time: sample.time,
                     reason: "debounce: \(wasInside ? "exit" : "enter") seen since fix \(pending.sinceFix) was not confirmed (\((wasInside ? settings.exitAfter : settings.enterAfter)))")
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
    /// condition and its stay condition, under `relationship`. The boundary counts as inside.
    @inline(__always)
    func conditions(_ j: Int, _ p: XY, _ a: Double, _ relationship: GeotriggerSettings.Relationship, sampleIndex: Int = 0) -> (Bool, Bool) {
        switch kinds[j] {
        case .circle, .beacon:
            let dx = p.x - centerX[j]
            let dy = p.y - centerY[j]
            var d = (dx * dx + dy * dy).squareRoot()
            let noise = fences.index.beaconNoise[j]
            if noise.sigma > 0 {
                d = max(0, d + noise.sigma * GeotriggerEngine.signalNoise(seed: noise.seed, fence: j, fix: sampleIndex))
            }
            let enter = radius[j]
            let exit = exitRadius[j]
            switch relationship {
            case .intersects: return (d <= enter + a, d <= exit + a)
            case .contains: return (d + a <= enter, d + a <= exit)
            case .containsIntersects: return (d + a <= enter, d <= exit + a)
            }
        case .area:
            guard let area = areas[j] else { return (false, false) }
            // Farther than the disc from the envelope: outside, whatever the relationship.
            let e = area.envelope
            if p.x < e.minX - a || p.x > e.maxX + a || p.y < e.minY - a || p.y > e.maxY + a {
                return (false, false)
            }
            let (inside, near) = area.classify(p, radius: a)
            // `near`: the boundary is within the disc (d <= a). Contained means inside with the
            // boundary at least `a` away; at exactly `a` the disc touches the boundary from
            // inside, which counts as contained (the boundary is inside).
            switch relationship {
            case .intersects:
                let hit = inside || near
                return (hit, hit)
            case .contains:
                let contained = inside && (!near || a == 0 || area.boundaryDistance(p) >= a)
                return (contained, contained)
            case .containsIntersects:
                let contained = inside && (!near || a == 0 || area.boundaryDistance(p) >= a)
                return (contained, inside || near)
            }
        case .line, .empty:
            return (false, false)
        }
    }

    func makeEvent(_ kind: GeotriggerEvent.Kind, _ j: Int, _ sample: Sample, time: Timestamp, reason: String? = nil) -> GeotriggerEvent {
        let profile = profiles[j]
        let notified: Bool
        switch kind {
        case .enter: notified = profile.notifyEnter
        case .exit: notified = profile.notifyExit
        default: notified = true
        }
        var event = GeotriggerEvent(
            kind: kind, time: time, fence: j, fixIndex: sample.index, fixTime: sample.time, feed: profile.feed,
            feedRadius: profile.accuracyFeed ? sample.accuracy : 0,
            distance: computesDistances ? fences.signedDistance(fence: j, at: sample.position) : nil, accuracy: sample.accuracy,
            reason: reason, notified: notified, longitude: sample.longitude, latitude: sample.latitude)
        if notified, kind != .suppressed, profile.hasMessage, let template = fences.settings[j].message {
            event.message = render(template, event, sample)
        }
        return event
    }

    func emit(_ kind: GeotriggerEvent.Kind, _ j: Int, _ sample: Sample, time: Timestamp, reason: String? = nil) {
        if countsOnly, kind == .enter || kind == .exit {
            tallies.append(Tally(enter: kind == .enter, fixIndex: sample.index, fence: j))
            return
        }
        scratch.append(makeEvent(kind, j, sample, time: time, reason: reason))
    }

    func render(_ template: MessageTemplate, _ event: GeotriggerEvent, _ sample: Sample) -> String {
        let fence = fences.fenceSet.fences[event.fence]
        let previous = self.previous
        let first = firstTime
        return template.render(MessageTemplate.Context(
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
