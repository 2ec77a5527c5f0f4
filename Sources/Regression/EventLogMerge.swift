import EventPipeline
import Execution
import Support

/// Combines the partial logs of every shard of a run into the log a single run writes (SPEC
/// §6.7): events trace by trace in scenario order, `seq` renumbered from 0. Rendered in any
/// ``EventLogFormat``, the result has the same bytes as the single run's.
public enum EventLogMerge {
    /// Merges `parts`, one per shard, in any order.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData`, located at the part concerned, when the
    ///   parts are of different scenarios or shard counts, a shard is given twice or missing, or
    ///   their traces do not cover the scenario's exactly once.
    /// - Complexity: O(n + t log t) for n events and t traces.
    public static func merge(_ parts: [PartialEventLog]) throws(FencesimError) -> [LogEvent] {
        guard let first = parts.first else {
            throw FencesimError(.usage, "merge needs the partial logs of every shard")
        }
        func at(_ part: PartialEventLog) -> SourceLocation {
            SourceLocation(file: part.file.isEmpty ? "<partial log>" : part.file, line: 1)
        }
        var byShard: [Int: PartialEventLog] = [:]
        for part in parts {
            guard part.scenario == first.scenario else {
                throw FencesimError(
                    .badData,
                    "this part is of scenario \"\(part.scenario)\" and \(at(first).file) of \"\(first.scenario)\": merge the shards of one run",
                    at: at(part))
            }
            guard part.run == first.run else {
                throw FencesimError(
                    .badData,
                    "this part is of another run of scenario \"\(part.scenario)\" than \(at(first).file) (run \(part.run), not \(first.run)): its settings, inputs or fencesim version differ; merge the shards of one run",
                    at: at(part))
            }
            guard part.shard.count == first.shard.count, part.traceCount == first.traceCount else {
                throw FencesimError(
                    .badData,
                    "this part is shard \(part.shard) of a run of \(part.traceCount) traces and \(at(first).file) is shard \(first.shard) of \(first.traceCount): merge the shards of one run",
                    at: at(part))
            }
            if let other = byShard[part.shard.index] {
                throw FencesimError(.badData, "shard \(part.shard) is given twice (also \(at(other).file))", at: at(part))
            }
            byShard[part.shard.index] = part
        }
        let missing = (0..<first.shard.count).filter { byShard[$0] == nil }
        guard missing.isEmpty else {
            let names = missing.map { "\($0)/\(first.shard.count)" }.joined(separator: ", ")
            throw FencesimError(
                .badData,
                "shard\(missing.count == 1 ? "" : "s") \(names) of scenario \"\(first.scenario)\" \(missing.count == 1 ? "is" : "are") missing: a merge needs every shard's partial log",
                at: at(first))
        }
        // Each trace's events, by its position in the scenario.
        var slices: [[LogEvent]?] = Array(repeating: nil, count: first.traceCount)
        for k in 0..<first.shard.count {
            guard let part = byShard[k] else { continue }
            var offset = 0
            for trace in part.traces {
                guard slices[trace.index] == nil else {
                    throw FencesimError(.badData, "trace \(trace.index) (\(trace.label)) is in two shards", at: at(part))
                }
                slices[trace.index] = Array(part.events[offset..<(offset + trace.events)])
                offset += trace.events
            }
        }
        if let gap = slices.firstIndex(where: { $0 == nil }) {
            throw FencesimError(
                .badData, "no shard holds trace \(gap) of the \(first.traceCount) traces of scenario \"\(first.scenario)\"", at: at(first))
        }
        var all: [LogEvent] = []
        for slice in slices { all += slice ?? [] }
        for k in all.indices { all[k].seq = k }
        return all
    }
}
