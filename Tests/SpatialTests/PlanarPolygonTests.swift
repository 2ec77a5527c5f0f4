import Foundation
import Spatial
import Support
import Testing

/// The arithmetic polygon used in the geotrigger hot path agrees with prepared GEOS polygons:
/// same inside/outside away from the boundary, same distances to the last bit.
@Suite("Planar polygons agree with GEOS")
struct PlanarPolygonTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func agreesWithPreparedGEOS(seed: UInt64) throws {
        let context = try GEOSContext()
        var rng = SplitMix64(seed: seed)
        for _ in 0..<30 {
            let outer = Shapes.star(center: XY(0, 0), radius: 300, vertices: 5 + Int(rng.next() % 36), using: &rng)
            let shape = Shape.polygon([outer])
            let planar = try #require(PlanarPolygon(shape))
            let prepared = try PreparedGeometry(try Geometry(shape, context: context))
            let boundary = try PreparedGeometry(try Geometry(shape, context: context).boundary())
            for _ in 0..<300 {
                let p = XY(rng.nextUnitDouble() * 1000 - 500, rng.nextUnitDouble() * 1000 - 500)
                let inside = try prepared.intersects(p)
                let distance = try boundary.distance(to: p)
                switch planar.locate(p) {
                case .inside(let d):
                    #expect(inside)
                    #expect(d == distance, "distance to the boundary differs from GEOS at \(p)")
                case .outside(let d):
                    #expect(!inside)
                    #expect(d == distance, "distance to the boundary differs from GEOS at \(p)")
                    #expect(d == (try prepared.distance(to: p)))
                case .nearBoundary:
                    #expect(distance < 1e-6)
                }
            }
        }
    }

    @Test func holesAndBoundaryPoints() throws {
        let planar = try #require(PlanarPolygon(Shapes.squareWithHole))
        guard case .outside(let d) = planar.locate(XY(5, 5)) else { Issue.record("the hole is outside"); return }
        #expect(d == 1)
        guard case .inside(let e) = planar.locate(XY(2, 5)) else { Issue.record("the ring is inside"); return }
        #expect(e == 2)
        // Points on an edge and on a vertex are too close to call: the caller asks GEOS.
        guard case .nearBoundary = planar.locate(XY(10, 3)) else { Issue.record("on an edge"); return }
        guard case .nearBoundary = planar.locate(XY(4, 4)) else { Issue.record("on a hole vertex"); return }
        #expect(PlanarPolygon(.lineString([XY(0, 0), XY(1, 1)])) == nil)
    }
}
