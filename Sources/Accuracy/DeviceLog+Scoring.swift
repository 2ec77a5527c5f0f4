import EventPipeline
import Fences
import Foundation
import Scenarios
import Spatial
import Support
import Traces

extension DeviceLog {
    /// How a recorded log's traces are scored: against what truth, with which fences and frame.
    public struct ScoringSetup: Sendable {
        public var fences: FenceSet
        public var frame: FrameDefinition
        /// Truth files: trace files (the true path) and at most one visits CSV.
        public var truths: [String]
        public var readOptions: TraceReadOptions
        /// No path joins two fixes of the truth trace further apart (as in a report).
        public var maxGapSeconds: Double
        public var view: Scoring.View
        public var bands: [SpeedBand]
        public var trackPointLimit: Int

        public init(
            fences: FenceSet, frame: FrameDefinition, truths: [String], readOptions: TraceReadOptions = TraceReadOptions(),
            maxGapSeconds: Double, view: Scoring.View = .geometry, bands: [SpeedBand] = SpeedBand.standard, trackPointLimit: Int = 1500
        ) {
            self.fences = fences
            self.frame = frame
            self.truths = truths
            self.readOptions = readOptions
            self.maxGapSeconds = maxGapSeconds
            self.view = view
            self.bands = bands
            self.trackPointLimit = trackPointLimit
        }
    }

    /// The truth file of each trace: the only truth trace when there is one trace and one truth
    /// trace, else the truth trace whose path, file name or file name without extensions is the
    /// trace's name; `nil` when truth is a visits file.
    ///
    /// - Throws: `.badData` located at the log when a trace has no truth.
    static func truthTrace(for trace: Recording, traceCount: Int, truthTraces: [String], hasVisits: Bool) throws(FencesimError) -> String? {
        if truthTraces.count == 1, traceCount == 1 { return truthTraces[0] }
        for path in truthTraces where LabelledVisits.names(of: TraceInput(path: path)).contains(trace.name) { return path }
        if hasVisits { return nil }
        throw FencesimError(
            .badData,
            "trace \"\(trace.name)\" of the device log has no truth: give --truth with a trace file named after it, or a visits file",
            at: SourceLocation(file: trace.file))
    }

    /// Scores every trace of the log against its truth exactly as `report` scores a replay
    /// (``Scoring``): the same visits, matching, latencies, speed bands, flaps and false exits.
    ///
    /// - Returns: one evaluation per trace, in the log's order, as ``Evaluator`` makes them for a
    ///   report (tracks for maps: the truth path, and the device's own fixes when the log has
    ///   them, else the truth path again).
    /// - Throws: ``Support/FencesimError`` for truth files that cannot be read or matched.
    public func evaluate(_ setup: ScoringSetup) throws(FencesimError) -> [TraceEvaluation] {
        var visits: LabelledVisits?
        var truthTraces: [String] = []
        for path in setup.truths {
            switch try TruthSource.parse(path, resolved: path, location: SourceLocation(file: "--truth"), fences: setup.fences) {
            case .visits(let v):
                guard visits == nil else {
                    throw FencesimError(.usage, "give at most one visits file as --truth", at: SourceLocation(file: path))
                }
                visits = v
            case .reference(let p): truthTraces.append(p)
            case .trace: throw FencesimError(.usage, "--truth names a trace file or a visits file", at: SourceLocation(file: "--truth"))
            }
        }
        let groundTruth = try GroundTruth(fences: setup.fences, frame: setup.frame, maxGapSeconds: setup.maxGapSeconds)
        var out: [TraceEvaluation] = []
        for trace in traces {
            let truthPath = try DeviceLog.truthTrace(
                for: trace, traceCount: traces.count, truthTraces: truthTraces, hasVisits: visits != nil)
            let input = TraceInput(path: truthPath ?? trace.file, label: trace.name)
            var result = TraceEvaluation(outcome: Replayer.Outcome(input: input))
            var truth: [TruthVisit]
            var timed: [Fix] = []
            if let truthPath {
                let loaded = try Trace.load(path: truthPath, options: setup.readOptions)
                timed = loaded.fixes.filter { $0.time != nil }
                result.outcome.readStatistics = loaded.statistics
                truth = try groundTruth.visits(along: timed)
            } else {
                truth = visits?.visits(for: input) ?? []
            }
            var reader = Scoring.Reader(fences: setup.fences, view: setup.view)
            for e in trace.events { reader.take(e) }
            let feed = trace.fixes.isEmpty ? timed : trace.fixes
            // Hours of true path: the truth trace's; with labelled visits, the span of what the
            // log and the visits cover.
            var start = timed.first?.time
            var end = timed.last?.time
            if truthPath == nil {
                let times = trace.events.map(\.time) + feed.compactMap(\.time) + truth.flatMap { [$0.enter] + ($0.exit.map { [$0] } ?? []) }
                start = times.min()
                end = times.max()
            }
            result.outcome.events = trace.events
            result.score(
                truth: truth, detected: Scoring.Detections(read: reader.events, fences: setup.fences),
                clean: TraceEvaluation.ThinnedTrack(timed, start: start, limit: setup.trackPointLimit),
                feed: TraceEvaluation.ThinnedTrack(feed, start: start, limit: setup.trackPointLimit), start: start, end: end,
                fences: setup.fences, bands: setup.bands)
            out.append(result)
        }
        return out
    }
}
