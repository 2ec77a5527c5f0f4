/// A polygon (or multipolygon) in a metric frame as plain vertex arrays, for point tests in the
/// geotrigger hot path without a GEOS call or allocation.
///
/// Point-to-segment distances use the same formula, operation for operation, as GEOS's
/// `Distance::pointToSegment`, so distances (and the accuracy-disc tests built on them) agree
/// with a prepared GEOS polygon to the last bit; inside/outside is the even–odd rule. A point so
/// close to an edge that floating point cannot place it (closer than ``boundaryTolerance``) is
/// reported as ``Location/nearBoundary`` so that the caller can ask GEOS, whose predicates are
/// robust there.
public struct PlanarPolygon: Sendable {
    /// Ring vertices, every ring closed (last == first), rings one after another.
    let xs: [Double]
    let ys: [Double]
    /// End index (exclusive) of each ring in `xs`/`ys`.
    let ringEnds: [Int]
    /// The envelope of every vertex.
    public let boundingBox: BoundingBox

    /// Distances below this (metres) are too close to the boundary to trust the even–odd test.
    public static let boundaryTolerance = 1e-9

    /// How much farther than the nearest edge so far (metres) an edge's squared-distance
    /// estimate may be and still get an exact distance in ``locate(_:xs:ys:start:ringEnds:)``:
    /// a micrometre, many orders of magnitude above the rounding of either formula.
    static let pruningSlack = 1e-6

    /// Where a point lies relative to the polygon.
    public enum Location: Sendable {
        case inside(boundaryDistance: Double)
        case outside(boundaryDistance: Double)
        case nearBoundary
    }

    /// Builds the arrays from a polygon or multipolygon shape; `nil` for other shapes or an
    /// empty one.
    public init?(_ shape: Shape) {
        var rings: [[XY]] = []
        switch shape {
        case .polygon(let r): rings = r
        case .multiPolygon(let polys): rings = polys.flatMap { $0 }
        default: return nil
        }
        var xs: [Double] = []
        var ys: [Double] = []
        var ends: [Int] = []
        for ring in rings where ring.count >= 2 {
            for p in ring {
                xs.append(p.x)
                ys.append(p.y)
            }
            if ring.first != ring.last, let first = ring.first {
                xs.append(first.x)
                ys.append(first.y)
            }
            ends.append(xs.count)
        }
        guard let box = BoundingBox(points: zip(xs, ys).map { XY($0, $1) }) else { return nil }
        self.xs = xs
        self.ys = ys
        ringEnds = ends
        boundingBox = box
    }

    /// The number of vertices (rings closed).
    public var vertexCount: Int { xs.count }

    /// Where `p` lies and how far it is from the boundary.
    ///
    /// - Complexity: O(vertices).
    public func locate(_ p: XY) -> Location {
        let found = withStorage { xs, ys, ends in PlanarPolygon.locate(p, xs: xs, ys: ys, start: 0, ringEnds: ends) }
        guard let (inside, distance) = found else { return .nearBoundary }
        return inside ? .inside(boundaryDistance: distance) : .outside(boundaryDistance: distance)
    }

    /// Runs `body` with pointers to this polygon's vertex arrays and ring ends.
    private func withStorage<T>(_ body: (UnsafePointer<Double>, UnsafePointer<Double>, UnsafeBufferPointer<Int>) -> T) -> T {
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                ringEnds.withUnsafeBufferPointer { ends in body(xs.baseAddress!, ys.baseAddress!, ends) }
            }
        }
    }

    /// Whether `p` is inside and whether its distance to the boundary is at most `radius`,
    /// computing distances only for edges whose envelope comes within `radius` of `p` (a few of
    /// them), which is what every feed/relationship test needs.
    ///
    /// - Returns: `nil` when `p` is within ``boundaryTolerance`` of the boundary (ask GEOS).
    /// - Complexity: O(vertices), with a distance only for nearby edges.
    public func classify(_ p: XY, radius: Double) -> (inside: Bool, withinRadius: Bool)? {
        withStorage { xs, ys, ends in PlanarPolygon.classify(p, radius: radius, xs: xs, ys: ys, start: 0, ringEnds: ends) }
    }

    /// ``classify(_:radius:)`` over vertex storage shared by many polygons (the engine keeps every
    /// polygon's vertices in two flat arrays): rings from `start` to each of `ringEnds` in turn.
    @inline(__always)
    public static func classify(_ p: XY, radius: Double, xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, start: Int,
                                ringEnds: UnsafeBufferPointer<Int>) -> (inside: Bool, withinRadius: Bool)? {
        var inside = false
        var within = false
        var tooClose = false
        let reach = max(radius, boundaryTolerance)
        var ringStart = start
        for end in ringEnds {
            var k = ringStart
            while k + 1 < end {
                let ax = xs[k], ay = ys[k], bx = xs[k + 1], by = ys[k + 1]
                if (ay > p.y) != (by > p.y) {
                    let x = ax + (p.y - ay) * (bx - ax) / (by - ay)
                    if p.x < x { inside.toggle() }
                }
                // Edge envelope within reach: compute the exact distance.
                if p.x >= min(ax, bx) - reach, p.x <= max(ax, bx) + reach, p.y >= min(ay, by) - reach, p.y <= max(ay, by) + reach {
                    let d = pointToSegment(p.x, p.y, ax, ay, bx, by)
                    if d < boundaryTolerance { tooClose = true }
                    if d <= radius { within = true }
                }
                k += 1
            }
            ringStart = end
        }
        if tooClose { return nil }
        return (inside, within)
    }

    /// Where `p` lies, over shared vertex storage (see ``classify(_:radius:xs:ys:start:ringEnds:)``):
    /// inside or not and the exact distance to the boundary; `nil` within ``boundaryTolerance``.
    @inline(__always)
    public static func locate(_ p: XY, xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, start: Int,
                              ringEnds: UnsafeBufferPointer<Int>) -> (inside: Bool, boundaryDistance: Double)? {
        var inside = false
        var best = Double.infinity
        // Squared distances bound which edges can still beat `best`; only those get the exact
        // GEOS-form distance, so the result is the same minimum without a division and a square
        // root per edge. The bound is padded by ``pruningSlack`` (far above rounding).
        var bound = Double.infinity
        var ringStart = start
        for end in ringEnds {
            var k = ringStart
            while k + 1 < end {
                let ax = xs[k], ay = ys[k], bx = xs[k + 1], by = ys[k + 1]
                if (ay > p.y) != (by > p.y) {
                    let x = ax + (p.y - ay) * (bx - ax) / (by - ay)
                    if p.x < x { inside.toggle() }
                }
                let dx = bx - ax, dy = by - ay
                let wx = p.x - ax, wy = p.y - ay
                let t = wx * dx + wy * dy
                let len2 = dx * dx + dy * dy
                let near: Bool
                if t <= 0 {
                    near = wx * wx + wy * wy <= bound
                } else if t >= len2 {
                    let ex = p.x - bx, ey = p.y - by
                    near = ex * ex + ey * ey <= bound
                } else {
                    let cross = wx * dy - wy * dx
                    near = cross * cross <= bound * len2
                }
                if near {
                    let d = pointToSegment(p.x, p.y, ax, ay, bx, by)
                    if d < best {
                        best = d
                        bound = (d + pruningSlack) * (d + pruningSlack)
                    }
                }
                k += 1
            }
            ringStart = end
        }
        if best < boundaryTolerance { return nil }
        return (inside, best)
    }

    /// Appends this polygon's vertices to flat storage; returns the ring ends (absolute indices
    /// into the storage) to pass to ``classify(_:radius:xs:ys:start:ringEnds:)``.
    public func append(to xs: inout [Double], _ ys: inout [Double]) -> (start: Int, ringEnds: [Int]) {
        let start = xs.count
        xs += self.xs
        ys += self.ys
        return (start, ringEnds.map { $0 + start })
    }

    /// GEOS `Distance::pointToSegment`, written the same way.
    @inline(__always)
    static func pointToSegment(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        if ax == bx && ay == by {
            let dx = px - ax
            let dy = py - ay
            return (dx * dx + dy * dy).squareRoot()
        }
        let len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay)
        let r = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2
        if r <= 0 {
            let dx = px - ax
            let dy = py - ay
            return (dx * dx + dy * dy).squareRoot()
        }
        if r >= 1 {
            let dx = px - bx
            let dy = py - by
            return (dx * dx + dy * dy).squareRoot()
        }
        let s = ((ay - py) * (bx - ax) - (ax - px) * (by - ay)) / len2
        return abs(s) * len2.squareRoot()
    }
}
