import Support
import Testing

@Suite struct SelectionTests {
    /// Every rank of arrays shaped to trouble a quickselect (sorted, reversed, constant, few
    /// distinct values, organ pipe) and random ones, against sorting.
    @Test func matchesSorting() {
        var rng = SplitMix64(seed: 7)
        var inputs: [[Double]] = [
            [3], [2, 1], [1, 1], [5, 4, 3, 2, 1], Array(repeating: 4, count: 33),
            (0..<200).map(Double.init), (0..<200).reversed().map(Double.init),
            (0..<201).map { Double($0 % 3) }, (0..<100).map(Double.init) + (0..<100).reversed().map(Double.init),
        ]
        for n in [7, 64, 1000] {
            inputs.append((0..<n).map { _ in Double(rng.next() % 1000) / 7 })
        }
        for input in inputs {
            let sorted = input.sorted()
            for k in input.indices {
                var values = input
                #expect(Selection.element(atSortedIndex: k, in: &values) == sorted[k], "k \(k) of \(input.count)")
                #expect(values.sorted() == sorted, "a rearrangement, nothing lost")
            }
        }
    }

    /// Many equal keys among a large array: still the sorted answer (the equal-key case is where
    /// a partition that stops only on strict comparisons goes quadratic or wrong).
    @Test func manyEqualValuesInALargeArray() {
        var rng = SplitMix64(seed: 11)
        let input = (0..<50_000).map { _ in Double(rng.next() % 5) }
        let sorted = input.sorted()
        for k in [0, 1, 9_999, 25_000, 49_999] {
            var values = input
            #expect(Selection.element(atSortedIndex: k, in: &values) == sorted[k])
        }
    }
}
