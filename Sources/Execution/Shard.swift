import Support

/// One of N shards of a batch (SPEC §6.7): `--shard K/N` replays the traces that
/// ``assignment(weights:count:)`` gives shard K, balanced by each trace's work.
///
/// Assignment is deterministic (it depends on the traces' order and sizes alone, the same in
/// every shard of a run) and needs no coordination between shards. K is 0-based so that a
/// Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` or a Slurm array's `SLURM_ARRAY_TASK_ID` can
/// be passed as it is.
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
            throw FencesimError(
                .usage, "shard \(index)/\(count) does not exist: K counts from 0 to N−1 (0/\(count) ... \(count - 1)/\(count))")
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

    /// The positions of this shard's traces among `total` of equal work, ascending: K, K+N, ...
    /// (what ``positions(weights:)`` gives when every weight is the same).
    public func positions(of total: Int) -> [Int] {
        Array(stride(from: index, to: total, by: count))
    }

    /// The positions of this shard's traces, ascending, given each trace's work.
    ///
    /// - Parameter weights: each trace's work, in scenario order (fencesim uses the file's size
    ///   in bytes, a proxy for its fixes).
    public func positions(weights: [Int64]) -> [Int] {
        Shard.assignment(weights: weights, count: count)[index]
    }

    /// Which traces each of `count` shards replays: greedy, largest first (Graham's LPT rule):
    /// traces by decreasing weight, ties by position, each to the shard with the least work so
    /// far, ties to the lowest shard. No shard ends with more than the average work plus its
    /// largest trace; with equal weights it is round robin (K, K+N, ...).
    ///
    /// - Returns: `count` lists of positions, each ascending.
    /// - Complexity: O(t log t + t·N) for t traces.
    public static func assignment(weights: [Int64], count: Int) -> [[Int]] {
        precondition(count >= 1, "one shard or more")
        let order = weights.indices.sorted { a, b in weights[a] != weights[b] ? weights[a] > weights[b] : a < b }
        var load = [Int64](repeating: 0, count: count)
        var out = [[Int]](repeating: [], count: count)
        for position in order {
            var lightest = 0
            for k in 1..<count where load[k] < load[lightest] { lightest = k }
            load[lightest] += max(0, weights[position])
            out[lightest].append(position)
        }
        return out.map { $0.sorted() }
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
