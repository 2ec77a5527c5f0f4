import Spatial
import Support
import Testing

@Suite("Shape ↔ GEOS, WKT and WKB round trips")
struct ShapeRoundTripTests {
    static let shapes = makeShapes()

    /// One shape of every kind (a function, so that the leak scenario builds its own copy).
    static func makeShapes() -> [Shape] {
        [
            .point(XY(1.5, -2.25)),
            .multiPoint([XY(0, 0), XY(1, 1), XY(-3.125, 7)]),
            .lineString([XY(0, 0), XY(1, 1), XY(2, 0)]),
            .multiLineString([[XY(0, 0), XY(1, 1)], [XY(5, 5), XY(6, 7), XY(8, 8)]]),
            .polygon([Shapes.square]),
            Shapes.squareWithHole,
            .multiPolygon([[Shapes.square, Shapes.hole], [[XY(20, 20), XY(30, 20), XY(30, 30), XY(20, 20)]]]),
            .collection([
                .point(XY(1, 2)),
                .lineString([XY(0, 0), XY(3, 4)]),
                Shapes.squareWithHole,
                .multiPoint([XY(9, 9)]),
            ]),
            // Coordinates that need all 17 significant digits, and metre-scale projected values.
            .lineString([XY(0.1, 1.0 / 3.0), XY(-122.41941550000001, 37.774929500000003), XY(0.30000000000000004, 123456789.12345679)]),
            .point(XY(-19330.565801762525, 2789.6477798898704)),
        ]
    }

    @Test("Shape → GEOS → Shape is exact", arguments: shapes)
    func geosRoundTrip(shape: Shape) throws {
        let context = try GEOSContext()
        let geometry = try Geometry(shape, context: context)
        #expect(try geometry.shape == shape)
        #expect(geometry.typeName == shape.typeName)
    }

    @Test("WKT out and back in is exact", arguments: shapes)
    func wktRoundTrip(shape: Shape) throws {
        let context = try GEOSContext()
        let geometry = try Geometry(shape, context: context)
        let text = try geometry.wkt()
        let back = try Geometry(wkt: text, context: context)
        #expect(try back.shape == shape, "\(text)")
        #expect(try back.isExactlyEqual(to: geometry))
    }

    @Test("WKB out and back in is exact", arguments: shapes)
    func wkbRoundTrip(shape: Shape) throws {
        let context = try GEOSContext()
        let geometry = try Geometry(shape, context: context)
        let bytes = try geometry.wkb()
        #expect(bytes.first == 1, "little-endian")
        let back = try Geometry(wkb: bytes, context: context)
        #expect(try back.shape == shape)
    }

    @Test("WKT keeps 17 decimals: tiny values are rounded, huge ones do not crash GEOS")
    func wktExtremes() throws {
        let context = try GEOSContext()
        let tiny = try Geometry(.point(XY(1e-300, 1.2345678901234567e-5)), context: context)
        #expect(try tiny.wkt() == "POINT (0 0.00001234567890123)")
        // GEOS 3.11.1's trimmed writer overflows a stack buffer (and aborts) from about 1e129.
        for value in [1e130, -1.7e308, 1e300] {
            let huge = try Geometry(.lineString([XY(value, 1), XY(0.5, 2)]), context: context)
            #expect(try Geometry(wkt: try huge.wkt(), context: context).shape == .lineString([XY(value, 1), XY(0.5, 2)]))
        }
        let infinite = try Geometry(.point(XY(.infinity, 1)), context: context)
        #expect(try infinite.wkt() == "POINT (Infinity 1)")
    }

    @Test("WKT text is short and trimmed")
    func wktText() throws {
        let context = try GEOSContext()
        #expect(try Geometry(.point(XY(1, 2)), context: context).wkt() == "POINT (1 2)")
        #expect(try Geometry(.lineString([XY(0.5, 0), XY(1, 2.25)]), context: context).wkt() == "LINESTRING (0.5 0, 1 2.25)")
    }

    @Test("Empty geometries read back as empty shapes")
    func empties() throws {
        let context = try GEOSContext()
        #expect(try Geometry(wkt: "POLYGON EMPTY", context: context).shape == .polygon([]))
        #expect(try Geometry(wkt: "MULTIPOLYGON EMPTY", context: context).shape == .multiPolygon([]))
        #expect(try Geometry(wkt: "LINESTRING EMPTY", context: context).shape == .lineString([]))
        #expect(try Geometry(wkt: "GEOMETRYCOLLECTION EMPTY", context: context).shape == .collection([]))
        // Shape has no empty point; it reads as an empty multi-point.
        #expect(try Geometry(wkt: "POINT EMPTY", context: context).shape == .multiPoint([]))
        #expect(try Geometry(.polygon([]), context: context).isEmpty)
        #expect(try Geometry(.multiPolygon([]), context: context).boundingBox == nil)
    }

    @Test("Bounding box, area, length, copy and normalisation")
    func measures() throws {
        let context = try GEOSContext()
        let g = try Geometry(Shapes.squareWithHole, context: context)
        #expect(g.boundingBox == BoundingBox(minX: 0, minY: 0, maxX: 10, maxY: 10))
        #expect(try g.area() == 96)
        #expect(try g.length() == 48)
        let copy = try g.copy()
        #expect(try copy.isExactlyEqual(to: g))
        // A ring started elsewhere and wound the other way normalises to the same geometry.
        let rotated = try Geometry(.polygon([[XY(10, 10), XY(10, 0), XY(0, 0), XY(0, 10), XY(10, 10)]]), context: context)
        let plain = try Geometry(.polygon([Shapes.square]), context: context)
        #expect(try !rotated.isExactlyEqual(to: plain))
        #expect(try rotated.normalized().isExactlyEqual(to: plain.normalized()))
        #expect(try rotated.isApproximatelyEqual(to: plain, tolerance: 0))
    }

    @Test("Shape helpers: positions, bounding box, mapPositions")
    func shapeHelpers() {
        let shape = Shape.collection([.point(XY(-1, 5)), Shapes.squareWithHole])
        #expect(shape.positions.count == 11)
        #expect(shape.boundingBox == BoundingBox(minX: -1, minY: 0, maxX: 10, maxY: 10))
        #expect(Shape.multiPoint([]).boundingBox == nil)
        let moved = shape.mapPositions { XY($0.x + 1, $0.y * 2) }
        #expect(moved.boundingBox == BoundingBox(minX: 0, minY: 0, maxX: 11, maxY: 20))
        // firstPosition finds what positions.first(where:) finds, in every kind of shape.
        let shapes: [Shape] = [
            .point(XY(3, 4)), .multiPoint([XY(1, 1), XY(7, 2)]), .lineString([XY(0, 0), XY(9, 9)]),
            .multiLineString([[XY(0, 0)], [XY(8, 1), XY(2, 2)]]), Shapes.squareWithHole,
            .multiPolygon([[Shapes.square], [[XY(20, 20), XY(30, 20), XY(20, 30), XY(20, 20)]]]), shape, .collection([]),
        ]
        for s in shapes {
            for predicate in [{ (p: XY) in p.x > 5 }, { $0.y == 10 }, { _ in false }, { _ in true }] {
                #expect(s.firstPosition(where: predicate) == s.positions.first(where: predicate))
            }
            #expect(s.boundingBox == BoundingBox(points: s.positions))
        }
    }
}

@Suite("GeoJSON geometries")
struct GeoJSONTests {
    func read(_ text: String) throws -> Shape {
        let source = SourceText(file: "fences.geojson", bytes: Array(text.utf8))
        return try Shape(geoJSON: try JSONParser.parse(source), source: source)
    }

    @Test("Every kind reads and writes back to the same shape", arguments: ShapeRoundTripTests.shapes)
    func roundTrip(shape: Shape) throws {
        let text = JSONWriter.string(shape.geoJSON)
        #expect(try read(text) == shape, "\(text)")
    }

    @Test("Reading a polygon with a hole")
    func polygonWithHole() throws {
        let text = """
            {"type": "Polygon", "coordinates": [
              [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]],
              [[4, 4], [4, 6], [6, 6], [6, 4], [4, 4]]
            ]}
            """
        #expect(try read(text) == Shapes.squareWithHole)
        // Extra members and a third coordinate are accepted; the third is dropped.
        #expect(try read(#"{"bbox": [0, 0, 1, 1], "type": "Point", "coordinates": [1, 2, 30.5]}"#) == .point(XY(1, 2)))
    }

    @Test("Writing a point gives the GeoJSON text")
    func writing() {
        #expect(JSONWriter.string(Shape.point(XY(-122.2, 37.75)).geoJSON) == #"{"type":"Point","coordinates":[-122.2,37.75]}"#)
        #expect(JSONWriter.string(Shape.collection([]).geoJSON) == #"{"type":"GeometryCollection","geometries":[]}"#)
    }

    struct BadCase: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { name }
    }

    static let badCases: [BadCase] = [
        BadCase(
            name: "unclosed ring",
            text: """
                {"type": "Polygon",
                 "coordinates": [
                   [[0, 0], [1, 0], [1, 1], [0, 1]]
                 ]}
                """, line: 3, column: 4, message: "polygon exterior ring is not closed"),
        BadCase(
            name: "unclosed hole",
            text: """
                {"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 0]],
                  [[4, 4], [4, 6], [6, 6], [6, 5]]]}
                """, line: 2, column: 3, message: "polygon hole 1 is not closed"),
        BadCase(
            name: "ring with too few positions",
            text: """
                {"type": "MultiPolygon", "coordinates": [[
                  [[0, 0], [1, 0], [0, 0]]]]}
                """, line: 2, column: 3, message: "polygon exterior ring has 3 positions; a closed ring needs at least 4"),
        BadCase(
            name: "line with one position",
            text: """
                {"type": "LineString",
                  "coordinates": [[0, 0]]}
                """, line: 2, column: 18, message: "a LineString needs at least two positions, found 1"),
        BadCase(
            name: "position with one number",
            text: """
                {"type": "Point", "coordinates": [5]}
                """, line: 1, column: 34, message: "a position needs at least two numbers"),
        BadCase(
            name: "non-number coordinate",
            text: """
                {"type": "LineString", "coordinates": [[0, 0],
                  [1, "2"]]}
                """, line: 2, column: 7, message: "a coordinate must be a number, found a string"),
        BadCase(
            name: "null coordinate",
            text: """
                {"type": "Point", "coordinates": [1, null]}
                """, line: 1, column: 38, message: "a coordinate must be a number, found null"),
        BadCase(
            name: "unknown type",
            text: """
                {
                  "type": "Circle", "coordinates": [0, 0]}
                """, line: 2, column: 11, message: "unknown geometry type \"Circle\""),
        BadCase(
            name: "type not a string",
            text: """
                {"type": 7, "coordinates": [0, 0]}
                """, line: 1, column: 10, message: "geometry \"type\" must be a string"),
        BadCase(
            name: "missing coordinates",
            text: """
                {"type": "Polygon"}
                """, line: 1, column: 1, message: "Polygon has no \"coordinates\""),
        BadCase(
            name: "coordinates not an array",
            text: """
                {"type": "MultiPoint", "coordinates": {"x": 1}}
                """, line: 1, column: 39, message: "coordinates must be an array, found an object"),
        BadCase(
            name: "collection without geometries",
            text: """
                {"type": "GeometryCollection"}
                """, line: 1, column: 1, message: "GeometryCollection needs a \"geometries\" array"),
        BadCase(
            name: "bad member of a collection",
            text: """
                {"type": "GeometryCollection", "geometries": [
                  {"type": "Point", "coordinates": [0, 0]},
                  {"type": "Pointy", "coordinates": [0, 0]}]}
                """, line: 3, column: 12, message: "unknown geometry type \"Pointy\""),
        BadCase(
            name: "geometry not an object", text: "[1, 2]", line: 1, column: 1, message: "a geometry must be an object, found an array"),
        BadCase(
            name: "empty polygon", text: #"{"type": "Polygon", "coordinates": []}"#, line: 1, column: 36,
            message: "a Polygon needs at least one ring"),
    ]

    @Test("Structural errors are located by line and column", arguments: badCases)
    func located(bad: BadCase) throws {
        let error = #expect(throws: FencesimError.self) { try read(bad.text) }
        #expect(error?.code == .badData)
        #expect(error?.location?.file == "fences.geojson")
        #expect(error?.location?.line == bad.line, "\(String(describing: error))")
        #expect(error?.location?.column == bad.column, "\(String(describing: error))")
        #expect(error?.message.contains(bad.message) == true, "\(String(describing: error))")
    }
}
