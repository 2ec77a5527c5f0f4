import Testing

@testable import Support

/// A prefetch is a hint: asked for any element, in a table or past its ends, or of an empty
/// table, it reads nothing the program sees and faults on nothing.
@Suite struct PrefetchTests {
    @Test func asksForAnyElementWithoutEffect() {
        let table = Array(0..<1000)
        for k in [-1_000_000, -1, 0, 1, 500, 999, 1000, Int.max, Int.min] { Prefetch.read(table, k) }
        let empty: [Double] = []
        for k in [-1, 0, 1] { Prefetch.read(empty, k) }
        table.withUnsafeBufferPointer { buffer in
            Prefetch.read(buffer, 10)
            Prefetch.read(UnsafeBufferPointer(rebasing: buffer[0..<0]), 0)
        }
        #expect(table == Array(0..<1000))
    }
}
