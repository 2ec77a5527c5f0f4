import EventPipeline
import Fences
import Scenarios
import Support
import Traces

/// What evaluating one trace produced: the replay of its (degraded) feed, its truth visits, the
/// score, and both tracks for maps.
public struct TraceEvaluation: Sendable {
    /// A point of a track for drawing: WGS84 and seconds since the trace's first fix.
    public struct TrackPoint: Sendable, Hashable {
        public var longitude: Double
        public var latitude: Double
        public var seconds: Double
        /// The fix's horizontal accuracy, metres (the replay view's accuracy disc).
        public var accuracyMeters: Double?

        public init(longitude: Double, latitude: Double, seconds: Double, accuracyMeters: Double? = nil) {
            self.longitude = longitude
            self.latitude = latitude
            self.seconds = seconds
            self.accuracyMeters = accuracyMeters
        }
    }

    /// The replay of the feed (events, warnings, and the error when the trace failed).
    public var outcome: Replayer.Outcome
    /// `nil` when the trace failed.
    public var score: TraceScore?
    /// The trace's truth visits, in order: each is its score's (``VisitScore/truth``; scoring
    /// makes one score per truth visit, in place), so they are not kept twice. Empty when the
    /// trace failed.
    public var truth: [TruthVisit] { score?.visits.map(\.truth) ?? [] }
    /// The score of the evaluator's second view (``Evaluator/Configuration/alsoView``): with an
    /// operating-system profile, the geometry view beside the app view or the other way round.
    public var alternateScore: TraceScore?
    /// The clean path, thinned to at most ``Evaluator/Configuration/trackPointLimit`` points.
    public var cleanTrack: [TrackPoint] = []
    /// The degraded feed the engine saw, thinned likewise (the clean path when not degraded).
    public var feedTrack: [TrackPoint] = []
    /// Every check-in, check-out and Places line of the replay, whether or not its log was kept
    /// (what a report's check-in table and Places timeline read: far fewer lines than its
    /// notifications).
    public var pipelineEvents: [LogEvent] = []
    /// The first clean fix's time.
    public var start: Timestamp?
    /// Fixes in the clean trace and in the feed.
    public var cleanFixCount = 0
    public var feedFixCount = 0

    public var input: TraceInput { outcome.input }

    /// Fills in what scoring the trace gives, as `report` and `score` both do: its truth, its
    /// fix counts and thinned tracks (seconds from `start`), and the score of what the events
    /// say (`detected`) against `truth` over the hours from `start` to `end`.
    mutating func score(
        truth: [TruthVisit], detected: Scoring.Detections, clean: ThinnedTrack, feed: ThinnedTrack, start: Timestamp?, end: Timestamp?,
        fences: FenceSet, bands: [SpeedBand]
    ) {
        var duration = 0.0
        if let start, let end { duration = end.seconds(since: start) }
        self.start = start
        cleanFixCount = clean.count
        feedFixCount = feed.count
        cleanTrack = clean.points
        feedTrack = feed.points
        score = Scoring.score(
            truth: truth, detected: detected, fences: fences, trace: input.label, durationSeconds: duration, bands: bands)
    }

    /// Whether a line of this type is kept in ``pipelineEvents``.
    static func isPipelineEvent(_ type: LogEvent.EventType) -> Bool {
        switch type {
        case .checkin, .checkout, .placesEntry, .placesExit, .placesExpired, .placesLookup: true
        default: false
        }
    }
    public var error: FencesimError? { outcome.error }
}
