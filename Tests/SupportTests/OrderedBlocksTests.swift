import Testing
@testable import Support

/// Blocks on threads behave like one pass: results in block order, ranges covering the input
/// exactly once, and the failure of the first failing block in order.
@Suite struct OrderedBlocksTests {
    struct Stop: Error, Equatable {
        let at: Int
    }

    @Test(arguments: [1, 2, 3, 8])
    func blocksCoverTheInputInOrder(parts: Int) throws {
        let blocks = try OrderedBlocks.map(count: 1_001, parts: parts) { (block, range) throws(Stop) in
            (block, Array(range))
        }
        #expect(blocks.map(\.0) == Array(0..<parts))
        #expect(blocks.flatMap(\.1) == Array(0..<1_001))
    }

    @Test(arguments: [2, 3, 8])
    func theFirstFailingBlockInOrderIsThrown(parts: Int) {
        // Items 700 and 950 fail: the block holding 700 comes first whatever finishes first.
        do {
            _ = try OrderedBlocks.map(count: 1_000, parts: parts) { (_, range) throws(Stop) in
                for k in range where k == 700 || k == 950 { throw Stop(at: k) }
                return range.count
            }
            Issue.record("a failing block should fail the map")
        } catch {
            #expect(error == Stop(at: 700))
        }
    }

    @Test func emptyInputAndMoreBlocksThanItems() throws {
        #expect(try OrderedBlocks.map(count: 0, parts: 1) { (_, range) throws(Stop) in range.count } == [0])
        let blocks = try OrderedBlocks.map(count: 2, parts: 4) { (_, range) throws(Stop) in Array(range) }
        #expect(blocks.flatMap { $0 } == [0, 1])
    }
}
