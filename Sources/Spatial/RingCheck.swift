/// A fast, conservative validity check for a polygon's single ring, so that the GEOS validity
/// check (several microseconds each) runs only where it can find something.
///
/// A ring passes when it is closed, has at least three distinct corners and no two of its edges
/// meet except neighbours at their shared corner (with every orientation test well clear of
/// rounding). Anything else, including a test too close to call, is left to GEOS, which gives
/// the authoritative answer and its reason. "Passes" therefore always means "GEOS would say
/// valid" for a polygon without holes.
public enum RingCheck {
    /// The largest ring checked here; longer rings go to GEOS, whose indexed check scales.
    public static let maximumVertices = 128

    /// `true` when the ring is certainly a valid polygon shell; `false` when this check cannot
    /// tell (GEOS must decide).
    ///
    /// - Complexity: O(n) for a ring star-shaped about the mean of its corners; otherwise
    ///   O(n log n) to sort the edges, plus one test per pair of edges whose x ranges overlap (at
    ///   most O(n²), n ≤ ``maximumVertices``).
    public static func isCertainlySimple(_ ring: [XY]) -> Bool {
        let n = ring.count - 1  // edges
        guard n >= 3, n <= maximumVertices, ring.first == ring.last else { return false }
        // Distinct consecutive corners, and a clearly non-zero area: the shoelace sum taken
        // about the first corner, so that it rounds on the ring's own size rather than on its
        // distance from the origin (a 100 m fence in degrees of longitude 122° off it lost its
        // area to cancellation against this bound, and went to GEOS).
        let origin = ring[0]
        var area = 0.0
        var scale = 0.0
        for k in 0..<n {
            let a = ring[k], b = ring[k + 1]
            if a == b { return false }
            let ax = a.x - origin.x, ay = a.y - origin.y
            area += ax * (b.y - origin.y) - ay * (b.x - origin.x)
            scale = max(scale, abs(ax), abs(ay))
        }
        guard abs(area) > 1e-9 * scale * scale else { return false }
        if isCertainlyStarShaped(ring, edges: n) { return true }
        // Only edges whose envelopes overlap can meet: the edges sorted by their least x, each is
        // tested against those that start before it ends (a sweep, instead of every pair).
        return withUnsafeTemporaryAllocation(of: (minX: Double, edge: Int).self, capacity: n) { buffer in
            var order = buffer
            for k in 0..<n { order[k] = (min(ring[k].x, ring[k + 1].x), k) }
            order.sort { $0.minX < $1.minX }
            for s in 0..<n {
                let i = order[s].edge
                let a = ring[i], b = ring[i + 1]
                let maxX = max(a.x, b.x)
                for t in (s + 1)..<n {
                    if order[t].minX > maxX { break }
                    let j = order[t].edge
                    let c = ring[j], d = ring[j + 1]
                    let adjacent = abs(i - j) == 1 || abs(i - j) == n - 1
                    guard let meets = segmentsMeet(a, b, c, d, adjacent: adjacent) else { return false }
                    if meets { return false }
                }
            }
            return true
        }
    }

    /// Whether the ring certainly winds once around the mean of its corners, seeing it on the
    /// same side of every edge: then each edge spans its own sector of angles around that point,
    /// the sectors tile the turn once, and no two edges can meet but neighbours at their corner
    /// (a star-shaped ring is simple). Every orientation must be clear of rounding; the turns
    /// are counted by the edges that cross the horizontal line through the point (one up, one
    /// down for a single turn). `false` when unsure: the caller sweeps.
    ///
    /// - Complexity: O(n), where the sweep sorts.
    static func isCertainlyStarShaped(_ ring: [XY], edges n: Int) -> Bool {
        var sx = 0.0, sy = 0.0
        for k in 0..<n {
            sx += ring[k].x
            sy += ring[k].y
        }
        let c = XY(sx / Double(n), sy / Double(n))
        var side = 0
        var crossings = 0
        for k in 0..<n {
            let a = ring[k], b = ring[k + 1]
            guard let o = orientation(c, a, b), side == 0 || o == side else { return false }
            side = o
            if (a.y < c.y) != (b.y < c.y) { crossings += 1 }
        }
        return crossings == 2
    }

    /// The sign of the orientation of (p, q, r), or `nil` when it is too close to zero to trust.
    @inline(__always)
    static func orientation(_ p: XY, _ q: XY, _ r: XY) -> Int? {
        let l = (q.x - p.x) * (r.y - p.y)
        let rr = (q.y - p.y) * (r.x - p.x)
        let det = l - rr
        // A generous bound on the rounding error of the determinant.
        let bound = 1e-12 * (abs(l) + abs(rr))
        if det > bound { return 1 }
        if det < -bound { return -1 }
        return nil
    }

    /// Whether segments ab and cd meet (beyond the corner neighbours share); `nil` when unsure.
    static func segmentsMeet(_ a: XY, _ b: XY, _ c: XY, _ d: XY, adjacent: Bool) -> Bool? {
        // Disjoint envelopes cannot meet.
        if max(a.x, b.x) < min(c.x, d.x) || max(c.x, d.x) < min(a.x, b.x)
            || max(a.y, b.y) < min(c.y, d.y) || max(c.y, d.y) < min(a.y, b.y)
        {
            return false
        }
        if adjacent {
            // Neighbours share one corner; they must not fold back onto each other. The corner
            // not shared must lie clearly off the other edge's line.
            let shared = (b == c || b == d) ? b : a
            let other1 = shared == a ? b : a
            let other2 = shared == c ? d : c
            guard orientation(shared, other1, other2) != nil else { return nil }
            return false
        }
        guard let o1 = orientation(a, b, c), let o2 = orientation(a, b, d),
            let o3 = orientation(c, d, a), let o4 = orientation(c, d, b)
        else { return nil }
        return o1 != o2 && o3 != o4
    }
}
