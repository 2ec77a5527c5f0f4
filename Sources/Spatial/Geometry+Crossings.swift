import CGEOS

/// Where a straight segment meets a fence's boundary.
public struct Crossing: Hashable, Sendable {
    /// The point on the boundary.
    public var point: XY
    /// How far along the segment the point lies, from 0 (start) to 1 (end). The engine turns it
    /// into a time by interpolating between the two fixes.
    public var fraction: Double

    public init(point: XY, fraction: Double) {
        self.point = point
        self.fraction = fraction
    }
}

extension Geometry {
    /// The points where the segment from `start` to `end` meets this geometry's boundary, in order
    /// along the segment, with their fraction along it.
    ///
    /// For a polygon the boundary is its rings; for a line it is the line itself (so a crossing of
    /// a line fence is found too). Where the segment runs along the boundary, only the two ends of
    /// the shared stretch are reported, even when the stretch passes vertices of the boundary.
    /// A point met twice (a segment through a vertex shared by two edges) is reported once. A
    /// zero-length segment meets the boundary when its point lies on it (fraction 0).
    ///
    /// - Throws: ``SpatialError`` from GEOS, e.g. for a collection mixing polygons and other
    ///   kinds (which has no boundary).
    /// - Complexity: O(n) in the number of boundary vertices (one GEOS intersection), plus the
    ///   boundary built for a polygon on every call.
    public func crossings(from start: XY, to end: XY) throws(SpatialError) -> [Crossing] {
        let target: Geometry
        switch GEOSGeomTypeId_r(context.handle, pointer) {
        case Int32(GEOS_LINESTRING.rawValue), Int32(GEOS_MULTILINESTRING.rawValue), Int32(GEOS_LINEARRING.rawValue):
            target = self
        case -1:
            throw context.error("GEOSGeomTypeId_r")
        default:
            target = try boundary()
        }
        if start == end {
            // GEOS takes a two-point line with equal points as empty; ask about the point.
            let point = try Geometry(point: start, context: context)
            return try target.intersects(point) ? [Crossing(point: start, fraction: 0)] : []
        }
        let segment = try Geometry(.lineString([start, end]), context: context)
        let shared = try segment.intersection(target)
        var points: [XY] = []
        var stretches: [(XY, XY)] = []
        collect(try shared.shape, points: &points, stretches: &stretches)
        let dx = end.x - start.x
        let dy = end.y - start.y
        let lengthSquared = dx * dx + dy * dy
        func crossing(_ p: XY) -> Crossing {
            Crossing(point: p, fraction: min(1, max(0, ((p.x - start.x) * dx + (p.y - start.y) * dy) / lengthSquared)))
        }
        // Stretches along the boundary, as fraction intervals, joined where they meet (GEOS splits
        // a shared stretch at every boundary vertex, and the pieces share that vertex exactly).
        var intervals = stretches.map { a, b in
            let (ca, cb) = (crossing(a), crossing(b))
            return ca.fraction <= cb.fraction ? (ca, cb) : (cb, ca)
        }
        intervals.sort { ($0.0.fraction, $0.1.fraction) < ($1.0.fraction, $1.1.fraction) }
        var merged: [(Crossing, Crossing)] = []
        for interval in intervals {
            if let last = merged.last, interval.0.fraction <= last.1.fraction {
                if interval.1.fraction > last.1.fraction { merged[merged.count - 1].1 = interval.1 }
            } else {
                merged.append(interval)
            }
        }
        var result: [Crossing] = merged.flatMap { [$0.0, $0.1] }
        for p in points {
            let c = crossing(p)
            // A point inside a stretch (a vertex it passes) is not a crossing of its own.
            if merged.contains(where: { c.fraction > $0.0.fraction && c.fraction < $0.1.fraction }) { continue }
            result.append(c)
        }
        result.sort { ($0.fraction, $0.point.x, $0.point.y) < ($1.fraction, $1.point.x, $1.point.y) }
        var unique: [Crossing] = []
        for c in result where unique.last?.point != c.point {
            unique.append(c)
        }
        return unique
    }

    /// Splits the intersection of a segment with a boundary into isolated points and stretches.
    private func collect(_ shape: Shape, points: inout [XY], stretches: inout [(XY, XY)]) {
        switch shape {
        case .point(let p): points.append(p)
        case .multiPoint(let ps): points += ps
        case .lineString(let ps):
            // Part of a straight segment: its ends are its extremes.
            if let first = ps.first, let last = ps.last { stretches.append((first, last)) }
        case .multiLineString(let ls):
            for l in ls { collect(.lineString(l), points: &points, stretches: &stretches) }
        case .polygon, .multiPolygon:
            break  // A segment's intersection with a boundary has no area.
        case .collection(let shapes):
            for s in shapes { collect(s, points: &points, stretches: &stretches) }
        }
    }
}

extension GEOSContext {
    /// The point where the segments `p0 → p1` and `q0 → q1` meet, as GEOS's line intersector
    /// computes it (the computation the noder of an overlay makes at a crossing); `nil` when
    /// they do not meet, or share a stretch (no single point).
    ///
    /// - Throws: ``SpatialError`` when GEOS fails.
    public func segmentIntersection(_ p0: XY, _ p1: XY, _ q0: XY, _ q1: XY) throws(SpatialError) -> XY? {
        var x = 0.0
        var y = 0.0
        switch GEOSSegmentIntersection_r(handle, p0.x, p0.y, p1.x, p1.y, q0.x, q0.y, q1.x, q1.y, &x, &y) {
        case 1: return XY(x, y)
        case -1: return nil
        default: throw error("GEOSSegmentIntersection_r")
        }
    }
}
