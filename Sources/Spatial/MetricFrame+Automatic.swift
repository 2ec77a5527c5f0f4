import Foundation

extension MetricFrame {
    /// The largest scale error an automatic frame may have anywhere over the data (SPEC §1.4).
    public static let maximumAutomaticScaleError = 1e-4

    /// Why no automatic frame fits the data.
    public struct AutomaticFrameRefusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// The scale error the best transverse Mercator frame would have.
        public var scaleError: Double
        /// East–west extent of the data in kilometres (at its widest latitude).
        public var eastWestKilometers: Double
        public var description: String {
            "the data spans \(Int(eastWestKilometers.rounded())) km east–west; the best transverse Mercator frame would have a scale error of \(String(format: "%.2g", scaleError)) (limit \(MetricFrame.maximumAutomaticScaleError)); split the fences or pass --crs with a projection that suits them"
        }
    }

    /// Chooses a transverse Mercator frame for data inside `box` (WGS84 degrees, x = longitude):
    /// central meridian and origin at the box's centre, and a scale factor k₀ below 1 that
    /// balances the error between the central meridian (scale k₀) and the east and west edges, so
    /// that the scale error stays below ``maximumAutomaticScaleError`` everywhere in the box.
    ///
    /// Transverse Mercator is exact along its central meridian, so data may stretch any distance
    /// north–south; east–west the bound allows about ±127 km from the central meridian. Wider
    /// data is refused (not tiled): the error names `--crs`.
    ///
    /// - Returns: the frame definition and its largest scale error over the box.
    /// - Throws: ``AutomaticFrameRefusal`` when no frame meets the bound; ``SpatialError`` when
    ///   PROJ fails.
    public static func automaticDefinition(covering box: BoundingBox) throws -> (definition: FrameDefinition, scaleError: Double) {
        guard box.minX >= -180, box.maxX <= 180, box.minY >= -90, box.maxY <= 90 else {
            throw SpatialError(function: "automatic frame", message: "coordinates outside longitude [-180, 180] / latitude [-90, 90]")
        }
        let lat0 = Self.rounded((box.minY + box.maxY) / 2)
        let lon0 = Self.rounded((box.minX + box.maxX) / 2)
        let unit = try MetricFrame(.transverseMercator(latitudeOfOrigin: lat0, centralMeridian: lon0, scaleFactor: 1))
        // Scale grows with the distance from the central meridian, which is largest on the east
        // and west edges at the latitude nearest the equator: among the samples.
        var kMax = 1.0
        for p in scaleSamples(covering: box) {
            guard let k = unit.scaleFactor(at: p) else {
                throw SpatialError(function: "proj_factors", message: "cannot compute the scale at \(p.latitude), \(p.longitude)")
            }
            kMax = max(kMax, k)
        }
        // Scales in the box range over [k0, k0 * kMax]; k0 = 2 / (1 + kMax) centres them on 1.
        let k0 = 2 / (1 + kMax)
        let error = max(1 - k0, k0 * kMax - 1)
        guard error <= maximumAutomaticScaleError else {
            // The east–west extent is widest at the latitude nearest the equator.
            let widest = box.minY <= 0 && box.maxY >= 0 ? 0 : (box.minY > 0 ? box.minY : box.maxY)
            let km = Geodesic.wgs84.distance(latitude1: widest, longitude1: box.minX, latitude2: widest, longitude2: box.maxX) / 1000
            throw AutomaticFrameRefusal(scaleError: error, eastWestKilometers: km)
        }
        return (.transverseMercator(latitudeOfOrigin: lat0, centralMeridian: lon0, scaleFactor: Self.rounded(k0, digits: 9)), error)
    }

    /// Where a frame's scale is taken over `box` (WGS84 degrees, x = longitude): its corners,
    /// the middles of its edges, its centre, and where the box spans the equator, the equator at
    /// its west, middle and east. Conformal projections in common use have their extreme scales
    /// on the box's edges (transverse Mercator on the east and west edges nearest the equator,
    /// Mercator and conic projections on the north and south edges, or between the standard
    /// parallels).
    public static func scaleSamples(covering box: BoundingBox) -> [XY] {
        var latitudes = [box.minY, box.maxY, (box.minY + box.maxY) / 2]
        if box.minY < 0 && box.maxY > 0 { latitudes.append(0) }
        var samples: [XY] = []
        for lat in latitudes {
            for lon in [box.minX, box.maxX, (box.minX + box.maxX) / 2] { samples.append(XY(longitude: lon, latitude: lat)) }
        }
        return samples
    }

    /// The largest scale error of this frame over `box`, |k − 1| at the
    /// ``scaleSamples(covering:)``: what the automatic frame keeps within
    /// ``maximumAutomaticScaleError``, for a frame the user chose. `nil`, with the first sample
    /// PROJ cannot take the scale at, when the frame does not cover the box.
    public func scaleError(over box: BoundingBox) -> (error: Double?, failedAt: XY?) {
        var worst = 0.0
        for p in MetricFrame.scaleSamples(covering: box) {
            guard let k = scaleFactor(at: p) else { return (nil, p) }
            worst = max(worst, abs(k - 1))
        }
        return (worst, nil)
    }

    /// Rounds to a fixed number of decimals so that frame strings are short and identical on
    /// every machine.
    static func rounded(_ value: Double, digits: Int = 6) -> Double {
        let scale = pow(10.0, Double(digits))
        return (value * scale).rounded() / scale
    }
}
