import Spatial
import Support
import Testing

@Suite("STRtree")
struct STRtreeTests {
    func randomBox(_ rng: inout SplitMix64, extent: Double, maxSize: Double) -> BoundingBox {
        let x = rng.uniform(0, extent), y = rng.uniform(0, extent)
        // Some degenerate boxes: points and horizontal or vertical lines.
        switch rng.next() % 10 {
        case 0: return BoundingBox(minX: x, minY: y, maxX: x, maxY: y)
        case 1: return BoundingBox(minX: x, minY: y, maxX: x + rng.uniform(0, maxSize), maxY: y)
        case 2: return BoundingBox(minX: x, minY: y, maxX: x, maxY: y + rng.uniform(0, maxSize))
        default: return BoundingBox(minX: x, minY: y, maxX: x + rng.uniform(0, maxSize), maxY: y + rng.uniform(0, maxSize))
        }
    }

    @Test("Results equal brute-force envelope intersection", arguments: [(UInt64(1), 10), (UInt64(2), 4), (UInt64(3), 32)])
    func bruteForce(seed: UInt64, nodeCapacity: Int) throws {
        let context = try GEOSContext()
        var rng = SplitMix64(seed: seed)
        let tree = try STRtree(context: context, nodeCapacity: nodeCapacity)
        var boxes: [BoundingBox] = []
        for k in 0..<3000 {
            let box = randomBox(&rng, extent: 10_000, maxSize: 400)
            #expect(try tree.insert(box) == k)
            boxes.append(box)
        }
        #expect(tree.count == 3000)
        var found: [Int] = []
        var total = 0
        for _ in 0..<2000 {
            let query = randomBox(&rng, extent: 10_000, maxSize: 600)
            try tree.query(query, into: &found)
            let expected = boxes.indices.filter { boxes[$0].intersects(query) }
            #expect(found == expected)
            total += found.count
        }
        #expect(total > 2000, "the queries should find something")
    }

    @Test("Boxes that only touch are found; a query far away finds nothing")
    func touching() throws {
        let context = try GEOSContext()
        let tree = try STRtree(context: context)
        try tree.insert(BoundingBox(minX: 0, minY: 0, maxX: 1, maxY: 1))
        try tree.insert(BoundingBox(minX: 2, minY: 0, maxX: 3, maxY: 1))
        try tree.insert(BoundingBox(minX: 5, minY: 5, maxX: 5, maxY: 5))
        #expect(try tree.query(BoundingBox(minX: 1, minY: 1, maxX: 2, maxY: 2)) == [0, 1])
        #expect(try tree.query(BoundingBox(minX: 5, minY: 5, maxX: 5, maxY: 5)) == [2])
        #expect(try tree.query(BoundingBox(minX: 100, minY: 100, maxX: 101, maxY: 101)) == [])
    }

    @Test("An empty tree finds nothing")
    func empty() throws {
        let tree = try STRtree(context: try GEOSContext())
        #expect(try tree.query(BoundingBox(minX: 0, minY: 0, maxX: 1, maxY: 1)) == [])
        #expect(tree.count == 0)
    }

    @Test("NaN or inverted boxes are refused, not silently reinterpreted")
    func badBoxes() throws {
        let tree = try STRtree(context: try GEOSContext())
        try tree.insert(BoundingBox(minX: 0, minY: 0, maxX: 1, maxY: 1))
        #expect(throws: SpatialError.self) { try tree.query(BoundingBox(minX: .nan, minY: 0, maxX: 1, maxY: 1)) }
        #expect(throws: SpatialError.self) { try tree.query(BoundingBox(minX: 2, minY: 0, maxX: 1, maxY: 1)) }
    }
}
