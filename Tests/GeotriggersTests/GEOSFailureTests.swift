import Fences
import Spatial
import Support
import Testing

@testable import Geotriggers

/// A fence test that GEOS cannot answer is a failure the replay reports (exit 70), not a fence
/// read as "outside" (issue 20).
@Suite struct GEOSFailureTests {
    @Test func aPolygonGEOSCannotBuildIsRecordedNotReadAsOutside() throws {
        let context = try GEOSContext()
        // A ring of two corners: GEOS refuses to build it.
        let shape = Shape.polygon([[XY(0, 0), XY(10, 10)]])
        let fence = Fence(
            index: 0, id: "broken", kind: .area, shape: shape, location: SourceLocation(file: "fences.geojson", line: 3, column: 5))
        let failures = CompiledFences.Failures()
        let area = CompiledFences.AreaFence(
            FenceIndex.AreaShape(shape),
            planar: .init(
                xs: UnsafePointer(bitPattern: 8)!, ys: UnsafePointer(bitPattern: 8)!, start: 0,
                ringEnds: UnsafeBufferPointer(start: nil, count: 0)),
            context: context, fences: [fence], fence: 0, failures: failures)
        _ = area.locateWithGEOS(XY(5, 5))
        let failure = try #require(failures.first)
        #expect(failure.code == .internalError)
        #expect(failure.message.contains("GEOS failed testing fence \"broken\""), "\(failure.message)")
        #expect(failure.location?.line == 3)
    }
}
