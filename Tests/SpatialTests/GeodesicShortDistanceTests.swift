import Spatial
import Support
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// ``Spatial/Geodesic/shortDistance(latitude1:longitude1:latitude2:longitude2:)`` against
/// `geod_inverse` (``Spatial/Geodesic/distance(latitude1:longitude1:latitude2:longitude2:)``):
/// within ``Spatial/Geodesic/shortRelativeError`` wherever it answers, on pairs of points from
/// centimetres to its limit apart, at every latitude it takes and both sides of the antimeridian.
@Suite struct GeodesicShortDistanceTests {
    @Test(arguments: 0..<4 as Range<UInt64>)
    func withinItsBoundOfTheGeodesic(seed: UInt64) {
        var random = SplitMix64(seed: 0x6E0D + seed)
        func uniform(_ lower: Double, _ upper: Double) -> Double { lower + (upper - lower) * Double(random.next() >> 11) / Double(1 << 53) }
        let g = Geodesic.wgs84
        var worst = 0.0
        var answered = 0
        for _ in 0..<50_000 {
            let latitude = uniform(-85, 85)
            let longitude = uniform(-180, 180)
            // Distances on a log scale, 1 cm to 1.5 km, in any direction.
            let metres = 0.01 * pow(1.5e5, uniform(0, 1))
            let end = g.direct(latitude: latitude, longitude: longitude, azimuth: uniform(-180, 180), distanceMeters: metres)
            let exact = g.distance(latitude1: latitude, longitude1: longitude, latitude2: end.latitude, longitude2: end.longitude)
            guard
                let short = g.shortDistance(
                    latitude1: latitude, longitude1: longitude, latitude2: end.latitude, longitude2: end.longitude)
            else {
                // It declines only beyond its limit, near a pole, or across the antimeridian.
                #expect(exact > Geodesic.shortLimit * 0.999 || abs(end.latitude) > 85 || abs(end.longitude - longitude) > 1)
                continue
            }
            answered += 1
            worst = max(worst, abs(short - exact) / exact)
        }
        #expect(answered > 40_000)
        #expect(worst < Geodesic.shortRelativeError, "worst relative error \(worst)")
        // The bound is not slack by orders of magnitude: a looser one would hide a worse formula.
        #expect(worst > Geodesic.shortRelativeError / 1_000, "worst relative error \(worst)")
    }

    @Test func declinesWhatItCannotMeasure() {
        let g = Geodesic.wgs84
        #expect(g.shortDistance(latitude1: 89, longitude1: 0, latitude2: 89, longitude2: 0.001) == nil)
        #expect(g.shortDistance(latitude1: 0, longitude1: 179.9999, latitude2: 0, longitude2: -179.9999) == nil)
        #expect(g.shortDistance(latitude1: 0, longitude1: 0, latitude2: 0.02, longitude2: 0) == nil)  // 2.2 km
        #expect(g.shortDistance(latitude1: 47, longitude1: 8, latitude2: 47, longitude2: 8) == 0)
    }
}
