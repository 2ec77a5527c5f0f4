import Spatial
import Testing

@Suite("Boundary crossings of a segment")
struct CrossingTests {
    let context: GEOSContext
    init() throws { context = try GEOSContext() }

    func crossings(_ shape: Shape, _ a: XY, _ b: XY) throws -> [Crossing] {
        try Geometry(shape, context: context).crossings(from: a, to: b)
    }

    @Test("A segment through a square crosses twice, at the hand-computed fractions")
    func throughSquare() throws {
        // From (-5, 5) to (15, 5): length 20, enters at x = 0 (5/20), leaves at x = 10 (15/20).
        let result = try crossings(.polygon([Shapes.square]), XY(-5, 5), XY(15, 5))
        #expect(result == [Crossing(point: XY(0, 5), fraction: 0.25), Crossing(point: XY(10, 5), fraction: 0.75)])
        // Reversed, the same points in the other order.
        let back = try crossings(.polygon([Shapes.square]), XY(15, 5), XY(-5, 5))
        #expect(back == [Crossing(point: XY(10, 5), fraction: 0.25), Crossing(point: XY(0, 5), fraction: 0.75)])
    }

    @Test("A diagonal segment: fractions from the projection on the segment")
    func diagonal() throws {
        // From (-2, -1) to (8, 4) (direction (2, 1)): enters through the vertex (0, 0) at
        // t = 2/10 and ends inside, so one crossing, reported once although two edges meet there.
        let result = try crossings(.polygon([Shapes.square]), XY(-2, -1), XY(8, 4))
        #expect(result.count == 1)
        #expect(result.first?.point == XY(0, 0))
        #expect(abs((result.first?.fraction ?? -1) - 0.2) < 1e-15)
        // From (2, -3) to (5, 12) (direction (3, 15)): crosses y = 0 at t = 3/15 = 0.2 (x = 2.6)
        // and y = 10 at t = 13/15 (x = 4.6).
        let steep = try crossings(.polygon([Shapes.square]), XY(2, -3), XY(5, 12))
        #expect(steep.count == 2)
        #expect(abs(steep[0].fraction - 0.2) < 1e-15 && abs(steep[0].point.x - 2.6) < 1e-14 && steep[0].point.y == 0)
        #expect(abs(steep[1].fraction - 13.0 / 15.0) < 1e-15 && abs(steep[1].point.x - 4.6) < 1e-14 && steep[1].point.y == 10)
    }

    @Test("A segment through the hole crosses four times")
    func throughHole() throws {
        // y = 5 from x = -5 to x = 15: square edges at x = 0 and 10, hole edges at x = 4 and 6.
        let result = try crossings(Shapes.squareWithHole, XY(-5, 5), XY(15, 5))
        #expect(result.map(\.point) == [XY(0, 5), XY(4, 5), XY(6, 5), XY(10, 5)])
        #expect(result.map(\.fraction) == [0.25, 0.45, 0.55, 0.75])
    }

    @Test("A segment ending exactly on the boundary reports fraction 1")
    func endsOnBoundary() throws {
        let result = try crossings(.polygon([Shapes.square]), XY(5, 5), XY(10, 5))
        #expect(result == [Crossing(point: XY(10, 5), fraction: 1)])
        let starting = try crossings(.polygon([Shapes.square]), XY(0, 5), XY(-3, 5))
        #expect(starting == [Crossing(point: XY(0, 5), fraction: 0)])
    }

    @Test("A segment inside or outside without touching has no crossing")
    func none() throws {
        #expect(try crossings(.polygon([Shapes.square]), XY(1, 1), XY(9, 2)).isEmpty)
        #expect(try crossings(.polygon([Shapes.square]), XY(11, 1), XY(19, 2)).isEmpty)
        #expect(try crossings(Shapes.squareWithHole, XY(4.5, 4.5), XY(5.5, 5.5)).isEmpty)
    }

    @Test("A segment along an edge reports both ends of the shared stretch")
    func alongEdge() throws {
        // Along the bottom edge from x = -5 to x = 5: shares [0, 5] of the edge.
        let result = try crossings(.polygon([Shapes.square]), XY(-5, 0), XY(5, 0))
        #expect(result == [Crossing(point: XY(0, 0), fraction: 0.5), Crossing(point: XY(5, 0), fraction: 1)])
        // Along the whole bottom edge and beyond on both sides: ends at the two vertices.
        let beyond = try crossings(.polygon([Shapes.square]), XY(-5, 0), XY(15, 0))
        #expect(beyond == [Crossing(point: XY(0, 0), fraction: 0.25), Crossing(point: XY(10, 0), fraction: 0.75)])
    }

    @Test("A stretch along two collinear edges meeting at a vertex is reported as one stretch")
    func alongTwoEdges() throws {
        // The bottom side is split at (5, 0) into two collinear edges.
        let split = Shape.polygon([[XY(0, 0), XY(5, 0), XY(10, 0), XY(10, 10), XY(0, 10), XY(0, 0)]])
        let result = try crossings(split, XY(-5, 0), XY(15, 0))
        #expect(result.map(\.point) == [XY(0, 0), XY(10, 0)])
    }

    @Test("A line fence is crossed once")
    func lineFence() throws {
        let fence = Shape.lineString([XY(0, 0), XY(0, 100)])
        let result = try crossings(fence, XY(-30, 40), XY(10, 50))
        // x goes -30 → 10: x = 0 at t = 0.75, y = 40 + 0.75 × 10 = 47.5.
        #expect(result == [Crossing(point: XY(0, 47.5), fraction: 0.75)])
        // A segment that stops short does not cross.
        #expect(try crossings(fence, XY(-30, 40), XY(-1, 50)).isEmpty)
        // A multi-line fence is crossed once per line.
        let two = Shape.multiLineString([[XY(0, 0), XY(0, 100)], [XY(20, 0), XY(20, 100)]])
        #expect(try crossings(two, XY(-10, 10), XY(30, 10)).map(\.fraction) == [0.25, 0.75])
    }

    @Test("A multipolygon: crossings of every part, in order")
    func multiPolygon() throws {
        let far = [XY(20, 0), XY(30, 0), XY(30, 10), XY(20, 10), XY(20, 0)]
        let result = try crossings(.multiPolygon([[Shapes.square], [far]]), XY(-10, 5), XY(40, 5))
        #expect(result.map(\.point.x) == [0, 10, 20, 30])
        #expect(result.map(\.fraction) == [0.2, 0.4, 0.6, 0.8])
    }

    @Test("A zero-length segment on the boundary gives one crossing at fraction 0")
    func zeroLength() throws {
        let result = try crossings(.polygon([Shapes.square]), XY(10, 5), XY(10, 5))
        #expect(result == [Crossing(point: XY(10, 5), fraction: 0)])
        #expect(try crossings(.polygon([Shapes.square]), XY(5, 5), XY(5, 5)).isEmpty)
    }
}
