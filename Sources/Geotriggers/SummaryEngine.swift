import Dispatch
import Fences
import Spatial
import Support

/// The enters, exits and inside pairs of a trace whose fences change state on the fix alone (no
/// filter, dwell or debounce; bench summaries, SPEC §8), found without testing every fence near
/// the device at every fix.
///
/// A fence's condition can only change when the device (its position, and the radius of its
/// accuracy disc when the fence uses the accuracy feed) has moved at least as far as the fence's
/// clearance at its last test: how far the condition then was from flipping (the distance to the
/// circle or to the polygon's boundary, less or plus the disc). So each fence is tested once,
/// then again only when the device's odometer (metres moved, plus metres of accuracy change when
/// any fence uses the accuracy feed) has advanced by that clearance: a calendar of odometer
/// buckets hands back the fences that are due. Fences come under watch when the device's query
/// box reaches a grid cell they are registered in, and leave it when a test finds them outside
/// and out of that box's cells. Per fix the cost is the fences that come due (those whose boundary
/// is near) and the fences of newly reached cells, not every fence of the cell: the fences the
/// device is deep inside or far from cost nothing until it comes near their boundary.
///
/// The counts are ``GeotriggerEngine``'s with ``GeotriggerEngine/countsOnly`` on the same samples,
/// exactly: a fence is tested with the same arithmetic (and GEOS where the boundary is within a
/// nanometre), and a clearance is used only less a micrometre, far above the rounding of the
/// distances (about 1e-11 m in a frame tens of kilometres wide), with the odometer kept in whole
/// micrometres rounded up, so that no rounding can make a fence skip a test it needed.
///
/// - Important: Not thread-safe (its ``CompiledFences`` own a GEOS context): one engine per
///   worker, over a ``Table`` shared by all of them. Because of that, the state it changes on
///   every fix is marked `@exclusivity(unchecked)`, as in ``GeotriggerEngine``.
public final class SummaryEngine {
    /// What every worker's engine reads of a fence index, built once and shared.
    ///
    /// - Important: `@unchecked Sendable`: every stored value is written in `init` and only read
    ///   afterwards.
    public final class Table: @unchecked Sendable {
        public let index: FenceIndex
        /// Fences (slots, see ``FenceIndex/slotFence``) in the index.
        let count: Int
        /// By slot: what a test reads, in one cache line.
        let records: UnsafeMutablePointer<Record>
        /// By slot: the fence.
        let fences: UnsafeMutablePointer<Int32>
        /// The envelopes of the polygons' runs of edges
        /// (``Spatial/PlanarPolygon/writeRunBoxes(xs:ys:start:ringEnds:into:)``), polygon after
        /// polygon in slot order.
        let runBoxes: UnsafePointer<Double>
        /// The grid's items as slots, in cell order (`cellTable.starts` delimits each cell).
        let cellSlots: UnsafeMutablePointer<Int32>
        /// Slots of the fences registered in no cell (``FenceGrid/large``): always watched.
        let large: [Int32]
        /// Whether any fence uses the accuracy feed (then the query box and the odometer take
        /// the accuracy in).
        let usesAccuracyFeed: Bool
        /// The smallest `maxGap` of all fences (gaps are counted as the general engine counts
        /// them).
        let globalMaxGap: Double
        /// The largest coordinate of any fence envelope, in metres from the frame's origin: the
        /// rounding of distances grows with it.
        let magnitude: Double

        /// A fence as a test reads it.
        struct Record {
            /// A disc's centre, enter and stay radii; an area's envelope (min x, min y, max x,
            /// max y).
            var x: Double
            var y: Double
            var r: Double
            var rx: Double
            /// The grid cells the fence is registered in (first and last column, first and last
            /// row), as ``FenceGrid`` registered it.
            var cells: SIMD4<Int32>
            /// The polygon's place in the index's flat vertex arrays (no rings: GEOS) and in
            /// ``runBoxes``.
            var vertexStart: Int32
            var ringStart: Int32
            var boxStart: Int32
            var ringCount: UInt16
            /// ``disc``, ``area`` or ``never``.
            var kind: UInt8
            /// ``accuracyBit``, ``initialNoneBit``, ``largeBit`` and the relationship
            /// (``relationshipShift``).
            var mode: UInt8
        }

        static let never: UInt8 = 0
        static let disc: UInt8 = 1
        static let area: UInt8 = 2
        static let accuracyBit: UInt8 = 1
        static let initialNoneBit: UInt8 = 2
        static let largeBit: UInt8 = 4
        static let relationshipShift: UInt8 = 3
        static let intersects: UInt8 = 0
        static let contains: UInt8 = 1
        static let containsIntersects: UInt8 = 2

        /// The table of `index`, or `nil` when the engine cannot count it: settings with a
        /// filter, dwell or debounce (``GeotriggerEngine/hasPlainTransitions(_:)``), or a beacon
        /// with signal noise (its state may flip at any fix, wherever the device is).
        public convenience init?(_ index: FenceIndex) {
            guard Table.applies(to: index.fenceSet, settings: index.settings) else { return nil }
            self.init(applicable: index)
        }

        /// The table of an index whose fences and settings the caller has found the engine can
        /// count (``applies(to:settings:)``).
        public init(applicable index: FenceIndex) {
            assert(Table.applies(to: index.fenceSet, settings: index.settings), "fences and settings the engine can count")
            self.index = index
            let n = index.count
            count = n
            let grid = index.grid
            var isLarge = [Bool](repeating: false, count: n)
            for j in grid.large { isLarge[Int(j)] = true }
            // Where each polygon's run boxes go: counted first, so that the slots can be filled
            // on several threads, each writing its own places (this was a serial 20 ms at
            // 100,000 fences, with the other core idle).
            var boxStarts = [Int](repeating: 0, count: n + 1)
            var usable = [Bool](repeating: false, count: n)
            for slot in 0..<n {
                let ring = index.polygonRings[slot]
                // Beyond the places a record holds (billions of vertices, thousands of rings),
                // GEOS decides.
                var runs = 0
                if ring.ringCount > 0, ring.vertexStart <= Int(Int32.max), ring.ringStart <= Int(Int32.max), ring.ringCount <= Int(UInt16.max) {
                    runs = PlanarPolygon.runCount(
                        start: ring.vertexStart, ringEnds: UnsafeBufferPointer(start: index.polygonRingEnds + ring.ringStart, count: ring.ringCount))
                    usable[slot] = boxStarts[slot] + runs <= Int(Int32.max)
                }
                boxStarts[slot + 1] = boxStarts[slot] + (usable[slot] ? runs : 0)
            }
            let records = UnsafeMutablePointer<Record>.allocate(capacity: max(1, n))
            let fences = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
            let boxes = UnsafeMutablePointer<Double>.allocate(capacity: max(1, 4 * boxStarts[n]))
            let slots = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, grid.items.count))
            let parts = max(1, min(8, n / 16_384))
            var magnitudes = [Double](repeating: 0, count: parts)
            index.slotFence.withUnsafeBufferPointer { slotFence in
                index.settings.withUnsafeBufferPointer { settings in
                    index.envelopes.withUnsafeBufferPointer { envelopes in
                        grid.items.withUnsafeBufferPointer { items in
                            index.fenceSlot.withUnsafeBufferPointer { fenceSlot in
                                magnitudes.withUnsafeMutableBufferPointer { magnitudes in
                                    /// Plain pointers, each thread writing its own slots and items.
                                    struct Shared: @unchecked Sendable {
                                        let index: FenceIndex
                                        let slotFence, items, fenceSlot: UnsafeBufferPointer<Int32>
                                        let settings: UnsafeBufferPointer<GeotriggerSettings>
                                        let envelopes: UnsafeBufferPointer<BoundingBox?>
                                        let isLarge, usable: [Bool]
                                        let boxStarts: [Int]
                                        let records: UnsafeMutablePointer<Record>
                                        let fences, slots: UnsafeMutablePointer<Int32>
                                        let boxes: UnsafeMutablePointer<Double>
                                        let magnitudes: UnsafeMutableBufferPointer<Double>
                                    }
                                    let s = Shared(index: index, slotFence: slotFence, items: items, fenceSlot: fenceSlot, settings: settings,
                                                   envelopes: envelopes, isLarge: isLarge, usable: usable, boxStarts: boxStarts, records: records,
                                                   fences: fences, slots: slots, boxes: boxes, magnitudes: magnitudes)
                                    let fill: @Sendable (Int) -> Void = { part in
                                        var magnitude = 0.0
                                        for slot in (n * part / parts)..<(n * (part + 1) / parts) {
                                            let j = Int(s.slotFence[slot])
                                            var record = Table.record(s.index, fence: j, envelope: s.envelopes[j],
                                                                      settings: s.settings.baseAddress! + j, large: s.isLarge[j])
                                            if let e = s.envelopes[j] {
                                                magnitude = max(magnitude, abs(e.minX), abs(e.maxX), abs(e.minY), abs(e.maxY))
                                            }
                                            if s.usable[slot] {
                                                let ring = s.index.polygonRings[slot]
                                                let ends = UnsafeBufferPointer(start: s.index.polygonRingEnds + ring.ringStart, count: ring.ringCount)
                                                PlanarPolygon.writeRunBoxes(xs: s.index.polygonXs, ys: s.index.polygonYs, start: ring.vertexStart,
                                                                            ringEnds: ends, into: s.boxes + 4 * s.boxStarts[slot])
                                                (record.vertexStart, record.ringStart, record.ringCount) =
                                                    (Int32(ring.vertexStart), Int32(ring.ringStart), UInt16(ring.ringCount))
                                                record.boxStart = Int32(s.boxStarts[slot])
                                            }
                                            (s.records + slot).initialize(to: record)
                                            (s.fences + slot).initialize(to: Int32(j))
                                        }
                                        s.magnitudes[part] = magnitude
                                        for k in (s.items.count * part / parts)..<(s.items.count * (part + 1) / parts) {
                                            (s.slots + k).initialize(to: s.fenceSlot[Int(s.items[k])])
                                        }
                                    }
                                    if parts == 1 { fill(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: fill) }
                                }
                            }
                        }
                    }
                }
            }
            self.records = records
            self.fences = fences
            runBoxes = UnsafePointer(boxes)
            magnitude = magnitudes.max() ?? 0
            cellSlots = slots
            large = grid.large.map { index.fenceSlot[Int($0)] }.filter { records[Int($0)].kind != Table.never }
            usesAccuracyFeed = index.usesAccuracyFeed
            globalMaxGap = index.engineSetup.globalMaxGap
        }

        /// Fence `j`'s record, without its polygon's places (no rings).
        static func record(_ index: FenceIndex, fence j: Int, envelope: BoundingBox?,
                           settings: UnsafePointer<GeotriggerSettings>, large: Bool) -> Record {
            var kind = Table.never
            var x = 0.0, y = 0.0, r = 0.0, rx = 0.0
            switch index.kinds[j] {
            case .circle, .beacon:
                kind = Table.disc
                (x, y, r, rx) = (index.centerX[j], index.centerY[j], index.radius[j], index.exitRadius[j])
            case .area:
                if let e = index.areas[j]?.envelope {
                    kind = Table.area
                    (x, y, r, rx) = (e.minX, e.minY, e.maxX, e.maxY)
                }
            case .line, .empty:
                // Lines are crossed, never entered; an empty fence is never entered.
                break
            }
            var cells = SIMD4<Int32>(1, 0, 1, 0)
            if let envelope {
                let c = index.grid.cellRange(envelope)
                cells = SIMD4(Int32(c.c0), Int32(c.c1), Int32(c.r0), Int32(c.r1))
            } else {
                kind = Table.never
            }
            // Read in place: a copy of the settings retains its filter and message.
            var mode: UInt8 = 0
            if settings.pointee.feed == .accuracy { mode |= Table.accuracyBit }
            if settings.pointee.initialTrigger == .none { mode |= Table.initialNoneBit }
            if large { mode |= Table.largeBit }
            switch settings.pointee.relationship {
            case .intersects: mode |= Table.intersects << Table.relationshipShift
            case .contains: mode |= Table.contains << Table.relationshipShift
            case .containsIntersects: mode |= Table.containsIntersects << Table.relationshipShift
            }
            return Record(x: x, y: y, r: r, rx: rx, cells: cells, vertexStart: 0, ringStart: 0, boxStart: 0, ringCount: 0,
                          kind: kind, mode: mode)
        }

        /// Whether the engine can count these fences under these settings (see ``init(_:)``);
        /// then their index needs no cell records (``FenceIndex/init(_:frame:settings:cellRecords:)``).
        public static func applies(to fences: FenceSet, settings: [GeotriggerSettings]) -> Bool {
            GeotriggerEngine.hasPlainTransitions(settings) && !fences.fences.indices.contains { j in
                // Read in place: copying a fence costs a dozen reference counts.
                if case .beacon = fences.fences[j].kind { return fences.fences[j].beaconSignalNoise.sigmaMeters > 0 }
                return false
            }
        }

        deinit {
            records.deallocate()
            fences.deallocate()
            runBoxes.deallocate()
            cellSlots.deallocate()
        }
    }

    public let table: Table
    /// The worker's GEOS side of the fences (polygons within a nanometre of the device, and
    /// polygons too large for arithmetic).
    public let compiled: CompiledFences
    /// The enters and exits since the caller last emptied this list.
    @exclusivity(unchecked) public var tallies: [GeotriggerEngine.Tally] = []
    /// Counts over the samples processed so far (``GeotriggerEngine/Statistics``: samples, gaps,
    /// samples out of order and inside pairs; nothing is filtered or debounced here).
    @exclusivity(unchecked) public private(set) var statistics = GeotriggerEngine.Statistics()

    /// By slot: whether the fence is watched and inside, and its place in the calendar.
    let watches: UnsafeMutablePointer<Watch>

    struct Watch {
        /// For a watched fence: the odometer reading (micrometres) at which it is due.
        var due: UInt64 = 0
        /// The next fence in the same bucket (-1 ends the list).
        var next: Int32 = -1
        /// ``watchedBit`` and ``insideBit``.
        var flags: UInt8 = 0
        /// For a polygon: the run of edges that held the nearest edge at the last test (see
        /// ``Spatial/PlanarPolygon/roughLocate(_:xs:ys:start:ringEnds:runBoxes:hint:)``).
        var run: UInt16 = 0
    }
    /// The calendar: the first fence of each bucket's list (-1 for none). Bucket `b` holds the
    /// fences due in odometer micrometres `b << bucketShift ..< (b + 1) << bucketShift`, at
    /// `b & bucketMask` (a fence due more than a lap ahead waits its lap there).
    let heads: UnsafeMutablePointer<Int32>
    static let bucketShift: UInt64 = 20
    static let bucketCount = 4096
    static let bucketMask = UInt64(bucketCount - 1)

    static let watchedBit: UInt8 = 1
    static let insideBit: UInt8 = 2

    /// Metres kept in hand on every clearance: far above the rounding of the distances (in a
    /// frame tens of kilometres wide; more is kept where coordinates are larger), far below any
    /// fence.
    static let clearanceSlack = 1e-6
    /// The largest clearance kept (a fence farther than this is tested again after this many
    /// metres): keeps odometer arithmetic far from overflow.
    static let clearanceLimit = 1e9
    /// A step longer than this (metres), or not a number, makes the engine test every fence it
    /// watches afresh instead of reading the calendar.
    static let stepLimit = 1e9
    /// An odometer past this reading (micrometres) starts again from zero, every watched fence
    /// tested afresh. A fix adds less than a lap of the calendar (2^32 µm; a longer step tests
    /// afresh anyway), so this takes billions of fixes; it keeps the sums far from overflowing
    /// whatever the trace.
    static let odometerLimit: UInt64 = 1 << 62

    @exclusivity(unchecked) var odometer: UInt64 = 0
    /// The last bucket read: read again at the next fix, since fences due within it may have
    /// been put back in it.
    @exclusivity(unchecked) var bucket: UInt64 = 0
    /// The cells the query box covered at the last fix (first and last column, first and last
    /// row; ``noCells`` for none).
    @exclusivity(unchecked) var range = SummaryEngine.noCells
    /// A range no fence's cells meet.
    static let noCells = SIMD4<Int>(.max, .min, .max, .min)
    @exclusivity(unchecked) var insideCount = 0
    @exclusivity(unchecked) var previous: (time: Timestamp, x: Double, y: Double, accuracy: Double)?
    /// Whether enters and exits are counted (not while resynchronizing).
    @exclusivity(unchecked) var counting = true
    /// Every watched fence, while the calendar is emptied (storage kept).
    @exclusivity(unchecked) var watched: [Int32] = []
    // What the tests read, as plain pointers into the table and the index (which `table`
    // keeps alive): no reference counting per test.
    let records: UnsafePointer<Table.Record>
    let fenceOfSlot: UnsafePointer<Int32>
    let runBoxes: UnsafePointer<Double>
    let polygonXs: UnsafePointer<Double>
    let polygonYs: UnsafePointer<Double>
    let polygonRingEnds: UnsafePointer<Int>
    let cellSlots: UnsafePointer<Int32>
    let cellTable: FenceIndex.CellTable
    let large: [Int32]
    let usesAccuracyFeed: Bool
    let globalMaxGap: Double
    let magnitude: Double

    public init(table: Table, compiled: CompiledFences) {
        precondition(compiled.index === table.index, "the compiled fences of the table's index")
        self.table = table
        self.compiled = compiled
        records = UnsafePointer(table.records)
        fenceOfSlot = UnsafePointer(table.fences)
        runBoxes = table.runBoxes
        polygonXs = table.index.polygonXs
        polygonYs = table.index.polygonYs
        polygonRingEnds = table.index.polygonRingEnds
        cellSlots = UnsafePointer(table.cellSlots)
        cellTable = table.index.cellTable
        large = table.large
        usesAccuracyFeed = table.usesAccuracyFeed
        globalMaxGap = table.globalMaxGap
        magnitude = table.magnitude
        let capacity = max(1, table.count)
        watches = .allocate(capacity: capacity)
        watches.initialize(repeating: Watch(), count: capacity)
        heads = .allocate(capacity: SummaryEngine.bucketCount)
        heads.initialize(repeating: -1, count: SummaryEngine.bucketCount)
    }

    deinit {
        watches.deallocate()
        heads.deallocate()
    }

    /// Forgets every fence's state and the previous sample, as a fresh engine (statistics and
    /// tallies are kept).
    public func restart() {
        drainCalendar()
        for slot in watched { watches[Int(slot)].flags = 0 }
        watched.removeAll(keepingCapacity: true)
        insideCount = 0
        odometer = 0
        bucket = 0
        range = SummaryEngine.noCells
        previous = nil
    }

    /// Forgets every fence's state and takes the state the sample gives, without tallies or
    /// statistics: for a slice of a trace whose previous sample is this one (see
    /// ``GeotriggerEngine/resynchronize(with:)``).
    public func resynchronize(index: Int, time: Timestamp, x: Double, y: Double, accuracy: Double) {
        restart()
        let saved = statistics
        counting = false
        process(index: index, time: time, x: x, y: y, accuracy: accuracy)
        counting = true
        statistics = saved
    }

    /// Processes the next fix of the trace: `x`, `y` in the fences' metric frame.
    public func process(index: Int, time: Timestamp, x px: Double, y py: Double, accuracy: Double) {
        var full = true
        if let previous {
            if time < previous.time {
                statistics.outOfOrder += 1
                return
            }
            if time.seconds(since: previous.time) > globalMaxGap { statistics.gaps += 1 }
            let dx = px - previous.x
            let dy = py - previous.y
            var step = (dx * dx + dy * dy).squareRoot()
            if usesAccuracyFeed { step += abs(accuracy - previous.accuracy) }
            if step <= SummaryEngine.stepLimit, odometer < SummaryEngine.odometerLimit {
                // Rounded up, and a micrometre more for the rounding of `step` itself.
                let moved = UInt64((step * 1e6).rounded(.up)) + 1
                let reached = (odometer + moved) >> SummaryEngine.bucketShift
                if reached - bucket < UInt64(SummaryEngine.bucketCount) {
                    odometer += moved
                    full = false
                }
            }
        }
        let isFirst = previous == nil
        statistics.samples += 1
        previous = (time, px, py, accuracy)
        let reach = usesAccuracyFeed ? accuracy : 0
        let newRange = cells(minX: px - reach, minY: py - reach, maxX: px + reach, maxY: py + reach)
        let magnitude = max(self.magnitude, abs(px), abs(py))
        let sample = Probe(x: px, y: py, accuracy: accuracy, index: index, isFirst: isFirst,
                           slack: SummaryEngine.clearanceSlack + 1e-13 * magnitude,
                           roughError: PlanarPolygon.roughDistanceError(magnitude: magnitude))
        let before = range
        range = newRange
        if full {
            // The first fix, or a step the calendar cannot measure: every watched fence afresh,
            // on an odometer started again (each test sets its fence's due reading anew).
            drainCalendar()
            odometer = 0
            bucket = 0
            for k in watched.indices { test(Int(watched[k]), sample) }
            watched.removeAll(keepingCapacity: true)
            for slot in large where watches[Int(slot)].flags & SummaryEngine.watchedBit == 0 { test(Int(slot), sample) }
            discover(sample)
        } else {
            // The buckets due, the current one first: a test puts its fence back no earlier
            // than the current bucket, whose list was taken out first and is read again at the
            // next fix, so no fence is tested twice.
            let now = odometer >> SummaryEngine.bucketShift
            var b = now
            while true {
                let place = Int(b & SummaryEngine.bucketMask)
                var slot = heads[place]
                heads[place] = -1
                while slot >= 0 {
                    let following = watches[Int(slot)].next
                    if watches[Int(slot)].due >> SummaryEngine.bucketShift > now {
                        // Due in a later lap of the calendar.
                        watches[Int(slot)].next = heads[place]
                        heads[place] = slot
                    } else {
                        test(Int(slot), sample)
                    }
                    slot = following
                }
                if b == bucket { break }
                b -= 1
            }
            bucket = now
            if newRange != before { discover(sample, besides: before) }
        }
        statistics.insidePairs += insideCount
    }

    /// A fix as the tests read it.
    struct Probe {
        let x: Double
        let y: Double
        let accuracy: Double
        let index: Int
        let isFirst: Bool
        /// Metres kept in hand on every clearance (``clearanceSlack``, more in frames whose
        /// coordinates are large, where distances round more coarsely).
        let slack: Double
        /// The error bound of ``Spatial/PlanarPolygon/roughLocate(_:xs:ys:start:ringEnds:runBoxes:hint:)`` here.
        let roughError: Double
    }

    /// The cells a query box covers, as ``FenceIndex/CellTable/cells(_:)`` finds them;
    /// ``noCells`` when it misses the grid (or is not a box: not a number, or inverted).
    @inline(__always)
    func cells(minX: Double, minY: Double, maxX: Double, maxY: Double) -> SIMD4<Int> {
        guard let c = cellTable.cells(BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)),
              c.c0 <= c.c1, c.r0 <= c.r1 else { return SummaryEngine.noCells }
        return SIMD4(c.c0, c.c1, c.r0, c.r1)
    }

    /// Tests every fence not watched yet of the cells in ``range`` that are not in `before`
    /// (``noCells`` for all of them). Every fence of a cell in range stays watched (a fence
    /// leaves the watch only when none of its cells is in range), so only the cells the range
    /// has just reached can hold fences to find.
    func discover(_ sample: Probe, besides before: SIMD4<Int> = SummaryEngine.noCells) {
        guard range != SummaryEngine.noCells else { return }
        let starts = cellTable.starts
        let columns = cellTable.columns
        for row in range[2]...range[3] {
            let rowBefore = row >= before[2] && row <= before[3]
            for column in range[0]...range[1] {
                if rowBefore, column >= before[0], column <= before[1] { continue }
                let cell = row * columns + column
                for k in Int(starts[cell])..<Int(starts[cell + 1]) {
                    let slot = Int(cellSlots[k])
                    if watches[slot].flags & SummaryEngine.watchedBit == 0, records[slot].kind != Table.never { test(slot, sample) }
                }
            }
        }
    }

    /// Empties the calendar into ``watched`` (every watched fence, once).
    func drainCalendar() {
        for b in 0..<SummaryEngine.bucketCount {
            var slot = heads[b]
            heads[b] = -1
            while slot >= 0 {
                watched.append(slot)
                slot = watches[Int(slot)].next
            }
        }
    }

    /// Tests the fence in `slot` at the sample: its state, an enter or exit, then either its next
    /// test in the calendar or the end of its watch.
    @inline(__always)
    func test(_ slot: Int, _ sample: Probe) {
        let record = records[slot]
        let mode = record.mode
        let inside = watches[slot].flags & SummaryEngine.insideBit != 0
        var reachable = true
        if mode & Table.largeBit == 0 {
            let c = record.cells
            reachable = Int(c[1]) >= range[0] && Int(c[0]) <= range[1] && Int(c[3]) >= range[2] && Int(c[2]) <= range[3]
            // Out of the query's cells and outside: the general engine would not look at it
            // (and its condition cannot hold there); it leaves the watch.
            if !reachable, !inside {
                watches[slot].flags = 0
                return
            }
        }
        let a = mode & Table.accuracyBit != 0 ? sample.accuracy : 0
        let relationship = mode >> Table.relationshipShift
        var run = watches[slot].run
        let enter: Bool
        let stay: Bool
        // How far the enter and the stay conditions are from flipping (lower bounds).
        var enterClearance: Double
        var stayClearance: Double
        if record.kind == Table.disc {
            let dx = sample.x - record.x
            let dy = sample.y - record.y
            let d = (dx * dx + dy * dy).squareRoot()
            let r = record.r
            let rx = record.rx
            // As GeotriggerEngine.conditions decides, operation for operation.
            switch relationship {
            case Table.intersects:
                enter = d <= r + a
                stay = d <= rx + a
                enterClearance = abs(d - (r + a))
                stayClearance = abs(d - (rx + a))
            case Table.contains:
                enter = d + a <= r
                stay = d + a <= rx
                enterClearance = abs(d + a - r)
                stayClearance = abs(d + a - rx)
            default:
                enter = d + a <= r
                stay = d <= rx + a
                enterClearance = abs(d + a - r)
                stayClearance = abs(d - (rx + a))
            }
        } else if sample.x < record.x - a || sample.x > record.r + a || sample.y < record.y - a || sample.y > record.rx + a {
            // Farther than the disc from the envelope: outside, whatever the relationship (as
            // GeotriggerEngine.conditions decides); the envelope is no farther than the polygon.
            enter = false
            stay = false
            let ex = max(record.x - sample.x, sample.x - record.r, 0)
            let ey = max(record.y - sample.y, sample.y - record.rx, 0)
            enterClearance = (ex * ex + ey * ey).squareRoot() - abs(a)
            stayClearance = enterClearance
        } else {
            let p = XY(sample.x, sample.y)
            var isInside = false
            var d = 0.0
            // How far `d` may be from the exact distance.
            var error = 0.0
            var settled = false
            if record.ringCount > 0 {
                let ends = UnsafeBufferPointer(start: polygonRingEnds + Int(record.ringStart), count: Int(record.ringCount))
                let xs = polygonXs
                let ys = polygonYs
                // One pass: the parity and a distance within `error` of GEOS's. It settles the
                // conditions unless the boundary, or the edge of the disc, is within that error.
                let found = PlanarPolygon.roughLocate(p, xs: xs, ys: ys, start: Int(record.vertexStart), ringEnds: ends,
                                                      runBoxes: runBoxes + 4 * Int(record.boxStart), hint: Int(watches[slot].run))
                (isInside, d) = (found.inside, found.distance)
                run = UInt16(truncatingIfNeeded: found.nearestRun)
                error = sample.roughError
                settled = d > error && (a == 0 || abs(d - a) > error)
                if !settled, let exact = PlanarPolygon.locate(p, xs: xs, ys: ys, start: Int(record.vertexStart), ringEnds: ends) {
                    (isInside, d, error, settled) = (exact.inside, exact.boundaryDistance, 0, true)
                }
            }
            if !settled {
                // Within a nanometre of the boundary, or a polygon left to GEOS.
                let j = Int(fenceOfSlot[slot])
                (isInside, d) = compiled.area(j)?.locateWithGEOS(p) ?? (false, .infinity)
                // A polygon with rings is tested again at the next fix.
                error = record.ringCount > 0 ? .infinity : 0
            }
            // As GeotriggerEngine.conditions decides from AreaFence.classify (the nearest
            // boundary within the disc) and, for containment, the boundary distance.
            let near = d <= a
            let hit = isInside || near
            let contained = isInside && (!near || a == 0 || d >= a)
            let signed = isInside ? -d : d
            switch relationship {
            case Table.intersects:
                (enter, stay) = (hit, hit)
                enterClearance = abs(signed - a) - error
                stayClearance = enterClearance
            case Table.contains:
                (enter, stay) = (contained, contained)
                enterClearance = abs(signed + a) - error
                stayClearance = enterClearance
            default:
                (enter, stay) = (contained, hit)
                enterClearance = abs(signed + a) - error
                stayClearance = abs(signed - a) - error
            }
        }
        var nowInside = inside
        if (inside ? stay : enter) != inside {
            nowInside = !inside
            insideCount += nowInside ? 1 : -1
            if counting, !(nowInside && sample.isFirst && mode & Table.initialNoneBit != 0) {
                tallies.append(GeotriggerEngine.Tally(enter: nowInside, fixIndex: sample.index, fence: Int(fenceOfSlot[slot])))
            }
        }
        if !nowInside, !reachable {
            watches[slot].flags = 0
            return
        }
        // The condition that would change the state next, less the slack for rounding.
        let clearance = min((nowInside ? stayClearance : enterClearance) - sample.slack, SummaryEngine.clearanceLimit)
        let when = odometer + (clearance > 0 ? UInt64(clearance * 1e6) : 0)
        let b = Int((when >> SummaryEngine.bucketShift) & SummaryEngine.bucketMask)
        watches[slot] = Watch(due: when, next: heads[b], flags: SummaryEngine.watchedBit | (nowInside ? SummaryEngine.insideBit : 0), run: run)
        heads[b] = Int32(slot)
    }
}
