import Accuracy
import Support

/// A trace's replays in every combination of a sweep, as a shard's part (``RunPart``) holds
/// them, and the merge of every shard's into the ``Sweep/Replays`` of a single run.
extension Sweep.Replays {
    /// Trace `t`'s line: `{"replays": [score or {"error": ...}, one per combination]}`.
    public func partValue(trace t: Int) -> JSONValue {
        .orderedObject([
            (
                "replays",
                .list(
                    scores.indices.map { c in
                        if let score = scores[c][t] { return score.partValue }
                        return .orderedObject([("error", errors[c][t].map(PartValue.error) ?? .null)])
                    })
            )
        ])
    }

    /// An empty set of replays of `traces` traces in `combinations` combinations, which
    /// ``add(part:position:)`` fills.
    public init(combinations: Int, traces: Int) {
        self.init(
            scores: Array(repeating: Array(repeating: nil, count: traces), count: combinations),
            errors: Array(repeating: Array(repeating: nil, count: traces), count: combinations))
    }

    /// Adds the replays of the trace at `position` from its part's line.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` at the line when it does not hold one
    ///   replay per combination, or a replay is neither a score nor an error.
    public mutating func add(part node: PartNode, position: Int) throws(FencesimError) {
        let replays = try node.member("replays").list
        guard replays.count == scores.count else {
            throw try node.member("replays").error("\(replays.count) replays for a sweep of \(scores.count) combinations")
        }
        for (c, r) in replays.enumerated() {
            if r.node.member("error") != nil {
                guard let e = r.optional("error") else { throw r.error("a failed replay needs its error") }
                errors[c][position] = try e.fencesimError
            } else {
                scores[c][position] = try TraceScore(part: r)
            }
        }
    }
}
