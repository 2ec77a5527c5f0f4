import Fences
import Geotriggers
import Spatial
import Support
import Traces

/// True visits of fences along a path (SPEC §6.1): the path is piecewise linear between its
/// fixes in the metric frame; entries and exits are its exact intersections with fence
/// boundaries, with times interpolated along each segment.
///
/// Circles (and beacons, taken as circles of their full range) are solved analytically (the
/// roots of |p + t·d − c|² = r²); polygons, holes included, through GEOS: the segment's
/// intersection with the boundary gives the candidate points, and the path is inside between
/// two of them when the midpoint is (boundary counts as inside). A path that only touches a
/// boundary makes no visit. Truth uses each fence's geometry as drawn: no geotrigger buffer, no
/// `buffer` property. Line fences have no visits.
///
/// Most of that work is never done: every point of the path is within the path length
/// travelled of any earlier point, so a fence whose boundary was `d` metres away is not looked
/// at again until the path has travelled `d` (an integer odometer in nanometres, so that no
/// rounding accumulates). A segment whose ends lie on one side with distances to the boundary
/// adding up to more than its length crosses nothing, and GEOS is asked only about the rest.
///
/// - Important: Owns a GEOS context and a PROJ frame: not thread-safe; one per worker. Because
///   of that, the state its walk changes on every segment is marked `@exclusivity(unchecked)`,
///   as the engine's: the compiler still checks exclusive access statically, and the runtime's
///   bookkeeping (about 2 % of a report's CPU, perf) is left out.
public final class GroundTruth {
    /// A fence's region, a plain value (copied in the hot loop without reference counting).
    enum Region {
        case circle(center: XY, radius: Double)
        /// An area: its index in ``areas``.
        case area(Int)
    }

    /// An area's GEOS objects, in this truth's context.
    struct Area {
        let boundary: Geometry
        let prepared: PreparedGeometry
    }

    /// Each area's rings in ``ringEnds`` (`ringCount` 0: no planar arrays, GEOS answers), and
    /// where its runs' envelopes start in ``Layout/runBoxes`` (four values a run).
    struct Rings {
        var vertexStart: Int
        var ringStart: Int
        var ringCount: Int
        var boxStart = 0
    }

    /// The truth's fences in its frame, read only once made: the regions, their envelopes and
    /// grid, the areas' shapes and vertices.
    final class Layout: @unchecked Sendable {
        let fences: FenceSet
        /// Each fence's id by fence index, what a visit is named by: read from the compact table
        /// without touching the whole fence (a cache miss per true entry in a large fence set).
        let labels: FenceLabels
        let definition: FrameDefinition
        /// By fence index; `nil` for fences without visits (lines, empty shapes).
        let regions: [Region?]
        /// Each region's envelope, by fence index (`nil` without a region).
        let envelopes: [BoundingBox?]
        /// The engine's index over ``envelopes``: a segment is tested only against the fences
        /// registered in the cells its box covers.
        let grid: FenceGrid
        /// Areas' shapes in the metric frame, by the index in ``Region/area(_:)``.
        let shapes: [Shape]
        /// By the same index: each area's envelope (`nil`: GEOS has none).
        let boxes: [BoundingBox?]
        /// By the same index: where each area's rings are in the flat storage below.
        let rings: [Rings]
        /// Every area's vertices, ring after ring (see ``Spatial/PlanarPolygon/appendRings(of:to:_:limit:)``),
        /// and the end of each ring: owned, freed in `deinit`.
        let xs: UnsafeMutableBufferPointer<Double>
        let ys: UnsafeMutableBufferPointer<Double>
        let ringEnds: UnsafeMutableBufferPointer<Int>
        /// The envelopes of each area's runs of edges, as the engine's index writes them
        /// (``Spatial/PlanarPolygon/writeRunBoxes(xs:ys:start:ringEnds:into:)``), for
        /// ``Spatial/PlanarPolygon/roughLocate(_:xs:ys:start:ringEnds:runBoxes:hint:)``.
        let runBoxes: UnsafeMutableBufferPointer<Double>
        /// The largest coordinate magnitude of any vertex, metres: what the rough distance's
        /// error grows with.
        let magnitude: Double

        init(
            fences: FenceSet, definition: FrameDefinition, regions: [Region?], envelopes: [BoundingBox?], shapes: [Shape],
            boxes: [BoundingBox?], rings: [Rings], xs: [Double], ys: [Double], ringEnds: [Int]
        ) {
            self.fences = fences
            labels = FenceLabels(fences.fences)
            self.definition = definition
            self.regions = regions
            self.envelopes = envelopes
            grid = FenceGrid(envelopes: envelopes)
            self.shapes = shapes
            self.boxes = boxes
            self.xs = Layout.owned(xs)
            self.ys = Layout.owned(ys)
            self.ringEnds = Layout.owned(ringEnds)
            var rings = rings
            var runs = 0
            for k in rings.indices where rings[k].ringCount > 0 {
                rings[k].boxStart = runs
                let ends = UnsafeBufferPointer(rebasing: self.ringEnds[rings[k].ringStart..<(rings[k].ringStart + rings[k].ringCount)])
                runs += PlanarPolygon.runCount(start: rings[k].vertexStart, ringEnds: ends)
            }
            runBoxes = .allocate(capacity: max(1, 4 * runs))
            for r in rings where r.ringCount > 0 {
                PlanarPolygon.writeRunBoxes(
                    xs: self.xs.baseAddress!, ys: self.ys.baseAddress!, start: r.vertexStart,
                    ringEnds: UnsafeBufferPointer(rebasing: self.ringEnds[r.ringStart..<(r.ringStart + r.ringCount)]),
                    into: runBoxes.baseAddress! + 4 * r.boxStart)
            }
            self.rings = rings
            magnitude = zip(xs, ys).reduce(0) { max($0, abs($1.0), abs($1.1)) }
        }

        deinit {
            xs.deallocate()
            ys.deallocate()
            ringEnds.deallocate()
            runBoxes.deallocate()
        }

        /// A copy of `values` in memory the layout owns (at least one element, so that the
        /// pointer is never null).
        static func owned<T>(_ values: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, values.count))
            _ = buffer.initialize(from: values)
            return buffer
        }
    }

    let layout: Layout
    public var fences: FenceSet { layout.fences }
    /// Two fixes further apart in time than this, or of two source segments, are not joined by
    /// path: nothing is known of where the device went between them (the engine's `maxGap`,
    /// SPEC §2). A fence's side changes, if it does, at the later fix, and a visit the straight
    /// line would have made between them is not a truth visit: no fix saw it.
    public let maxGapSeconds: Double
    let frame: MetricFrame
    let context: GEOSContext
    /// The areas' GEOS objects in this truth's context, by the index in ``Region/area(_:)``,
    /// made when first asked about: the walk asks GEOS only where arithmetic cannot settle a
    /// side or a crossing, and a boundary and a prepared geometry for each of 20,000 polygons
    /// held 65 MB that a long drive's report hardly read. (Each area's GEOS geometry is made,
    /// and so checked, when the truth is.)
    @exclusivity(unchecked) private var areas: [Area?]
    /// Per fence, the stamp of the last query that reported it (``FenceGrid`` deduplicates with it).
    @exclusivity(unchecked) private var marks: [UInt32]
    /// Per area, the run of edges nearest the last point located (the next one's first guess).
    @exclusivity(unchecked) private var runHints: [Int32]
    @exclusivity(unchecked) private var stamp: UInt32 = 0
    /// Fence–segment pairs (and fences at the first fix) whose envelopes met and were tested:
    /// what the work grows with (a test keeps it linear in the path).
    @exclusivity(unchecked) private(set) var candidateTests = 0
    /// Candidate tests answered without geometry: the path had not yet travelled as far as the
    /// fence's boundary was when last measured.
    @exclusivity(unchecked) private(set) var skippedTests = 0
    /// Candidate tests that looked at geometry (a distance, and near the boundary crossings).
    @exclusivity(unchecked) private(set) var geometryTests = 0

    /// Prepares `fences` in the frame `definition`.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` when the frame cannot be built or GEOS
    ///   refuses a fence.
    /// - Parameters:
    ///   - maxGapSeconds: fixes further apart in time than this (like fixes of two segments) are
    ///     not joined by path: see ``maxGapSeconds``.
    ///   - projected: the fences as an index of the same frame projected them (its
    ///     ``Geotriggers/FenceIndex/projected``): a fence it holds as drawn is taken from it
    ///     instead of projected again (the same values: the frame's projection of the same
    ///     positions), the others are projected here. Fences are matched by place: `fences`
    ///     must be the index's fence set or its ``Fences/FenceSet/watchedOnce`` prefix (a
    ///     projection of another frame, or of fewer fences, is not used).
    public init(
        fences: FenceSet, frame definition: FrameDefinition, maxGapSeconds: Double = .infinity,
        projected: FenceIndex.Projected? = nil
    ) throws(FencesimError) {
        self.maxGapSeconds = maxGapSeconds
        do {
            frame = try MetricFrame(definition)
            context = try GEOSContext()
        } catch {
            throw FencesimError(.badData, "cannot build the metric frame \"\(definition)\": \(error.message)", cause: error)
        }
        var regions: [Region?] = []
        var envelopes: [BoundingBox?] = []
        var areas: [Area?] = []
        var shapes: [Shape] = []
        var boxes: [BoundingBox?] = []
        var rings: [Rings] = []
        var xs: [Double] = []
        var ys: [Double] = []
        var ringEnds: [Int] = []
        let frame = self.frame
        let context = self.context
        // Shapes projected into another frame, or of fewer fences, are no use here.
        let projected = projected.flatMap { $0.definition == definition && $0.count >= fences.fences.count ? $0 : nil }
        regions.reserveCapacity(fences.fences.count)
        envelopes.reserveCapacity(fences.fences.count)
        // Each fence's kind and shape read in place: a loop variable copied every fence whole
        // and destroyed it (this init 747 → 696 M instructions for 100,000 fences).
        let all = fences.fences
        for j in all.indices {
            do throws(SpatialError) {
                var region: Region?
                var box: BoundingBox?
                switch all[j].kind {
                case .line:
                    break
                case .circle(let r), .beacon(let r, _):
                    guard case .point(let p) = all[j].shape else { break }
                    let c: XY
                    if case .point(let known)? = projected?.shape(j) { c = known } else { c = frame.forward(p) }
                    region = .circle(center: c, radius: r)
                    box = BoundingBox(minX: c.x - r, minY: c.y - r, maxX: c.x + r, maxY: c.y + r)
                case .area:
                    let shape = projected?.shape(j) ?? all[j].shape.mapPositions { frame.forward($0) }
                    let start = xs.count
                    let ends = PlanarPolygon.appendRings(of: shape, to: &xs, &ys) ?? []
                    if ends.isEmpty {
                        // Not laid out flat (too many vertices, or nothing to lay out): GEOS
                        // says whether it is empty, and gives its box. A polygon laid out has a
                        // ring of vertices, so it is not empty: its GEOS objects wait for a test
                        // that needs them (``area(_:)``; made here for 20,000 polygons they were
                        // 69 M of this init's 821 M instructions, and memory of their own).
                        let geometry = try Geometry(shape, context: context)
                        guard !geometry.isEmpty else { break }
                        box = geometry.boundingBox
                    } else {
                        box = BoundingBox(points: (start..<xs.count).lazy.map { XY(xs[$0], ys[$0]) })
                    }
                    rings.append(Rings(vertexStart: start, ringStart: ringEnds.count, ringCount: ends.count))
                    ringEnds += ends
                    region = .area(areas.count)
                    areas.append(nil)
                    shapes.append(shape)
                    boxes.append(box)
                }
                if let box {
                    try GroundTruth.check(box)
                    // A position the frame cannot take (a quarter turn from its meridian) is
                    // infinite there: refused as the index refuses it, before the grid, which
                    // cannot place it.
                    guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else {
                        throw SpatialError(function: "proj_trans", message: "a vertex cannot be projected into the frame")
                    }
                }
                regions.append(region)
                envelopes.append(box)
            } catch {
                throw FencesimError(.badData, "fence \"\(all[j].id)\": \(error.message)", at: all[j].location, cause: error)
            }
        }
        self.areas = areas
        runHints = Array(repeating: 0, count: areas.count)
        layout = Layout(
            fences: fences, definition: definition, regions: regions, envelopes: envelopes, shapes: shapes, boxes: boxes,
            rings: rings, xs: xs, ys: ys, ringEnds: ringEnds)
        marks = Array(repeating: 0, count: max(1, envelopes.count))
    }

    /// Area `k`'s GEOS objects in this truth's context, made on first use.
    ///
    /// - Throws: ``Spatial/SpatialError`` naming the fence when GEOS refuses its boundary.
    func area(_ k: Int) throws(SpatialError) -> Area {
        if let area = areas[k] { return area }
        do throws(SpatialError) {
            let geometry = try Geometry(layout.shapes[k], context: context)
            let area = Area(boundary: try geometry.boundary(), prepared: try PreparedGeometry(geometry))
            areas[k] = area
            return area
        } catch {
            // Which fence: looked up only now (the regions name their area, not the reverse).
            let j = layout.regions.firstIndex { region in
                if case .area(let a)? = region { return a == k }
                return false
            }
            let id = j.map { layout.labels[$0].id } ?? "?"
            throw SpatialError(function: error.function, message: "fence \"\(id)\": \(error.message)")
        }
    }

    /// Metres by which a polygon's boundary must be farther from a segment's start than the
    /// segment is long for the segment to be taken as not meeting it without asking GEOS: far
    /// above the rounding of either distance (nanometres at the scale of a city).
    static let clearance = 1e-6

    /// Refuses a box that is inverted or not a number (which no index can place).
    static func check(_ box: BoundingBox) throws(SpatialError) {
        // Also false for NaN.
        guard box.minX <= box.maxX, box.minY <= box.maxY else {
            throw SpatialError(function: "FenceGrid", message: "bounding box \(box) is inverted or not a number")
        }
    }

    /// Replaces `found` with the fences whose envelope meets `box` (boundary contact included),
    /// in fence order.
    ///
    /// - Complexity: O(fences registered in the cells `box` covers), independent of the size of
    ///   the fence set for fences of similar sizes.
    func candidates(_ box: BoundingBox, into found: inout [Int]) throws(SpatialError) {
        found.removeAll(keepingCapacity: true)
        try GroundTruth.check(box)
        stamp &+= 1
        if stamp == 0 {
            // Wrapped: forget every mark so that no fence looks already reported.
            for k in marks.indices { marks[k] = 0 }
            stamp = 1
        }
        let envelopes = layout.envelopes
        let grid = layout.grid
        let stamp = self.stamp
        marks.withUnsafeMutableBufferPointer { marks in
            guard let base = marks.baseAddress else { return }
            grid.forEachCandidate(in: box, stamp: stamp, marks: base) { j in
                if let e = envelopes[j], e.intersects(box) { found.append(j) }
            }
        }
        if found.count > 1 { found.sort() }
        candidateTests += found.count
    }

    /// Whether a fence has visits to score (areas, circles, beacons; not lines).
    public static func hasVisits(_ fence: Fence) -> Bool {
        hasVisits(kind: fence.kind)
    }

    /// ``hasVisits(_:)`` from the fence's kind alone.
    public static func hasVisits(kind: Fence.Kind) -> Bool {
        if case .line = kind { return false }
        return true
    }

    /// The true visits along `fixes` (timed fixes in time order; untimed ones are skipped),
    /// ordered by entry time, then fence.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` when GEOS fails on a segment.
    /// - Complexity: O(segments × fences near each segment), with vertices visited only for the
    ///   fences whose boundary the path may have reached: the fences near a stretch of path come
    ///   from the grid (once per ``windowMargin`` window), not from a look at every fence.
    public func visits(along fixes: [Fix]) throws(FencesimError) -> [TruthVisit] {
        var walk = PathWalk(self)
        for fix in fixes { try walk.push(fix) }
        return placingEntries(try walk.finish())
    }

    /// `visits` with every entry place projected back to longitude and latitude
    /// (``placeEntry(_:)``).
    public func placingEntries(_ visits: [TruthVisit]) -> [TruthVisit] {
        var visits = visits
        for k in visits.indices { placeEntry(&visits[k]) }
        return visits
    }

    /// Projects a visit's entry place back to longitude and latitude when it is still a point of
    /// this truth's frame (``TruthVisit/Place/frame(_:)``): the place ``PathWalk`` leaves it
    /// at, so that only the entries a report may draw are projected.
    func placeEntry(_ visit: inout TruthVisit) {
        guard case .frame(let point)? = visit.enterPlace else { return }
        let place = frame.inverse(point)
        visit.enterPlace = .geographic(longitude: place.longitude, latitude: place.latitude)
    }

    /// ``placeEntry(_:)`` for the truth visits of `score` that were missed: the only ones a
    /// report's map marks at their entry (``TraceScore/visits``, in place).
    public func placeMisses(_ score: inout TraceScore) {
        for k in score.visits.indices where !score.visits[k].detected { placeEntry(&score.visits[k].truth) }
    }

    /// Walks `path` (timed fixes, at `points` in the frame), a stretch of a longer path when
    /// `carried` holds the visits open at its first fix (the end of the stretch before it;
    /// `nil`: the path's start, whose visits begin at its first fix).
    func walk(_ path: [Fix], points: [XY], carrying carried: [Int: TruthVisit]?) throws(SpatialError) -> Stretch {
        precondition(points.count == path.count, "a point for every fix")
        let regions = layout.regions
        let labels = layout.labels
        var stretch = Stretch()
        var open: [Int: TruthVisit] = [:]
        /// Whether fence `j` has an open visit (`open[j] != nil` without copying the visit).
        var isOpen = [Bool](repeating: false, count: regions.count)
        var candidates: [Int] = []
        if let carried {
            open = carried
            for j in carried.keys { isOpen[j] = true }
        } else if let first = path.first, let firstTime = first.time {
            try self.candidates(BoundingBox(minX: points[0].x, minY: points[0].y, maxX: points[0].x, maxY: points[0].y), into: &candidates)
            let firstSpeed = path.count > 1 ? GroundTruth.speed(path[0], path[1]) : nil
            for j in candidates {
                guard let region = regions[j], try inside(region, points[0]) else { continue }
                open[j] = TruthVisit(
                    fence: j, fenceID: labels[j].id, enter: firstTime, exit: nil, startsInside: true,
                    enterSpeed: firstSpeed, enterLongitude: first.longitude, enterLatitude: first.latitude)
                isOpen[j] = true
            }
        }
        do {
            var fractions: [Double] = []
            // Path length so far, in whole nanometres rounded up (an integer: no rounding
            // accumulates over a long trace), and per fence the path length before which the
            // path cannot reach its boundary (``Int64/min``: not known).
            var odometer: Int64 = 0
            var window = BoundingBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            /// The fences near the current window, in fence order, each with the path length
            /// before which the path cannot reach its boundary (``Int64/min``: not known), kept
            /// side by side so that the loop over them reads memory in order.
            struct Near {
                var fence: Int
                var region: Region
                var clearUntil: Int64
                /// The side of the path's point `sidePoint` (the end of the segment last tested,
                /// where the next one starts), when it was worked out: a side is a function of
                /// the point alone.
                var sidePoint = -1
                var sideThere: (inside: Bool, distance: Double)?
            }
            var near: [Near] = []
            var nextNear: [Near] = []
            for i in 0..<max(0, points.count - 1) {
                let a = points[i]
                let b = points[i + 1]
                let length = a.distance(to: b)
                let start = odometer
                odometer &+= GroundTruth.nanometres(roundingUp: length)
                guard a != b, let ta = path[i].time, let tb = path[i + 1].time else { continue }
                let box = BoundingBox(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y))
                if !(box.minX >= window.minX && box.maxX <= window.maxX && box.minY >= window.minY && box.maxY <= window.maxY) {
                    // The fences near this part of the path: every fence whose envelope meets a
                    // segment inside the window is among them.
                    let m = GroundTruth.windowMargin
                    window = BoundingBox(minX: box.minX - m, minY: box.minY - m, maxX: box.maxX + m, maxY: box.maxY + m)
                    try self.candidates(window, into: &candidates)
                    // Fences still near keep what is known of them (both lists in fence order),
                    // their regions too: only a fence new to the window has its region looked up
                    // (a cache miss in the fence set's table, most of a window's cost when every
                    // fence was looked up), and its label fetched into the cache for the entry it
                    // may make.
                    nextNear.removeAll(keepingCapacity: true)
                    var k = 0
                    for j in candidates {
                        while k < near.count, near[k].fence < j { k += 1 }
                        if k < near.count, near[k].fence == j {
                            nextNear.append(near[k])
                            continue
                        }
                        guard let region = regions[j] else { continue }
                        labels.prefetch(j)
                        nextNear.append(Near(fence: j, region: region, clearUntil: .min))
                    }
                    swap(&near, &nextNear)
                }
                guard !near.isEmpty else { continue }
                // Across a gap or between two segments the path is not known.
                let joined = path[i].segment == path[i + 1].segment && tb.seconds(since: ta) <= maxGapSeconds
                // The segment's geodesic speed, worked out at its first entry (a geodesic is
                // costly, and most segments have none).
                var segmentSpeed: Double??
                let span = tb.nanoseconds(since: ta)
                for n in near.indices {
                    // Every point of this segment is within the path length travelled since
                    // the fence was last found clear of it by more than that: on the same side.
                    if odometer < near[n].clearUntil {
                        skippedTests += 1
                        continue
                    }
                    geometryTests += 1
                    let j = near[n].fence
                    let region = near[n].region
                    var state = isOpen[j]
                    guard joined else {
                        // The side of `b`, taken at `b`'s time.
                        let sideOfB = side(region, b)
                        (near[n].sidePoint, near[n].sideThere) = (i + 1, sideOfB)
                        let now: Bool
                        if let sideOfB { now = sideOfB.inside } else { now = try inside(region, b) }
                        if now != state { try transition(j, inside: now, fraction: 1) }
                        if let sideOfB { near[n].clearUntil = GroundTruth.clearUntil(odometer, clearBy: sideOfB.distance) }
                        continue
                    }
                    /// No crossing on this segment: every point of it is on the side `inside`
                    /// (where the path was, if it was not, it changed at the segment's start), and
                    /// the path is clear of the boundary until path length `until`.
                    func settle(inside: Bool, until: Int64) throws(SpatialError) {
                        if inside != state {
                            try transition(j, inside: inside, fraction: 0)
                            state = inside
                        }
                        near[n].clearUntil = until
                    }
                    // `a` is where the segment before ended: its side may be known.
                    var sideOfA: (inside: Bool, distance: Double)?
                    var sideOfB: (inside: Bool, distance: Double)?
                    var knowsB = false
                    if near[n].sidePoint == i {
                        sideOfA = near[n].sideThere
                    } else {
                        if case .area = region {
                            // An area's side is located afresh at `b` first, not `a`: either end
                            // clear of the boundary by more than the segment's length settles the
                            // segment, and `b`'s side, kept, is where the next segment starts
                            // (an area tested again at once, near its boundary, asks for it).
                            // Located at `a` first, a segment settled there kept nothing, and the
                            // next one located its start again (a quarter more locations, perf).
                            sideOfB = side(region, b)
                            knowsB = true
                            (near[n].sidePoint, near[n].sideThere) = (i + 1, sideOfB)
                            if let sb = sideOfB, sb.distance > length + GroundTruth.clearance {
                                // The whole segment lies on `b`'s side (every point of it is within
                                // its length of `b`): no crossing.
                                try settle(inside: sb.inside, until: GroundTruth.clearUntil(odometer, clearBy: sb.distance))
                                continue
                            }
                        }
                        sideOfA = side(region, a)
                    }
                    if let side = sideOfA, side.distance > length + GroundTruth.clearance {
                        // The whole segment lies on `a`'s side: no crossing, and `a`'s side
                        // is the side of every point of it.
                        try settle(inside: side.inside, until: GroundTruth.clearUntil(start, clearBy: side.distance))
                        continue
                    }
                    if case .area = region, sideOfA != nil, !knowsB {
                        sideOfB = side(region, b)
                        (near[n].sidePoint, near[n].sideThere) = (i + 1, sideOfB)
                    }
                    if case .area = region, let sa = sideOfA, let sb = sideOfB, sa.inside == sb.inside,
                        sa.distance + sb.distance > length + 2 * GroundTruth.clearance
                    {
                        // Both ends on one side, and the discs around them clear of the
                        // boundary cover the segment (a point of it is nearer one end than
                        // that end's clearance): no crossing, without asking GEOS.
                        try settle(inside: sa.inside, until: GroundTruth.clearUntil(odometer, clearBy: sb.distance))
                        continue
                    }
                    // Sub-intervals between crossings; a segment starting on the boundary has
                    // none inside (0, 1) and may still leave, so its midpoint is always looked at.
                    fractions.removeAll(keepingCapacity: true)
                    fractions.append(0)
                    try crossings(region, a, b, into: &fractions)
                    fractions.append(1)
                    for k in 0..<(fractions.count - 1) {
                        let f0 = fractions[k]
                        let f1 = fractions[k + 1]
                        guard f1 > f0 else { continue }
                        let now: Bool
                        if k == 0, let side = sideOfA, side.distance > GroundTruth.clearance {
                            // Up to the first crossing (the whole segment when there is none), with
                            // `a` clearly off the boundary: on `a`'s side.
                            now = side.inside
                        } else if k == fractions.count - 2, let side = sideOfB, side.distance > GroundTruth.clearance {
                            // From the last crossing on, with `b` clearly off the boundary: on
                            // `b`'s side. (Located at their midpoints, the two ends of a segment
                            // crossing an area were a quarter of the walk's locations.)
                            now = side.inside
                        } else {
                            let mid = (f0 + f1) / 2
                            now = try inside(region, XY(a.x + (b.x - a.x) * mid, a.y + (b.y - a.y) * mid))
                        }
                        guard now != state else { continue }
                        state = now
                        try transition(j, inside: now, fraction: f0)
                    }
                }

                /// Opens or closes fence `j`'s visit at `fraction` along this segment: an entry
                /// with its speed and place (the speed band and the map's marker of a miss; the
                /// place in the frame, projected back only when a map may mark it), an exit with
                /// its time alone.
                func transition(_ j: Int, inside now: Bool, fraction f0: Double) throws(SpatialError) {
                    // At the later fix itself across a gap (whose nanoseconds may pass Int64).
                    let time = f0 == 1 ? tb : ta.adding(nanoseconds: Int64((Double(span) * f0).rounded()))
                    isOpen[j] = now
                    if now {
                        if segmentSpeed == nil { segmentSpeed = .some(GroundTruth.speed(path[i], path[i + 1])) }
                        open[j] = TruthVisit(
                            fence: j, fenceID: labels[j].id, enter: time, exit: nil, enterSpeed: segmentSpeed ?? nil,
                            enterPlace: .frame(XY(a.x + (b.x - a.x) * f0, a.y + (b.y - a.y) * f0)))
                    } else if var visit = open.removeValue(forKey: j) {
                        visit.exit = time
                        // A path touching the boundary at one instant is not a visit.
                        if time > visit.enter { stretch.done.append(visit) }
                    }
                }
            }
        }
        stretch.open = open
        return stretch
    }

    /// Which side of the region's boundary `p` is on and how far from it, metres; `nil` when it
    /// is too near the boundary to say without GEOS (a polygon without planar arrays, or a
    /// point within ``Spatial/PlanarPolygon/boundaryTolerance``).
    ///
    /// A polygon's distance may be short of the exact one by a micrometre (what the walk does
    /// with it only needs a distance that is never long): the engine's rough location, a few
    /// runs of edges read, settles the side unless the boundary is within twice its error, where
    /// the exact location is asked.
    func side(_ region: Region, _ p: XY) -> (inside: Bool, distance: Double)? {
        switch region {
        case .circle(let c, let r):
            let d = p.distance(to: c)
            return (d <= r, abs(r - d))
        case .area(let k):
            let layout = self.layout
            let r = layout.rings[k]
            guard r.ringCount > 0 else { return nil }
            let ends = UnsafeBufferPointer(rebasing: layout.ringEnds[r.ringStart..<(r.ringStart + r.ringCount)])
            let rough = PlanarPolygon.roughLocate(
                p, xs: layout.xs.baseAddress!, ys: layout.ys.baseAddress!, start: r.vertexStart, ringEnds: ends,
                runBoxes: layout.runBoxes.baseAddress! + 4 * r.boxStart, hint: Int(runHints[k]))
            runHints[k] = Int32(truncatingIfNeeded: rough.nearestRun)
            let error = PlanarPolygon.roughDistanceError(magnitude: max(layout.magnitude, abs(p.x), abs(p.y)))
            if rough.distance > 2 * error { return (rough.inside, rough.distance - error) }
            guard
                let (inside, distance) = PlanarPolygon.locate(
                    p, xs: layout.xs.baseAddress!, ys: layout.ys.baseAddress!, start: r.vertexStart,
                    ringEnds: ends)
            else { return nil }
            return (inside, distance)
        }
    }

    /// Whole nanometres in `metres`, rounded up (a path length that is never short).
    static func nanometres(roundingUp metres: Double) -> Int64 {
        Int64(min((metres * 1e9).rounded(.up), 1e18)) &+ 1
    }

    /// The path length before which the path cannot reach a boundary `distance` metres from the
    /// point at path length `position` (a micrometre short of it, never long).
    static func clearUntil(_ position: Int64, clearBy distance: Double) -> Int64 {
        position &+ nanometres(roundingDown: distance) &- clearanceNanometres
    }

    /// Whole nanometres in `metres`, rounded down (a distance that is never long).
    static func nanometres(roundingDown metres: Double) -> Int64 {
        max(0, Int64(min((metres * 1e9).rounded(.down), 1e18)) &- 1)
    }

    /// Metres around a segment within which fences are looked up in the grid at once: the
    /// segments that follow inside that window take them from the same list (a fence whose
    /// envelope a segment does not meet finds no crossing, and is soon skipped by distance).
    static let windowMargin = 64.0

    /// ``clearance`` in nanometres.
    static let clearanceNanometres: Int64 = 1000

    /// Whether `p` is in the region (boundary included).
    func inside(_ region: Region, _ p: XY) throws(SpatialError) -> Bool {
        switch region {
        case .circle(let c, let r):
            return p.distance(to: c) <= r
        case .area(let k):
            if let (inside, _) = side(region, p) { return inside }
            return try area(k).prepared.intersects(p)
        }
    }

    /// Appends the fractions in `(0, 1)` along `a → b` where the segment meets the region's
    /// boundary, sorted, to `fractions`.
    ///
    /// The caller has found the boundary within the segment's length of `a` (or too near `a`
    /// to measure): GEOS (an overlay per call) is asked only then, and for areas only when the
    /// segment meets their envelope.
    func crossings(_ region: Region, _ a: XY, _ b: XY, into fractions: inout [Double]) throws(SpatialError) {
        switch region {
        case .circle(let c, let r):
            // A tangent line touches the boundary without changing side: no crossing.
            guard let t = XY.lineCircleFractions(a, b, center: c, radius: r), t.near < t.far else { return }
            if t.near > 0 && t.near < 1 { fractions.append(t.near) }
            if t.far > 0 && t.far < 1 { fractions.append(t.far) }
        case .area(let k):
            if let box = layout.boxes[k],
                max(a.x, b.x) < box.minX || min(a.x, b.x) > box.maxX || max(a.y, b.y) < box.minY || min(a.y, b.y) > box.maxY
            {
                return
            }
            // Most segments near a boundary do not cross it: GEOS (an overlay per call) is asked
            // only when arithmetic cannot prove that.
            switch try arithmeticCrossings(a, b, area: k) {
            case .none:
                return
            case .proper(let found):
                fractions += found
                return
            case .unsure:
                break
            }
            for crossing in try area(k).boundary.crossings(from: a, to: b) where crossing.fraction > 0 && crossing.fraction < 1 {
                fractions.append(crossing.fraction)
            }
        }
    }

    /// What arithmetic can say of where a segment meets an area's boundary.
    enum ArithmeticCrossings {
        /// It provably meets no edge (GEOS would find no crossing and no touch).
        case none
        /// It crosses edges only at points inside both (no vertex, no shared stretch), at these
        /// fractions in `(0, 1)`, sorted: the points GEOS's overlay gives.
        case proper([Double])
        /// Too near a vertex, an edge's line or a collinear stretch to say: ask GEOS.
        case unsure
    }

    /// Where the segment `a → b` meets area `k`'s edges, by arithmetic where it is sure.
    ///
    /// For every edge, the orientations of its ends against the segment's line and of the
    /// segment's ends against its line are taken only when each determinant is far above its
    /// rounding error (a bound of the kind Shewchuk gives for `orient2d`, with ten thousand
    /// times the margin): both pairs strictly on opposite sides is a proper crossing, either
    /// pair strictly on one side is none. A proper crossing's point is GEOS's line intersector's
    /// (the computation its overlay makes when it nodes the segment against the ring), taken
    /// only when it is the same to the bit with the segments given in either order; its
    /// fraction is worked out as ``Spatial/Geometry/crossings(from:to:)`` works it out.
    func arithmeticCrossings(_ a: XY, _ b: XY, area k: Int) throws(SpatialError) -> ArithmeticCrossings {
        let layout = self.layout
        let r = layout.rings[k]
        guard r.ringCount > 0 else { return .unsure }
        let xs = layout.xs.baseAddress!
        let ys = layout.ys.baseAddress!
        /// The sign of the orientation of `p` against the line `o → o + d` (1, -1), 0 when untrusted.
        @inline(__always) func orientation(_ ox: Double, _ oy: Double, _ dx: Double, _ dy: Double, _ px: Double, _ py: Double) -> Int {
            let left = dx * (py - oy)
            let right = dy * (px - ox)
            let det = left - right
            let bound = 1e-12 * (abs(left) + abs(right))
            return det > bound ? 1 : (det < -bound ? -1 : 0)
        }
        let sx = b.x - a.x
        let sy = b.y - a.y
        let lengthSquared = sx * sx + sy * sy
        var found: [(fraction: Double, point: XY)] = []
        // Runs of edges whose envelope lies apart from the segment's (strictly: a shared
        // coordinate is not apart) are passed over: none of their edges can meet it, and reading
        // every edge of a polygon was most of this (a segment near a boundary meets the envelopes
        // of a run or two). The runs are the engine's (``Spatial/PlanarPolygon/runLength`` edges).
        let segmentMinX = min(a.x, b.x)
        let segmentMaxX = max(a.x, b.x)
        let segmentMinY = min(a.y, b.y)
        let segmentMaxY = max(a.y, b.y)
        var box = UnsafePointer(layout.runBoxes.baseAddress! + 4 * r.boxStart)
        var start = r.vertexStart
        for ring in r.ringStart..<(r.ringStart + r.ringCount) {
            let end = layout.ringEnds[ring]
            var i = start
            var runEnd = start
            while i + 1 < end {
                if i == runEnd {
                    runEnd = min(i + PlanarPolygon.runLength, end - 1)
                    let apart = box[2] < segmentMinX || box[0] > segmentMaxX || box[3] < segmentMinY || box[1] > segmentMaxY
                    box += 4
                    if apart {
                        i = runEnd
                        continue
                    }
                }
                let cx = xs[i], cy = ys[i], dx = xs[i + 1], dy = ys[i + 1]
                let c = orientation(a.x, a.y, sx, sy, cx, cy)
                let d = orientation(a.x, a.y, sx, sy, dx, dy)
                i += 1
                if c != 0, c == d { continue }  // the edge on one side of the segment's line
                let p = orientation(cx, cy, dx - cx, dy - cy, a.x, a.y)
                let q = orientation(cx, cy, dx - cx, dy - cy, b.x, b.y)
                if p != 0, p == q { continue }  // the segment on one side of the edge's line
                guard c != 0, d != 0, p != 0, q != 0 else { return .unsure }
                // Strictly opposite sides both ways: a crossing inside both.
                let edgeStart = XY(cx, cy)
                let edgeEnd = XY(dx, dy)
                guard let point = try context.segmentIntersection(a, b, edgeStart, edgeEnd),
                    let again = try context.segmentIntersection(edgeStart, edgeEnd, a, b),
                    point.x.bitPattern == again.x.bitPattern, point.y.bitPattern == again.y.bitPattern
                else { return .unsure }
                found.append((min(1, max(0, ((point.x - a.x) * sx + (point.y - a.y) * sy) / lengthSquared)), point))
            }
            start = end
        }
        guard !found.isEmpty else { return .none }
        found.sort { ($0.fraction, $0.point.x, $0.point.y) < ($1.fraction, $1.point.x, $1.point.y) }
        var fractions: [Double] = []
        var last: XY?
        for f in found where last != f.point {
            last = f.point
            if f.fraction > 0 && f.fraction < 1 { fractions.append(f.fraction) }
        }
        return .proper(fractions)
    }

    /// The geodesic speed between two timed fixes, m/s, to its rounding at 0.1 m/s (half away
    /// from zero: what a speed band, the JSON and the HTML read of it); `nil` when no time passes.
    ///
    /// A short segment's length is taken in the plane tangent at its mid-latitude
    /// (``Spatial/Geodesic/shortDistance(latitude1:longitude1:latitude2:longitude2:)``, within a
    /// millionth of the geodesic) unless a speed that close rounds otherwise, where `geod_inverse`
    /// answers: its 4,500 instructions were a sixth of the truth's walk, which ends a long
    /// drive's evaluation with a plain feed.
    static func speed(_ a: Fix, _ b: Fix) -> Double? {
        guard let ta = a.time, let tb = b.time else { return nil }
        let dt = tb.seconds(since: ta)
        guard dt > 0 else { return nil }
        if let d = Geodesic.wgs84.shortDistance(
            latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
        {
            let v = d / dt
            let tenths = v * 10
            // The rounding changes only at a half tenth: clear of it by more than the error (and
            // the division's and multiplication's rounding), every speed within the error rounds
            // the same.
            let margin = 2 * Geodesic.shortRelativeError * tenths + 1e-9
            if abs(tenths - tenths.rounded(.down) - 0.5) > margin { return v }
        }
        return Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude) / dt
    }
}
