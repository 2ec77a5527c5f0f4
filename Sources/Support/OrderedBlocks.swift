import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    public static func map<T, E: Error>(
        count: Int, parts requested: Int,
        _ body: @Sendable (Int, Range<Int>) throws(E) -> T
    ) throws(E) -> [T] {
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

    /// `body(block, range)` for each of `parts` blocks, as ``map(count:parts:_:)`` runs them,
    /// with each result handed to `consume` in block order as soon as it and every block before
    /// it are done, while later blocks are still being worked on. `consume` runs on whichever
    /// thread finds the next result ready, one call at a time (never two at once), so it may
    /// mutate the caller's state; the calls are over when this returns.
    ///
    /// Blocks after the first failing one are not consumed, and that failure is thrown. Used
    /// where taking results in order is itself work (checking fence ids, moving fences): done
    /// this way, it fills the time in which one thread would otherwise wait for the other to
    /// finish the last block.
    public static func stream<T, E: Error>(
        count: Int, parts requested: Int,
        _ body: @Sendable (Int, Range<Int>) throws(E) -> T,
        consume: (Int, consuming T) -> Void
    ) throws(E) {
        let parts = max(1, requested)
        if parts == 1 {
            consume(0, try body(0, 0..<count))
            return
        }
        let slots = Slots<T, E>(parts)
        // Behind a pthread mutex, which ThreadSanitizer models: the consumer's writes to the
        // caller's state, ordered by it, are not reported as races.
        let turn = PthreadLock(StreamTurn())
        try withoutActuallyEscaping(consume) { (consume) throws(E) in
            let consumer = Consumer(consume: consume)
            DispatchQueue.concurrentPerform(iterations: parts) { w in
                var result: Result<T, E>?
                do throws(E) {
                    result = .success(try body(w, range(w, of: parts, count: count)))
                } catch {
                    result = .failure(error)
                }
                // Deposit the result; consume unless another thread is consuming (it will
                // find this result before it stops) or a failure has stopped the consuming.
                var consuming = turn.withLock { t in
                    // Moved into the slot, so that whoever consumes it holds the only reference.
                    (slots.values + w).pointee = result.take()
                    if t.consuming || t.stopped { return false }
                    t.consuming = true
                    return true
                }
                while consuming {
                    var taken: T?
                    var block = 0
                    consuming = turn.withLock { t in
                        guard t.next < parts, let ready = (slots.values + t.next).pointee else {
                            t.consuming = false
                            return false
                        }
                        guard case .success = ready else {
                            t.consuming = false
                            t.stopped = true
                            return false
                        }
                        block = t.next
                        if case .success(let value)? = (slots.values + block).move() { taken = value }
                        (slots.values + block).initialize(to: nil)
                        t.next += 1
                        return true
                    }
                    // Moved out, so that the consumer holds the only reference.
                    if consuming, let value = taken.take() { consumer.consume(block, consume value) }
                }
            }
            // Every result is in; the first block not consumed holds the failure.
            let next = turn.withLock { $0.next }
            if next < parts, case .failure(let error)? = slots.values[next] { throw error }
            precondition(next == parts, "a block was neither consumed nor failed")
        }
    }
}

/// Whose turn it is to consume in ``OrderedBlocks/stream(count:parts:_:consume:)``: the next
/// block in order, whether a thread is consuming, and whether a failure stopped the consuming.
private struct StreamTurn {
    var next = 0
    var consuming = false
    var stopped = false
}

/// The consumer of ``OrderedBlocks/stream(count:parts:_:consume:)``, called from worker threads
/// one at a time (the turn's lock orders the calls), while the caller waits for the workers.
private struct Consumer<T>: @unchecked Sendable {
    let consume: (Int, consuming T) -> Void
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
