import Accuracy
import Dispatch
import EventPipeline
import Execution
import Fences
import Geotriggers
import Scenarios
import Spatial
import Support
import Synchronization
import Traces

/// A parameter sweep (SPEC §6.4): replays a scenario's traces for every combination of the
/// varied values (the cartesian product of the axes), scores each combination against ground
/// truth exactly as the accuracy report does (``Evaluator``, ``AccuracySummary``), and finds the
/// smallest setting that meets a target.
///
/// Combinations are enumerated with the first axis varying slowest: `--vary buffer=0,10
/// --vary resample=1,5` gives (0, 1), (0, 5), (10, 1), (10, 5). The *smallest setting* meeting
/// the target is the first combination in that order that meets it: the first axis's values are
/// tried in the order given, then the second's, and so on, so that listing a parameter's values
/// from the most to the least wanted finds the most wanted one that works.
///
/// Every (combination, trace) pair is an independent replay; they run on several workers and the
/// result does not depend on how many.
public struct Sweep: Sendable {
    /// What every combination starts from: the scenario's traces, fences, settings, degradation
    /// and truth.
    public struct Base: Sendable {
        public var traces: [TraceInput]
        /// Fences (as drawn: truth is taken from them), frame, every fence's resolved settings,
        /// reading options and pipeline. Its `workers` is the sweep's.
        public var replay: Replayer.Configuration
        /// The scenario's degradation of the feed, if any.
        public var degradation: Degradation?
        public var truth: TruthSource
        public var bands: [SpeedBand]
        /// The scenario, to rebuild the pipeline (check-ins, Places) around scaled fences when
        /// `radiusScale` is varied; `nil` keeps ``replay``'s pipeline.
        public var scenario: Scenario?

        public init(
            traces: [TraceInput], replay: Replayer.Configuration, degradation: Degradation? = nil, truth: TruthSource = .trace,
            bands: [SpeedBand] = SpeedBand.standard, scenario: Scenario? = nil
        ) {
            self.traces = traces
            self.replay = replay
            self.degradation = degradation
            self.truth = truth
            self.bands = bands
            self.scenario = scenario
        }

        /// A scenario's replay as ``ScenarioRunner`` prepares it, with its degradation.
        public init(runner: ScenarioRunner, truth: TruthSource, bands: [SpeedBand] = SpeedBand.standard) {
            self.init(
                traces: runner.scenario.traces, replay: runner.configuration, degradation: runner.degradation, truth: truth,
                bands: bands, scenario: runner.scenario)
        }
    }

    /// One combination's outcome.
    public struct Row: Sendable {
        /// 0-based position in the enumeration order.
        public var index: Int
        /// The value of each axis, in axis order.
        public var values: [SweepValue]
        /// The accuracy numbers over the traces that could be evaluated.
        public var summary: AccuracySummary
        /// Traces that failed in this combination (they are left out of ``summary``).
        public var failedTraces: Int
        /// Whether the target is met; `nil` without a target. A combination with a failed trace
        /// never meets it.
        public var meetsTarget: Bool?

        /// The overall numbers.
        public var metrics: AccuracyMetrics { summary.overall }
    }

    /// The whole sweep.
    public struct Result: Sendable {
        public var axes: [SweepAxis]
        public var target: SweepTarget?
        /// One row per combination, in enumeration order.
        public var rows: [Row]
        public var traceCount: Int
        /// The distinct errors of failed traces, in the order first met.
        public var failures: [FencesimError]
        /// The traces' reading and replay warnings (of the first combination: they repeat).
        public var warnings: [Diagnostic]

        /// The smallest setting meeting the target: the first row, in enumeration order, that
        /// meets it; `nil` without a target or when none does.
        public var chosen: Row? { rows.first { $0.meetsTarget == true } }

        /// `buffer=10, resample=1` for a row.
        public func setting(_ row: Row) -> String {
            zip(axes, row.values).map { "\($0.parameter.rawValue)=\($1)" }.joined(separator: ", ")
        }
    }

    /// A sweep may have at most this many combinations.
    public static let combinationLimit = 10_000

    public let base: Base
    public let axes: [SweepAxis]
    public let target: SweepTarget?

    /// Prepares a sweep; nothing is replayed yet.
    ///
    /// - Throws: ``Support/FencesimError`` `.usage` for no axis, a parameter varied twice (or
    ///   `debounce` with `enterAfter` or `exitAfter`), more than ``combinationLimit``
    ///   combinations (see ``check(_:source:)``).
    public init(base: Base, axes: [SweepAxis], target: SweepTarget? = nil) throws(FencesimError) {
        try Sweep.check(axes)
        self.base = base
        self.axes = axes
        self.target = target
    }

    /// Checks that `axes` can be swept together.
    ///
    /// - Parameter source: the flag the axes come from; the error is located at the later of two
    ///   conflicting axes, or at the axis whose values take the count past the limit (line = its
    ///   position, from 1).
    /// - Throws: ``Support/FencesimError`` `.usage` for no axis, a parameter varied twice (or
    ///   `debounce` with `enterAfter` or `exitAfter`), or too many combinations.
    public static func check(_ axes: [SweepAxis], source: String = "--vary") throws(FencesimError) {
        guard !axes.isEmpty else { throw FencesimError(.usage, "a sweep needs at least one parameter to vary (\(source) NAME=V1,V2,...)") }
        var seen: [String: Int] = [:]
        for (k, axis) in axes.enumerated() {
            for key in axis.parameter.settingKeys {
                if let first = seen[key] {
                    let earlier = axes[first].parameter
                    let what =
                        earlier == axis.parameter
                        ? "\(axis.parameter.rawValue) is already varied by \(source) number \(first + 1)"
                        : "\(axis.parameter.rawValue) sets \(key), which \(source) number \(first + 1) (\(earlier.rawValue)) already varies"
                    throw FencesimError(
                        .usage, "\(what); give all its values in one \(source)", at: SourceLocation(file: source, line: k + 1, column: 1))
                }
                seen[key] = k
            }
        }
        var count = 1
        for (k, axis) in axes.enumerated() {
            count *= axis.values.count
            guard count <= combinationLimit else {
                throw FencesimError(
                    .usage,
                    "the sweep has \(axes.map { String($0.values.count) }.joined(separator: " × ")) combinations, more than \(combinationLimit)",
                    at: SourceLocation(file: source, line: k + 1, column: 1))
            }
        }
    }

    /// Every combination as the index of each axis's value, in enumeration order (the first axis
    /// varying slowest).
    public static func combinations(_ axes: [SweepAxis]) -> [[Int]] {
        var out: [[Int]] = [[]]
        for axis in axes {
            out = out.flatMap { prefix in axis.values.indices.map { prefix + [$0] } }
        }
        return out
    }

    /// What one combination replays with.
    struct Variant: Sendable {
        var configuration: Evaluator.Configuration
        /// Combinations with the same key compile the same fences with the same settings.
        var compileKey: Int
    }

    /// The configuration of every combination, in enumeration order.
    ///
    /// - Throws: ``Support/FencesimError`` when the pipeline cannot be rebuilt around scaled
    ///   fences.
    func variants() throws(FencesimError) -> [Variant] {
        var scaled: [Double: (fences: FenceSet, pipeline: Pipeline?)] = [:]
        var keys: [[Int]: Int] = [:]
        var out: [Variant] = []
        for choice in Sweep.combinations(axes) {
            var settings = base.replay.settings
            var degradation = base.degradation
            var scale = 1.0
            var fenceChoice: [Int] = []
            for (axis, k) in zip(axes, choice) {
                axis.parameter.apply(axis.values[k], settings: &settings, degradation: &degradation, radiusScale: &scale)
                fenceChoice.append(axis.parameter.changesFences ? k : -1)
            }
            var replay = base.replay
            replay.settings = settings
            replay.workers = 1
            if scale != 1 {
                if scaled[scale] == nil {
                    let fences = Sweep.scaled(base.replay.fences, by: scale)
                    var pipeline = base.replay.pipeline
                    if let scenario = base.scenario, let current = pipeline {
                        pipeline = try Pipeline(
                            scenario: scenario, fences: fences, places: current.placesSettings,
                            rulesPlatform: current.rulesSettings?.platform)
                    }
                    scaled[scale] = (fences, pipeline)
                }
                if let variant = scaled[scale] {
                    replay.fences = variant.fences
                    replay.pipeline = variant.pipeline
                }
            }
            let key = keys[fenceChoice] ?? keys.count
            keys[fenceChoice] = key
            var evaluation = Evaluator.Configuration(
                replay: replay, degradation: degradation, truth: base.truth,
                bands: base.bands, trackPointLimit: 1, drawnEventsKept: 0)
            // A scenario with an operating-system profile is scored for what the app heard, as report does.
            if replay.profile != nil { evaluation.view = .app }
            out.append(Variant(configuration: evaluation, compileKey: key))
        }
        return out
    }

    /// `fences` with every circle radius, beacon range and beacon proximity in metres multiplied
    /// by `factor`.
    public static func scaled(_ fences: FenceSet, by factor: Double) -> FenceSet {
        var out = fences
        for k in out.fences.indices {
            switch out.fences[k].kind {
            case .circle(let r):
                out.fences[k].kind = .circle(radiusMeters: r * factor)
            case .beacon(let range, let proximity):
                var p = proximity
                if case .meters(let m) = proximity { p = .meters(m * factor) }
                out.fences[k].kind = .beacon(rangeMeters: range * factor, proximity: p)
            case .area, .line:
                break
            }
        }
        return out
    }

    /// Replays and scores every combination.
    ///
    /// - Parameter progress: called after each replay of a trace with the number done and the
    ///   total (combinations × traces), from worker threads; keep it cheap.
    /// - Returns: the rows in enumeration order; a trace that fails is counted in its rows and
    ///   listed in ``Result/failures``, the others complete.
    /// - Throws: ``Support/FencesimError`` only when the fences cannot be compiled or the
    ///   pipeline cannot be rebuilt around scaled fences.
    /// - Complexity: combinations × traces replays.
    public func run(progress: (@Sendable (Int, Int) -> Void)? = nil) throws(FencesimError) -> Result {
        result(try replays(progress: progress))
    }

    /// What every (combination, trace) replay left: a score, or the trace's error. A shard of a
    /// sweep keeps these for its traces (``RunPart``); the merge puts every shard's together and
    /// makes the ``Result`` of a single run with ``result(_:)``.
    public struct Replays: Sendable {
        /// `scores[c][t]`: trace t's score in combination c, `nil` when it failed.
        public var scores: [[TraceScore?]]
        /// `errors[c][t]`: why trace t failed in combination c.
        public var errors: [[FencesimError?]]
        /// The traces' reading and replay warnings (of the first combination: they repeat).
        public var warnings: [Diagnostic]

        public init(scores: [[TraceScore?]], errors: [[FencesimError?]], warnings: [Diagnostic] = []) {
            self.scores = scores
            self.errors = errors
            self.warnings = warnings
        }
    }

    /// Replays every combination of ``base``'s traces.
    ///
    /// - Throws: as ``run(progress:)``.
    public func replays(progress: (@Sendable (Int, Int) -> Void)? = nil) throws(FencesimError) -> Replays {
        let variants = try variants()
        let traces = base.traces
        let jobs = variants.count * traces.count
        var out = Replays(
            scores: Array(repeating: Array(repeating: nil, count: traces.count), count: variants.count),
            errors: Array(repeating: Array(repeating: nil, count: traces.count), count: variants.count))
        guard jobs > 0 else { return out }
        let results = try Sweep.evaluate(
            variants, traces: traces, truthFences: base.replay.fences.watchedOnce, frame: base.replay.frame,
            maxGapSeconds: base.replay.maxGapSeconds,
            workers: Replayer(base.replay).workerCount(traces: jobs), progress: progress)
        var seenFenceWarnings: Set<String> = []
        for (k, slot) in results.enumerated() {
            let c = k / traces.count
            let t = k % traces.count
            if c == 0 { out.warnings += slot.warnings }
            // A fence a combination's buffer erases is said once for each such buffer.
            for w in slot.fenceWarnings where seenFenceWarnings.insert(w.description).inserted { out.warnings.append(w) }
            out.scores[c][t] = slot.score
            out.errors[c][t] = slot.error
        }
        return out
    }

    /// The rows of `replays` (of every trace of the run, in its order): each combination's
    /// summary over the traces that could be evaluated, and whether it meets the target.
    public func result(_ replays: Replays) -> Result {
        var failures: [FencesimError] = []
        var seen: Set<String> = []
        let combinations = Sweep.combinations(axes)
        var rows: [Row] = []
        rows.reserveCapacity(combinations.count)
        for (c, choice) in combinations.enumerated() {
            let scores = c < replays.scores.count ? replays.scores[c].compactMap { $0 } : []
            let errors = c < replays.errors.count ? replays.errors[c].compactMap { $0 } : []
            for error in errors where seen.insert(error.fullDescription).inserted { failures.append(error) }
            let summary = AccuracySummary(scores, fences: base.replay.fences, bands: base.bands)
            rows.append(
                Row(
                    index: c, values: zip(axes, choice).map { $0.values[$1] }, summary: summary, failedTraces: errors.count,
                    meetsTarget: target.map { errors.isEmpty && $0.isMet(by: summary.overall) }))
        }
        return Result(
            axes: axes, target: target, rows: rows, traceCount: replays.scores.first?.count ?? base.traces.count,
            failures: failures, warnings: replays.warnings)
    }

    /// What one replay of a trace left.
    struct Slot: Sendable {
        var score: TraceScore?
        var error: FencesimError?
        var warnings: [Diagnostic] = []
        /// What compiling the combination's fences found (on its first trace's slot).
        var fenceWarnings: [Diagnostic] = []
    }

    /// Evaluates every (combination, trace) pair on `workers` threads; slots in job order
    /// (combination-major). Each worker owns one ground truth and the compiled fences of the
    /// combination it works on, recompiled only when the fences or their settings change. A
    /// trace's truth visits depend on the trace and the truth source alone, which every
    /// combination shares: found once (by the first evaluation of the trace to end) and reused.
    static func evaluate(
        _ variants: [Variant], traces: [TraceInput], truthFences: FenceSet, frame: FrameDefinition, maxGapSeconds: Double, workers: Int,
        progress: (@Sendable (Int, Int) -> Void)?
    ) throws(FencesimError) -> [Slot] {
        let jobs = variants.count * traces.count
        let truths = PthreadLock<[[TruthVisit]?]>(Array(repeating: nil, count: traces.count))
        /// A worker: its ground truth (combinations fill every core: each walks a path in one
        /// stretch) and the compiled fences of the combination it last worked on, with the ids
        /// scoring reads their events by.
        struct Worker {
            let truth: GroundTruth
            var compiled: (key: Int, fences: CompiledFences, names: Scoring.Reader.Names)?
        }
        let slots = try WorkerPool.run(
            count: jobs, workers: workers,
            makeWorker: { () throws(FencesimError) in
                Worker(truth: try GroundTruth(fences: truthFences, frame: frame, maxGapSeconds: maxGapSeconds))
            }, progress: progress.map { report in { @Sendable done in report(done, jobs) } }
        ) { (worker, k) throws(FencesimError) -> Slot in
            let variant = variants[k / traces.count]
            if worker.compiled?.key != variant.compileKey {
                worker.compiled = nil
                let replay = variant.configuration.replay
                let fences = try CompiledFences(replay.fences, frame: replay.frame, settings: replay.settings)
                worker.compiled = (variant.compileKey, fences, Scoring.Reader.Names(fences.fenceSet))
            }
            guard let fences = worker.compiled?.fences, let names = worker.compiled?.names else { preconditionFailure("compiled above") }
            let t = k % traces.count
            let known = truths.withLock { $0[t] }
            let e = Evaluator.evaluate(traces[t], fences, worker.truth, variant.configuration, knownTruth: known, names: names)
            if known == nil, e.error == nil { truths.withLock { if $0[t] == nil { $0[t] = e.truth } } }
            return Slot(score: e.score, error: e.error, warnings: e.outcome.warnings, fenceWarnings: t == 0 ? fences.warnings : [])
        }.results
        return slots
    }
}
