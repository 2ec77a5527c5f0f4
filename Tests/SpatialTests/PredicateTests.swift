import Foundation
import Spatial
import Support
import Testing

@Suite("Predicates, distances and constructive operations")
struct PredicateTests {
    let context: GEOSContext
    let polygon: Geometry
    let prepared: PreparedGeometry

    init() throws {
        context = try GEOSContext()
        polygon = try Geometry(Shapes.squareWithHole, context: context)
        prepared = try PreparedGeometry(polygon)
    }

    struct PointCase: CustomTestStringConvertible, Sendable {
        let name: String
        let point: XY
        let intersects: Bool
        let covers: Bool
        let contains: Bool
        let distance: Double
        var testDescription: String { name }
    }

    /// Hand-computed against the square [0, 10]² with the hole [4, 6]².
    static let pointCases: [PointCase] = [
        PointCase(name: "interior", point: XY(2, 2), intersects: true, covers: true, contains: true, distance: 0),
        PointCase(name: "inside the hole", point: XY(5, 5), intersects: false, covers: false, contains: false, distance: 1),
        PointCase(
            name: "inside the hole, off centre", point: XY(4.25, 5.5), intersects: false, covers: false, contains: false, distance: 0.25),
        PointCase(name: "outside", point: XY(13, 14), intersects: false, covers: false, contains: false, distance: 5),
        PointCase(name: "outside, beside an edge", point: XY(-2, 5), intersects: false, covers: false, contains: false, distance: 2),
        PointCase(name: "on the outer edge", point: XY(10, 3), intersects: true, covers: true, contains: false, distance: 0),
        PointCase(name: "on an outer vertex", point: XY(0, 0), intersects: true, covers: true, contains: false, distance: 0),
        PointCase(name: "on the hole's edge", point: XY(5, 6), intersects: true, covers: true, contains: false, distance: 0),
        PointCase(name: "on a hole vertex", point: XY(6, 4), intersects: true, covers: true, contains: false, distance: 0),
    ]

    @Test("Point predicates, plain and prepared", arguments: pointCases)
    func pointPredicates(c: PointCase) throws {
        let point = try Geometry(point: c.point, context: context)
        #expect(try polygon.intersects(point) == c.intersects)
        #expect(try polygon.covers(point) == c.covers)
        #expect(try polygon.contains(point) == c.contains)
        #expect(try polygon.distance(to: point) == c.distance)
        #expect(try prepared.intersects(c.point) == c.intersects)
        #expect(try prepared.covers(c.point) == c.covers)
        #expect(try prepared.contains(c.point) == c.contains)
        #expect(try prepared.intersects(point) == c.intersects)
        #expect(try prepared.covers(point) == c.covers)
        #expect(try prepared.contains(point) == c.contains)
        #expect(try prepared.distance(to: c.point) == c.distance)
        #expect(try prepared.isWithinDistance(c.distance, of: c.point))
        if c.distance > 0 {
            #expect(try !prepared.isWithinDistance(c.distance.nextDown, of: c.point))
        }
    }

    @Test("Prepared and unprepared agree on random points around a random polygon")
    func preparedAgrees() throws {
        var rng = SplitMix64(seed: 20260101)
        for round in 0..<20 {
            let shell = Shapes.star(center: XY(0, 0), radius: 100, vertices: 5 + round, using: &rng)
            let g = try Geometry(.polygon([shell]), context: context)
            let p = try PreparedGeometry(g)
            for _ in 0..<200 {
                let xy = XY(rng.uniform(-160, 160), rng.uniform(-160, 160))
                let point = try Geometry(point: xy, context: context)
                let accuracy = rng.uniform(0, 40)
                #expect(try p.intersects(xy) == g.intersects(point))
                #expect(try p.contains(xy) == g.contains(point))
                #expect(try p.covers(xy) == g.covers(point))
                #expect(try p.distance(to: xy) == g.distance(to: point))
                let within = try p.isWithinDistance(accuracy, of: xy)
                #expect(within == (try g.distance(to: point) <= accuracy))
                // The cheaper indexed distance gives the same answer (performance notes).
                #expect(within == (try p.distance(to: xy) <= accuracy))
            }
        }
    }

    @Test("PreparedGeometry.intersects agrees with even–odd point in polygon away from the boundary")
    func evenOddSanity() throws {
        var rng = SplitMix64(seed: 7)
        var checked = 0
        for round in 0..<30 {
            let shell = Shapes.star(center: XY(500, -200), radius: 300, vertices: 5 + round, using: &rng)
            let hole = Shapes.star(center: XY(500, -200), radius: 60, vertices: 6, using: &rng).reversed() as [XY]
            let rings = round.isMultiple(of: 2) ? [shell] : [shell, hole]
            let p = try PreparedGeometry(try Geometry(.polygon(rings), context: context))
            for _ in 0..<300 {
                let xy = XY(rng.uniform(0, 1000), rng.uniform(-700, 300))
                // Away from the boundary, where the two methods cannot differ by rounding.
                guard boundaryDistance(rings, xy) > 1e-6 else { continue }
                #expect(try p.intersects(xy) == evenOddContains(rings, xy), "\(xy) in round \(round)")
                checked += 1
            }
        }
        #expect(checked > 8000)
    }

    @Test("Distances between geometries")
    func distances() throws {
        let line = try Geometry(.lineString([XY(12, -5), XY(12, 20)]), context: context)
        #expect(try polygon.distance(to: line) == 2)
        let diagonal = try Geometry(point: XY(13, 14), context: context)
        #expect(try polygon.distance(to: diagonal) == 5)
        #expect(try prepared.intersects(line) == false)
        let crossing = try Geometry(.lineString([XY(-1, 1), XY(11, 1)]), context: context)
        #expect(try prepared.intersects(crossing))
        #expect(try !prepared.contains(crossing))
        let inner = try Geometry(.polygon([[XY(1, 1), XY(2, 1), XY(2, 2), XY(1, 1)]]), context: context)
        #expect(try prepared.contains(inner))
        #expect(try prepared.covers(inner))
    }

    @Test("A positive buffer of a square grows its area as the analytic formula says")
    func bufferGrows() throws {
        let square = try Geometry(.polygon([Shapes.square]), context: context)
        let d = 3.0
        let exact = 100 + 4 * 10 * d + Double.pi * d * d
        for segments in [8, 16, 64] {
            let area = try square.buffer(d, quadrantSegments: segments).area()
            // The quarter circles are inscribed polygons: the area is a little short of exact.
            let n = Double(4 * segments)
            let inscribed = 100 + 4 * 10 * d + 0.5 * n * d * d * sin(2 * Double.pi / n)
            #expect(area <= exact)
            #expect(abs(area - inscribed) < 1e-9, "\(segments) segments: \(area) vs \(inscribed)")
        }
    }

    @Test("A negative buffer shrinks; shrinking past the width gives an empty geometry")
    func bufferShrinks() throws {
        let square = try Geometry(.polygon([Shapes.square]), context: context)
        let shrunk = try square.buffer(-2)
        #expect(try shrunk.area() == 36)
        #expect(shrunk.boundingBox == BoundingBox(minX: 2, minY: 2, maxX: 8, maxY: 8))
        #expect(try square.buffer(-5.5).isEmpty)
        #expect(try square.buffer(-5.5).area() == 0)
    }

    @Test("Minimum width of a rectangle and a triangle")
    func minimumWidth() throws {
        let rectangle = try Geometry(.polygon([[XY(0, 0), XY(30, 0), XY(30, 7), XY(0, 7), XY(0, 0)]]), context: context)
        #expect(abs(try rectangle.minimumWidth() - 7) < 1e-12)
        // A 3-4-5 right triangle: its narrowest strip is the height onto the hypotenuse, 12/5.
        let triangle = try Geometry(.polygon([[XY(0, 0), XY(4, 0), XY(0, 3), XY(0, 0)]]), context: context)
        #expect(abs(try triangle.minimumWidth() - 2.4) < 1e-12)
        // A rotated rectangle: still its short side.
        let c = cos(0.3), s = sin(0.3)
        let rotated = [XY(0, 0), XY(30, 0), XY(30, 7), XY(0, 7), XY(0, 0)].map { XY(c * $0.x - s * $0.y, s * $0.x + c * $0.y) }
        #expect(abs(try Geometry(.polygon([rotated]), context: context).minimumWidth() - 7) < 1e-9)
    }

    @Test("Validity: a bow-tie reports a self-intersection at its crossing")
    func validityBowTie() throws {
        let bowTie = try Geometry(Shapes.bowTie, context: context)
        let validity = try bowTie.validity()
        #expect(!validity.isValid)
        #expect(validity.reason == "Self-intersection")
        #expect(validity.location == XY(1, 1))
        #expect(try polygon.validity() == Geometry.Validity(isValid: true, reason: nil, location: nil))
    }

    @Test(
        "Validity reasons for other invalid shapes",
        arguments: [
            ("POLYGON((0 0, 1 0, 0 0))", "Too few points in geometry component"),
            ("POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (20 20, 21 20, 21 21, 20 20))", "Hole lies outside shell"),
            ("POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (0 0, 5 0, 5 5, 0 0))", "Self-intersection"),
        ])
    func validityReasons(wkt: String, reason: String) throws {
        let g = try Geometry(wkt: wkt, context: context)
        let validity = try g.validity()
        #expect(!validity.isValid)
        #expect(validity.reason == reason)
        #expect(validity.location != nil)
    }

    @Test("A ring of three positions is built, then reported invalid")
    func threePositionRing() throws {
        let g = try Geometry(.polygon([[XY(0, 0), XY(1, 0), XY(0, 0)]]), context: context)
        #expect(try g.validity().reason == "Too few points in geometry component")
    }

    @Test("makeValid repairs a bow-tie into two triangles of the same area")
    func makeValid() throws {
        let bowTie = try Geometry(Shapes.bowTie, context: context)
        let repaired = try bowTie.makeValid()
        #expect(try repaired.validity().isValid)
        #expect(repaired.typeName == "MultiPolygon")
        #expect(abs(try repaired.area() - 2) < 1e-12)
        // Valid input comes back unchanged.
        #expect(try polygon.makeValid().normalized().isExactlyEqual(to: polygon.normalized()))
    }
}
