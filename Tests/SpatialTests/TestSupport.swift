import Foundation
import Support
import Testing

@testable import Spatial

/// Shapes used across the suites, in metric coordinates.
enum Shapes {
    /// The 10 m square [0, 10] × [0, 10], counter-clockwise.
    static let square: [XY] = [XY(0, 0), XY(10, 0), XY(10, 10), XY(0, 10), XY(0, 0)]
    /// The hole [4, 6] × [4, 6], clockwise.
    static let hole: [XY] = [XY(4, 4), XY(4, 6), XY(6, 6), XY(6, 4), XY(4, 4)]
    // Shapes are computed rather than stored: valgrind cannot see Swift's tagged pointers to
    // indirect enum payloads held in globals and would report them as definitely lost.

    /// The square with the hole.
    static var squareWithHole: Shape { .polygon([square, hole]) }
    /// A bow-tie: its two edges cross at (1, 1).
    static var bowTie: Shape { .polygon([[XY(0, 0), XY(2, 2), XY(2, 0), XY(0, 2), XY(0, 0)]]) }

    /// A star-shaped simple polygon around `center`, like the bench fences.
    static func star(center: XY, radius: Double, vertices: Int, using rng: inout SplitMix64) -> [XY] {
        var ring: [XY] = []
        for k in 0..<vertices {
            let angle = 2 * Double.pi * Double(k) / Double(vertices)
            let r = radius * (0.5 + rng.nextUnitDouble())
            ring.append(XY(center.x + r * cos(angle), center.y + r * sin(angle)))
        }
        ring.append(ring[0])
        return ring
    }
}

/// Plain even–odd (ray casting) point in polygon over every ring: an independent check of GEOS.
func evenOddContains(_ rings: [[XY]], _ p: XY) -> Bool {
    var inside = false
    for ring in rings {
        for k in 0..<(ring.count - 1) {
            let a = ring[k], b = ring[k + 1]
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if p.x < x { inside.toggle() }
            }
        }
    }
    return inside
}

/// Distance from `p` to the segment `a`–`b`.
func segmentDistance(_ p: XY, _ a: XY, _ b: XY) -> Double {
    let dx = b.x - a.x, dy = b.y - a.y
    let len2 = dx * dx + dy * dy
    guard len2 > 0 else { return p.distance(to: a) }
    let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2))
    return p.distance(to: XY(a.x + t * dx, a.y + t * dy))
}

/// Distance from `p` to the nearest edge of any ring.
func boundaryDistance(_ rings: [[XY]], _ p: XY) -> Double {
    var d = Double.infinity
    for ring in rings {
        for k in 0..<(ring.count - 1) { d = min(d, segmentDistance(p, ring[k], ring[k + 1])) }
    }
    return d
}

extension SplitMix64 {
    /// A uniform double in [lo, hi).
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * nextUnitDouble() }
}

/// Expects `frame.forward` to give PROJ's whole pipeline's result bit for bit at each point PROJ
/// projects, and non-finite coordinates where PROJ cannot; returns how many points compared.
func expectForwardIsPROJs(_ frame: MetricFrame, at points: [XY]) -> Int {
    var compared = 0
    for p in points {
        let mine = frame.forward(p)
        let theirs = frame.forwardThroughPipeline(p)
        if theirs.x.isFinite, theirs.y.isFinite {
            #expect(
                mine.x.bitPattern == theirs.x.bitPattern && mine.y.bitPattern == theirs.y.bitPattern,
                "\(p.x), \(p.y): \(mine) against PROJ's \(theirs)")
            compared += 1
        } else {
            #expect(!(mine.x.isFinite && mine.y.isFinite), "\(p.x), \(p.y): \(mine) where PROJ cannot project")
        }
    }
    return compared
}
