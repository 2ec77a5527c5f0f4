import Support

/// One of N shards of a batch (SPEC §6.7): `--shard K/N` replays the traces whose 0-based
/// position in the scenario's trace list (the order written, each glob's matches sorted) is K
/// modulo N.
///
/// Assignment by position is deterministic, needs no hashing, and spreads consecutive traces
/// (often of similar length) over the shards; shard counts differ by at most one trace. K is
/// 0-based so that a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` can be passed as it is.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// K, in `0..<count`.
    public let index: Int
    /// N, 1 or more.
    public let count: Int

    /// Shard `index` of `count`.
    ///
    /// - Throws: ``Support/FencesimError`` `.usage` unless `0 <= index < count`.
    public init(index: Int, count: Int) throws(FencesimError) {
        guard count >= 1 else { throw FencesimError(.usage, "a shard count must be 1 or more, not \(count)") }
        guard index >= 0, index < count else {
            throw FencesimError(.usage, "shard \(index)/\(count) does not exist: K counts from 0 to N−1 (0/\(count) ... \(count - 1)/\(count))")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, e.g. `0/3`.
    ///
    /// - Throws: ``Support/FencesimError`` `.usage` for anything else.
    public init(parsing text: String) throws(FencesimError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0].trimmingSpaces), let n = Int(parts[1].trimmingSpaces) else {
            throw FencesimError(.usage, "--shard must be K/N with 0 <= K < N, e.g. 0/3, not \"\(text)\"")
        }
        try self.init(index: k, count: n)
    }

    /// Whether the trace at 0-based `position` belongs to this shard.
    public func contains(_ position: Int) -> Bool {
        position % count == index
    }

    /// The positions of this shard's traces among `total`, ascending.
    public func positions(of total: Int) -> [Int] {
        Array(stride(from: index, to: total, by: count))
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
