import Spatial
import Support

/// Makes a timed trace from a route (SPEC §7 `synth`): a device moving along the route at a
/// constant speed reports a fix every `interval` seconds, with optional pauses at route vertices
/// and seeded position noise.
///
/// Like the ArcGIS simulated location source it walks the route at a set velocity, but the fixes
/// carry real timestamps `interval` apart (ArcGIS always stamps them 1 s apart) and positions
/// follow geodesics on the WGS84 ellipsoid. The last fix is at the end of the route.
public struct RouteSynthesizer: Sendable {
    /// Metres per second along the route.
    public var speed: Double
    /// Seconds between fixes.
    public var interval: Double
    /// Time of the first fix.
    public var start: Timestamp
    /// Standard deviation of Gaussian position noise, metres (0 for none).
    public var noiseMeters: Double
    /// The accuracy each fix reports, metres.
    public var accuracyMeters: Double
    /// Seed of the noise generator.
    public var seed: UInt64
    /// Seconds spent stopped at route vertices, by 0-based vertex index.
    public var pauses: [Int: Double]

    public init(
        speed: Double, interval: Double, start: Timestamp, noiseMeters: Double = 0, accuracyMeters: Double = 5, seed: UInt64 = 1,
        pauses: [Int: Double] = [:]
    ) {
        self.speed = speed
        self.interval = interval
        self.start = start
        self.noiseMeters = noiseMeters
        self.accuracyMeters = accuracyMeters
        self.seed = seed
        self.pauses = pauses
    }

    /// A stretch of the timeline: moving along a leg, or stopped at a vertex.
    struct Stretch {
        var from: Double
        var to: Double
        var origin: XY
        var azimuth: Double
        var moving: Bool
    }

    /// How many fixes ``fixes(along:)`` gives for `route`, without making them (a request of
    /// billions is refused before it is made).
    public func fixCount(along route: [XY]) -> Double {
        guard !route.isEmpty else { return 0 }
        return (timeline(along: route).end / interval).rounded(.down) + 2
    }

    /// Seconds from the first fix to the last: the time the route takes, pauses included.
    public func duration(along route: [XY]) -> Double {
        route.isEmpty ? 0 : timeline(along: route).end
    }

    /// The route as stretches of moving and pausing, and the time it takes, seconds.
    func timeline(along route: [XY]) -> (stretches: [Stretch], end: Double) {
        let geodesic = Geodesic.wgs84
        var timeline: [Stretch] = []
        var t = 0.0
        for k in route.indices {
            let here = route[k]
            var azimuth = timeline.last?.azimuth ?? 0
            var leg: Geodesic.Inverse?
            if k + 1 < route.count {
                let next = route[k + 1]
                let l = geodesic.inverse(
                    latitude1: here.latitude, longitude1: here.longitude, latitude2: next.latitude, longitude2: next.longitude)
                leg = l
                azimuth = l.initialAzimuth
            }
            if let pause = pauses[k], pause > 0 {
                timeline.append(Stretch(from: t, to: t + pause, origin: here, azimuth: azimuth, moving: false))
                t += pause
            }
            if let leg, leg.distanceMeters > 0 {
                let duration = leg.distanceMeters / speed
                timeline.append(Stretch(from: t, to: t + duration, origin: here, azimuth: leg.initialAzimuth, moving: true))
                t += duration
            }
        }
        return (timeline, t)
    }

    /// The fixes along `route` (WGS84 positions, x = longitude).
    ///
    /// - Complexity: O(duration / interval + route vertices).
    public func fixes(along route: [XY]) -> [Fix] {
        var out: [Fix] = []
        forEachFix(along: route) { out.append($0) }
        return out
    }

    /// Calls `body` with each fix along `route` in time order, as ``fixes(along:)`` lists them,
    /// holding none: a trace of any length costs the same memory.
    ///
    /// - Throws: what `body` throws, which stops the walk.
    /// - Complexity: O(duration / interval + route vertices).
    public func forEachFix<Failure: Error>(along route: [XY], _ body: (Fix) throws(Failure) -> Void) throws(Failure) {
        guard !route.isEmpty else { return }
        let geodesic = Geodesic.wgs84
        let (timeline, end) = self.timeline(along: route)
        var rng = SplitMix64(seed: seed)
        var stretch = 0
        var k = 0
        while true {
            var at = Double(k) * interval
            let last = at >= end - 1e-9
            if last { at = end }
            while stretch + 1 < timeline.count, timeline[stretch].to <= at { stretch += 1 }
            var latitude: Double
            var longitude: Double
            var course = 0.0
            var moving = false
            if let s = timeline.isEmpty ? nil : timeline[stretch] {
                let along = s.moving ? (min(at, s.to) - s.from) * speed : 0
                let p = geodesic.direct(
                    latitude: s.origin.latitude, longitude: s.origin.longitude, azimuth: s.azimuth, distanceMeters: along)
                latitude = p.latitude
                longitude = p.longitude
                course = s.moving ? p.azimuth : s.azimuth
                moving = s.moving && at < s.to
            } else {
                latitude = route[0].latitude
                longitude = route[0].longitude
            }
            if last, let final = route.last {
                latitude = final.latitude
                longitude = final.longitude
            }
            if noiseMeters > 0 {
                let north = geodesic.direct(
                    latitude: latitude, longitude: longitude, azimuth: 0, distanceMeters: rng.nextGaussian() * noiseMeters)
                let moved = geodesic.direct(
                    latitude: north.latitude, longitude: north.longitude, azimuth: 90, distanceMeters: rng.nextGaussian() * noiseMeters)
                latitude = moved.latitude
                longitude = moved.longitude
            }
            try body(
                Fix(
                    time: start.adding(seconds: at), latitude: latitude, longitude: longitude, accuracyMeters: accuracyMeters,
                    accuracySource: .reported, speedMetersPerSecond: moving ? speed : 0,
                    courseDegrees: (course + 360).truncatingRemainder(dividingBy: 360)))
            if last { break }
            k += 1
        }
    }
}
