import Spatial
import Support
import Testing
import XCTest

/// A small pass over every kind of GEOS and PROJ object, success and failure paths, for running
/// under valgrind (`make leakcheck`). It checks its answers too, so it is an ordinary test as well.
///
/// It is written without `#expect` so that it can also run as an XCTest case: valgrind 3.19
/// (Debian 12) crashes on the Swift Testing entry point, whose async main parks the main thread
/// in libdispatch's `sigsuspend` on a signal mask in read-only memory, which valgrind writes to
/// ("VALGRIND INTERNAL ERROR: Valgrind received a signal 11"). The XCTest entry point is
/// synchronous and runs under valgrind.
enum LeakScenario {
    struct WrongAnswer: Error, CustomStringConvertible {
        let description: String
    }

    static func check(_ condition: Bool, _ what: @autoclosure () -> String, line: Int = #line) throws {
        if !condition { throw WrongAnswer(description: "LeakScenarioTests.swift:\(line): \(what())") }
    }

    static func run() throws {
        for round in 0..<3 {
            let context = try GEOSContext()
            // Shapes of every kind, through WKT and WKB.
            for shape in ShapeRoundTripTests.makeShapes() {
                let g = try Geometry(shape, context: context)
                try check(try Geometry(wkt: try g.wkt(), context: context).shape == shape, "WKT round trip of \(shape)")
                try check(try Geometry(wkb: try g.wkb(), context: context).shape == shape, "WKB round trip of \(shape)")
                _ = g.typeName
                _ = g.boundingBox
            }
            // Failures that give GEOS objects back or keep them.
            _ = try? Geometry(.polygon([Shapes.square, [XY(4, 4), XY(4, 6), XY(6, 6)]]), context: context)
            _ = try? Geometry(.multiPolygon([[Shapes.square], [[XY(0, 0), XY(1, 0), XY(1, 1)]]]), context: context)
            _ = try? Geometry(.lineString([XY(0, 0)]), context: context)
            _ = try? Geometry(wkt: "POLYGON((0 0, 1 0, 1 1, 0 1))", context: context)
            _ = try? Geometry(wkb: [1, 3, 0, 0, 0, 9], context: context)
            // Operations that return new geometries and strings.
            let polygon = try Geometry(Shapes.squareWithHole, context: context)
            let bowTie = try Geometry(Shapes.bowTie, context: context)
            try check(try bowTie.validity().reason == "Self-intersection", "validity reason")
            try check(try !bowTie.isValid, "bow-tie is invalid")
            try check(context.takeNotices().count == 1, "one notice")
            _ = try bowTie.makeValid()
            _ = try polygon.buffer(2).area()
            _ = try polygon.buffer(-6).isEmpty
            _ = try polygon.minimumWidth()
            _ = try polygon.normalized()
            _ = try polygon.crossings(from: XY(-5, 5), to: XY(15, 5))
            _ = try polygon.isApproximatelyEqual(to: polygon.copy(), tolerance: 0)
            _ = try? Geometry(.collection([.point(XY(0, 0)), Shapes.squareWithHole]), context: context).boundary()
            // Prepared geometries and a tree.
            let prepared = try PreparedGeometry(polygon)
            for k in 0..<50 {
                let xy = XY(Double(k % 12), Double(k / 4))
                _ = try prepared.intersects(xy)
                _ = try prepared.contains(xy)
                _ = try prepared.covers(xy)
                _ = try prepared.distance(to: xy)
                _ = try prepared.isWithinDistance(1, of: xy)
            }
            let tree = try STRtree(context: context)
            for k in 0..<200 { try tree.insert(BoundingBox(minX: Double(k), minY: 0, maxX: Double(k) + 2, maxY: 1)) }
            try check(try tree.query(BoundingBox(minX: 10, minY: 0, maxX: 10, maxY: 0)) == [8, 9, 10], "tree query")
            // Frames, good and bad.
            let frame = try MetricFrame(.projString(benchProjection))
            var points = [XY(longitude: -122.2, latitude: 37.75), XY(longitude: -122.3, latitude: 37.8)]
            try frame.forward(&points)
            try frame.inverse(&points)
            _ = frame.scaleFactor(at: XY(longitude: -122.2, latitude: 37.75))
            var bad = [XY(longitude: -122.2, latitude: 95)]
            _ = try? frame.forward(&bad)
            _ = try MetricFrame(.crs("EPSG:32633"))
            _ = try MetricFrame(try MetricFrame.automaticDefinition(covering: MetricFrameTests.benchBox).definition)
            for text in ["EPSG:999999", "EPSG:4326", "+proj=foo", "+proj=longlat", "EPSG:2227"] {
                _ = try? MetricFrame(FrameDefinition(parsing: text))
            }
            _ = try? MetricFrame.automaticDefinition(covering: BoundingBox(minX: 10, minY: 45, maxX: 17.6, maxY: 46))
            _ = Geodesic.wgs84.distance(latitude1: 0, longitude1: 0, latitude2: 1, longitude2: Double(round))
        }
    }
}

@Suite("Leak scenario")
struct LeakScenarioTests {
    @Test("Every object kind, made and freed, including failure paths")
    func leakScenario() throws {
        try LeakScenario.run()
    }
}

/// The same scenario as an XCTest case, for valgrind (see ``LeakScenario``):
/// `valgrind ... fencesimPackageTests.xctest SpatialTests.LeakcheckTests/testLeakScenario`.
/// corelibs XCTest itself loses one 32-byte weak reference per test (in
/// `awaitUsingExpectation`); `make leakcheck` suppresses exactly that.
final class LeakcheckTests: XCTestCase {
    func testLeakScenario() throws {
        try LeakScenario.run()
    }
}
