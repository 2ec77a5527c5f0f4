import Spatial
import Support
import Testing
import Traces

@testable import Accuracy

/// A truth visit's speed (``Accuracy/GroundTruth``'s `speed`) takes a short segment's length in
/// its tangent plane unless that could round otherwise: every speed must round to 0.1 m/s (half
/// away from zero, as bands, JSON and HTML round it) as the geodesic's own speed does, on
/// segments of any length and on speeds a hair either side of a half tenth.
@Suite struct TruthSpeedTests {
    static func fixes(_ latitude: Double, _ longitude: Double, metres: Double, azimuth: Double, seconds: Double) -> (Fix, Fix) {
        let t0 = Timestamp(seconds: 1_767_225_600)
        let end = Geodesic.wgs84.direct(latitude: latitude, longitude: longitude, azimuth: azimuth, distanceMeters: metres)
        return (
            Fix(time: t0, latitude: latitude, longitude: longitude),
            Fix(time: t0.adding(nanoseconds: Int64(seconds * 1e9)), latitude: end.latitude, longitude: end.longitude)
        )
    }

    static func geodesicSpeed(_ a: Fix, _ b: Fix) -> Double {
        let dt = b.time!.seconds(since: a.time!)
        return Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude) / dt
    }

    @Test(arguments: 0..<4 as Range<UInt64>)
    func roundsAsTheGeodesicSpeed(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x5BEE + seed)
        func uniform(_ lower: Double, _ upper: Double) -> Double { lower + (upper - lower) * Double(random.next() >> 11) / Double(1 << 53) }
        var nearHalf = 0
        for k in 0..<20_000 {
            let seconds = [1.0, 0.2, 5, 30][k % 4]
            let latitude = uniform(-88, 88)
            let longitude = uniform(-180, 180)
            var metres = uniform(0, 2_000) * seconds / 30
            if k % 2 == 0 {
                // A speed a hair from a half tenth, on either side.
                let tenths = (uniform(0, 600)).rounded(.down) + 0.5
                let hair = [1e-12, -1e-12, 1e-9, -1e-9, 3e-7, -3e-7, 1e-5, -1e-5][Int(random.next() % 8)]
                metres = (tenths + hair * tenths) / 10 * seconds
            }
            let (a, b) = Self.fixes(latitude, longitude, metres: metres, azimuth: uniform(-180, 180), seconds: seconds)
            let speed = try #require(GroundTruth.speed(a, b))
            let exact = Self.geodesicSpeed(a, b)
            let tenths = exact * 10
            if abs(tenths - tenths.rounded(.down) - 0.5) < 1e-4 { nearHalf += 1 }
            #expect((speed * 10).rounded() == (exact * 10).rounded(), "speed \(speed) against \(exact)")
            #expect(SpeedBand.label(for: speed) == SpeedBand.label(for: exact))
        }
        #expect(nearHalf > 1_000)
    }
}
