import Testing

@testable import Support

/// Once the allocator keeps freed memory, a block of megabytes comes from the heap: nothing is
/// mapped for it alone (so nothing is unmapped when it is freed, and reusing it faults nothing).
@Suite struct AllocatorTests {
    @Test func blocksOfMegabytesComeFromTheHeap() throws {
        Allocator.keepFreedMemory()
        guard let before = Allocator.mappedBlocks else { return }
        for megabytes in [1, 4, 24] {
            let block = UnsafeMutableRawPointer.allocate(byteCount: megabytes << 20, alignment: 16)
            block.storeBytes(of: UInt8(1), as: UInt8.self)
            #expect(Allocator.mappedBlocks == before, "\(megabytes) MB")
            block.deallocate()
        }
    }
}
