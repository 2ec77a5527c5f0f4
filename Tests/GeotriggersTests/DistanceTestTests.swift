import Support
import Testing
@testable import Geotriggers

/// The hot path compares squared distances with the squared radius and takes the square root
/// only near the radius: its answer must be the square root's for every distance, including the
/// last few representable values on either side of the radius.
@Suite struct DistanceTestTests {
    @Test func agreesWithTheSquareRootEverywhere() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let limit = 1 + rng.nextUnitDouble() * 1000
            var d = limit
            // Walk a few ulps either side of the limit, then a few relative steps further out.
            for _ in 0..<4 { d = d.nextDown }
            for _ in 0..<9 {
                #expect(GeotriggerEngine.isWithin(d * d, limit) == ((d * d).squareRoot() <= limit), "d \(d) limit \(limit)")
                d = d.nextUp
            }
            let far = limit * (0.999_999 + 2e-6 * rng.nextUnitDouble())
            #expect(GeotriggerEngine.isWithin(far * far, limit) == ((far * far).squareRoot() <= limit))
            let squared = limit * limit
            for d2 in [squared.nextDown, squared, squared.nextUp] {
                #expect(GeotriggerEngine.isWithin(d2, limit) == (d2.squareRoot() <= limit), "d2 \(d2) limit \(limit)")
            }
        }
    }

    @Test func edgeValues() {
        #expect(GeotriggerEngine.isWithin(0, 0))
        #expect(!GeotriggerEngine.isWithin(1e-300, 0))
        #expect(!GeotriggerEngine.isWithin(0, -1), "a negative limit holds nothing")
        #expect(!GeotriggerEngine.isWithin(4, .nan))
        #expect(!GeotriggerEngine.isWithin(.nan, 10))
        #expect(GeotriggerEngine.isWithin(1e300, .infinity))
        #expect(!GeotriggerEngine.isWithin(.infinity, 1e300))
    }
}
