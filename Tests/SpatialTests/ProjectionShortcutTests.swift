import Support
import Testing

@testable import Spatial

/// A `.projString` frame projects by multiplying by PROJ's own degree-to-radian factor and calling
/// the projection alone (or, for the first string, fencesim's own transverse Mercator): the
/// result must be the whole pipeline's, bit for bit.
@Suite struct ProjectionShortcutTests {
    @Test(arguments: [
        "+proj=tmerc +lat_0=37.75 +lon_0=-122.20 +k=1 +x_0=0 +y_0=0 +ellps=WGS84",
        "+proj=utm +zone=33 +datum=WGS84",
        "+proj=lcc +lat_1=33 +lat_2=45 +lat_0=39 +lon_0=-96 +x_0=0 +y_0=0 +datum=NAD83 +units=m",
        "+proj=stere +lat_0=90 +lat_ts=70 +lon_0=-45 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
        "+proj=aeqd +lat_0=51.5 +lon_0=-0.12 +ellps=GRS80",
        "+proj=merc +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
        "+proj=tmerc +lat_0=0 +lon_0=10 +k=0.9996 +x_0=500000 +y_0=0 +ellps=intl +approx",
    ])
    func theShortcutIsThePipeline(_ definition: String) throws {
        let frame = try MetricFrame(.projString(definition))
        var rng = SplitMix64(seed: 21)
        var points: [XY] = []
        for i in 0...72 {
            for j in 0...36 {
                points.append(XY(longitude: -180 + 5 * Double(i), latitude: -90 + 5 * Double(j)))
            }
        }
        for _ in 0..<20_000 {
            let u = Double(rng.next() >> 11) / 9_007_199_254_740_992
            let v = Double(rng.next() >> 11) / 9_007_199_254_740_992
            points.append(XY(longitude: -180 + 360 * u, latitude: -90 + 180 * v))
        }
        #expect(expectForwardIsPROJs(frame, at: points) > 1_000)
    }

    /// The frame keeps the last position it projected: a repeat gets the same bits, and a
    /// position that differs from the last in one coordinate only (by one bit of it) gets its
    /// own projection, not the kept one. Signed zeros are in the sequence too (the kept
    /// position is compared by its bits, so they are two positions).
    @Test func aRepeatedPositionIsProjectedOnce() throws {
        let frame = try MetricFrame(.projString("+proj=tmerc +lat_0=37.75 +lon_0=-122.20 +k=1 +x_0=0 +y_0=0 +ellps=WGS84"))
        let a = XY(longitude: -122.2068750, latitude: 37.7726567)
        let nextUp = XY(longitude: a.x, latitude: a.y.nextUp)
        let nextEast = XY(longitude: a.x.nextUp, latitude: a.y)
        let east = XY(longitude: a.x + 1e-7, latitude: a.y)
        let zero = XY(longitude: -122.2, latitude: 0.0)
        let negativeZero = XY(longitude: -122.2, latitude: -0.0)
        let sequence = [a, a, a, nextUp, nextUp, a, nextEast, a, east, east, a, zero, negativeZero, zero, negativeZero, negativeZero]
        #expect(expectForwardIsPROJs(frame, at: sequence) == sequence.count)
        // The neighbours really are other points of the frame (a kept projection would be a's).
        #expect(frame.forward(nextUp).y != frame.forward(a).y)
        #expect(frame.forward(east).x != frame.forward(a).x)
    }
}
