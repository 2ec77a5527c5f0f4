extension RingCheck {
    /// What ``crossings(of:limit:pairBudget:)`` found.
    public enum CrossingCount: Hashable, Sendable {
        /// Every pair of edges was tested: this many meet.
        case exactly(Int)
        /// More than the limit meet; counting stopped there.
        case moreThan(Int)
        /// The pair budget ran out before the count finished (edges whose extents overlap
        /// without meeting, in the millions).
        case pairBudgetSpent(Int)
    }

    /// Counts the pairs of edges of `rings` that meet, other than neighbours of one ring at
    /// their shared corner, stopping as soon as the count passes `limit` or `pairBudget` pairs
    /// whose x ranges overlap have been tested. A pair too close to call counts as meeting.
    ///
    /// This bounds a repair before it is tried: GEOS's make-valid nodes every crossing, and its
    /// time grows faster than their number (a 200-vertex star of 17,000 crossings took 46 s),
    /// while this count stops at the limit.
    ///
    /// - Parameter rings: closed rings (first position equal to the last), of any number of
    ///   polygons: crossings between rings count too.
    /// - Complexity: O(n log n) for n edges, plus at most `pairBudget` pair tests.
    public static func crossings(of rings: [[XY]], limit: Int, pairBudget: Int) -> CrossingCount {
        struct Edge {
            var minX: Double
            var maxX: Double
            var a: XY
            var b: XY
            /// Which ring, and the edge's position in it, for telling neighbours.
            var ring: Int
            var index: Int
        }
        var edges: [Edge] = []
        edges.reserveCapacity(rings.reduce(0) { $0 + $1.count })
        var ringEdges: [Int] = []
        for (r, ring) in rings.enumerated() {
            // A repeated position is no edge (GEOS takes it for valid); dropping it keeps the
            // edges on either side neighbours.
            var count = 0
            var previous: XY?
            for p in ring {
                defer { previous = p }
                guard let a = previous, a != p else { continue }
                edges.append(Edge(minX: min(a.x, p.x), maxX: max(a.x, p.x), a: a, b: p, ring: r, index: count))
                count += 1
            }
            ringEdges.append(count)
        }
        edges.sort { $0.minX < $1.minX }
        var found = 0
        var tested = 0
        for s in edges.indices {
            let e = edges[s]
            var t = s + 1
            while t < edges.count, edges[t].minX <= e.maxX {
                let f = edges[t]
                t += 1
                tested += 1
                if tested > pairBudget { return .pairBudgetSpent(pairBudget) }
                var adjacent = false
                if e.ring == f.ring {
                    let n = ringEdges[e.ring]
                    let gap = abs(e.index - f.index)
                    adjacent = gap == 1 || gap == n - 1
                }
                if segmentsMeet(e.a, e.b, f.a, f.b, adjacent: adjacent) ?? true {
                    found += 1
                    if found > limit { return .moreThan(limit) }
                }
            }
        }
        return .exactly(found)
    }
}
