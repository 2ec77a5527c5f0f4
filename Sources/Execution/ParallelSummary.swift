import EventPipeline
import Fences
import Geotriggers
import Scenarios
import Support
import Traces

/// The bench summary of traces on several cores (SPEC §8): the counting use of
/// ``TraceSlices``, benchmark machinery kept apart from the product's paths. Each worker's
/// engine counts enters and exits (``Geotriggers/GeotriggerEngine/Output/counts``); counts and
/// checksums are sums, so the result is identical to one engine per trace replaying it whole
/// (tested against the reference numbers).
public enum ParallelSummary {
    /// The reading thread of a summary (see ``TraceSlices/Feed``).
    public typealias Feed = TraceSlices.Feed

    /// Whether `configuration` can be summarised this way.
    public static func applies(to configuration: Replayer.Configuration) -> Bool {
        GeotriggerEngine.isMemoryless(configuration.settings, fences: configuration.fences.fences)
    }

    /// The summary of `trace`, read once and evaluated on `workers` threads.
    ///
    /// - Throws: ``Support/FencesimError`` for an unreadable trace or fences that cannot be
    ///   compiled.
    public static func run(
        _ trace: TraceInput, configuration: Replayer.Configuration, workers requested: Int,
        chunkSize: Int = TraceSlices.chunkSize, timer: PhaseTimer? = nil
    ) throws(FencesimError) -> (BenchSummary, TraceStatistics) {
        let feed = Feed(trace, readOptions: configuration.readOptions, chunkSize: chunkSize)
        return try run(feed, configuration: configuration, workers: requested, timer: timer)
    }

    /// The summary of the one trace `feed` reads; its failure is thrown.
    public static func run(
        _ feed: Feed, configuration: Replayer.Configuration, workers requested: Int,
        timer: PhaseTimer? = nil
    ) throws(FencesimError) -> (BenchSummary, TraceStatistics) {
        precondition(feed.traces.count == 1, "one trace")
        let outcome = try summarize(feed, configuration: configuration, workers: requested, timer: timer)[0]
        if let error = outcome.error { throw error }
        guard let statistics = outcome.readStatistics else {
            throw FencesimError(.internalError, "the trace reader of \(feed.traces[0].path) ended without a result")
        }
        return (outcome.summary, statistics)
    }

    /// Each trace's outcome (its summary, what reading it found, or the failure that stopped
    /// it), for the traces `feed` reads, evaluated on `workers` threads (see
    /// ``TraceSlices/run(_:configuration:workers:output:timer:keep:stop:replay:)`` for `keep`).
    ///
    /// - Throws: ``Support/FencesimError`` when the fences cannot be compiled or the frame built.
    public static func summarize(
        _ feed: Feed, configuration: Replayer.Configuration, workers requested: Int,
        timer: PhaseTimer? = nil, keep: ((AnyObject) -> Void)? = nil
    ) throws(FencesimError) -> [Replayer.Outcome] {
        try TraceSlices.run(feed, configuration: configuration, workers: requested, output: .counts, timer: timer, keep: keep) {
            engine, chunk, slot in
            var summary = slot.summaries[chunk.trace]
            Replayer.summarizeSlice(chunk.samples, engine: engine, into: &summary)
            slot.summaries[chunk.trace] = summary
        }
    }
}
