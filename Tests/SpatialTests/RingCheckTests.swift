import Foundation
import Support
import Testing

@testable import Spatial

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

    /// The linear path: rings that turn once around the mean of their corners are cleared
    /// without the sweep; a pentagram, which sees its centre on the same side of every edge but
    /// turns twice, is not.
    @Test func starShapedRingsAreClearedInOnePass() throws {
        var rng = SplitMix64(seed: 7)
        var clearedInOnePass = 0
        for _ in 0..<200 {
            let ring = Shapes.star(center: XY(3_000, -2_000), radius: 250, vertices: 5 + Int(rng.next() % 36), using: &rng)
            if RingCheck.isCertainlyStarShaped(ring, edges: ring.count - 1) { clearedInOnePass += 1 }
        }
        #expect(clearedInOnePass >= 180)
        var pentagram = (0..<5).map { k in
            XY(100 * cos(Double(k * 2) * 2 * Double.pi / 5), 100 * sin(Double(k * 2) * 2 * Double.pi / 5))
        }
        pentagram.append(pentagram[0])
        #expect(!RingCheck.isCertainlyStarShaped(pentagram, edges: 5))
        #expect(!RingCheck.isCertainlySimple(pentagram))
        // Clockwise is as good as counter-clockwise.
        let square = [XY(0, 0), XY(0, 1), XY(1, 1), XY(1, 0), XY(0, 0)]
        #expect(RingCheck.isCertainlyStarShaped(square, edges: 4))
        // A comb is simple but not star-shaped about its mean: the sweep clears it.
        let comb = [
            XY(0, 0), XY(10, 0), XY(10, 10), XY(8, 10), XY(8, 2), XY(6, 2), XY(6, 10), XY(4, 10), XY(4, 2), XY(2, 2),
            XY(2, 10), XY(0, 10), XY(0, 0),
        ]
        #expect(!RingCheck.isCertainlyStarShaped(comb, edges: 12))
        #expect(RingCheck.isCertainlySimple(comb))
    }

    @Test func refusesDegenerateRings() {
        #expect(!RingCheck.isCertainlySimple([XY(0, 0), XY(1, 1), XY(0, 0)]))
        #expect(!RingCheck.isCertainlySimple([XY(0, 0), XY(1, 0), XY(2, 0), XY(0, 0)]))  // collinear
        #expect(!RingCheck.isCertainlySimple([XY(0, 0), XY(2, 2), XY(2, 0), XY(0, 2), XY(0, 0)]))  // bow-tie
        #expect(!RingCheck.isCertainlySimple([XY(0, 0), XY(1, 0), XY(1, 1), XY(0, 1)]))  // not closed
        #expect(RingCheck.isCertainlySimple([XY(0, 0), XY(1, 0), XY(1, 1), XY(0, 1), XY(0, 0)]))
    }
}
