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

        public init(
            replay: Replayer.Configuration, degradation: Degradation? = nil, truth: TruthSource = .trace,
            bands: [SpeedBand] = SpeedBand.standard, trackPointLimit: Int = 1500, drawnEventsKept: Int = .max
        ) {
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
    public func run(
        _ traces: [TraceInput], progress: (@Sendable (Int, Int) -> Void)? = nil,
        keep: ((AnyObject) -> Void)? = nil
    ) throws(FencesimError) -> [TraceEvaluation] {
        guard !traces.isEmpty else { return [] }
        let configuration = self.configuration
        let workers = Replayer(configuration.replay).workerCount(traces: traces.count)
        // The first trace is read while the fences are indexed (a long drive takes about as long
        // to read), a few chunks ahead; the worker that takes it takes its stream.
        let first = Evaluator.stream(traces[0], configuration)
        let firstTaken = PthreadLock(false)
        // A stream no worker took is stopped and waited for: its reading thread, which owns a
        // PROJ frame, must not be left running while the process exits on an error (PROJ's exit
        // handlers crashed under it, about one failed report in twenty).
        defer {
            if !firstTaken.withLock({ $0 }) {
                first.cancel()
                _ = try? first.result()
            }
        }
        // One index for every worker; each worker has its own frame, GEOS context and truth.
        let replay = configuration.replay
        // A truth takes the fences as the index projected them: their vertices are projected once
        // a run (the truth's init 696 → 195 M instructions for the large fence set).
        let makeTruth = { @Sendable (projected: FenceIndex.Projected?) throws(FencesimError) -> GroundTruth in
            try GroundTruth(
                fences: replay.fences.watchedOnce, frame: replay.frame, maxGapSeconds: replay.maxGapSeconds, projected: projected)
        }
        // The first worker's truth is prepared on a thread of its own, from the moment the index
        // has projected the fences, while the index builds the rest (a serial stretch before the
        // first fix otherwise); the worker that comes first takes it, the others make theirs.
        let projection = Projection()
        let early = EarlyTruth { () throws(FencesimError) in
            // None: the index failed, and the run with it; nothing to make.
            guard let projected = projection.wait() else { throw FencesimError(.internalError, "no fence index to take the truth from") }
            return try makeTruth(projected)
        }
        defer { early.wait() }
        // The ids scoring reads events by, made once for every trace, beside the index.
        let names = Background { Scoring.Reader.Names(replay.fences) }
        let index: FenceIndex
        do {
            index = try FenceIndex(replay.fences, frame: replay.frame, settings: replay.settings) { projection.give($0) }
        } catch {
            // The early truth waits no more (and makes nothing).
            projection.give(nil)
            throw error
        }
        let total = traces.count
        let (results, workersBuilt) = try WorkerPool.run(
            count: traces.count, workers: workers,
            makeWorker: { () throws(FencesimError) in
                let compiled = try CompiledFences(index: index)
                let truth: GroundTruth
                if let made = try early.take() { truth = made } else { truth = try makeTruth(index.projected) }
                return (compiled: compiled, truth: truth)
            }, progress: progress.map { report in { @Sendable done in report(done, total) } }
        ) { (worker, k) throws(FencesimError) -> TraceEvaluation in
            let stream = k == 0 ? first : Evaluator.stream(traces[k], configuration)
            if k == 0 { firstTaken.withLock { $0 = true } }
            return Evaluator.evaluate(traces[k], worker.compiled, worker.truth, configuration, stream: stream, names: names.value)
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

    /// The fences as the index projected them, handed from the thread that builds the index to
    /// the one that makes the first truth: given once (the first value stays), waited for by
    /// any number of readers.
    final class Projection: @unchecked Sendable {
        /// Written before `given` is signalled; read after it.
        private var value: FenceIndex.Projected?
        private var isGiven = false
        private let given = DispatchSemaphore(value: 0)

        /// Hands on `value` (`nil`: the index failed), once; from one thread.
        func give(_ value: FenceIndex.Projected?) {
            guard !isGiven else { return }
            isGiven = true
            self.value = value
            given.signal()
        }

        /// The value, once given.
        func wait() -> FenceIndex.Projected? {
            given.wait()
            given.signal()
            return value
        }
    }

    /// A ground truth made on a thread of its own, for the first worker that asks.
    final class EarlyTruth: @unchecked Sendable {
        /// Written by the thread before it signals; read after ``wait()``.
        private var made: Result<GroundTruth, FencesimError>?
        private let done = DispatchSemaphore(value: 0)
        private let taken = PthreadLock(false)

        init(_ make: @escaping @Sendable () throws(FencesimError) -> GroundTruth) {
            let thread = Thread { [self] in
                do throws(FencesimError) { made = .success(try make()) } catch { made = .failure(error) }
                done.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }

        /// Waits for the thread (once more is harmless).
        func wait() {
            done.wait()
            done.signal()
        }

        /// The truth (or its error) for the first caller; `nil` for every later one.
        func take() throws(FencesimError) -> GroundTruth? {
            guard
                taken.withLock({ was in
                    defer { was = true }; return !was
                })
            else { return nil }
            wait()
            guard let made else { return nil }
            return try made.get()
        }
    }

    /// The stream of a trace's clean fixes for ``evaluate(_:_:_:_:knownTruth:stream:)``: to the
    /// replay, and to the ground truth when the truth is the trace's own path.
    static func stream(_ input: TraceInput, _ configuration: Configuration, knownTruth: Bool = false) -> TraceStream {
        TraceStream(
            path: input.path, options: input.readOptions(configuration.replay.readOptions),
            consumers: walksTrace(configuration, knownTruth: knownTruth) ? 2 : 1, frame: configuration.replay.frame)
    }

    /// Whether the truth is walked along the trace's own fixes (its stream's second consumer).
    static func walksTrace(_ configuration: Configuration, knownTruth: Bool) -> Bool {
        if case .trace = configuration.truth { return !knownTruth }
        return false
    }

    /// Evaluates one trace with a worker's compiled fences and truth.
    ///
    /// The trace is never held whole: its fixes stream from the reading thread to the replay
    /// (through the degradation, ``Traces/DegradedFeed``) on this thread and to the ground truth
    /// (``GroundTruth/PathWalk``) on another, side by side, each with GEOS objects of its own
    /// (the worker's compiled fences and truth), so that one long trace keeps two cores busy in
    /// the memory of a few chunks. What a report keeps of it is bounded: counts, tracks thinned
    /// to ``Configuration/trackPointLimit`` points, the events a map draws, and what scoring
    /// reads of each notification.
    ///
    /// - Parameters:
    ///   - knownTruth: the trace's truth visits when an earlier evaluation of the same trace
    ///     (and truth source) found them: not worked out again (a sweep's combinations share
    ///     them).
    ///   - stream: the trace's stream when it was started already (``stream(_:_:knownTruth:)``,
    ///     for a truth walk unless `knownTruth` is given); `nil` starts one.
    ///   - names: the ids of the compiled fence set for scoring (``Scoring/Reader/Names``), when
    ///     made already for several traces; `nil` makes them.
    package static func evaluate(
        _ input: TraceInput, _ compiled: CompiledFences, _ groundTruth: GroundTruth, _ configuration: Configuration,
        knownTruth: [TruthVisit]? = nil, stream given: TraceStream? = nil, names givenNames: Scoring.Reader.Names? = nil
    ) -> TraceEvaluation {
        var result = TraceEvaluation(outcome: Replayer.Outcome(input: input))
        let walksTrace = Evaluator.walksTrace(configuration, knownTruth: knownTruth != nil)
        let stream = given ?? Evaluator.stream(input, configuration, knownTruth: knownTruth != nil)
        // A consumer the stream waits for and nobody takes would stall the reading.
        precondition(stream.consumers == (walksTrace ? 2 : 1), "a trace stream for \(stream.consumers) consumers")
        let options = configuration.replay.readOptions
        /// What the truth's thread gives, written by it alone, read after it has joined.
        final class TruthSide: @unchecked Sendable {
            var visits: Result<[TruthVisit], FencesimError> = .success([])
        }
        let truthSide = TruthSide()
        let truthDone = DispatchSemaphore(value: 0)
        let fenceSet = compiled.fenceSet
        struct Shared: @unchecked Sendable {
            let stream: TraceStream
            let truth: GroundTruth
        }
        let shared = Shared(stream: stream, truth: groundTruth)
        let truthThread = Thread {
            defer { truthDone.signal() }
            do throws(FencesimError) {
                if let knownTruth {
                    truthSide.visits = .success(knownTruth)
                    return
                }
                var walk = GroundTruth.PathWalk(shared.truth)
                switch configuration.truth {
                // A path's visits count only while their fence exists.
                case .trace:
                    var end: Timestamp?
                    while let chunk = shared.stream.next(1) {
                        for k in chunk.fixes.indices {
                            let fix = chunk.fixes[k]
                            try walk.push(fix, at: chunk.point(k))
                            if let t = fix.time { end = t }
                        }
                    }
                    truthSide.visits = .success(TruthVisit.existing(try walk.finish(), fences: fenceSet, end: end))
                case .reference(let pattern):
                    var end: Timestamp?
                    _ = try TraceReader.read(path: TruthSource.referencePath(pattern, for: input), options: options) {
                        (fix: Fix) throws(FencesimError) in
                        try walk.push(fix)
                        end = fix.time
                    }
                    truthSide.visits = .success(TruthVisit.existing(try walk.finish(), fences: fenceSet, end: end))
                case .visits(let labelled):
                    truthSide.visits = .success(labelled.visits(for: input))
                }
            } catch {
                truthSide.visits = .failure(error)
                // The replay's reader waits for this side's chunks no more.
                if walksTrace { shared.stream.cancel() }
            }
        }
        truthThread.stackSize = 8 << 20
        truthThread.start()
        /// What scoring reads of the log as the replay releases it, and the log itself when it is
        /// kept.
        let names = givenNames ?? Scoring.Reader.Names(fenceSet)
        var reader = Scoring.Reader(names: names, view: configuration.view)
        var other = configuration.alsoView.map { Scoring.Reader(names: names, view: $0) }
        var pipelineEvents: [LogEvent] = []
        var events: [LogEvent] = []
        var drawn = 0
        let drawnEventsKept = configuration.drawnEventsKept
        // The clean path and the feed, as they pass.
        var clean = TraceEvaluation.ThinnedTrack(limit: configuration.trackPointLimit)
        var feed = TraceEvaluation.ThinnedTrack(limit: configuration.trackPointLimit)
        var start: Timestamp?
        var end: Timestamp?
        let loss = configuration.degradation.flatMap { SignalLoss($0, trace: input.label) }
        let outcome = Replayer.replay(
            input, compiled, configuration.replay, signalLoss: loss,
            release: { line in
                reader.take(line)
                other?.take(line)
                if case .event(let event) = line, TraceEvaluation.isPipelineEvent(event.type) { pipelineEvents.append(event) }
                if drawn < drawnEventsKept {
                    let event = line.logEvent
                    events.append(event)
                    if event.isDrawn { drawn += 1 }
                }
            }
        ) { (onFix: (Fix, XY?) throws(FencesimError) -> Void) throws(FencesimError) in
            var degraded = configuration.degradation.map {
                DegradedFeed($0, maxGapSeconds: configuration.replay.maxGapSeconds, file: input.path)
            }
            /// The clean fix being fed and its projection: a degraded fix at exactly its place
            /// (kept, not displaced) takes that projection.
            var cleanPlace = (longitude: UInt64.max, latitude: UInt64.max)
            var cleanPoint: XY?
            func toFeed(_ fix: Fix) throws(FencesimError) {
                if let start { feed.add(fix, start: start) }
                let here = fix.longitude.bitPattern == cleanPlace.longitude && fix.latitude.bitPattern == cleanPlace.latitude
                try onFix(fix, here ? cleanPoint : nil)
            }
            do throws(FencesimError) {
                while let chunk = stream.next(0) {
                    for k in chunk.fixes.indices {
                        let fix = chunk.fixes[k]
                        cleanPlace = (fix.longitude.bitPattern, fix.latitude.bitPattern)
                        cleanPoint = chunk.point(k)
                        guard let time = fix.time else {
                            if options.lenient { continue }
                            throw FencesimError(
                                .badData, "a fix has no time; scoring needs timed fixes (fencesim synth times a route)",
                                at: SourceLocation(file: input.path, line: fix.line))
                        }
                        if start == nil { start = time }
                        end = time
                        clean.add(fix, start: start ?? time)
                        if degraded == nil { try toFeed(fix) } else { try degraded!.push(fix, to: toFeed) }
                    }
                }
                try degraded?.finish(to: toFeed)
            } catch {
                // The reading waits for this side's chunks no more.
                stream.cancel()
                _ = try? stream.result()
                throw error
            }
            return try stream.result()
        }
        // What the notifications say is worked out now, while the truth's walk may still run
        // (it is the longer of the two on a long drive with a plain feed), and the events
        // scoring read are let go.
        let detected = Scoring.Detections(read: reader.takeEvents(), names: names)
        let otherDetected = (other?.takeEvents()).map { Scoring.Detections(read: $0, names: names) }
        truthDone.wait()
        do throws(FencesimError) {
            // A truth that failed cancelled the reading: its error is the trace's.
            let truth = try truthSide.visits.get()
            if let error = outcome.error { throw error }
            result.outcome.events = events
            result.pipelineEvents = pipelineEvents
            result.outcome.readStatistics = outcome.readStatistics
            result.outcome.engineStatistics = outcome.engineStatistics
            result.outcome.placesState = outcome.placesState
            result.outcome.warnings = outcome.warnings
            result.score(
                truth: truth, detected: detected, clean: clean, feed: feed, start: start, end: end, fences: fenceSet,
                bands: configuration.bands)
            if let otherDetected {
                result.alternateScore = Scoring.score(
                    truth: truth, detected: otherDetected, fences: fenceSet, trace: input.label,
                    durationSeconds: result.score?.durationSeconds ?? 0, bands: configuration.bands)
            }
            // The truth walk leaves entry places in its frame; those a map may mark, the
            // misses, are projected back here.
            if result.score != nil { groundTruth.placeMisses(&result.score!) }
            if result.alternateScore != nil { groundTruth.placeMisses(&result.alternateScore!) }
        } catch {
            result.outcome.error = error
        }
        return result
    }

    static func point(_ fix: Fix, _ start: Timestamp) -> TraceEvaluation.TrackPoint {
        TraceEvaluation.TrackPoint(
            longitude: fix.longitude, latitude: fix.latitude, seconds: fix.time.map { $0.seconds(since: start) } ?? 0,
            accuracyMeters: fix.accuracyMeters)
    }
}
