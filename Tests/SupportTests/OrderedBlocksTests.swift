import Foundation
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

    /// A result that knows whether anything else still holds it.
    final class Box {
        let block: Int
        let items: [Int]
        init(_ block: Int, _ items: [Int]) { self.block = block; self.items = items }
    }

    @Test(arguments: [1, 2, 3, 8, 64])
    func streamHandsEveryBlockOverInOrderOneAtATime(parts: Int) throws {
        var order: [Int] = []
        var items: [Int] = []
        var inside = 0
        var overlapped = false
        var shared = 0
        try OrderedBlocks.stream(
            count: 5_003, parts: parts,
            { (block, range) throws(Stop) in
                // Later blocks finish sooner, so results arrive out of order.
                usleep(UInt32((parts - block) * 300))
                return Box(block, Array(range))
            },
            consume: { (block: Int, box: consuming Box) in
                inside += 1
                if inside != 1 { overlapped = true }
                var box = consume box
                // The consumer owns the result: the block's slot no longer holds it.
                if !isKnownUniquelyReferenced(&box) { shared += 1 }
                order.append(block)
                #expect(box.block == block)
                items += box.items
                inside -= 1
            })
        #expect(order == Array(0..<parts))
        #expect(items == Array(0..<5_003))
        #expect(!overlapped)
        #expect(shared == 0)
    }

    @Test(arguments: [2, 3, 8, 40])
    func streamStopsBeforeTheFirstFailingBlock(parts: Int) {
        var consumed: [Int] = []
        do {
            try OrderedBlocks.stream(
                count: 1_000, parts: parts,
                { (block, range) throws(Stop) in
                    usleep(UInt32((parts - block) * 200))
                    for k in range where k == 700 || k == 950 { throw Stop(at: k) }
                    return range
                }, consume: { _, range in consumed += Array(range) })
            Issue.record("a failing block should fail the stream")
        } catch {
            #expect(error == Stop(at: 700))
        }
        // Exactly the blocks before the one holding item 700 were taken.
        let failing = (0..<parts).first { OrderedBlocks.range($0, of: parts, count: 1_000).contains(700) }!
        #expect(consumed == Array(0..<OrderedBlocks.range(failing, of: parts, count: 1_000).lowerBound))
    }
}
