import Dispatch
import EventPipeline
import Fences
import Foundation
import Geotriggers
import Places
import Scenarios
import Spatial
import Support
import Synchronization
import Traces

extension Replayer {
    /// Replays every trace; outcomes come back in input order.
    ///
    /// - Parameters:
    ///   - traces: the traces.
    ///   - placesStates: the Places state each trace starts from (by index; missing or `nil`: a
    ///     fresh state), as persisted by an earlier run.
    ///   - log: where the events go as they are produced, in input order (then outcomes hold no
    ///     events); `nil` keeps each trace's events in its outcome.
    ///   - timer: where `--timings` laps the phases: `index-fences`, then `replay` (reading the
    ///     traces and replaying them, on every worker).
    /// - Throws: ``Support/FencesimError`` only when the fences cannot be compiled; a trace that
    ///   fails is reported in its outcome, and a log that cannot be written in ``OrderedEventLog/failure``.
    public func run(
        _ traces: [TraceInput], placesStates: [PlacesState?] = [], log: OrderedEventLog? = nil,
        timer: PhaseTimer? = nil
    ) throws(FencesimError) -> [Outcome] {
        let configuration = self.configuration
        let (outcomes, warnings) = try Replayer.forEachTrace(
            traces.count, workers: workerCount(traces: traces.count),
            configuration: configuration, timer: timer
        ) { k, compiled in
            let state = placesStates.indices.contains(k) ? placesStates[k] : nil
            return Replayer.replay(traces[k], compiled, configuration, placesState: state, log: log?.channel(k))
        }
        timer?.lap("replay")
        return Replayer.sayingOnce(warnings, in: outcomes)
    }

    /// The event log of `traces` into `log` in input order, the fastest way the configuration
    /// allows: in slices on every core (``ParallelReplay``, reading from `feed`, which reads
    /// `traces`) when no fence's state outlives a fix and there is no pipeline, else trace by
    /// trace (``run(_:placesStates:log:timer:)``; `feed` is then cancelled). `log` `nil` keeps
    /// each trace's events in its outcome. `keep` is handed the compiled fence index of a replay
    /// in slices, for a caller about to end the process to leave unfreed (see
    /// ``TraceSlices/run(_:configuration:workers:output:timer:keep:stop:replay:)``).
    public func run(
        _ traces: [TraceInput], feed: TraceSlices.Feed?, log: OrderedEventLog?,
        timer: PhaseTimer? = nil, keep: ((AnyObject) -> Void)? = nil
    ) throws(FencesimError) -> [Outcome] {
        if let log, let feed, ParallelReplay.applies(to: configuration) {
            return try ParallelReplay.replay(
                feed, configuration: configuration, workers: configuration.workers, log: log, timer: timer, keep: keep)
        }
        feed?.cancel()
        return try run(traces, log: log, timer: timer)
    }

    /// Each trace's bench summary (a ``Configuration/summaryOnly`` configuration), counted in
    /// slices on every core when the fences allow it (``ParallelSummary``, reading from `feed`, or
    /// a feed of its own), else trace by trace (`feed` is then cancelled). `keep` as in
    /// ``ParallelSummary/summarize(_:configuration:workers:timer:keep:)``.
    public func summarize(
        _ traces: [TraceInput], feed: TraceSlices.Feed?, timer: PhaseTimer? = nil,
        keep: ((AnyObject) -> Void)? = nil
    ) throws(FencesimError) -> [Outcome] {
        if !traces.isEmpty, ParallelSummary.applies(to: configuration) {
            return try ParallelSummary.summarize(
                feed ?? TraceSlices.Feed(traces, readOptions: configuration.readOptions),
                configuration: configuration, workers: configuration.workers, timer: timer, keep: keep)
        }
        feed?.cancel()
        return try run(traces, timer: timer)
    }

    /// Replays every trace through a degradation (SPEC §6.2): each trace is read, its fixes
    /// degraded with `degradation` (seeded), and the degraded fixes replayed, with the
    /// notifications `degradation` loses turned into `suppressed` events before check-ins and
    /// Places. Outcomes come back in input order and do not depend on the number of workers.
    ///
    /// - Parameters:
    ///   - traces: the traces.
    ///   - placesStates: the Places state each trace starts from (by index), as in ``run(_:placesStates:)``.
    ///   - degradation: what to do to each trace.
    /// - Throws: ``Support/FencesimError`` only when the fences cannot be compiled; a trace that
    ///   fails is reported in its outcome.
    /// - Complexity: memory O(1) in the length of a trace: each is degraded as it is read
    ///   (``Traces/DegradedFeed``).
    ///   - log: where the events go as they are produced, as in ``run(_:placesStates:log:)``.
    public func run(
        _ traces: [TraceInput], placesStates: [PlacesState?] = [], degradation: Degradation,
        log: OrderedEventLog? = nil
    ) throws(FencesimError) -> [Outcome] {
        let configuration = self.configuration
        let (outcomes, warnings) = try Replayer.forEachTrace(
            traces.count, workers: workerCount(traces: traces.count),
            configuration: configuration
        ) { k, compiled in
            let input = traces[k]
            let state = placesStates.indices.contains(k) ? placesStates[k] : nil
            // Fix indices in events are positions in the degraded feed.
            return Replayer.replay(
                input, compiled, configuration, placesState: state, signalLoss: SignalLoss(degradation, trace: input.label),
                log: log?.channel(k)
            ) {
                (onFix: (Fix, XY?) throws(FencesimError) -> Void) throws(FencesimError) in
                var feed = DegradedFeed(degradation, maxGapSeconds: configuration.maxGapSeconds, file: input.path)
                func emit(_ fix: Fix) throws(FencesimError) { try onFix(fix, nil) }
                let statistics = try TraceReader.read(path: input.path, options: input.readOptions(configuration.readOptions)) {
                    (fix: Fix) throws(FencesimError) in try feed.push(fix, to: emit)
                }
                try feed.finish(to: emit)
                return statistics
            }
        }
        return Replayer.sayingOnce(warnings, in: outcomes)
    }

    /// `outcomes` with `warnings` (what compiling the fences found) said once, before the first
    /// trace's own.
    static func sayingOnce(_ warnings: [Diagnostic], in outcomes: [Outcome]) -> [Outcome] {
        guard !warnings.isEmpty, !outcomes.isEmpty else { return outcomes }
        var said = outcomes
        said[0].warnings = warnings + said[0].warnings
        return said
    }

    /// Runs `body` for trace indices `0..<count` on `workers` threads sharing one fence index
    /// (each with its own compiled view) and returns the results in index order, with what
    /// compiling the fences found (a fence a negative buffer erases).
    ///
    /// - Throws: the first compilation error.
    static func forEachTrace<Result: Sendable>(
        _ count: Int, workers: Int, configuration: Configuration, timer: PhaseTimer? = nil,
        _ body: @Sendable (Int, CompiledFences) -> Result
    ) throws(FencesimError)
        -> (results: [Result], warnings: [Diagnostic])
    {
        guard count > 0 else { return ([], []) }
        // One index for every worker; each worker has its own frame and GEOS context.
        let index = try FenceIndex(configuration.fences, frame: configuration.frame, settings: configuration.settings)
        timer?.lap("index-fences")
        let results = try WorkerPool.run(
            count: count, workers: workers, makeWorker: { () throws(FencesimError) in try CompiledFences(index: index) }
        ) {
            (compiled, k) throws(FencesimError) -> Result in body(k, compiled)
        }.results
        return (results, index.warnings)
    }
}
