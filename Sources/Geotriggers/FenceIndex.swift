import Dispatch
import Fences
import Foundation
import Spatial
import Support
import Synchronization

/// A fence set compiled for the engine: projected into the metric frame, buffered, indexed by a
/// grid, with plain arrays for the hot path. Built once and shared by every worker.
///
/// - Important: `@unchecked Sendable` because every stored property is a `let` holding values
///   (arrays, structs, enums of values) that nothing mutates after `init`; the GEOS and PROJ
///   objects a worker needs live in its own ``CompiledFences``, never here.
public final class FenceIndex: @unchecked Sendable {
    public let fenceSet: FenceSet
    /// Resolved settings of each fence, by fence index.
    public let settings: FenceSettings
    /// The metric frame the index was compiled in.
    public let definition: FrameDefinition
    /// Findings while compiling (fences buffered away, ...).
    public let warnings: [Diagnostic]

    enum Shape {
        case circle(center: XY, radius: Double)
        /// Enter within `enterRadius`, stay until beyond `exitRadius` (Bluedot beacon check-out).
        case beacon(center: XY, enterRadius: Double, exitRadius: Double)
        case area(AreaShape)
        case line([XY])
        /// A fence that a negative buffer removed entirely; never entered.
        case empty
    }

    /// An area fence in metres: its polygon and its envelope.
    ///
    /// Polygons of up to ``planarVertexLimit`` vertices are tested by arithmetic (GEOS's distance
    /// formula, even–odd rule, ``Spatial/PlanarPolygon``'s static tests over the index's flat
    /// vertex arrays, ``FenceIndex/polygonRings``), which costs a fraction of a GEOS call with its
    /// temporary point; GEOS decides points within a nanometre of the boundary and larger
    /// polygons, where its indexed prepared geometry wins.
    ///
    /// A class, so that a ``Shape`` and an entry of ``areas`` hold one reference instead of the
    /// whole value (which made every fence's entry as large as a polygon's: about 25 MB more for
    /// 100,000 fences).
    final class AreaShape: Sendable {
        let shape: Spatial.Shape
        let envelope: BoundingBox

        static let planarVertexLimit = 256

        init(_ shape: Spatial.Shape) {
            self.shape = shape
            envelope = shape.boundingBox ?? BoundingBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        }
    }

    enum Kind: UInt8 {
        case circle, beacon, area, line, empty
    }

    /// A fence as the engine's tests read it, by slot (see ``slotFence``), in one cache line:
    /// the one compiled record every path of the engine reads.
    struct Record {
        /// A disc's centre, enter and stay radii; an area's envelope (min x, min y, max x,
        /// max y).
        var x: Double
        var y: Double
        var r: Double
        var rx: Double
        /// The grid cells the fence is registered in (first and last column, first and last
        /// row), as ``FenceGrid`` registered it; empty for fences in no cell.
        var cells: SIMD4<Int32>
        var kind: Kind
        var relationship: GeotriggerSettings.Relationship
        var accuracyFeed: Bool
        var initialNone: Bool
        /// Registered in no cell (``FenceGrid/large``): always watched.
        var large: Bool
        /// Whether its state after a fix depends on that fix alone (``isScheduled``): the engine
        /// tests it again only when the device could have reached its boundary; otherwise at
        /// every fix whose query reaches its cells.
        var scheduled: Bool
    }

    let shapes: [Shape]
    /// The hot path's view of the shapes, as parallel arrays of plain values.
    let kinds: [Kind]
    let centerX: [Double]
    let centerY: [Double]
    /// Circle radius, or a beacon's check-in distance.
    let radius: [Double]
    /// A beacon's full range (its exit distance); the radius for circles.
    let exitRadius: [Double]
    let areas: [AreaShape?]
    /// Per fence: a beacon's signal noise (standard deviation in metres, 0 for none) and seed.
    let beaconNoise: [(sigma: Double, seed: UInt64)]
    /// By fence: its place among the fences tested at every fix (not scheduled), -1 for a
    /// scheduled fence; an engine keeps per-fence state for those alone.
    let scannedOrdinal: [Int32]
    /// Each slot's record, in memory the index owns (freed in `deinit`).
    let records: UnsafeMutablePointer<Record>
    /// The envelopes of the arithmetic polygons' runs of edges
    /// (``Spatial/PlanarPolygon/writeRunBoxes(xs:ys:start:ringEnds:into:)``), polygon after
    /// polygon in slot order, and each slot's first box (by slot; a polygon without one has no
    /// run boxes and is tested with ``Spatial/PlanarPolygon/locate(_:xs:ys:start:ringEnds:)``
    /// alone).
    let runBoxes: UnsafePointer<Double>
    let runBoxStart: [Int32]
    /// The largest coordinate of any fence envelope, in metres from the frame's origin: the
    /// rounding of distances grows with it.
    let magnitude: Double
    /// What the engine's hot path reads of the grid, as plain pointers and values (see
    /// ``CellTable``).
    let cellTable: CellTable
    /// Every arithmetic polygon's vertices in two flat arrays, with each fence's place in them
    /// (`ringCount` 0 for fences without one), so the engine tests polygons without touching a
    /// per-fence object. Held in memory the index owns (freed in `deinit`) and read through plain
    /// pointers by every worker's engine: no copy per worker, no retain or bounds bookkeeping.
    let polygonXs: UnsafePointer<Double>
    let polygonYs: UnsafePointer<Double>
    let polygonRingEnds: UnsafePointer<Int>
    /// Each slot's polygon place in those arrays (by slot, see ``slotFence``).
    let polygonRings: [(vertexStart: Int, ringStart: Int, ringCount: Int)]
    /// The fences in the order of the grid cell that holds their envelope's centre, row by row
    /// (fence order within a cell): `slotFence[slot]` is a fence, `fenceSlot[fence]` its slot.
    /// The engine keeps the per-fence state its hot path touches (marks, flags, polygon looks)
    /// by slot, so the candidates of one cell have their state in a few nearby cache lines
    /// rather than scattered over the whole fence set.
    let slotFence: [Int32]
    let fenceSlot: [Int32]
    /// Each fence's rank in id order: events at the same instant are ordered by fence id, so
    /// that the log does not depend on the order of fences in the file. Worked out the first
    /// time an engine orders two events of one instant (a count of enters and exits never does).
    var idRank: [Int32] {
        rankCache.withLock { cached in
            if let cached { return cached }
            let ranks = FenceIndex.ranksByID(fenceSet.fences, geotrigger: fenceSet.watchers?.geotrigger)
            cached = ranks
            return ranks
        }
    }
    private let rankCache = Mutex<[Int32]?>(nil)
    /// Each fence's id and zone (see ``FenceLabels``): worked out the first time
    /// an event log asks for them (a count of enters and exits never does).
    public var labels: FenceLabels {
        labelCache.withLock { cached in
            if let cached { return cached }
            let labels = FenceLabels(fenceSet.fences)
            cached = labels
            return labels
        }
    }
    private let labelCache = Mutex<FenceLabels?>(nil)
    /// Metric envelopes, including the exit radius of beacons; `nil` for empty fences.
    let envelopes: [BoundingBox?]
    let grid: FenceGrid
    /// The filters and per-fence profiles every engine over these fences uses.
    let engineSetup: GeotriggerEngine.Setup
    /// Whether any fence uses the accuracy feed, is a line, may report hidden crossings: the
    /// engine widens its queries only when it must.
    let usesAccuracyFeed: Bool
    let hasLines: Bool
    let needsSegments: Bool

    /// The number of fences.
    public var count: Int { shapes.count }

    /// The fences as projected into the frame, before buffers: a circle's or beacon's centre,
    /// and an area's shape when no buffer changed it — the very values of `frame.forward` on
    /// the fence's own positions, which the index computed once.
    public var projected: Projected { Projected(shapes: shapes, settings: settings, definition: definition) }

    /// What the index holds of each fence's shape in the frame as drawn (see ``projected``).
    public struct Projected: Sendable {
        let shapes: [Shape]
        let settings: FenceSettings
        /// The frame they are in.
        public let definition: FrameDefinition

        /// The number of fences (the index's fence set's).
        public var count: Int { shapes.count }

        /// Fence `j`'s shape in the frame as drawn — the centre of a circle or beacon, the
        /// polygons of an area compiled without a buffer — or `nil` when the index holds only a
        /// buffered or erased shape (or no fence `j`).
        public func shape(_ j: Int) -> Spatial.Shape? {
            guard shapes.indices.contains(j) else { return nil }
            switch shapes[j] {
            case .circle(let center, _), .beacon(let center, _, _):
                return .point(center)
            case .area(let area):
                // As ``compile(kind:shape:buffer:frame:context:)`` decides: a zero buffer keeps
                // the projected shape itself.
                return settings[j].bufferMeters == 0 ? area.shape : nil
            case .line, .empty:
                return nil
            }
        }
    }

    /// Projects, buffers and indexes `fenceSet`.
    ///
    /// - Parameters:
    ///   - settings: the resolved settings of each fence, in fence order (buffers are taken from
    ///     here).
    ///   - projected: handed the fences as projected (``Projected``) as soon as they are, before
    ///     the rest of the index is built: another part of the run that needs them in the frame
    ///     (a report's ground truth) takes them instead of projecting every vertex again.
    /// - Throws: ``Support/FencesimError`` when the frame cannot be built or GEOS fails on a fence.
    public convenience init(
        _ fenceSet: FenceSet, frame definition: FrameDefinition, settings: FenceSettings,
        projected: ((Projected) -> Void)? = nil
    ) throws(FencesimError) {
        try self.init(fenceSet, frame: definition, settings: settings, workers: nil, projected: projected)
    }

    /// Compiles with `workers` threads for the projection (`nil`: as many as pay off).
    init(
        _ fenceSet: FenceSet, frame definition: FrameDefinition, settings: FenceSettings, workers: Int?,
        projected: ((Projected) -> Void)? = nil
    ) throws(FencesimError) {
        precondition(settings.count == fenceSet.fences.count, "one settings value per fence")
        self.fenceSet = fenceSet
        self.settings = settings
        self.definition = definition
        let (shapes, envelopes, warnings) = try FenceIndex.compileAll(fenceSet, frame: definition, settings: settings, workers: workers)
        projected?(Projected(shapes: shapes, settings: settings, definition: definition))
        self.shapes = shapes
        self.envelopes = envelopes
        self.warnings = warnings
        // The grid and the engine's plain arrays are independent: built side by side for large
        // sets, then the records are laid out in slot order.
        let parallel = shapes.count >= FenceIndex.fencesPerWorker && ProcessInfo.processInfo.activeProcessorCount > 1 && workers != 1
        let (gridAndSetup, built) = FenceIndex.both(
            parallel,
            {
                (
                    FenceGrid(envelopes: envelopes),
                    GeotriggerEngine.Setup(
                        settings: settings, shapes: shapes, validityFences: GeotriggerEngine.validityFences(fenceSet))
                )
            },
            {
                FenceIndex.layout(shapes, fenceSet.fences, settings)
            })
        (grid, engineSetup) = gridAndSetup
        let layout = built
        kinds = layout.kinds
        centerX = layout.centerX
        centerY = layout.centerY
        radius = layout.radius
        exitRadius = layout.exitRadius
        areas = layout.areas
        beaconNoise = layout.beaconNoise
        polygonXs = layout.polygonXs
        polygonYs = layout.polygonYs
        polygonRingEnds = layout.polygonRingEnds
        (slotFence, fenceSlot) = FenceIndex.slots(envelopes, grid)
        polygonRings = slotFence.map { layout.polygonRings[Int($0)] }
        // Fences and settings read in place (a copy of either retains a dozen references).
        let scheduled = fenceSet.fences.withUnsafeBufferPointer { fences in
            settings.distinct.withUnsafeBufferPointer { distinct in
                fences.indices.map { j in
                    FenceIndex.isScheduled(
                        kind: layout.kinds[j], fenceKind: fences[j].kind, settings: distinct.baseAddress! + settings.position(of: j),
                        noise: layout.beaconNoise[j].sigma) && !fences[j].hasValidity
                }
            }
        }
        let slotRecords = FenceIndex.records(
            layout: layout, grid: grid, envelopes: envelopes, settings: settings, scheduled: scheduled,
            slotFence: slotFence, polygonRings: polygonRings, workers: parallel ? 2 : 1)
        records = slotRecords.records
        runBoxes = slotRecords.runBoxes
        runBoxStart = slotRecords.runBoxStart
        magnitude = slotRecords.magnitude
        cellTable = CellTable(grid, fenceSlot: fenceSlot, scheduled: scheduled)
        var ordinals = [Int32](repeating: -1, count: scheduled.count)
        var scanned: Int32 = 0
        for j in scheduled.indices where !scheduled[j] {
            ordinals[j] = scanned
            scanned += 1
        }
        scannedOrdinal = ordinals
        usesAccuracyFeed = settings.contains { $0.feed == .accuracy }
        hasLines = shapes.contains { if case .line = $0 { true } else { false } }
        needsSegments = hasLines || settings.contains { $0.gapPolicy != .ignore }
    }

    /// Whether a fence's state after a fix depends on that fix alone, so that the engine need
    /// not test it while the device cannot have reached its boundary: a circle, beacon or area
    /// without filter, dwell or debounce, not a beacon with signal noise (its state may flip at
    /// any fix, wherever the device is), entered and stayed in on one condition
    /// (``GeotriggerEngine/entersAndStaysAlike(_:relationship:feed:bufferMeters:)``), and not a
    /// polygon whose hidden visits are found on an eroded GEOS buffer (see below). A fence with a
    /// validity (``Fences/FenceValidity``) is not scheduled either: the calendar knows nothing of
    /// time.
    static func isScheduled(kind: Kind, fenceKind: Fence.Kind, settings pointer: UnsafePointer<GeotriggerSettings>, noise: Double) -> Bool {
        switch kind {
        case .circle, .beacon, .area: break
        case .line, .empty: return false
        }
        // A visit hidden between fixes inside a polygon shrunk by the disc is found on GEOS's
        // buffer, whose arcs are chords: it can reach a little beyond the exact distance the
        // calendar keeps, so such a fence is tested at every fix.
        if kind == .area, pointer.pointee.relationship != .intersects, pointer.pointee.feed == .accuracy,
            pointer.pointee.gapPolicy != .ignore
        {
            return false
        }
        return pointer.pointee.filter == nil && pointer.pointee.dwellSeconds == nil && pointer.pointee.enterAfter.isImmediate
            && pointer.pointee.exitAfter.isImmediate
            && noise == 0
            && GeotriggerEngine.entersAndStaysAlike(
                fenceKind, relationship: pointer.pointee.relationship, feed: pointer.pointee.feed,
                bufferMeters: pointer.pointee.bufferMeters)
    }

    /// Each slot's record, and the polygons' run boxes, filled on up to `workers` threads.
    static func records(
        layout: Layout, grid: FenceGrid, envelopes: [BoundingBox?], settings: FenceSettings, scheduled: [Bool],
        slotFence: [Int32], polygonRings: [(vertexStart: Int, ringStart: Int, ringCount: Int)],
        workers: Int
    ) -> (records: UnsafeMutablePointer<Record>, runBoxes: UnsafePointer<Double>, runBoxStart: [Int32], magnitude: Double) {
        let n = slotFence.count
        var isLarge = [Bool](repeating: false, count: n)
        for j in grid.large { isLarge[Int(j)] = true }
        // Where each polygon's run boxes go: counted first, so that the slots can be filled on
        // several threads, each writing its own places.
        var boxStarts = [Int](repeating: 0, count: n + 1)
        var runBoxStart = [Int32](repeating: -1, count: n)
        for slot in 0..<n {
            let ring = polygonRings[slot]
            var runs = 0
            // Beyond what 32 bits hold, the polygon is tested without run boxes.
            if ring.ringCount > 0 {
                runs = PlanarPolygon.runCount(
                    start: ring.vertexStart,
                    ringEnds: UnsafeBufferPointer(start: layout.polygonRingEnds + ring.ringStart, count: ring.ringCount))
                if boxStarts[slot] + runs <= Int(Int32.max) { runBoxStart[slot] = Int32(boxStarts[slot]) } else { runs = 0 }
            }
            boxStarts[slot + 1] = boxStarts[slot] + runs
        }
        let records = UnsafeMutablePointer<Record>.allocate(capacity: max(1, n))
        let boxes = UnsafeMutablePointer<Double>.allocate(capacity: max(1, 4 * boxStarts[n]))
        let parts = max(1, min(workers, n / 16_384))
        var magnitudes = [Double](repeating: 0, count: parts)
        /// Plain pointers, each thread writing its own slots.
        struct Shared: @unchecked Sendable {
            let layout: Layout
            let grid: FenceGrid
            let envelopes: [BoundingBox?]
            let settings: FenceSettings
            let scheduled, isLarge: [Bool]
            let slotFence: [Int32]
            let polygonRings: [(vertexStart: Int, ringStart: Int, ringCount: Int)]
            let boxStarts: [Int]
            let runBoxStart: [Int32]
            let records: UnsafeMutablePointer<Record>
            let boxes: UnsafeMutablePointer<Double>
            let magnitudes: UnsafeMutablePointer<Double>
        }
        magnitudes.withUnsafeMutableBufferPointer { magnitudes in
            let s = Shared(
                layout: layout, grid: grid, envelopes: envelopes, settings: settings, scheduled: scheduled, isLarge: isLarge,
                slotFence: slotFence, polygonRings: polygonRings, boxStarts: boxStarts, runBoxStart: runBoxStart,
                records: records, boxes: boxes, magnitudes: magnitudes.baseAddress!)
            let fill: @Sendable (Int) -> Void = { part in
                var magnitude = 0.0
                for slot in (n * part / parts)..<(n * (part + 1) / parts) {
                    let j = Int(s.slotFence[slot])
                    var x = 0.0, y = 0.0, r = 0.0, rx = 0.0
                    var kind = s.layout.kinds[j]
                    switch kind {
                    case .circle, .beacon:
                        (x, y, r, rx) = (s.layout.centerX[j], s.layout.centerY[j], s.layout.radius[j], s.layout.exitRadius[j])
                    case .area:
                        if let e = s.layout.areas[j]?.envelope { (x, y, r, rx) = (e.minX, e.minY, e.maxX, e.maxY) } else { kind = .empty }
                    case .line, .empty:
                        break
                    }
                    var cells = SIMD4<Int32>(1, 0, 1, 0)
                    if let e = s.envelopes[j] {
                        magnitude = max(magnitude, abs(e.minX), abs(e.maxX), abs(e.minY), abs(e.maxY))
                        let c = s.grid.cellRange(e)
                        cells = SIMD4(Int32(c.c0), Int32(c.c1), Int32(c.r0), Int32(c.r1))
                    } else {
                        kind = .empty
                    }
                    if s.runBoxStart[slot] >= 0 {
                        let ring = s.polygonRings[slot]
                        PlanarPolygon.writeRunBoxes(
                            xs: s.layout.polygonXs, ys: s.layout.polygonYs, start: ring.vertexStart,
                            ringEnds: UnsafeBufferPointer(start: s.layout.polygonRingEnds + ring.ringStart, count: ring.ringCount),
                            into: s.boxes + 4 * s.boxStarts[slot])
                    }
                    // Read in place: a copy of the settings retains its filter and message.
                    (s.records + slot).initialize(
                        to: s.settings.distinct.withUnsafeBufferPointer { distinct in
                            let settings = distinct.baseAddress! + s.settings.position(of: j)
                            return Record(
                                x: x, y: y, r: r, rx: rx, cells: cells, kind: kind, relationship: settings.pointee.relationship,
                                accuracyFeed: settings.pointee.feed == .accuracy, initialNone: settings.pointee.initialTrigger == .none,
                                large: s.isLarge[j], scheduled: s.scheduled[j] && kind != .empty)
                        })
                }
                s.magnitudes[part] = magnitude
            }
            if parts == 1 { fill(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: fill) }
        }
        return (records, UnsafePointer(boxes), runBoxStart, magnitudes.max() ?? 0)
    }

    deinit {
        polygonXs.deallocate()
        polygonYs.deallocate()
        polygonRingEnds.deallocate()
        records.deallocate()
        runBoxes.deallocate()
        cellTable.deallocate()
    }

    /// The grid as the engine's hot path reads it once per sample: its geometry, and its cell
    /// starts, records and large fences through plain pointers into memory the index owns.
    ///
    /// Every worker's engine reads the same index. Reading shared arrays made each engine retain
    /// and release their buffers on every sample, and two threads doing that to the same
    /// reference counts took about 8% of the replay on the large bench workload; plain pointers
    /// need no reference counting.
    struct CellTable: @unchecked Sendable {
        let originX: Double
        let originY: Double
        let cellSize: Double
        let columns: Int
        let rows: Int
        /// The slots of cell `c`'s scheduled fences (``Record/scheduled``) are
        /// `scheduledSlots[scheduledStarts[c]..<scheduledStarts[c + 1]]`; its other fences',
        /// `scannedSlots[scannedStarts[c]..<scannedStarts[c + 1]]`.
        let scheduledStarts: UnsafePointer<Int32>
        let scheduledSlots: UnsafePointer<Int32>
        let scannedStarts: UnsafePointer<Int32>
        let scannedSlots: UnsafePointer<Int32>
        /// Slots of the fences registered in no cell (``FenceGrid/large``), scheduled or not:
        /// looked at on every query.
        let largeScheduled: UnsafeBufferPointer<Int32>
        let largeScanned: UnsafeBufferPointer<Int32>
        /// Whether any fence is tested at every fix (not scheduled).
        let hasScanned: Bool

        /// The grid's cells split by whether their fences are scheduled, as slots, in memory of
        /// the table's own, freed by ``deallocate()``.
        init(_ grid: FenceGrid, fenceSlot: [Int32], scheduled: [Bool]) {
            originX = grid.originX
            originY = grid.originY
            cellSize = grid.cellSize
            columns = grid.columns
            rows = grid.rows
            let cells = grid.starts.count - 1
            var sStarts = [Int32](repeating: 0, count: cells + 1)
            var nStarts = [Int32](repeating: 0, count: cells + 1)
            var sSlots: [Int32] = []
            var nSlots: [Int32] = []
            grid.items.withUnsafeBufferPointer { items in
                grid.starts.withUnsafeBufferPointer { starts in
                    scheduled.withUnsafeBufferPointer { scheduled in
                        fenceSlot.withUnsafeBufferPointer { fenceSlot in
                            let scheduledCount = items.reduce(0) { $0 + (scheduled[Int($1)] ? 1 : 0) }
                            sSlots.reserveCapacity(scheduledCount)
                            nSlots.reserveCapacity(items.count - scheduledCount)
                            for c in 0..<max(0, cells) {
                                for k in Int(starts[c])..<Int(starts[c + 1]) {
                                    let j = Int(items[k])
                                    if scheduled[j] { sSlots.append(fenceSlot[j]) } else { nSlots.append(fenceSlot[j]) }
                                }
                                sStarts[c + 1] = Int32(truncatingIfNeeded: sSlots.count)
                                nStarts[c + 1] = Int32(truncatingIfNeeded: nSlots.count)
                            }
                        }
                    }
                }
            }
            scheduledStarts = FenceIndex.ownedCopy(sStarts)
            scheduledSlots = FenceIndex.ownedCopy(sSlots)
            scannedStarts = FenceIndex.ownedCopy(nStarts)
            scannedSlots = FenceIndex.ownedCopy(nSlots)
            let large = grid.large.map { (fence: $0, slot: fenceSlot[Int($0)]) }
            let ls = large.filter { scheduled[Int($0.fence)] }.map(\.slot)
            let ln = large.filter { !scheduled[Int($0.fence)] }.map(\.slot)
            largeScheduled = UnsafeBufferPointer(start: FenceIndex.ownedCopy(ls), count: ls.count)
            largeScanned = UnsafeBufferPointer(start: FenceIndex.ownedCopy(ln), count: ln.count)
            hasScanned = scheduled.contains(false)
        }

        func deallocate() {
            scheduledStarts.deallocate()
            scheduledSlots.deallocate()
            scannedStarts.deallocate()
            scannedSlots.deallocate()
            largeScheduled.baseAddress?.deallocate()
            largeScanned.baseAddress?.deallocate()
        }

        /// The cells a box covers, as column and row ranges; `nil` when it misses the grid.
        @inline(__always)
        func cells(_ box: BoundingBox) -> (c0: Int, c1: Int, r0: Int, r1: Int)? {
            FenceGrid.cells(box, originX: originX, originY: originY, cellSize: cellSize, columns: columns, rows: rows)
        }
    }

    /// `values` in memory of its own (at least one element, so the pointer is never dangling);
    /// the element types are trivial, so freeing needs no deinitialization.
    static func ownedCopy<T: BitwiseCopyable>(_ values: [T]) -> UnsafePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, values.count))
        p.initialize(from: values, count: values.count)
        return UnsafePointer(p)
    }

    /// The engine's view of the compiled shapes: plain arrays by fence, and every arithmetic
    /// polygon's vertices in owned memory.
    struct Layout: @unchecked Sendable {
        var kinds: [Kind] = []
        var centerX: [Double] = []
        var centerY: [Double] = []
        var radius: [Double] = []
        var exitRadius: [Double] = []
        var areas: [AreaShape?] = []
        var beaconNoise: [(sigma: Double, seed: UInt64)] = []
        var polygonXs: UnsafePointer<Double>
        var polygonYs: UnsafePointer<Double>
        var polygonRingEnds: UnsafePointer<Int>
        var polygonRings: [(vertexStart: Int, ringStart: Int, ringCount: Int)] = []
    }

    static func layout(_ shapes: [Shape], _ fences: [Fence], _ settings: FenceSettings) -> Layout {
        var kinds: [Kind] = []
        var cx: [Double] = [], cy: [Double] = [], r: [Double] = [], rx: [Double] = []
        var areas: [AreaShape?] = []
        kinds.reserveCapacity(shapes.count)
        cx.reserveCapacity(shapes.count)
        cy.reserveCapacity(shapes.count)
        r.reserveCapacity(shapes.count)
        rx.reserveCapacity(shapes.count)
        areas.reserveCapacity(shapes.count)
        for shape in shapes {
            var k = Kind.empty
            var c = XY(0, 0)
            var r0 = 0.0, r1 = 0.0
            var area: AreaShape?
            switch shape {
            case .circle(let center, let radius): (k, c, r0, r1) = (.circle, center, radius, radius)
            case .beacon(let center, let enter, let exit): (k, c, r0, r1) = (.beacon, center, enter, exit)
            case .area(let a): (k, area) = (.area, a)
            case .line: k = .line
            case .empty: k = .empty
            }
            kinds.append(k)
            cx.append(c.x)
            cy.append(c.y)
            r.append(r0)
            rx.append(r1)
            areas.append(area)
        }
        let beaconNoise: [(sigma: Double, seed: UInt64)] = fences.map { fence in
            if case .beacon = fence.kind { let noise = fence.beaconSignalNoise; return (noise.sigmaMeters, noise.seed) }
            return (0, 0)
        }
        var xs: [Double] = [], ys: [Double] = [], ends: [Int] = []
        var rings: [(vertexStart: Int, ringStart: Int, ringCount: Int)] = []
        rings.reserveCapacity(areas.count)
        for area in areas {
            // Polygons up to the limit get their arithmetic form here, once, in the flat arrays
            // every worker reads (no per-polygon copy is kept besides).
            let start = xs.count
            guard let area, let ringEnds = PlanarPolygon.appendRings(of: area.shape, to: &xs, &ys, limit: AreaShape.planarVertexLimit)
            else {
                rings.append((0, 0, 0))
                continue
            }
            rings.append((start, ends.count, ringEnds.count))
            ends += ringEnds
        }
        return Layout(
            kinds: kinds, centerX: cx, centerY: cy, radius: r, exitRadius: rx, areas: areas, beaconNoise: beaconNoise,
            polygonXs: ownedCopy(xs), polygonYs: ownedCopy(ys), polygonRingEnds: ownedCopy(ends),
            polygonRings: rings)
    }

    /// The slot order (see ``slotFence``): fences by the grid cell of their envelope's centre,
    /// counted out cell by cell; fences without an envelope come last, all in fence order.
    static func slots(_ envelopes: [BoundingBox?], _ grid: FenceGrid) -> (slotFence: [Int32], fenceSlot: [Int32]) {
        let cells = grid.columns * grid.rows
        var cellOf = [Int32](repeating: Int32(cells), count: envelopes.count)
        var starts = [Int](repeating: 0, count: cells + 2)
        for (j, e) in envelopes.enumerated() {
            if let e {
                let column = FenceGrid.index(((e.minX + e.maxX) / 2 - grid.originX) / grid.cellSize, below: grid.columns)
                let row = FenceGrid.index(((e.minY + e.maxY) / 2 - grid.originY) / grid.cellSize, below: grid.rows)
                cellOf[j] = Int32(row * grid.columns + column)
            }
            starts[Int(cellOf[j]) + 1] += 1
        }
        for c in 1..<starts.count { starts[c] += starts[c - 1] }
        var slotFence = [Int32](repeating: 0, count: envelopes.count)
        var fenceSlot = [Int32](repeating: 0, count: envelopes.count)
        for j in envelopes.indices {
            let c = Int(cellOf[j])
            slotFence[starts[c]] = Int32(j)
            fenceSlot[j] = Int32(starts[c])
            starts[c] += 1
        }
        return (slotFence, fenceSlot)
    }

    /// `a()` and `b()`, on two threads when `parallel`.
    static func both<A, B>(_ parallel: Bool, _ a: () -> A, _ b: () -> B) -> (A, B) {
        guard parallel else { return (a(), b()) }
        let results = BothResults<A, B>()
        withoutActuallyEscaping(a) { a in
            withoutActuallyEscaping(b) { b in
                let work = BothWork(a: a, b: b)
                DispatchQueue.concurrentPerform(iterations: 2) { k in
                    if k == 0 { results.a = work.a() } else { results.b = work.b() }
                }
            }
        }
        return (results.a!, results.b!)
    }

    /// Fences compiled per worker below this count are not worth a thread.
    static let fencesPerWorker = 8_192

    /// Projects and buffers every fence, on several threads for large sets (each with its own
    /// PROJ frame and GEOS context, taking a contiguous block of fences); results are in fence
    /// order, and the first failure in fence order is thrown, as a single pass would.
    static func compileAll(
        _ fenceSet: FenceSet, frame definition: FrameDefinition,
        settings: FenceSettings, workers requested: Int? = nil
    ) throws(FencesimError) -> ([Shape], [BoundingBox?], [Diagnostic]) {
        let fences = fenceSet.fences
        let automatic = min(ProcessInfo.processInfo.activeProcessorCount, 8, fences.count / fencesPerWorker)
        let workers = max(1, min(requested ?? automatic, fences.count))
        let blocks = try OrderedBlocks.map(count: fences.count, parts: workers) { (_, range) throws(FencesimError) in
            // A frame and a GEOS context used only while compiling (projection, buffers).
            let frame: MetricFrame
            let context: GEOSContext
            do throws(SpatialError) {
                frame = try MetricFrame(definition)
                context = try GEOSContext()
            } catch {
                throw FencesimError(.badData, "cannot build the metric frame \"\(definition)\": \(error.message)", cause: error)
            }
            var shapes: [Shape] = []
            var envelopes: [BoundingBox?] = []
            var warnings: [Diagnostic] = []
            shapes.reserveCapacity(range.count)
            envelopes.reserveCapacity(range.count)
            // Only each fence's kind and shape are read: copying whole fences (a dozen reference
            // counts each) was a quarter of this loop's time in perf.
            try fences.withUnsafeBufferPointer { (fences) throws(FencesimError) in
                for j in range {
                    let buffer = settings[j].bufferMeters
                    do throws(SpatialError) {
                        let (shape, envelope) = try FenceIndex.compile(
                            kind: fences[j].kind, shape: fences[j].shape, buffer: buffer,
                            frame: frame, context: context)
                        if case .empty = shape {
                            warnings.append(
                                Diagnostic(
                                    .warning, "fence \"\(fences[j].id)\": a buffer of \(buffer) m leaves nothing; it will never be entered",
                                    at: fences[j].location, kind: "fence-empty"))
                        }
                        shapes.append(shape)
                        envelopes.append(envelope)
                    } catch {
                        throw FencesimError(.badData, "fence \"\(fences[j].id)\": \(error.message)", at: fences[j].location, cause: error)
                    }
                }
            }
            return (shapes, envelopes, warnings)
        }
        if blocks.count == 1 { return blocks[0] }
        var shapes: [Shape] = []
        var envelopes: [BoundingBox?] = []
        var warnings: [Diagnostic] = []
        shapes.reserveCapacity(fences.count)
        envelopes.reserveCapacity(fences.count)
        for block in blocks {
            shapes += block.0
            envelopes += block.1
            warnings += block.2
        }
        return (shapes, envelopes, warnings)
    }

    /// Each fence's rank by id; equal ids (versions of one fence, one fence watched by several
    /// geotriggers) by `geotrigger` (the index of the geotrigger watching each fence, in the
    /// scenario's order), then in the set's order.
    static func ranksByID(_ fences: [Fence], geotrigger: [Int32]? = nil) -> [Int32] {
        var rank = [Int32](repeating: 0, count: fences.count)
        let order = fences.indices.sorted { a, b in
            if fences[a].id != fences[b].id { return fences[a].id < fences[b].id }
            if let geotrigger, geotrigger[a] != geotrigger[b] { return geotrigger[a] < geotrigger[b] }
            return a < b
        }
        for (r, j) in order.enumerated() { rank[j] = Int32(r) }
        return rank
    }

    /// A fence's metric shape and envelope, from its kind and shape (passed apart, so that the
    /// caller reads them in place instead of copying the whole fence).
    static func compile(
        kind: Fence.Kind, shape: Spatial.Shape, buffer: Double, frame: MetricFrame,
        context: GEOSContext
    ) throws(SpatialError) -> (Shape, BoundingBox?) {
        func project(_ p: XY) throws(SpatialError) -> XY {
            let q = frame.forward(p)
            guard q.x.isFinite, q.y.isFinite else {
                throw SpatialError(function: "proj_trans", message: "position (\(p.x), \(p.y)) cannot be projected into the frame")
            }
            return q
        }
        switch kind {
        case .circle(let radius):
            guard case .point(let c) = shape else { throw SpatialError(function: "compile", message: "a circle needs a point") }
            let center = try project(c)
            let r = radius + buffer
            guard r > 0 else { return (.empty, nil) }
            return (
                .circle(center: center, radius: r),
                BoundingBox(minX: center.x - r, minY: center.y - r, maxX: center.x + r, maxY: center.y + r)
            )
        case .beacon(let range, let proximity):
            guard case .point(let c) = shape else { throw SpatialError(function: "compile", message: "a beacon needs a point") }
            let center = try project(c)
            let exit = range + max(0, buffer)
            let enter = proximity.distance(range: range)
            return (
                .beacon(center: center, enterRadius: enter, exitRadius: exit),
                BoundingBox(minX: center.x - exit, minY: center.y - exit, maxX: center.x + exit, maxY: center.y + exit)
            )
        case .line:
            var metric: [XY] = []
            for p in shape.positions { metric.append(try project(p)) }
            if buffer > 0 {
                // A buffered line is a corridor: an area fence around it.
                let corridor = try Geometry(.lineString(metric), context: context).buffer(buffer)
                return (.area(AreaShape(try corridor.shape)), corridor.boundingBox)
            }
            return (.line(metric), BoundingBox(points: metric))
        case .area:
            let projected = shape.mapPositions { frame.forward($0) }
            if projected.firstPosition(where: { !($0.x.isFinite && $0.y.isFinite) }) != nil {
                throw SpatialError(function: "proj_trans", message: "a vertex cannot be projected into the frame")
            }
            guard buffer != 0 else {
                let area = AreaShape(projected)
                return (.area(area), area.envelope)
            }
            let geometry = try Geometry(projected, context: context).buffer(buffer)
            guard !geometry.isEmpty else { return (.empty, nil) }
            return (.area(AreaShape(try geometry.shape)), geometry.boundingBox)
        }
    }
}

/// Distance from `p` to the segment `a`–`b`.
@inline(__always)
func segmentDistance(_ p: XY, _ a: XY, _ b: XY) -> Double {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let len2 = dx * dx + dy * dy
    var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
    t = min(1, max(0, t))
    let qx = a.x + t * dx - p.x
    let qy = a.y + t * dy - p.y
    return (qx * qx + qy * qy).squareRoot()
}

/// The results of ``FenceIndex/both(_:_:_:)``: each written by one thread, read after both have
/// joined.
private final class BothResults<A, B>: @unchecked Sendable {
    var a: A?
    var b: B?
}

/// The two closures of ``FenceIndex/both(_:_:_:)``, each called on one thread.
private struct BothWork<A, B>: @unchecked Sendable {
    let a: () -> A
    let b: () -> B
}
