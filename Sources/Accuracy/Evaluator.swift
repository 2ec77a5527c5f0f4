import Dispatch
import EventPipeline
import Fences
import Foundation
import Geotriggers
import Scenarios
import Spatial
import Support
import Synchronization
import Traces

/// Evaluates traces against ground truth on all cores (SPEC §6.1–§6.3): per trace, reads the
/// clean trace, takes its truth visits (from the clean path, a reference trace, or labelled
/// visits), degrades the feed, replays it through the engine and the pipeline with signal loss,
/// and scores the notifications. A trace that fails is reported in its result; the others
/// complete. Results come back in input order and do not depend on the number of workers.
public struct Evaluator: Sendable {
    public struct Configuration: Sendable {
        /// Fences, frame, settings, reading options, workers and pipeline.
        public var replay: Replayer.Configuration
        /// What to do to each feed; `nil` replays the clean trace.
        public var degradation: Degradation?
        public var truth: TruthSource
        public var bands: [SpeedBand]
        /// Points kept per track for maps.
        public var trackPointLimit: Int
        /// How much of a trace's log an evaluation keeps, for a map: its events until this many
        /// of them are drawn (``LogEvent/isDrawn``; a map draws that many at most). 0 keeps
        /// none: an evaluation holds what scoring reads of each event (``Scoring/Event``), not
        /// its log.
        public var drawnEventsKept: Int
        /// Which notifications are scored: the engine's, or what an operating-system profile
        /// delivered to the app.
        public var view: Scoring.View = .geometry
        /// A second view to score beside ``view`` (``TraceEvaluation/alternateScore``), `nil` for none.
        public var alsoView: Scoring.View?

        public init(replay: Replayer.Configuration, degradation: Degradation? = nil, truth: TruthSource = .trace,
                    bands: [SpeedBand] = SpeedBand.standard, trackPointLimit: Int = 1500, drawnEventsKept: Int = .max) {
            self.replay = replay
            self.degradation = degradation
            self.truth = truth
            self.bands = bands
            self.trackPointLimit = trackPointLimit
            self.drawnEventsKept = drawnEventsKept
        }
    }

    public let configuration: Configuration

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Evaluates every trace.
    ///
    /// - Parameters:
    ///   - traces: the traces.
    ///   - progress: called after each trace with the number done and the total (from worker
    ///     threads; keep it cheap).
    ///   - keep: handed each worker's compiled fences and ground truth once the workers are
    ///     done, so that a caller about to end the process can leave them unfreed (freeing
    ///     100,000 fences' GEOS objects takes a thread tens of milliseconds); otherwise they are
    ///     freed before this returns.
    /// - Throws: ``Support/FencesimError`` only when the fences cannot be compiled.
    public func run(_ traces: [TraceInput], progress: (@Sendable (Int, Int) -> Void)? = nil,
                    keep: ((AnyObject) -> Void)? = nil) throws(FencesimError) -> [TraceEvaluation] {
        guard !traces.isEmpty else { return [] }
        let configuration = self.configuration
        let workers = Replayer(configuration.replay).workerCount(traces: traces.count)
        // Cores the workers leave idle walk a long trace's ground truth in stretches.
        let stretches = max(1, Replayer(configuration.replay).workerCount(traces: .max) / workers)
        // The first trace is read while the fences are indexed (a long drive takes about as long
        // to read); it is handed over once, to the worker that takes it.
        final class Prefetch: @unchecked Sendable {
            var trace: Result<Trace, FencesimError>?
        }
        let prefetch = Prefetch()
        let prefetched = DispatchGroup()
        prefetched.enter()
        let first = traces[0]
        let options = configuration.replay.readOptions
        Thread {
            do throws(FencesimError) {
                prefetch.trace = .success(try Trace.load(path: first.path, options: first.readOptions(options)))
            } catch {
                prefetch.trace = .failure(error)
            }
            prefetched.leave()
        }.start()
        defer { prefetched.wait() }
        // One index for every worker; each worker has its own frame, GEOS context and truth.
        let replay = configuration.replay
        let index = try FenceIndex(replay.fences, frame: replay.frame, settings: replay.settings)
        let total = traces.count
        let (results, workersBuilt) = try WorkerPool.run(count: traces.count, workers: workers, makeWorker: { () throws(FencesimError) in
            (compiled: try CompiledFences(index: index),
             truth: GroundTruthTeam(try GroundTruth(fences: replay.fences, frame: replay.frame, maxGapSeconds: replay.maxGapSeconds), size: stretches))
        }, progress: progress.map { report in { @Sendable done in report(done, total) } }) { (worker, k) throws(FencesimError) -> TraceEvaluation in
            var loaded: Result<Trace, FencesimError>?
            if k == 0 {
                prefetched.wait()
                loaded = prefetch.trace
                prefetch.trace = nil
            }
            return Evaluator.evaluate(traces[k], worker.compiled, worker.truth, configuration, loaded: loaded)
        }
        if let keep {
            for worker in workersBuilt {
                keep(worker.compiled)
                keep(worker.truth)
            }
        }
        var all = results
        // What compiling the fences found (a fence a negative buffer erases), said once.
        if !all.isEmpty { all[0].outcome.warnings = index.warnings + all[0].outcome.warnings }
        return all
    }

    /// Evaluates one trace with a worker's compiled fences and truth.
    ///
    /// - Parameters:
    ///   - knownTruth: the trace's truth visits when an earlier evaluation of the same trace
    ///     (and truth source) found them: not worked out again (a sweep's combinations share
    ///     them).
    ///   - loaded: the trace as read already (or its reading's error); `nil` reads it.
    package static func evaluate(_ input: TraceInput, _ compiled: CompiledFences, _ groundTruth: GroundTruthTeam, _ configuration: Configuration,
                         knownTruth: [TruthVisit]? = nil, loaded: Result<Trace, FencesimError>? = nil) -> TraceEvaluation {
        var result = TraceEvaluation(outcome: Replayer.Outcome(input: input))
        let options = configuration.replay.readOptions
        do throws(FencesimError) {
            let trace: Trace
            if let loaded { trace = try loaded.get() } else { trace = try Trace.load(path: input.path, options: input.readOptions(options)) }
            let clean = trace.fixes
            result.outcome.readStatistics = trace.statistics
            let timed = clean.allSatisfy { $0.time != nil } ? clean : clean.filter { $0.time != nil }
            if timed.count < clean.count, !options.lenient, let bad = clean.first(where: { $0.time == nil }) {
                throw FencesimError(.badData, "a fix has no time; scoring needs timed fixes (fencesim synth times a route)",
                                    at: SourceLocation(file: input.path, line: bad.line))
            }
            let feed: [Fix]
            do throws(FencesimError) {
                feed = try configuration.degradation?.apply(to: timed, maxGapSeconds: configuration.replay.maxGapSeconds) ?? timed
            } catch {
                throw FencesimError(error.code, error.message, at: SourceLocation(file: input.path))
            }
            let loss = configuration.degradation.flatMap { SignalLoss($0, trace: input.label) }
            // The truth (from the clean trace) and the replay (of the feed) do not depend on each
            // other: they run side by side, each with GEOS objects of its own (the worker's
            // truth and compiled fences), so that one long trace keeps two cores busy.
            /// What each side gives, written by its thread alone, read after both have joined.
            final class Sides: @unchecked Sendable {
                var truth: Result<[TruthVisit], FencesimError> = .success([])
                var outcome: Replayer.Outcome?
            }
            let sides = Sides()
            /// What scoring reads of the log as the replay releases it, and the log itself when
            /// it is kept; written by the replay's thread alone, read after both have joined.
            final class Read: @unchecked Sendable {
                var reader: Scoring.Reader
                /// Every check-in, check-out and Places line (see ``TraceEvaluation/pipelineEvents``).
                var pipelineEvents: [LogEvent] = []
                /// The reader of ``Configuration/alsoView``.
                var other: Scoring.Reader?
                var events: [LogEvent] = []
                /// Kept events a map draws.
                var drawn = 0
                init(_ reader: Scoring.Reader) { self.reader = reader }
            }
            let read = Read(Scoring.Reader(fences: compiled.fenceSet, view: configuration.view))
            read.other = configuration.alsoView.map { Scoring.Reader(fences: compiled.fenceSet, view: $0) }
            let drawnEventsKept = configuration.drawnEventsKept
            struct Work: @unchecked Sendable {
                let truth: () -> Result<[TruthVisit], FencesimError>
                let replay: () -> Replayer.Outcome
            }
            let work = Work(truth: {
                if let knownTruth { return .success(knownTruth) }
                do throws(FencesimError) {
                    switch configuration.truth {
                    // A path's visits count only while their fence exists.
                    case .trace:
                        return .success(TruthVisit.existing(try groundTruth.visits(along: timed), fences: compiled.fenceSet,
                                                            end: timed.last?.time))
                    case .reference(let pattern):
                        let path = TruthSource.referencePath(pattern, for: input)
                        let reference = try Trace.load(path: path, options: options)
                        return .success(TruthVisit.existing(try groundTruth.visits(along: reference.fixes), fences: compiled.fenceSet,
                                                            end: reference.fixes.last?.time ?? nil))
                    case .visits(let labelled):
                        return .success(labelled.visits(for: input))
                    }
                } catch {
                    return .failure(error)
                }
            }, replay: {
                Replayer.replay(fixes: feed, input: input, compiled, configuration.replay, signalLoss: loss) { line in
                    read.reader.take(line)
                    read.other?.take(line)
                    if case .event(let event) = line, TraceEvaluation.isPipelineEvent(event.type) { read.pipelineEvents.append(event) }
                    if read.drawn < drawnEventsKept {
                        let event = line.logEvent
                        read.events.append(event)
                        if event.isDrawn { read.drawn += 1 }
                    }
                }
            })
            DispatchQueue.concurrentPerform(iterations: 2) { k in
                if k == 0 { sides.truth = work.truth() } else { sides.outcome = work.replay() }
            }
            let truth = try sides.truth.get()
            guard let outcome = sides.outcome else {
                throw FencesimError(.internalError, "the replay of \(input.path) ended without a result")
            }
            result.outcome.events = read.events
            result.pipelineEvents = read.pipelineEvents
            result.outcome.engineStatistics = outcome.engineStatistics
            result.outcome.placesState = outcome.placesState
            result.outcome.warnings = trace.statistics.warnings + outcome.warnings
            if let error = outcome.error { throw error }
            let start = timed.first?.time
            result.score(truth: truth, read: read.reader.events, clean: timed, feed: feed, start: start, end: timed.last?.time ?? nil,
                         fences: compiled.fenceSet, bands: configuration.bands, trackPointLimit: configuration.trackPointLimit)
            if let other = read.other {
                result.alternateScore = Scoring.score(truth: truth, read: other.events, fences: compiled.fenceSet, trace: input.label,
                                                      durationSeconds: result.score?.durationSeconds ?? 0, bands: configuration.bands)
            }
        } catch {
            result.outcome.error = error
        }
        return result
    }

    /// At most `limit` points of `fixes`, evenly thinned, the last always kept.
    static func track(_ fixes: [Fix], start: Timestamp?, limit: Int) -> [TraceEvaluation.TrackPoint] {
        guard let start, !fixes.isEmpty else { return [] }
        let stride = max(1, (fixes.count + max(1, limit) - 1) / max(1, limit))
        var out: [TraceEvaluation.TrackPoint] = []
        for k in Swift.stride(from: 0, to: fixes.count, by: stride) {
            out.append(point(fixes[k], start))
        }
        if (fixes.count - 1) % stride != 0, let last = fixes.last { out.append(point(last, start)) }
        return out
    }

    static func point(_ fix: Fix, _ start: Timestamp) -> TraceEvaluation.TrackPoint {
        TraceEvaluation.TrackPoint(longitude: fix.longitude, latitude: fix.latitude, seconds: fix.time.map { $0.seconds(since: start) } ?? 0,
                                   accuracyMeters: fix.accuracyMeters)
    }
}
