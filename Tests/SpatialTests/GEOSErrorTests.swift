import Spatial
import Testing

@Suite("GEOS errors and notices")
struct GEOSErrorTests {
    @Test(
        "Bad WKT throws GEOS's parse message",
        arguments: [
            "POLYGON((0 0, 1 0, 1 1",
            "POINT(1)",
            "NOT A GEOMETRY",
            "",
        ])
    func badWKT(text: String) throws {
        let context = try GEOSContext()
        let error = #expect(throws: SpatialError.self) { try Geometry(wkt: text, context: context) }
        #expect(error?.function == "GEOSWKTReader_read_r")
        #expect(error?.message.contains("ParseException") == true, "\(String(describing: error))")
    }

    @Test("An unclosed ring is refused with GEOS's reason")
    func unclosedRing() throws {
        let context = try GEOSContext()
        let open = Shape.polygon([[XY(0, 0), XY(1, 0), XY(1, 1), XY(0, 1)]])
        let error = #expect(throws: SpatialError.self) { try Geometry(open, context: context) }
        #expect(error?.function == "GEOSGeom_createLinearRing_r")
        #expect(error?.message == "IllegalArgumentException: Points of LinearRing do not form a closed linestring")
        // The same through WKT.
        let wktError = #expect(throws: SpatialError.self) {
            try Geometry(wkt: "POLYGON((0 0, 1 0, 1 1, 0 1))", context: context)
        }
        #expect(wktError?.message.contains("closed linestring") == true)
    }

    @Test("An unclosed hole is refused, and the shell made before it is freed")
    func unclosedHole() throws {
        let context = try GEOSContext()
        let shape = Shape.polygon([Shapes.square, [XY(4, 4), XY(4, 6), XY(6, 6)]])
        let error = #expect(throws: SpatialError.self) { try Geometry(shape, context: context) }
        #expect(error?.message.contains("closed linestring") == true)
    }

    @Test("A one-position line is refused; the message has no trailing newline")
    func onePositionLine() throws {
        let context = try GEOSContext()
        let error = #expect(throws: SpatialError.self) { try Geometry(.lineString([XY(1, 1)]), context: context) }
        #expect(error?.function == "GEOSGeom_createLineString_r")
        #expect(error?.message == "IllegalArgumentException: point array must contain 0 or >1 elements")
    }

    @Test("A bad part inside a multi-geometry frees the parts already made")
    func badPartInCollection() throws {
        let context = try GEOSContext()
        let shape = Shape.multiPolygon([[Shapes.square], [[XY(0, 0), XY(1, 0), XY(1, 1)]]])
        #expect(throws: SpatialError.self) { try Geometry(shape, context: context) }
        let nested = Shape.collection([.point(XY(1, 2)), .lineString([XY(0, 0)])])
        #expect(throws: SpatialError.self) { try Geometry(nested, context: context) }
    }

    @Test("An error message is reported once, not attributed to a later failure")
    func errorIsConsumed() throws {
        let context = try GEOSContext()
        let first = #expect(throws: SpatialError.self) { try Geometry(wkt: "POINT(", context: context) }
        let second = #expect(throws: SpatialError.self) { try Geometry(.lineString([XY(0, 0)]), context: context) }
        #expect(first?.message != second?.message)
        // And success in between leaves nothing behind.
        _ = try Geometry(wkt: "POINT(1 2)", context: context)
        #expect(try Geometry(wkt: "POINT(1 2)", context: context).typeName == "Point")
    }

    @Test("Invalid WKB throws GEOS's message")
    func badWKB() throws {
        let context = try GEOSContext()
        let error = #expect(throws: SpatialError.self) { try Geometry(wkb: [1, 2, 3], context: context) }
        #expect(error?.function == "GEOSWKBReader_read_r")
        #expect(error?.message.isEmpty == false)
        #expect(throws: SpatialError.self) { try Geometry(wkb: [], context: context) }
    }

    @Test("Validity notices are captured by the context and can be taken")
    func notices() throws {
        let context = try GEOSContext()
        let bowTie = try Geometry(Shapes.bowTie, context: context)
        #expect(try bowTie.isValid == false)
        let notices = context.takeNotices()
        #expect(notices.count == 1)
        #expect(notices.first?.hasPrefix("Self-intersection") == true, "\(notices)")
        #expect(notices.first?.contains("1 1") == true, "\(notices)")
        #expect(context.notices.isEmpty)
        #expect(try Geometry(Shapes.squareWithHole, context: context).isValid)
        #expect(context.notices.isEmpty)
    }

    @Test("Errors from a GeometryCollection boundary surface with GEOS's message")
    func unsupportedOperation() throws {
        let context = try GEOSContext()
        let mixed = try Geometry(.collection([.point(XY(0, 0)), .polygon([Shapes.square])]), context: context)
        let error = #expect(throws: SpatialError.self) { try mixed.boundary() }
        #expect(error?.function == "GEOSBoundary_r")
        #expect(error?.message.contains("GeometryCollection") == true, "\(String(describing: error))")
    }

    @Test("A GEOS exception from an operation on invalid input surfaces as a thrown error")
    func topologyException() throws {
        let context = try GEOSContext()
        let bowTie = try Geometry(Shapes.bowTie, context: context)
        let square = try Geometry(.polygon([[XY(0.5, 0), XY(1.5, 0), XY(1.5, 2), XY(0.5, 2), XY(0.5, 0)]]), context: context)
        let error = #expect(throws: SpatialError.self) { try bowTie.intersection(square) }
        #expect(error?.function == "GEOSIntersection_r")
        #expect(error?.message.contains("TopologyException") == true, "\(String(describing: error))")
        // The context keeps working afterwards.
        #expect(try bowTie.makeValid().intersection(square).area() > 0)
    }

    @Test("SpatialError describes itself as function: message")
    func description() {
        let error = SpatialError(function: "GEOSBuffer_r", message: "TopologyException: x")
        #expect(error.description == "GEOSBuffer_r: TopologyException: x")
    }
}
