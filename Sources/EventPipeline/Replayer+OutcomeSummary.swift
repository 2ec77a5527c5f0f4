import Support
import Traces

extension Replayer.Outcome {
    /// Every warning about the trace, those past what ``warnings`` keeps included: the reader
    /// keeps its first 1,000 and counts the rest, and fixes without time past the first 100 are
    /// one note.
    public var warningTotal: Int {
        let readerKept = readStatistics?.warnings.count ?? 0
        let readerTotal = readStatistics?.warningCount ?? readerKept
        let untimedKept = min(untimedDropped, 100) + (untimedDropped > 100 ? 1 : 0)
        return warnings.count - readerKept - untimedKept + readerTotal + untimedDropped
    }

    /// `dropped N of M fixes (kind count, ...)`, the reasons by count, most first: what
    /// `--lenient` cost the trace. `nil` when the trace was not read.
    public var dropSummary: String? {
        guard let statistics = readStatistics else { return nil }
        var reasons = statistics.dropped
        // A replay and scoring both leave out the fixes the reader accepted without a time.
        let untimed = max(untimedDropped, statistics.fixesWithoutTime)
        if untimed > 0 { reasons["no-time", default: 0] += untimed }
        let dropped = reasons.values.reduce(0, +)
        let read = statistics.pointsRead
        var line = "dropped \(dropped) of \(read) fix\(read == 1 ? "" : "es")"
        if !reasons.isEmpty {
            let sorted = reasons.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            line += " (" + sorted.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
        return line
    }
}
