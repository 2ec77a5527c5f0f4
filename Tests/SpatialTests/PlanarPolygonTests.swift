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

    /// Every ring size the four-edge groups treat differently (fewer than four edges, exactly
    /// four, a last group that overlaps the one before), holes, several polygons, repeated
    /// vertices, and points a millimetre to a metre from an edge, where the nearest edge and
    /// the nearest vertex differ most: the distance is GEOS's to the bit, inside or not agrees.
    @Test(arguments: [3, 4, 5, 6, 7, 8, 9, 13, 40])
    func everyRingSizeNearItsEdges(edges: Int) throws {
        let context = try GEOSContext()
        var rng = SplitMix64(seed: UInt64(edges))
        var outer = Shapes.star(center: XY(0, 0), radius: 300, vertices: edges, using: &rng)
        // A hole with its own (different) number of edges, and a second polygon to the east.
        let hole = Array(Shapes.star(center: XY(0, 0), radius: 60, vertices: max(3, edges / 2), using: &rng).reversed())
        let east = Shapes.star(center: XY(1000, 0), radius: 200, vertices: edges + 1, using: &rng)
        if edges >= 5 { outer.insert(outer[2], at: 2) }  // a zero-length edge
        let shapes: [Shape] = [.polygon([outer]), .polygon([outer, hole]), .multiPolygon([[outer, hole], [east]])]
        for shape in shapes {
            let planar = try #require(PlanarPolygon(shape))
            let prepared = try PreparedGeometry(try Geometry(shape, context: context))
            let boundary = try PreparedGeometry(try Geometry(shape, context: context).boundary())
            let rings: [[XY]]
            switch shape {
            case .polygon(let r): rings = r
            case .multiPolygon(let p): rings = p.flatMap { $0 }
            default: rings = []
            }
            for _ in 0..<400 {
                // A point on a random edge, pushed off it by up to a metre either way.
                let ring = rings[Int(rng.next() % UInt64(rings.count))]
                let k = Int(rng.next() % UInt64(ring.count - 1))
                let (a, b) = (ring[k], ring[k + 1])
                let t = rng.nextUnitDouble()
                let push = (rng.nextUnitDouble() * 2 - 1) * pow(10, -3 * rng.nextUnitDouble())
                let length = max(1e-12, ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
                let p = XY(a.x + t * (b.x - a.x) - push * (b.y - a.y) / length, a.y + t * (b.y - a.y) + push * (b.x - a.x) / length)
                let distance = try boundary.distance(to: p)
                switch planar.locate(p) {
                case .inside(let d):
                    #expect(try prepared.intersects(p), "inside at \(p)")
                    #expect(d == distance, "distance to the boundary differs from GEOS at \(p)")
                case .outside(let d):
                    #expect(try !prepared.intersects(p), "outside at \(p)")
                    #expect(d == distance, "distance to the boundary differs from GEOS at \(p)")
                case .nearBoundary:
                    #expect(distance < 1e-6)
                }
            }
        }
    }

    /// Polygons appended one after another to shared storage (as the fence index lays them out)
    /// answer from their own range exactly as each polygon does alone; an open ring is closed; a
    /// polygon over the vertex limit, a line or an empty polygon appends nothing.
    @Test func sharedStorageAnswersAsEachPolygonAlone() throws {
        var rng = SplitMix64(seed: 5)
        let open = [XY(-50, -50), XY(50, -50), XY(50, 50), XY(-50, 50)]
        let shapes: [Shape] = [
            .polygon([Shapes.star(center: XY(0, 0), radius: 300, vertices: 9, using: &rng)]),
            Shapes.squareWithHole,
            .polygon([open]),
            .multiPolygon([[Shapes.star(center: XY(400, 0), radius: 100, vertices: 6, using: &rng)], [open]]),
        ]
        var xs: [Double] = [], ys: [Double] = []
        var places: [(start: Int, ends: [Int])] = []
        for shape in shapes {
            let start = xs.count
            let ends = try #require(PlanarPolygon.appendRings(of: shape, to: &xs, &ys))
            #expect(ends.last == xs.count && xs.count == ys.count)
            places.append((start, ends))
        }
        #expect(xs[places[2].ends[0] - 1] == -50 && ys[places[2].ends[0] - 1] == -50, "the open ring is closed")
        let before = xs.count
        #expect(PlanarPolygon.appendRings(of: shapes[0], to: &xs, &ys, limit: 9) == nil, "10 vertices, limit 9")
        #expect(PlanarPolygon.appendRings(of: .lineString(open), to: &xs, &ys) == nil)
        #expect(PlanarPolygon.appendRings(of: .polygon([]), to: &xs, &ys) == nil)
        #expect(xs.count == before && ys.count == before, "nothing appended")
        for (shape, place) in zip(shapes, places) {
            let planar = try #require(PlanarPolygon(shape))
            for _ in 0..<300 {
                let p = XY(rng.nextUnitDouble() * 1200 - 600, rng.nextUnitDouble() * 1200 - 600)
                let shared = xs.withUnsafeBufferPointer { xs in
                    ys.withUnsafeBufferPointer { ys in
                        place.ends.withUnsafeBufferPointer { ends in
                            PlanarPolygon.locate(p, xs: xs.baseAddress!, ys: ys.baseAddress!, start: place.start, ringEnds: ends)
                        }
                    }
                }
                switch planar.locate(p) {
                case .inside(let d): #expect(shared?.inside == true && shared?.boundaryDistance == d)
                case .outside(let d): #expect(shared?.inside == false && shared?.boundaryDistance == d)
                case .nearBoundary: #expect(shared == nil)
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
