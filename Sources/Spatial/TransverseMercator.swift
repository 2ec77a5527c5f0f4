#if canImport(Glibc)
import CLinux
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sine and cosine of `x`, in one call where the C library has one.
@inline(__always)
func sineAndCosine(_ x: Double) -> (sin: Double, cos: Double) {
    #if canImport(Glibc)
    var s = 0.0
    var c = 0.0
    fencesim_sincos(x, &s, &c)
    return (s, c)
    #else
    return (sin(x), cos(x))
    #endif
}

/// The forward transverse Mercator projection on an ellipsoid, computed in Swift: the frames
/// fencesim chooses, and most `--crs` strings users give, are `+proj=tmerc` on WGS84, and PROJ's
/// per-point call cost more than the projection itself (about 1,160 instructions a point through
/// `proj_trans`, 280 of them PROJ's dispatch, unit and offset handling, on the 1.5 million points
/// of the large bench workload: 12 % of an event-log replay's instructions).
///
/// The method is Poder and Engsager's, as PROJ's default `tmerc` algorithm applies it: geodetic
/// latitude to Gaussian (conformal) latitude by a Clenshaw sum of sines, the spherical transverse
/// Mercator of the complementary sphere, then the Krüger series in the third flattening `n`
/// summed as a complex Clenshaw sum, to order n⁶ (K. E. Engsager and K. Poder, "A highly
/// accurate world wide algorithm for the transverse Mercator mapping (almost)", Proc. XXIII
/// International Cartographic Conference, 2007; C. F. F. Karney, "Transverse Mercator with an
/// accuracy of a few nanometers", J. Geodesy 85, 475–485, 2011, whose series these are).
///
/// The order of the arithmetic follows PROJ 9.1's (`src/projections/tmerc.cpp` for the
/// series and their sums, `src/ell_set.cpp` for the third flattening, `src/fwd.cpp` for the
/// input's range checks and longitude wrapping), read to give its results bit for bit.
///
/// ``MetricFrame`` uses it only for a PROJ string it fully understands (``init(projString:)``)
/// and only after checking that it gives PROJ's own results bit for bit at probe points around
/// the frame: PROJ stays the reference, and any configuration this does not reproduce (another
/// algorithm in `proj.ini`, another ellipsoid) goes through PROJ.
struct TransverseMercator: Sendable {
    /// The semi-major axis, metres.
    let semiMajorAxis: Double
    /// The latitude of origin and the central meridian, radians.
    let latitudeOfOrigin: Double
    let centralMeridian: Double
    let falseEasting: Double
    let falseNorthing: Double
    /// Geodetic to Gaussian latitude (a sum of sines of even multiples).
    let toGaussian: Series
    /// Gaussian to projected (the Krüger series of the forward mapping).
    let toProjected: Series
    /// The scale of the meridian arc: the scale factor times the rectifying radius over `a`.
    let arcScale: Double
    /// The northing of the latitude of origin, in units of `a`, negated.
    let originNorthing: Double

    /// The ellipsoids PROJ names that this recognises: semi-major axis and inverse flattening
    /// (PROJ's `ellps` list, from the definitions of WGS84 and GRS80).
    static let ellipsoids: [String: (a: Double, rf: Double)] = [
        "WGS84": (6_378_137.0, 298.257223563),
        "GRS80": (6_378_137.0, 298.257222101),
    ]

    /// The projection a PROJ string describes, when it is a plain transverse Mercator on a
    /// named ellipsoid: `+proj=tmerc` with any of `+lat_0`, `+lon_0`, `+k` (or `+k_0`), `+x_0`,
    /// `+y_0` as plain decimal numbers, `+ellps=WGS84` or `GRS80`, and optionally `+units=m`,
    /// `+no_defs`, `+type=crs`. Anything else (another parameter, a number PROJ would read in
    /// degrees-minutes-seconds, a repeated key) gives `nil`: PROJ projects it.
    init?(projString: String) {
        var values: [String: String] = [:]
        for token in projString.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            guard token.hasPrefix("+") else { return nil }
            let body = token.dropFirst()
            let parts = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0])
            let value = parts.count == 2 ? String(parts[1]) : ""
            guard values[key] == nil else { return nil }
            values[key] = value
        }
        guard values.removeValue(forKey: "proj") == "tmerc" else { return nil }
        if let units = values.removeValue(forKey: "units"), units != "m" { return nil }
        if let flag = values.removeValue(forKey: "no_defs"), !flag.isEmpty { return nil }
        if let type = values.removeValue(forKey: "type"), type != "crs" { return nil }
        guard let name = values.removeValue(forKey: "ellps"), let ellipsoid = TransverseMercator.ellipsoids[name] else { return nil }
        guard values["k"] == nil || values["k_0"] == nil else { return nil }
        var numbers: [String: Double] = [:]
        for (key, text) in values {
            guard ["lat_0", "lon_0", "k", "k_0", "x_0", "y_0"].contains(key), let value = TransverseMercator.plainDecimal(text) else {
                return nil
            }
            numbers[key] = value
        }
        // Angles as PROJ reads a plain number of degrees: one product with its degree.
        let degree = 0.017453292519943296
        self.init(
            a: ellipsoid.a, inverseFlattening: ellipsoid.rf, latitudeOfOrigin: (numbers["lat_0"] ?? 0) * degree,
            centralMeridian: (numbers["lon_0"] ?? 0) * degree, scaleFactor: numbers["k"] ?? numbers["k_0"] ?? 1,
            falseEasting: numbers["x_0"] ?? 0, falseNorthing: numbers["y_0"] ?? 0)
    }

    /// A plain decimal number (`-122.20`, `0`, `.5`), the only form read here; `nil` otherwise.
    static func plainDecimal(_ text: String) -> Double? {
        var digits = 0
        var points = 0
        for (k, c) in text.utf8.enumerated() {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if k != 0 { return nil }
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        return Double(text)
    }

    /// The projection on the ellipsoid of semi-major axis `a` and inverse flattening
    /// `inverseFlattening`, angles in radians.
    init(
        a: Double, inverseFlattening: Double, latitudeOfOrigin: Double, centralMeridian: Double, scaleFactor: Double,
        falseEasting: Double, falseNorthing: Double
    ) {
        semiMajorAxis = a
        self.latitudeOfOrigin = latitudeOfOrigin
        self.centralMeridian = centralMeridian
        self.falseEasting = falseEasting
        self.falseNorthing = falseNorthing
        // The third flattening n, by way of the squared eccentricity and the angular
        // eccentricity α = asin e: n = tan²(α/2), as PROJ derives it from an ellipsoid's
        // inverse flattening (the same value written another way can differ in its last bit,
        // and then so does one projected point in a few hundred).
        let flattening = 1 / inverseFlattening
        let eccentricitySquared = 2 * flattening - flattening * flattening
        let angularEccentricity = asin(sqrt(eccentricitySquared))
        let n = pow(tan(angularEccentricity / 2), 2)
        // Series coefficients in powers of n, each in Horner form (Engsager and Poder's table).
        var power = n
        var gaussian = [Double](repeating: 0, count: 6)
        gaussian[0] = n * (-2 + n * (2 / 3.0 + n * (4 / 3.0 + n * (-82 / 45.0 + n * (32 / 45.0 + n * (4642 / 4725.0))))))
        power *= n
        gaussian[1] = power * (5 / 3.0 + n * (-16 / 15.0 + n * (-13 / 9.0 + n * (904 / 315.0 + n * (-1522 / 945.0)))))
        power *= n
        gaussian[2] = power * (-26 / 15.0 + n * (34 / 21.0 + n * (8 / 5.0 + n * (-12686 / 2835.0))))
        power *= n
        gaussian[3] = power * (1237 / 630.0 + n * (-12 / 5.0 + n * (-24832 / 14175.0)))
        power *= n
        gaussian[4] = power * (-734 / 315.0 + n * (109598 / 31185.0))
        power *= n
        gaussian[5] = power * (444337 / 155925.0)
        toGaussian = Series(gaussian)

        let n2 = n * n
        arcScale = scaleFactor / (1 + n) * (1 + n2 * (1 / 4.0 + n2 * (1 / 64.0 + n2 / 256.0)))
        var projected = [Double](repeating: 0, count: 6)
        projected[0] = n * (0.5 + n * (-2 / 3.0 + n * (5 / 16.0 + n * (41 / 180.0 + n * (-127 / 288.0 + n * (7891 / 37800.0))))))
        projected[1] = n2 * (13 / 48.0 + n * (-3 / 5.0 + n * (557 / 1440.0 + n * (281 / 630.0 + n * (-1983433 / 1935360.0)))))
        power = n2 * n
        projected[2] = power * (61 / 240.0 + n * (-103 / 140.0 + n * (15061 / 26880.0 + n * (167603 / 181440.0))))
        power *= n
        projected[3] = power * (49561 / 161280.0 + n * (-179 / 168.0 + n * (6601661 / 7257600.0)))
        power *= n
        projected[4] = power * (34729 / 80640.0 + n * (-3418889 / 1995840.0))
        power *= n
        projected[5] = power * (212378941 / 319334400.0)
        toProjected = Series(projected)

        let origin = TransverseMercator.gaussianLatitude(
            toGaussian, latitudeOfOrigin, cos: cos(2 * latitudeOfOrigin), sin: sin(2 * latitudeOfOrigin))
        originNorthing = -arcScale * (origin + TransverseMercator.sineSum(toProjected, 2 * origin))
    }

    /// The six coefficients of a series, held inline (the projection is copied with its frame
    /// and must not retain anything).
    struct Series: Sendable {
        let c0, c1, c2, c3, c4, c5: Double

        init(_ c: [Double]) {
            (c0, c1, c2, c3, c4, c5) = (c[0], c[1], c[2], c[3], c[4], c[5])
        }
    }

    /// Gaussian latitude of geodetic latitude `phi` (radians), given cos 2φ and sin 2φ: φ plus
    /// the sum of c_k sin(2(k+1)φ), by Clenshaw's recurrence from the last term.
    @inline(__always)
    static func gaussianLatitude(_ c: Series, _ phi: Double, cos cos2: Double, sin sin2: Double) -> Double {
        phi + clenshaw(c, twiceCos: 2 * cos2) * sin2
    }

    /// The sum of c_k sin(2(k+1)x) over a real argument, for the origin's northing.
    static func sineSum(_ c: Series, _ twoX: Double) -> Double {
        sin(twoX) * clenshaw(c, twiceCos: 2 * cos(twoX))
    }

    /// Clenshaw's recurrence h_k = -h_{k+2} + 2 cos(2x) h_{k+1} + c_k, from c5 down to c0.
    @inline(__always)
    static func clenshaw(_ c: Series, twiceCos t: Double) -> Double {
        let h5 = c.c5
        let h4 = t * h5 + c.c4
        let h3 = -h5 + t * h4 + c.c3
        let h2 = -h4 + t * h3 + c.c2
        let h1 = -h3 + t * h2 + c.c1
        return -h2 + t * h1 + c.c0
    }

    /// The complex sum of c_k sin(2(k+1)z) for z = ξ + iη, given sin 2ξ, cos 2ξ, sinh 2η and
    /// cosh 2η (Clenshaw's recurrence on complex numbers): its real and imaginary parts.
    @inline(__always)
    static func complexSineSum(
        _ c: Series, sin sinR: Double, cos cosR: Double, sinh sinhI: Double, cosh coshI: Double
    ) -> (real: Double, imaginary: Double) {
        let r = 2 * cosR * coshI
        let i = -2 * sinR * sinhI
        var hr = c.c5
        var hi = 0.0
        var hr1 = 0.0
        var hi1 = 0.0
        @inline(__always) func step(_ ck: Double) {
            let hr2 = hr1
            let hi2 = hi1
            hr1 = hr
            hi1 = hi
            hr = -hr2 + r * hr1 - i * hi1 + ck
            hi = -hi2 + i * hr1 + r * hi1
        }
        step(c.c4)
        step(c.c3)
        step(c.c2)
        step(c.c1)
        step(c.c0)
        let sr = sinR * coshI
        let si = cosR * sinhI
        return (sr * hr - si * hi, sr * hi + si * hr)
    }

    /// Projects a position given in radians (x = longitude, y = latitude) to metres; non-finite
    /// coordinates where the projection is undefined (latitude beyond a pole, or too far from
    /// the central meridian for the series).
    @inline(__always)
    func forward(longitude: Double, latitude: Double) -> XY {
        // As PROJ takes its input: a latitude a hair beyond a pole is the pole, a longitude
        // more than ten radians from zero is refused, and the longitude, then its difference
        // from the central meridian, is brought within half a turn.
        if abs(latitude) - .pi / 2 > 1e-12 || longitude > 10 || longitude < -10 { return XY(.infinity, .infinity) }
        let phi = min(max(latitude, -.pi / 2), .pi / 2)
        var lambda = TransverseMercator.wrapped(longitude) - centralMeridian
        lambda = TransverseMercator.wrapped(lambda)
        let twoPhi = sineAndCosine(2 * phi)
        var xi = TransverseMercator.gaussianLatitude(toGaussian, phi, cos: twoPhi.cos, sin: twoPhi.sin)
        // The Gaussian sphere's transverse Mercator: the complementary spherical latitude and
        // the longitude's isometric value.
        let (sinXi, cosXi) = sineAndCosine(xi)
        let (sinLambda, cosLambda) = sineAndCosine(lambda)
        let cosXiCosLambda = cosXi * cosLambda
        xi = atan2(sinXi, cosXiCosLambda)
        let inverseDenominator = 1 / hypot(sinXi, cosXiCosLambda)
        let tanEta = sinLambda * cosXi * inverseDenominator
        var eta = asinh(tanEta)
        // sin 2ξ, cos 2ξ, sinh 2η and cosh 2η from the values above, without more trigonometry.
        let twiceInverse = 2 * inverseDenominator
        let twiceInverseSquared = twiceInverse * inverseDenominator
        let common = cosXiCosLambda * twiceInverseSquared
        let (dXi, dEta) = TransverseMercator.complexSineSum(
            toProjected, sin: sinXi * common, cos: cosXiCosLambda * common - 1, sinh: tanEta * twiceInverse,
            cosh: twiceInverseSquared - 1)
        xi += dXi
        eta += dEta
        guard abs(eta) <= 2.623395162778 else { return XY(.infinity, .infinity) }
        let northing = arcScale * xi + originNorthing
        let easting = arcScale * eta
        return XY(semiMajorAxis * easting + falseEasting, semiMajorAxis * northing + falseNorthing)
    }

    /// `lambda` itself when within half a turn (and a hair) of zero, else brought into
    /// [-π, π) as PROJ does: shifted by half a turn, whole turns removed, shifted back.
    @inline(__always)
    static func wrapped(_ lambda: Double) -> Double {
        if abs(lambda) < .pi + 1e-12 { return lambda }
        let turn = 2 * Double.pi
        var l = lambda + .pi
        l -= turn * (l / turn).rounded(.down)
        return l - .pi
    }
}
