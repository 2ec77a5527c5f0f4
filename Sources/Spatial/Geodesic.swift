import CPROJ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Geodesics on the WGS84 ellipsoid through PROJ's `geod_*` routines (Karney's algorithms,
/// accurate to nanometres), for speeds, distances travelled and bearings.
///
/// A value type holding the ellipsoid's constants; it is `Sendable` because `geod_inverse` and
/// `geod_direct` only read it.
public struct Geodesic: Sendable {
    private var geodesic: geod_geodesic

    /// The WGS84 ellipsoid (a = 6378137 m, f = 1/298.257223563).
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257_223_563)

    /// An ellipsoid with the given equatorial radius (metres) and flattening.
    public init(equatorialRadius: Double, flattening: Double) {
        geodesic = geod_geodesic()
        geod_init(&geodesic, equatorialRadius, flattening)
    }

    /// The solution of the inverse problem between two points.
    public struct Inverse: Hashable, Sendable {
        /// Length of the geodesic in metres.
        public var distanceMeters: Double
        /// Azimuth at the first point, degrees clockwise from north in (-180, 180].
        public var initialAzimuth: Double
        /// Azimuth at the second point (forward direction), degrees.
        public var finalAzimuth: Double
    }

    /// Distance and azimuths from (`latitude1`, `longitude1`) to (`latitude2`, `longitude2`).
    ///
    /// See `geod_inverse` in PROJ's geodesic.h.
    public func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Inverse {
        var s12 = 0.0
        var azi1 = 0.0
        var azi2 = 0.0
        withUnsafePointer(to: geodesic) { g in
            geod_inverse(g, latitude1, longitude1, latitude2, longitude2, &s12, &azi1, &azi2)
        }
        return Inverse(distanceMeters: s12, initialAzimuth: azi1, finalAzimuth: azi2)
    }

    /// Geodesic distance in metres between two points.
    ///
    /// The same distance as ``inverse(latitude1:longitude1:latitude2:longitude2:)``'s: `geod_inverse`
    /// works it out the same way whether it is asked for the azimuths or not, and without them
    /// skips their two `atan2`s (a report asks for a speed at every truth visit's entry).
    public func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        var s12 = 0.0
        withUnsafePointer(to: geodesic) { g in
            geod_inverse(g, latitude1, longitude1, latitude2, longitude2, &s12, nil, nil)
        }
        return s12
    }

    /// The distance between two points at most ``shortLimit`` apart, measured in the plane
    /// tangent to the ellipsoid at their mid-latitude (its meridian and prime-vertical radii of
    /// curvature there), about a fiftieth of ``distance(latitude1:longitude1:latitude2:longitude2:)``'s
    /// cost; within ``shortRelativeError`` of it (a bound the tests check against
    /// `geod_inverse`). `nil` for points farther apart, within 5° of a pole, or more than 1°
    /// apart in longitude (across the antimeridian, say): ask `distance` then.
    public func shortDistance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double? {
        let degree = Double.pi / 180
        let mid = (latitude1 + latitude2) / 2
        let dLongitude = longitude2 - longitude1
        guard abs(latitude1) <= 85, abs(latitude2) <= 85, abs(dLongitude) <= 1, abs(latitude2 - latitude1) <= 1 else { return nil }
        // The ellipsoid's equatorial radius and first eccentricity squared, from PROJ's object.
        let a = geodesic.a
        let e2 = geodesic.f * (2 - geodesic.f)
        let sine = sin(mid * degree)
        let w2 = 1 - e2 * sine * sine
        let w = w2.squareRoot()
        let meridian = a * (1 - e2) / (w2 * w)
        let primeVertical = a / w
        let d = hypot(meridian * (latitude2 - latitude1) * degree, primeVertical * cos(mid * degree) * dLongitude * degree)
        return d <= Geodesic.shortLimit ? d : nil
    }

    /// The longest distance ``shortDistance(latitude1:longitude1:latitude2:longitude2:)`` gives, metres.
    public static let shortLimit = 1_000.0

    /// The largest relative error ``shortDistance(latitude1:longitude1:latitude2:longitude2:)``
    /// may have.
    public static let shortRelativeError = 1e-6

    /// The point reached from (`latitude`, `longitude`) after `distanceMeters` along `azimuth`
    /// (degrees clockwise from north). See `geod_direct`.
    public func direct(latitude: Double, longitude: Double, azimuth: Double, distanceMeters: Double) -> (
        latitude: Double, longitude: Double, azimuth: Double
    ) {
        var lat2 = 0.0
        var lon2 = 0.0
        var azi2 = 0.0
        withUnsafePointer(to: geodesic) { g in
            geod_direct(g, latitude, longitude, azimuth, distanceMeters, &lat2, &lon2, &azi2)
        }
        return (lat2, lon2, azi2)
    }
}
