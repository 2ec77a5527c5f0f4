/// The k-th smallest element of an array without sorting it (introselect).
///
/// Quickselect with a median-of-three pivot, so that sorted and reversed inputs stay linear; a
/// range still large after about 2·log₂(n) rounds is sorted instead, which bounds the worst case
/// by n log n. Deterministic: the same input gives the same answer and the same rearrangement.
public enum Selection {
    /// The element that `values.sorted()[k]` would be, found in expected linear time. `values`
    /// is rearranged.
    ///
    /// - Precondition: `0 <= k < values.count`, and no element is NaN.
    @inlinable
    public static func element<T: Comparable>(atSortedIndex k: Int, in values: inout [T]) -> T {
        precondition(k >= 0 && k < values.count, "index \(k) outside 0..<\(values.count)")
        var low = 0
        var high = values.count - 1
        var budget = 2 * (Int.bitWidth - values.count.leadingZeroBitCount) + 2
        while high > low {
            if budget == 0 {
                values[low...high].sort()
                return values[k]
            }
            budget -= 1
            // The median of the first, middle and last elements as pivot (left in the middle).
            let mid = low + (high - low) / 2
            if values[mid] < values[low] { values.swapAt(mid, low) }
            if values[high] < values[low] { values.swapAt(high, low) }
            if values[high] < values[mid] { values.swapAt(high, mid) }
            let pivot = values[mid]
            // Hoare partition: everything left of `j + 1` is at most the pivot, everything right
            // of `j` at least it.
            var i = low - 1
            var j = high + 1
            while true {
                repeat { i += 1 } while values[i] < pivot
                repeat { j -= 1 } while pivot < values[j]
                if i >= j { break }
                values.swapAt(i, j)
            }
            if k <= j { high = j } else { low = j + 1 }
        }
        return values[k]
    }
}
