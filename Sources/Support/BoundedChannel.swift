import Foundation

/// A bounded hand-off of values from one producing thread to consumers, in order: the producer
/// waits while `depth` values are pending, so memory stays bounded by the depth whatever the
/// producer's pace. Either side may end it: the producer closes it (consumers drain what is
/// pending, then get `nil`), a consumer cancels it (pending values are dropped, the producer's
/// next ``send(_:)`` returns `false`, every waiting consumer gets `nil`).
public final class BoundedChannel<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Pending values (at most `depth`: taking the first shifts a few).
    private var queue: [Element] = []
    private var closed = false
    private var cancelled = false
    private let depth: Int

    public init(depth: Int) {
        self.depth = max(1, depth)
    }

    /// Waits while `depth` values are pending, then queues `value`; `false` when the consumers
    /// have cancelled (the producer should stop).
    public func send(_ value: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && !cancelled { condition.wait() }
        if cancelled { return false }
        queue.append(value)
        condition.broadcast()
        return true
    }

    /// The consumers give up: pending and future values are dropped, the producer is told to stop
    /// and every waiting consumer gets `nil`.
    public func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// No more values will come.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next value, or `nil` once the channel is closed and drained, or cancelled.
    public func receive() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !closed && !cancelled { condition.wait() }
        guard !cancelled, !queue.isEmpty else { return nil }
        let value = queue.removeFirst()
        condition.broadcast()
        return value
    }
}
