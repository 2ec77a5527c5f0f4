import Foundation
import Spatial
import Support
import Testing

/// The quick ring check only ever clears rings GEOS finds valid.
@Suite("Quick ring check is conservative")
struct RingCheckTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func neverClearsWhatGEOSRefuses(seed: UInt64) throws {
        let context = try GEOSContext()
        var rng = SplitMix64(seed: seed)
        var cleared = 0
        var stars = 0
        for k in 0..<400 {
            var ring: [XY]
            if k % 2 == 0 {
                // Star-shaped: simple, like most real fences.
                ring = Shapes.star(center: XY(0, 0), radius: 100, vertices: 5 + Int(rng.next() % 30), using: &rng)
                stars += 1
            } else {
                // Random vertices: often self-intersecting; sometimes repeated or collinear points.
                let n = 3 + Int(rng.next() % 8)
                ring = (0..<n).map { _ in XY(Double(rng.next() % 7), Double(rng.next() % 7)) }
                ring.append(ring[0])
            }
            let quick = RingCheck.isCertainlySimple(ring)
            let validity = try Geometry(.polygon([ring]), context: context).validity()
            if quick {
                cleared += 1
                #expect(validity.isValid, "cleared a ring GEOS finds invalid (\(validity.reason ?? "")): \(ring)")
            }
        }
        // It clears most simple rings, or it would not save the GEOS calls it exists for.
        #expect(cleared >= stars * 9 / 10)
    }

    /// Stars with two corners swapped usually cross themselves somewhere along the ring, often
    /// between edges far apart in the sweep's order: every such ring GEOS refuses is refused.
    @Test(arguments: [5, 6] as [UInt64])
    func findsCrossingsBetweenDistantEdges(seed: UInt64) throws {
        let context = try GEOSContext()
        var rng = SplitMix64(seed: seed)
        var invalid = 0
        for _ in 0..<300 {
            var ring = Shapes.star(center: XY(0, 0), radius: 100, vertices: 6 + Int(rng.next() % 60), using: &rng)
            let n = ring.count - 1
            let i = Int(rng.next() % UInt64(n - 1)) + 1
            let j = Int(rng.next() % UInt64(n - 1)) + 1
            ring.swapAt(i, j)
            guard try !Geometry(.polygon([ring]), context: context).validity().isValid else { continue }
            invalid += 1
            #expect(!RingCheck.isCertainlySimple(ring), "cleared a self-crossing ring: \(ring)")
        }
        #expect(invalid >= 100)
    }

    @Test func refusesDegenerateRings() {
        #expect(!RingCheck.isCertainlySimple([XY(0, 0), XY(1, 1), XY(0, 0)]))
        #expect(!RingCheck.isCertainlySimple([XY(0, 0), XY(1, 0), XY(2, 0), XY(0, 0)]))  // collinear
        #expect(!RingCheck.isCertainlySimple([XY(0, 0), XY(2, 2), XY(2, 0), XY(0, 2), XY(0, 0)]))  // bow-tie
        #expect(!RingCheck.isCertainlySimple([XY(0, 0), XY(1, 0), XY(1, 1), XY(0, 1)]))  // not closed
        #expect(RingCheck.isCertainlySimple([XY(0, 0), XY(1, 0), XY(1, 1), XY(0, 1), XY(0, 0)]))
    }
}
