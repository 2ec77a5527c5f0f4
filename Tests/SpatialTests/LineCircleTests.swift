import Testing

@testable import Spatial

/// `XY.lineCircleFractions`, the one segment–circle solution the engine and ground truth share.
@Suite struct LineCircleTests {
    @Test func aChordHasTwoFractionsNearerFirst() throws {
        // The x axis from -200 to 200 through a circle of radius 100 at the origin.
        let t = try #require(XY.lineCircleFractions(XY(-200, 0), XY(200, 0), center: XY(0, 0), radius: 100))
        #expect(t.near == 0.25)
        #expect(t.far == 0.75)
        let back = try #require(XY.lineCircleFractions(XY(200, 0), XY(-200, 0), center: XY(0, 0), radius: 100))
        #expect(back.near == 0.25 && back.far == 0.75)
    }

    @Test func aTangentLineTouchesOnce() throws {
        let t = try #require(XY.lineCircleFractions(XY(-100, 100), XY(100, 100), center: XY(0, 0), radius: 100))
        #expect(t.near == 0.5 && t.far == 0.5)
    }

    @Test func aMissAndAStillDeviceHaveNone() {
        #expect(XY.lineCircleFractions(XY(-100, 101), XY(100, 101), center: XY(0, 0), radius: 100) == nil)
        #expect(XY.lineCircleFractions(XY(5, 5), XY(5, 5), center: XY(0, 0), radius: 100) == nil)
    }

    @Test func fractionsBeyondTheSegmentAreGiven() throws {
        // The segment ends before the circle: both fractions lie past 1 (callers clamp or skip).
        let t = try #require(XY.lineCircleFractions(XY(-400, 0), XY(-300, 0), center: XY(0, 0), radius: 100))
        #expect(t.near == 3 && t.far == 5)
    }

    @Test func aSmallCircleFarAlongALongSegmentKeepsItsPrecision() throws {
        // A 1 mm circle at the far end of a 10 km segment: both fractions within a few ulps of
        // the exact 1 ∓ 1e-7 (10 km ∓ 1 mm).
        let t = try #require(XY.lineCircleFractions(XY(0, 0), XY(10_000, 0), center: XY(10_000, 0), radius: 0.001))
        #expect(abs(t.near - (1 - 1e-7)) < 1e-15)
        #expect(abs(t.far - (1 + 1e-7)) < 1e-15)
    }
}
