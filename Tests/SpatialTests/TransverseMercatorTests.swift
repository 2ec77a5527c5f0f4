import Support
import Testing

@testable import Spatial

/// The transverse Mercator computed in Swift stands in for PROJ's only where it gives PROJ's
/// results bit for bit: tested against PROJ's whole pipeline (the oracle) over the globe, for
/// frames of several origins, scales, offsets and both ellipsoids it knows, and refused for
/// every PROJ string it does not fully understand.
@Suite struct TransverseMercatorTests {
    /// Frames of the kinds fencesim builds (``FrameDefinition/transverseMercator``) and users give.
    static let understood = [
        "+proj=tmerc +lat_0=37.75 +lon_0=-122.20 +k=1 +x_0=0 +y_0=0 +ellps=WGS84",
        FrameDefinition.transverseMercator(latitudeOfOrigin: -33.8688, centralMeridian: 151.2093).description,
        "+proj=tmerc +lat_0=0 +lon_0=9 +k=0.9996 +x_0=500000 +y_0=0 +ellps=GRS80 +units=m +no_defs",
        "+proj=tmerc +lat_0=-90 +lon_0=-179.5 +k_0=0.9999 +x_0=-1000.5 +y_0=10000000 +ellps=WGS84 +type=crs",
        "+proj=tmerc +lat_0=64.1 +lon_0=-21.9 +ellps=WGS84",
    ]

    @Test(arguments: understood)
    func givesPROJsBitsEverywhere(_ definition: String) throws {
        let frame = try MetricFrame(.projString(definition))
        #expect(frame.projectsNatively)
        var rng = SplitMix64(seed: 8)
        func uniform() -> Double { Double(rng.next() >> 11) / 9_007_199_254_740_992 }
        var points: [XY] = []
        // The whole globe, longitudes a little beyond ±180° among them, and the neighbourhood of
        // the frame's origin, where fences are.
        for _ in 0..<30_000 {
            points.append(XY(longitude: -185 + 370 * uniform(), latitude: -90 + 180 * uniform()))
        }
        let origin = frame.inverse(XY(0, 0))
        for _ in 0..<30_000 {
            points.append(XY(longitude: origin.x - 2 + 4 * uniform(), latitude: max(-90, min(90, origin.y - 2 + 4 * uniform()))))
        }
        points += [
            XY(longitude: origin.x, latitude: 90), XY(longitude: origin.x, latitude: -90), XY(longitude: origin.x + 90, latitude: 0),
        ]
        #expect(expectForwardIsPROJs(frame, at: points) > 50_000)
    }

    /// Strings with anything it does not reproduce go to PROJ (and still project as PROJ does).
    @Test(arguments: [
        "+proj=tmerc +lat_0=37.75 +lon_0=-122.2 +ellps=WGS84 +approx",
        "+proj=tmerc +lat_0=37.75 +lon_0=-122.2 +ellps=WGS84 +algo=evenden_snyder",
        "+proj=tmerc +lat_0=37.75 +lon_0=-122.2 +ellps=intl",
        "+proj=tmerc +lat_0=37.75 +lon_0=-122.2 +datum=WGS84",
        "+proj=tmerc +lat_0=37.75 +lon_0=-122.2",
        "+proj=tmerc +lat_0=37d45 +lon_0=-122.2 +ellps=WGS84",
        "+proj=tmerc +lat_0=3.775e1 +lon_0=-122.2 +ellps=WGS84",
        "+proj=tmerc +lat_0=37.75 +lon_0=-122.2 +k=1 +k_0=1 +ellps=WGS84",
        "+proj=tmerc +lat_0=37.75 +lat_0=37.8 +lon_0=-122.2 +ellps=WGS84",
        "+proj=tmerc +lat_0=37.75 +lon_0=-122.2 +ellps=WGS84 +axis=neu",
        "+proj=utm +zone=10 +ellps=WGS84",
    ])
    func leavesOtherStringsToPROJ(_ definition: String) throws {
        #expect(TransverseMercator(projString: definition) == nil)
        let frame = try MetricFrame(.projString(definition))
        #expect(!frame.projectsNatively)
        let p = XY(longitude: -122.3, latitude: 37.8)
        let mine = frame.forward(p)
        let theirs = frame.forwardThroughPipeline(p)
        #expect(mine.x.bitPattern == theirs.x.bitPattern && mine.y.bitPattern == theirs.y.bitPattern)
    }

    /// A CRS named rather than spelt out goes to PROJ whatever it is.
    @Test func namedCRSGoesToPROJ() throws {
        #expect(try !MetricFrame(.crs("EPSG:32610")).projectsNatively)
    }

    /// The check at construction refuses a projection that differs from PROJ's (here, on an
    /// ellipsoid a hair off WGS84's) and accepts the right one.
    @Test func refusesAProjectionThatDisagrees() throws {
        let definition = "+proj=tmerc +lat_0=37.75 +lon_0=-122.2 +k=1 +x_0=0 +y_0=0 +ellps=WGS84"
        let frame = try MetricFrame(.projString(definition))
        let right = try #require(TransverseMercator(projString: definition))
        let factor = 0.017453292519943295
        #expect(MetricFrame.agree(right, projection: frame.projectionForTests!, radiansPerDegree: factor))
        let off = TransverseMercator(
            a: 6_378_137.0, inverseFlattening: 298.257223564, latitudeOfOrigin: right.latitudeOfOrigin,
            centralMeridian: right.centralMeridian, scaleFactor: 1, falseEasting: 0, falseNorthing: 0)
        #expect(!MetricFrame.agree(off, projection: frame.projectionForTests!, radiansPerDegree: factor))
    }
}
