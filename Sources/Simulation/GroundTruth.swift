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
/// - Important: Owns a GEOS context and a PROJ frame: not thread-safe; one per worker.
public final class GroundTruth {
    enum Region {
        case circle(center: XY, radius: Double)
        case area(boundary: Geometry, planar: PlanarPolygon?, prepared: PreparedGeometry)
    }

    public let fences: FenceSet
    let frame: MetricFrame
    let context: GEOSContext
    /// By fence index; `nil` for fences without visits (lines, empty shapes).
    let regions: [Region?]
    /// Each region's envelope, by fence index (`nil` without a region).
    let envelopes: [BoundingBox?]
    /// The engine's index over ``envelopes``: a segment is tested only against the fences
    /// registered in the cells its box covers.
    let grid: FenceGrid
    /// Per fence, the stamp of the last query that reported it (``FenceGrid`` deduplicates with it).
    private var marks: [UInt32]
    private var stamp: UInt32 = 0
    /// Fence–segment pairs (and fences at the first fix) whose envelopes met and were tested:
    /// what the work grows with (a test keeps it linear in the path).
    private(set) var candidateTests = 0

    /// Prepares `fences` in the frame `definition`.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` when the frame cannot be built or GEOS
    ///   refuses a fence.
    public init(fences: FenceSet, frame definition: FrameDefinition) throws(FencesimError) {
        self.fences = fences
        do {
            frame = try MetricFrame(definition)
            context = try GEOSContext()
        } catch {
            throw FencesimError(.badData, "cannot build the metric frame \"\(definition)\": \(error.message)", cause: error)
        }
        var regions: [Region?] = []
        var envelopes: [BoundingBox?] = []
        for fence in fences.fences {
            do throws(SpatialError) {
                let region = try GroundTruth.region(fence, frame: frame, context: context)
                regions.append(region)
                var box: BoundingBox?
                switch region {
                case .circle(let c, let r)?: box = BoundingBox(minX: c.x - r, minY: c.y - r, maxX: c.x + r, maxY: c.y + r)
                case .area(_, let planar, let prepared)?: box = planar?.boundingBox ?? prepared.base.boundingBox
                case nil: box = nil
                }
                if let box { try GroundTruth.check(box) }
                envelopes.append(box)
            } catch {
                throw FencesimError(.badData, "fence \"\(fence.id)\": \(error.message)", at: fence.location, cause: error)
            }
        }
        self.regions = regions
        self.envelopes = envelopes
        grid = FenceGrid(envelopes: envelopes)
        marks = Array(repeating: 0, count: max(1, envelopes.count))
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
        let envelopes = self.envelopes
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
        if case .line = fence.kind { return false }
        return true
    }

    static func region(_ fence: Fence, frame: MetricFrame, context: GEOSContext) throws(SpatialError) -> Region? {
        switch fence.kind {
        case .line:
            return nil
        case .circle(let radius):
            guard case .point(let p) = fence.shape else { return nil }
            return .circle(center: frame.forward(p), radius: radius)
        case .beacon(let range, _):
            guard case .point(let p) = fence.shape else { return nil }
            return .circle(center: frame.forward(p), radius: range)
        case .area:
            let shape = fence.shape.mapPositions { frame.forward($0) }
            let geometry = try Geometry(shape, context: context)
            guard !geometry.isEmpty else { return nil }
            return .area(boundary: try geometry.boundary(), planar: PlanarPolygon(shape), prepared: try PreparedGeometry(geometry))
        }
    }

    /// The true visits along `fixes` (timed fixes in time order; untimed ones are skipped),
    /// ordered by entry time, then fence.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` when GEOS fails on a segment.
    /// - Complexity: O(segments × fences near each segment × their vertices): the fences near a
    ///   segment come from the grid, not from a look at every fence.
    public func visits(along fixes: [Fix]) throws(FencesimError) -> [TruthVisit] {
        let path = fixes.filter { $0.time != nil }
        guard let first = path.first, let firstTime = first.time else { return [] }
        let points = path.map { frame.forward(XY(longitude: $0.longitude, latitude: $0.latitude)) }
        var open: [Int: TruthVisit] = [:]
        var done: [TruthVisit] = []
        var candidates: [Int] = []
        do throws(SpatialError) {
            try self.candidates(BoundingBox(minX: points[0].x, minY: points[0].y, maxX: points[0].x, maxY: points[0].y), into: &candidates)
            let firstSpeed = path.count > 1 ? GroundTruth.speed(path[0], path[1]) : nil
            for j in candidates {
                guard let region = regions[j], try inside(region, points[0]) else { continue }
                open[j] = TruthVisit(fence: j, fenceID: fences.fences[j].id, enter: firstTime, exit: nil, startsInside: true,
                                     enterSpeed: firstSpeed, enterLongitude: first.longitude, enterLatitude: first.latitude)
            }
            for i in 0..<max(0, points.count - 1) {
                let a = points[i]
                let b = points[i + 1]
                guard a != b, let ta = path[i].time, let tb = path[i + 1].time else { continue }
                let box = BoundingBox(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y))
                try self.candidates(box, into: &candidates)
                guard !candidates.isEmpty else { continue }
                let speed = GroundTruth.speed(path[i], path[i + 1])
                let span = tb.nanoseconds(since: ta)
                for j in candidates {
                    guard let region = regions[j] else { continue }
                    // Sub-intervals between crossings; a segment starting on the boundary has
                    // none inside (0, 1) and may still leave, so its midpoint is always looked at.
                    let fractions = [0] + (try crossings(region, a, b)) + [1]
                    var state = open[j] != nil
                    for k in 0..<(fractions.count - 1) {
                        let f0 = fractions[k]
                        let f1 = fractions[k + 1]
                        guard f1 > f0 else { continue }
                        let mid = (f0 + f1) / 2
                        let now = try inside(region, XY(a.x + (b.x - a.x) * mid, a.y + (b.y - a.y) * mid))
                        guard now != state else { continue }
                        state = now
                        let time = ta.adding(nanoseconds: Int64((Double(span) * f0).rounded()))
                        let place = frame.inverse(XY(a.x + (b.x - a.x) * f0, a.y + (b.y - a.y) * f0))
                        if now {
                            open[j] = TruthVisit(fence: j, fenceID: fences.fences[j].id, enter: time, exit: nil, enterSpeed: speed,
                                                 enterLongitude: place.longitude, enterLatitude: place.latitude)
                        } else if var visit = open.removeValue(forKey: j) {
                            visit.exit = time
                            visit.exitSpeed = speed
                            visit.exitLongitude = place.longitude
                            visit.exitLatitude = place.latitude
                            // A path touching the boundary at one instant is not a visit.
                            if time > visit.enter { done.append(visit) }
                        }
                    }
                }
            }
        } catch {
            throw FencesimError(.badData, "ground truth: \(error.message)", cause: error)
        }
        done += open.values
        // File order breaks ties between fences sharing an id (`open` has no order of its own).
        return done.sorted { a, b in TruthVisit.ordered(a, b) || (!TruthVisit.ordered(b, a) && a.fence < b.fence) }
    }

    /// Whether `p` is in the region (boundary included).
    func inside(_ region: Region, _ p: XY) throws(SpatialError) -> Bool {
        switch region {
        case .circle(let c, let r):
            return p.distance(to: c) <= r
        case .area(_, let planar, let prepared):
            if let planar {
                switch planar.locate(p) {
                case .inside: return true
                case .outside: return false
                case .nearBoundary: break
                }
            }
            return try prepared.intersects(p)
        }
    }

    /// Fractions in `(0, 1)` along `a → b` where the segment meets the region's boundary, sorted.
    func crossings(_ region: Region, _ a: XY, _ b: XY) throws(SpatialError) -> [Double] {
        switch region {
        case .circle(let c, let r):
            let dx = b.x - a.x
            let dy = b.y - a.y
            let fx = a.x - c.x
            let fy = a.y - c.y
            let qa = dx * dx + dy * dy
            let qb = 2 * (fx * dx + fy * dy)
            let qc = fx * fx + fy * fy - r * r
            let discriminant = qb * qb - 4 * qa * qc
            guard qa > 0, discriminant > 0 else { return [] }
            // The numerically stable pair of roots.
            let root = discriminant.squareRoot()
            let q = -0.5 * (qb + (qb >= 0 ? root : -root))
            var roots = [q / qa]
            if q != 0 { roots.append(qc / q) }
            return roots.filter { $0 > 0 && $0 < 1 }.sorted()
        case .area(let boundary, let planar, _):
            if let box = planar?.boundingBox {
                if max(a.x, b.x) < box.minX || min(a.x, b.x) > box.maxX || max(a.y, b.y) < box.minY || min(a.y, b.y) > box.maxY { return [] }
            }
            // Every point of the segment is within its length of `a`: when the boundary is
            // farther than that (with a micrometre to spare for rounding), the segment cannot
            // meet it, and GEOS (an overlay per call) would find nothing.
            if let planar {
                switch planar.locate(a) {
                case .inside(let distance), .outside(let distance):
                    if distance > a.distance(to: b) + GroundTruth.clearance { return [] }
                case .nearBoundary:
                    break
                }
            }
            return try boundary.crossings(from: a, to: b).map(\.fraction).filter { $0 > 0 && $0 < 1 }
        }
    }

    /// The geodesic speed between two timed fixes, m/s; `nil` when no time passes.
    static func speed(_ a: Fix, _ b: Fix) -> Double? {
        guard let ta = a.time, let tb = b.time else { return nil }
        let dt = tb.seconds(since: ta)
        guard dt > 0 else { return nil }
        return Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude) / dt
    }
}
