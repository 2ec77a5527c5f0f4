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

    /// How much farther than the nearest vertex (metres) an edge's envelope may be and still get
    /// an exact distance in ``locate(_:xs:ys:start:ringEnds:)``: a micrometre, many orders of
    /// magnitude above the rounding of either bound.
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
        var xs: [Double] = []
        var ys: [Double] = []
        guard let ends = PlanarPolygon.appendRings(of: shape, to: &xs, &ys),
            let box = BoundingBox(points: zip(xs, ys).lazy.map { XY($0, $1) })
        else { return nil }
        self.xs = xs
        self.ys = ys
        ringEnds = ends
        boundingBox = box
    }

    /// Appends the rings of a polygon or multipolygon to flat vertex storage, laid out as
    /// ``init(_:)`` lays out its own (every ring of two or more positions, closed, one after
    /// another), for the static tests over shared storage such as
    /// ``locate(_:xs:ys:start:ringEnds:)``.
    ///
    /// - Returns: the end (exclusive, absolute in `xs`) of each ring; `nil`, with nothing
    ///   appended, for other shapes, for an empty one, and for more than `limit` vertices.
    public static func appendRings(
        of shape: Shape, to xs: inout [Double], _ ys: inout [Double],
        limit: Int = .max
    ) -> [Int]? {
        var rings: [[XY]] = []
        switch shape {
        case .polygon(let r): rings = r
        case .multiPolygon(let polys): rings = polys.flatMap { $0 }
        default: return nil
        }
        var count = 0
        var ringCount = 0
        for ring in rings where ring.count >= 2 {
            count += ring.count + (ring.first != ring.last ? 1 : 0)
            ringCount += 1
        }
        guard count > 0, count <= limit else { return nil }
        var ends: [Int] = []
        ends.reserveCapacity(ringCount)
        // No exact reservation when appending to shared storage: one per polygon would make
        // every call reallocate (quadratic over a fence set); appends grow geometrically.
        if xs.isEmpty { xs.reserveCapacity(count) }
        if ys.isEmpty { ys.reserveCapacity(count) }
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
        return ends
    }

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
    public static func classify(
        _ p: XY, radius: Double, xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, start: Int,
        ringEnds: UnsafeBufferPointer<Int>
    ) -> (inside: Bool, withinRadius: Bool)? {
        var inside = false
        var within = false
        var tooClose = false
        let reach = max(radius, boundaryTolerance)
        var ringStart = start
        for end in ringEnds {
            var k = ringStart
            while k + 1 < end {
                let ax = xs[k], ay = ys[k], bx = xs[k + 1], by = ys[k + 1]
                if (ay > p.y) != (by > p.y), crossesRightOf(p, ax, ay, bx, by) { inside.toggle() }
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
    ///
    /// Two passes, four edges at a time. The first finds the even–odd parity and the nearest
    /// vertex. The second gives the exact GEOS-form distance only to edges whose envelope comes
    /// within that vertex's distance (plus ``pruningSlack``): no other edge can be nearer, since
    /// an edge is never nearer than its envelope and the nearest vertex bounds the nearest edge.
    /// The result is the same minimum, to the bit, as computing every edge's distance.
    @inline(__always)
    public static func locate(
        _ p: XY, xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, start: Int,
        ringEnds: UnsafeBufferPointer<Int>
    ) -> (inside: Bool, boundaryDistance: Double)? {
        var odd = false
        var nearestVertex = Double.infinity
        var ringStart = start
        for end in ringEnds {
            let (ringOdd, ringNearest) = parityAndNearestVertex(p, xs: xs, ys: ys, from: ringStart, to: end)
            odd = odd != ringOdd
            nearestVertex = min(nearestVertex, ringNearest)
            ringStart = end
        }
        let reach = nearestVertex.squareRoot() + pruningSlack
        let reach2 = reach * reach
        var best = Double.infinity
        ringStart = start
        for end in ringEnds {
            best = min(best, nearestEdge(p, xs: xs, ys: ys, from: ringStart, to: end, within: reach2))
            ringStart = end
        }
        if best < boundaryTolerance { return nil }
        return (odd, best)
    }

    /// Edges per run in ``writeRunBoxes(xs:ys:start:ringEnds:into:)``.
    public static let runLength = 4

    /// How many runs of edges ``writeRunBoxes(xs:ys:start:ringEnds:into:)`` writes for these rings.
    public static func runCount(start: Int, ringEnds: UnsafeBufferPointer<Int>) -> Int {
        var runs = 0
        var ringStart = start
        for end in ringEnds {
            let edges = end - ringStart - 1
            if edges > 0 { runs += (edges + runLength - 1) / runLength }
            ringStart = end
        }
        return runs
    }

    /// Writes the envelope (min x, min y, max x, max y) of each run of ``runLength`` consecutive
    /// edges of each ring (the last run of a ring may be shorter), ring after ring, four values
    /// a run from `boxes` on (room for ``runCount(start:ringEnds:)`` runs), for
    /// ``roughLocate(_:xs:ys:start:ringEnds:runBoxes:hint:)``.
    public static func writeRunBoxes(
        xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, start: Int,
        ringEnds: UnsafeBufferPointer<Int>, into boxes: UnsafeMutablePointer<Double>
    ) {
        var box = boxes
        var ringStart = start
        for end in ringEnds {
            var k = ringStart
            while k + 1 < end {
                let last = min(k + runLength, end - 1)
                var minX = xs[k], maxX = xs[k], minY = ys[k], maxY = ys[k]
                for v in (k + 1)...last {
                    minX = min(minX, xs[v])
                    maxX = max(maxX, xs[v])
                    minY = min(minY, ys[v])
                    maxY = max(maxY, ys[v])
                }
                box[0] = minX
                box[1] = minY
                box[2] = maxX
                box[3] = maxY
                box += 4
                k = last
            }
            ringStart = end
        }
    }

    /// Whether `p` is inside (the even–odd parity, by the arithmetic of
    /// ``locate(_:xs:ys:start:ringEnds:)``) and its distance to the boundary, without the exact
    /// GEOS form of the distance, reading only a few runs of edges.
    ///
    /// The parity is counted only over runs (``writeRunBoxes(xs:ys:start:ringEnds:into:)``) whose
    /// envelope straddles the ray from `p` towards +x; distances only over the run `hint` and the
    /// runs whose envelope comes nearer than the nearest edge found so far. A caller testing a
    /// moving point passes the run this returned last time (usually the nearest again), so that
    /// most runs are passed over on their envelope alone. The distance is the projection of `p`
    /// onto each edge, clamped to it, which differs from the exact one by the rounding of a few
    /// operations on the coordinates: far below ``roughDistanceError(magnitude:)``. The parity is
    /// trustworthy only where the distance is above that error; nearer the boundary the caller
    /// should ask ``locate(_:xs:ys:start:ringEnds:)``.
    ///
    /// - Returns: the parity, the distance, and the run that holds the nearest edge.
    /// - Complexity: O(runs), plus the edges of the runs read.
    @inline(__always)
    public static func roughLocate(
        _ p: XY, xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, start: Int,
        ringEnds: UnsafeBufferPointer<Int>, runBoxes: UnsafePointer<Double>,
        hint: Int = 0
    ) -> (inside: Bool, distance: Double, nearestRun: Int) {
        let px = p.x, py = p.y
        /// The squared distance from `p` to a run's envelope.
        @inline(__always) func gap2(_ box: UnsafePointer<Double>) -> Double {
            let gx = box[0] - px > px - box[2] ? box[0] - px : px - box[2]
            let gy = box[1] - py > py - box[3] ? box[1] - py : py - box[3]
            let ex = gx > 0 ? gx : 0
            let ey = gy > 0 ? gy : 0
            return ex * ex + ey * ey
        }
        /// The smallest squared distance from `p` to the edges from vertex `k` to vertex `last`.
        @inline(__always) func nearest2(_ k: Int, _ last: Int, _ best: Double) -> Double {
            var best2 = best
            var ax = xs[k], ay = ys[k]
            for v in (k + 1)...last {
                let bx = xs[v], by = ys[v]
                let dx = bx - ax, dy = by - ay
                let t0 = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
                // Clamped to the edge; an edge of no length (0 / 0) projects onto its end.
                let t1 = t0 > 0 ? t0 : 0
                let t = t1 < 1 ? t1 : 1
                let qx = ax + t * dx - px
                let qy = ay + t * dy - py
                let d2 = qx * qx + qy * qy
                best2 = d2 < best2 ? d2 : best2
                ax = bx
                ay = by
            }
            return best2
        }
        // The hinted run first: its nearest edge bounds the rest.
        var best2 = Double.infinity
        var nearestRun = -1
        var run = 0
        var ringStart = start
        search: for end in ringEnds {
            let runs = (end - ringStart - 1 + runLength - 1) / runLength
            if hint < run + runs, hint >= run {
                let k = ringStart + (hint - run) * runLength
                let last = k + runLength < end - 1 ? k + runLength : end - 1
                if last > k {
                    best2 = nearest2(k, last, .infinity)
                    nearestRun = hint
                }
                break search
            }
            run += max(0, runs)
            ringStart = end
        }
        var odd = false
        var box = runBoxes
        run = 0
        ringStart = start
        for end in ringEnds {
            var k = ringStart
            while k + 1 < end {
                let last = k + runLength < end - 1 ? k + runLength : end - 1
                // `crossesRightOf` needs an edge that straddles `py` and reaches right of `px`.
                if box[1] <= py, py < box[3], px <= box[2] {
                    var ay = ys[k]
                    for v in (k + 1)...last {
                        let by = ys[v]
                        if (ay > py) != (by > py), crossesRightOf(p, xs[v - 1], ay, xs[v], by) { odd.toggle() }
                        ay = by
                    }
                }
                if run != nearestRun, gap2(box) < best2 {
                    let d2 = nearest2(k, last, best2)
                    if d2 < best2 {
                        best2 = d2
                        nearestRun = run
                    }
                }
                box += 4
                run += 1
                k = last
            }
            ringStart = end
        }
        return (odd, best2.squareRoot(), max(0, nearestRun))
    }

    /// A bound on the error of ``roughLocate(_:xs:ys:start:ringEnds:runBoxes:hint:)``'s distance for points and
    /// vertices whose coordinates are at most `magnitude` metres from the frame's origin: a
    /// micrometre, plus a part in 10^13 of the magnitude (the rounding itself is a few parts in
    /// 10^16 of it).
    public static func roughDistanceError(magnitude: Double) -> Double {
        1e-6 + 1e-13 * magnitude
    }

    /// The four edges from vertex `k`, as their end points.
    @inline(__always)
    private static func edges(_ xs: UnsafePointer<Double>, _ ys: UnsafePointer<Double>, _ k: Int)
        -> (ax: SIMD4<Double>, ay: SIMD4<Double>, bx: SIMD4<Double>, by: SIMD4<Double>)
    {
        (
            UnsafeRawPointer(xs + k).loadUnaligned(as: SIMD4<Double>.self),
            UnsafeRawPointer(ys + k).loadUnaligned(as: SIMD4<Double>.self),
            UnsafeRawPointer(xs + k + 1).loadUnaligned(as: SIMD4<Double>.self),
            UnsafeRawPointer(ys + k + 1).loadUnaligned(as: SIMD4<Double>.self)
        )
    }

    /// Lane-wise maximum and minimum. (The standard library's `pointwiseMax` and `pointwiseMin`
    /// were left as calls in release builds, slower than the scalar loop.)
    @inline(__always)
    private static func larger(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> { a.replacing(with: b, where: a .< b) }
    @inline(__always)
    private static func smaller(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> { a.replacing(with: b, where: b .< a) }

    /// Whether a ray from `p` towards +x crosses the ring's edges an odd number of times, and the
    /// squared distance to its nearest vertex. Each edge is tested as ``crossesRightOf`` does,
    /// operation for operation.
    @inline(__always)
    static func parityAndNearestVertex(
        _ p: XY, xs: UnsafePointer<Double>, ys: UnsafePointer<Double>,
        from first: Int, to end: Int
    ) -> (odd: Bool, nearest2: Double) {
        var odd = false
        var nearest2 = Double.infinity
        var k = first
        if end - first >= 5 {
            let px = SIMD4<Double>(repeating: p.x)
            let py = SIMD4<Double>(repeating: p.y)
            var parity = SIMDMask<SIMD4<Int64>>()
            var nearest = SIMD4<Double>(repeating: .infinity)
            /// The edges from vertex `k` whose crossings count (`fresh`) flip their lanes' parity.
            @inline(__always) func group(_ k: Int, _ fresh: SIMDMask<SIMD4<Int64>>?) {
                let (ax, ay, bx, by) = edges(xs, ys, k)
                let straddles = (ay .> py) .^ (by .> py)
                let vx = px - ax
                let vy = py - ay
                // `crossesRightOf`, four lanes at a time.
                let left = vx * (by - ay)
                let right = vy * (bx - ax)
                let rising = by .> ay
                let crosses = straddles .& ((rising .& (left .< right)) .| (.!rising .& (right .< left)))
                parity = parity .^ (fresh.map { $0 .& crosses } ?? crosses)
                nearest = nearest.replacing(with: vx * vx + vy * vy, where: vx * vx + vy * vy .< nearest)
            }
            // Groups of four edges; a last partial group is moved back to end at the ring's last
            // edge, and its lanes already counted are left out of the parity (the minimum does
            // not mind).
            while k + 5 <= end {
                group(k, nil)
                k += 4
            }
            if k < end - 1 {
                let back = end - 5
                group(back, SIMD4<Int64>(0, 1, 2, 3) .>= SIMD4<Int64>(repeating: Int64(k - back)))
            }
            return ((parity[0] != parity[1]) != (parity[2] != parity[3]), nearest.min())
        }
        while k + 1 < end {
            let ax = xs[k], ay = ys[k], bx = xs[k + 1], by = ys[k + 1]
            if (ay > p.y) != (by > p.y), crossesRightOf(p, ax, ay, bx, by) { odd.toggle() }
            let vx = p.x - ax, vy = p.y - ay
            nearest2 = min(nearest2, vx * vx + vy * vy)
            k += 1
        }
        return (odd, nearest2)
    }

    /// The smallest exact distance from `p` to the ring's edges whose envelope lies within
    /// `reach2` (squared); infinity when there is none.
    @inline(__always)
    static func nearestEdge(
        _ p: XY, xs: UnsafePointer<Double>, ys: UnsafePointer<Double>,
        from first: Int, to end: Int, within reach2: Double
    ) -> Double {
        var best = Double.infinity
        var k = first
        if end - first >= 5 {
            let px = SIMD4<Double>(repeating: p.x)
            let py = SIMD4<Double>(repeating: p.y)
            let zero = SIMD4<Double>.zero
            let limit = SIMD4<Double>(repeating: reach2)
            var done = first
            while done < end - 1 {
                let k = min(done, end - 5)
                let (ax, ay, bx, by) = edges(xs, ys, k)
                let ex = larger(larger(smaller(ax, bx) - px, px - larger(ax, bx)), zero)
                let ey = larger(larger(smaller(ay, by) - py, py - larger(ay, by)), zero)
                let near = ex * ex + ey * ey .<= limit
                if any(near) {
                    for lane in 0..<4 where near[lane] {
                        best = min(best, pointToSegment(p.x, p.y, ax[lane], ay[lane], bx[lane], by[lane]))
                    }
                }
                done = k + 4
            }
            return best
        }
        while k + 1 < end {
            let ax = xs[k], ay = ys[k], bx = xs[k + 1], by = ys[k + 1]
            let ex = max(min(ax, bx) - p.x, p.x - max(ax, bx), 0)
            let ey = max(min(ay, by) - p.y, p.y - max(ay, by), 0)
            if ex * ex + ey * ey <= reach2 {
                best = min(best, pointToSegment(p.x, p.y, ax, ay, bx, by))
            }
            k += 1
        }
        return best
    }

    /// Whether the edge from `a` to `b`, which straddles the horizontal line through `p`, meets
    /// it to the right of `p`: `p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)`, multiplied
    /// through by `b.y - a.y` so that no division is needed (the side flips when the edge falls).
    ///
    /// The two forms round differently only for points within about 1e-11 m of the edge (in a
    /// frame whose coordinates stay within tens of kilometres), which the callers leave to GEOS
    /// (``boundaryTolerance``), so the even–odd answer they report is the same either way.
    @inline(__always)
    static func crossesRightOf(_ p: XY, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Bool {
        let left = (p.x - ax) * (by - ay)
        let right = (p.y - ay) * (bx - ax)
        return by > ay ? left < right : right < left
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
