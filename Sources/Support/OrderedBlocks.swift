import Dispatch

/// Work over `0..<count` cut into contiguous blocks run on several threads, with results in block
/// order and failures as a single pass would meet them.
///
/// Used wherever a large input (fence features, fences to compile, settings to resolve) is
/// processed on several threads but must behave exactly like one pass: the blocks before the
/// first failing one are complete, so that block's failure is the first in input order.
public enum OrderedBlocks {
    /// The range of block `block` of `parts` over `0..<count`.
    public static func range(_ block: Int, of parts: Int, count: Int) -> Range<Int> {
        (count * block / parts)..<(count * (block + 1) / parts)
    }

    /// `body(block, range)` for each of `parts` blocks (on the calling thread when `parts` is 1,
    /// else spread over Dispatch's threads, each taking the next block when it is free), in
    /// block order; throws the failure of the first block in order that failed.
    public static func map<T, E: Error>(count: Int, parts requested: Int,
                                        _ body: @Sendable (Int, Range<Int>) throws(E) -> T) throws(E) -> [T] {
        let parts = max(1, requested)
        if parts == 1 { return [try body(0, 0..<count)] }
        let slots = Slots<T, E>(parts)
        DispatchQueue.concurrentPerform(iterations: parts) { w in
            do throws(E) {
                slots.values[w] = .success(try body(w, range(w, of: parts, count: count)))
            } catch {
                slots.values[w] = .failure(error)
            }
        }
        var out: [T] = []
        out.reserveCapacity(parts)
        for w in 0..<parts {
            switch slots.values[w] {
            case .success(let v)?: out.append(v)
            case .failure(let error)?: throw error
            case nil: preconditionFailure("a block ended without a result")
            }
        }
        return out
    }
}

/// One result per block, each written by the block's own thread (its own element of plain
/// memory, so no two threads touch the same storage) and read after all have joined.
private final class Slots<T, E: Error>: @unchecked Sendable {
    let values: UnsafeMutablePointer<Result<T, E>?>
    let count: Int

    init(_ count: Int) {
        self.count = count
        values = .allocate(capacity: count)
        values.initialize(repeating: nil, count: count)
    }

    deinit {
        values.deinitialize(count: count)
        values.deallocate()
    }
}
