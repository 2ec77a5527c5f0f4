/// The narrowest wall of a polygonal area as a straight path crosses it: the shortest distance
/// between two parts of its boundary that face each other across the inside (a ring between its
/// outer boundary and a hole, the arm of a U, a strip), where the convex hull's minimum width
/// sees only the outline.
///
/// Two edges face each other when the shortest segment between them leaves each along its
/// inward side (within ``facingCosine`` of the edge's inward normal) and its midpoint is inside
/// the area. Edges that share a vertex never face each other (a corner is not a wall). Edges are
/// looked up in a grid of cells as large as the widest wall asked about, so that a large polygon
/// costs its edges times their near neighbours, not its edges squared.
public enum NarrowestWall {
    /// The narrowest wall found: its width and the midpoint of the segment across it.
    public struct Wall: Hashable, Sendable {
        public var width: Double
        /// The ends of the segment across the wall, on the boundary.
        public var from: XY
        public var to: XY
        public var midpoint: XY { XY((from.x + to.x) / 2, (from.y + to.y) / 2) }
    }

    /// Polygons of at most this many edges pair every edge with every other (a grid costs more).
    static let bruteForceEdges = 96

    /// How nearly the segment across a wall must follow each edge's inward normal: cos 30°.
    public static let facingCosine = 0.866

    /// One edge, its inward unit normal, and where it sits (polygon, ring, index in the ring).
    struct Edge {
        var a: XY
        var b: XY
        var normal: XY
        var ring: Int
        var index: Int
        var ringCount: Int
    }

    /// The narrowest wall of `polygons` (each its outer ring then its holes, in a metric frame)
    /// narrower than `limit` metres, or `nil` when every wall is at least that wide.
    public static func narrowest(_ polygons: [[[XY]]], below limit: Double) -> Wall? {
        guard limit > 0, limit.isFinite else { return nil }
        var edges: [Edge] = []
        var rings: [[XY]] = []
        for polygon in polygons {
            for (r, ring) in polygon.enumerated() where ring.count >= 4 {
                // Counter-clockwise outer rings and clockwise holes have the inside on their left.
                let counterClockwise = signedArea(ring) > 0
                let insideOnLeft = (r == 0) == counterClockwise
                let ringIndex = rings.count
                rings.append(ring)
                let n = ring.count - 1
                for k in 0..<n {
                    let a = ring[k]
                    let b = ring[k + 1]
                    let length = a.distance(to: b)
                    guard length > 0 else { continue }
                    let left = XY(-(b.y - a.y) / length, (b.x - a.x) / length)
                    edges.append(
                        Edge(a: a, b: b, normal: insideOnLeft ? left : XY(-left.x, -left.y), ring: ringIndex, index: k, ringCount: n))
                }
            }
        }
        guard edges.count >= 2 else { return nil }
        var best: Wall?
        /// Edge `j` against edge `i`: the narrowest wall so far when they face each other nearer.
        func consider(_ i: Int, _ j: Int) {
            let e = edges[i]
            let f = edges[j]
            if e.ring == f.ring, adjacent(e.index, f.index, e.ringCount) { return }
            let (p, q) = closestPoints(e.a, e.b, f.a, f.b)
            let d = p.distance(to: q)
            guard d > 0, d < (best?.width ?? limit) else { return }
            let u = XY((q.x - p.x) / d, (q.y - p.y) / d)
            guard u.x * e.normal.x + u.y * e.normal.y >= facingCosine,
                -(u.x * f.normal.x + u.y * f.normal.y) >= facingCosine
            else { return }
            guard inside(XY((p.x + q.x) / 2, (p.y + q.y) / 2), rings) else { return }
            best = Wall(width: d, from: p, to: q)
        }
        // Small polygons pair every edge with every other; large ones look edges up in a grid.
        if edges.count <= bruteForceEdges {
            for i in edges.indices {
                for j in (i + 1)..<edges.count { consider(i, j) }
            }
            return best
        }
        // A grid of cells `limit` wide over the edges' extent (at most about 4 million cells).
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for e in edges {
            minX = min(minX, e.a.x, e.b.x); maxX = max(maxX, e.a.x, e.b.x)
            minY = min(minY, e.a.y, e.b.y); maxY = max(maxY, e.a.y, e.b.y)
        }
        var cell = limit
        while ((maxX - minX) / cell) * ((maxY - minY) / cell) > 4_000_000 { cell *= 2 }
        let columns = Int((maxX - minX) / cell) + 1
        let rows = Int((maxY - minY) / cell) + 1
        func cellRange(_ lo: Double, _ hi: Double, _ origin: Double, _ count: Int) -> ClosedRange<Int> {
            GridCells.range(lo, hi, origin: origin, size: cell, count: count)
        }
        var buckets: [Int: [Int32]] = [:]
        for (i, e) in edges.enumerated() {
            for cy in cellRange(min(e.a.y, e.b.y), max(e.a.y, e.b.y), minY, rows) {
                for cx in cellRange(min(e.a.x, e.b.x), max(e.a.x, e.b.x), minX, columns) {
                    buckets[cy * columns + cx, default: []].append(Int32(i))
                }
            }
        }
        var seen = [Int32](repeating: -1, count: edges.count)
        for (i, e) in edges.enumerated() {
            let reach = best?.width ?? limit
            for cy in cellRange(min(e.a.y, e.b.y) - reach, max(e.a.y, e.b.y) + reach, minY, rows) {
                for cx in cellRange(min(e.a.x, e.b.x) - reach, max(e.a.x, e.b.x) + reach, minX, columns) {
                    for j32 in buckets[cy * columns + cx] ?? [] {
                        let j = Int(j32)
                        guard j > i, seen[j] != Int32(i) else { continue }
                        seen[j] = Int32(i)
                        consider(i, j)
                    }
                }
            }
        }
        return best
    }

    /// Whether edges `i` and `k` of a ring of `n` edges share a vertex.
    static func adjacent(_ i: Int, _ k: Int, _ n: Int) -> Bool {
        let d = abs(i - k)
        return d <= 1 || d == n - 1
    }

    /// Twice the signed area of a closed ring (positive when counter-clockwise).
    static func signedArea(_ ring: [XY]) -> Double {
        var s = 0.0
        for k in 0..<(ring.count - 1) { s += ring[k].x * ring[k + 1].y - ring[k + 1].x * ring[k].y }
        return s
    }

    /// Even–odd inside test over every ring (a multipolygon's parts do not overlap).
    static func inside(_ p: XY, _ rings: [[XY]]) -> Bool {
        var crossings = false
        for ring in rings {
            for k in 0..<(ring.count - 1) {
                let a = ring[k]
                let b = ring[k + 1]
                if (a.y > p.y) != (b.y > p.y), p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) { crossings.toggle() }
            }
        }
        return crossings
    }

    /// The closest points of segments `a0 → a1` and `b0 → b1` (they do not cross: a polygon's
    /// edges meet only at shared vertices, which are left out).
    static func closestPoints(_ a0: XY, _ a1: XY, _ b0: XY, _ b1: XY) -> (XY, XY) {
        var best = (a0, project(a0, b0, b1))
        var bestDistance = best.0.distance(to: best.1)
        for (p, q) in [(a1, project(a1, b0, b1)), (project(b0, a0, a1), b0), (project(b1, a0, a1), b1)] {
            let d = p.distance(to: q)
            if d < bestDistance {
                best = (p, q)
                bestDistance = d
            }
        }
        return best
    }

    /// The point of segment `a → b` nearest `p`.
    static func project(_ p: XY, _ a: XY, _ b: XY) -> XY {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        guard length2 > 0 else { return a }
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2))
        return XY(a.x + t * dx, a.y + t * dy)
    }
}
