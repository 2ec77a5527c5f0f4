import Testing

@testable import Geotriggers

/// An event's distance is the millimetre the log writes. A fence's test may hand its own
/// measure to the event only when every distance within the measure's error has that
/// millimetre (`GeotriggerEvent.millimetres(_:within:)`); the oracle differential tests check
/// the engine's distances against GEOS's.
@Suite struct EventDistanceTests {
    @Test func anExactMeasureIsRounded() {
        #expect(GeotriggerEvent.millimetres(12.3454, within: 0) == 12.345)
        #expect(GeotriggerEvent.millimetres(-0.0004, within: 0)?.bitPattern == (-0.0).bitPattern)
    }

    @Test func aRoughMeasureSettlesAMillimetreFarFromItsEdges() {
        #expect(GeotriggerEvent.millimetres(12.3452, within: 1e-9) == 12.345)
        #expect(GeotriggerEvent.millimetres(-7.0001, within: 1e-6) == -7.0)
    }

    @Test func aRoughMeasureNearAnEdgeIsMeasuredAgain() {
        // 12.3455 rounds up, 12.3455 - 1e-9 down: the exact distance could be either.
        #expect(GeotriggerEvent.millimetres(12.3455, within: 1e-9) == nil)
        #expect(GeotriggerEvent.millimetres(12.34549_99995, within: 1e-9) == nil)
        // Inside or outside by a hair: the sign of zero is in doubt.
        #expect(GeotriggerEvent.millimetres(1e-10, within: 1e-9) == nil)
        #expect(GeotriggerEvent.millimetres(.nan, within: 0) == nil)
        #expect(GeotriggerEvent.millimetres(1, within: .infinity) == nil)
    }
}
