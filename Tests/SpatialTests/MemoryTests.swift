import Foundation
import Spatial
import Support
import Testing

/// Resident memory of this process in bytes, from /proc/self/statm (second field, in pages).
func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Runs `body` `count` times after a warm-up of `count / 10` runs and returns how much resident
/// memory grew across the measured runs.
///
/// Resident memory is the whole process's, and other suites run alongside (some build inputs of
/// hundreds of megabytes), so one round can see their memory too. A leak grows memory in every
/// round, so up to `rounds` rounds are measured and the smallest growth is returned; measuring
/// stops at the first round that grew less than `quiet` bytes.
func residentGrowth(count: Int, rounds: Int = 3, quiet: Int = 2 * 1024 * 1024, _ body: () throws -> Void) rethrows -> Int {
    for _ in 0..<(count / 10) { try body() }
    var smallest = Int.max
    for _ in 0..<max(1, rounds) {
        let before = residentBytes() ?? 0
        for _ in 0..<count { try body() }
        let after = residentBytes() ?? 0
        smallest = min(smallest, after - before)
        if smallest < quiet { break }
    }
    return smallest
}

@Suite(
    "GEOS and PROJ ownership: memory does not grow", .serialized,
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/statm")))
struct MemoryTests {
    /// A leak of 50 bytes per object over a million objects is 50 MB; allow a fifth of that for
    /// allocator noise and tests running alongside.
    static let objects = 1_000_000
    static let bound = 10 * 1024 * 1024

    @Test("A million geometries built and freed")
    func geometries() throws {
        let context = try GEOSContext()
        var k = 0.0
        let growth = try residentGrowth(count: Self.objects) {
            k += 1
            let g = try Geometry(.polygon([[XY(k, 0), XY(k + 10, 0), XY(k + 10, 10), XY(k, 0)]]), context: context)
            _ = g.isEmpty
        }
        #expect(growth < Self.bound, "resident memory grew by \(growth) bytes")
    }

    @Test("A million prepared geometries built, queried and freed")
    func preparedGeometries() throws {
        let context = try GEOSContext()
        var k = 0.0
        let growth = try residentGrowth(count: Self.objects) {
            k += 1
            let g = try Geometry(.polygon([Shapes.square]), context: context)
            let p = try PreparedGeometry(g)
            // Predicates build the prepared indexes; the temporary points must be freed too.
            _ = try p.intersects(XY(5, k.truncatingRemainder(dividingBy: 20)))
            _ = try p.distance(to: XY(k, 3))
        }
        #expect(growth < Self.bound, "resident memory grew by \(growth) bytes")
    }

    @Test("A million STRtree queries, and a thousand trees built and freed")
    func treeQueries() throws {
        let context = try GEOSContext()
        var rng = SplitMix64(seed: 99)
        let tree = try STRtree(context: context)
        for _ in 0..<5000 {
            let x = rng.uniform(0, 10_000), y = rng.uniform(0, 10_000)
            try tree.insert(BoundingBox(minX: x, minY: y, maxX: x + 100, maxY: y + 100))
        }
        var found: [Int] = []
        let growth = try residentGrowth(count: Self.objects) {
            let x = rng.uniform(0, 10_000), y = rng.uniform(0, 10_000)
            try tree.query(BoundingBox(minX: x, minY: y, maxX: x + 20, maxY: y + 20), into: &found)
        }
        #expect(growth < Self.bound, "resident memory grew by \(growth) bytes")
        let trees = try residentGrowth(count: 1000) {
            let t = try STRtree(context: context)
            for i in 0..<1000 { try t.insert(BoundingBox(minX: Double(i), minY: 0, maxX: Double(i) + 1, maxY: 1)) }
            _ = try t.query(BoundingBox(minX: 10, minY: 0, maxX: 20, maxY: 1))
        }
        // A million items went through these trees.
        #expect(trees < Self.bound, "resident memory grew by \(trees) bytes")
    }

    @Test("A hundred thousand failed constructions free what they made")
    func errorPaths() throws {
        let context = try GEOSContext()
        let badHole = Shape.polygon([Shapes.square, [XY(4, 4), XY(4, 6), XY(6, 6)]])
        let badPart = Shape.multiPolygon([[Shapes.square], [Shapes.hole], [[XY(0, 0), XY(1, 0), XY(1, 1)]]])
        // Each failure leaves ~4 GEOS objects; 100k × 4 × 50 bytes is 20 MB.
        let growth = residentGrowth(count: 100_000) {
            _ = try? Geometry(badHole, context: context)
            _ = try? Geometry(badPart, context: context)
            _ = try? Geometry(wkt: "POLYGON((0 0, 1 0, 1 1, 0 1))", context: context)
        }
        #expect(growth < Self.bound, "resident memory grew by \(growth) bytes")
    }
}
