import Accuracy
import EventPipeline
import Fences
import Spatial
import Support
import Traces

/// An accuracy report (SPEC §6.3): one model that the JSON, HTML and terminal renderings show,
/// so that their numbers agree.
public struct AccuracyReport: Sendable {
    /// One trace of the batch.
    public struct TraceEntry: Sendable {
        public var name: String
        public var path: String
        /// The located error when the trace could not be evaluated.
        public var error: String?
        public var score: TraceScore?
        public var cleanTrack: [TraceEvaluation.TrackPoint]
        public var feedTrack: [TraceEvaluation.TrackPoint]
        public var start: Timestamp?
        public var cleanFixes: Int
        public var feedFixes: Int
        /// Notifications and findings worth drawing (enter, exit, passthrough, lost signals), with a place.
        public var markers: [Marker]
        /// The Places state over time (empty without Places, or when the events were not kept).
        public var places: [CheckInSummary.PlacesStep] = []
        /// The trace's check-ins per zone against its truth stays (empty without check-ins, or
        /// when the events were not kept).
        public var checkIns = CheckInSummary()

        public var failed: Bool { error != nil }

        /// The entry of an evaluated trace.
        public init(_ e: TraceEvaluation) {
            self.init(
                name: e.input.label, path: e.input.path, error: e.error?.fullDescription, score: e.score,
                cleanTrack: e.cleanTrack, feedTrack: e.feedTrack, start: e.start, cleanFixes: e.cleanFixCount,
                feedFixes: e.feedFixCount, markers: AccuracyReport.markers(e))
            guard let start = e.start else { return }
            // From every check-in, check-out and Places line, not only the events kept for the map.
            places = CheckInSummary.places(e.pipelineEvents, start: start)
            if let score = e.score, e.pipelineEvents.contains(where: { $0.type == .checkin }) {
                checkIns.add(
                    events: e.pipelineEvents, visits: score.visits, start: start,
                    end: Timestamp(
                        seconds: start.seconds, nanoseconds: Int64(start.nanoseconds) + Int64((score.durationSeconds * 1e9).rounded())))
            }
        }

        init(
            name: String, path: String, error: String?, score: TraceScore?, cleanTrack: [TraceEvaluation.TrackPoint],
            feedTrack: [TraceEvaluation.TrackPoint], start: Timestamp?, cleanFixes: Int, feedFixes: Int, markers: [Marker]
        ) {
            self.name = name
            self.path = path
            self.error = error
            self.score = score
            self.cleanTrack = cleanTrack
            self.feedTrack = feedTrack
            self.start = start
            self.cleanFixes = cleanFixes
            self.feedFixes = feedFixes
            self.markers = markers
        }
    }

    /// An event drawn on the map.
    public struct Marker: Sendable, Hashable {
        public enum Kind: String, Sendable, CaseIterable {
            case enter, exit, passthrough, lost, missed, falseDetection
        }

        public var kind: Kind
        public var longitude: Double
        public var latitude: Double
        public var label: String
        /// The fence the event is about (`""` when it names none).
        public var fence: String = ""
    }

    /// A fence as drawn: WGS84 shape, kind and id.
    public struct FenceShape: Sendable {
        public var id: String
        public var zone: String
        public var kind: Fence.Kind
        public var shape: Shape
    }

    public var title: String
    /// `fencesim <version>`.
    public var generator: String
    public var fencesFile: String
    /// `trace`, `reference <path>` or `visits <path>`.
    public var truth: String
    public var degradation: Degradation?
    public var bands: [SpeedBand]
    public var summary: AccuracySummary
    public var traces: [TraceEntry]
    /// Every truth visit's score, traces in input order, each in time order.
    public var visits: [VisitScore]
    public var falseDetections: [TraceScore.FalseDetection]
    /// The fences drawn on the map (those near the tracks, at most ``fenceDrawLimit``).
    public var fences: [FenceShape]
    /// Fences not drawn because of the limit.
    public var fencesOmitted: Int
    /// Check-ins per zone against the truth stays in the zone's fences; empty when no event was
    /// kept (only the HTML report keeps them) or there are no check-ins.
    public var checkIns: CheckInSummary

    /// At most this many fences are drawn.
    public static let fenceDrawLimit = 3000

    /// At most this many markers are drawn per trace: the first ones, in the order of
    /// ``markers(events:score:limit:)``.
    public static let markerLimit = 5000

    /// Builds the report of evaluated traces.
    ///
    /// - Parameters:
    ///   - evaluations: the traces, in input order.
    ///   - fences: the fence set.
    ///   - title: the report's title (the scenario's name, or the inputs).
    ///   - generator: what made it (`fencesim 0.1.0`).
    ///   - truth: how truth was taken, as shown to readers.
    ///   - degradation: the degradation of the feed, if any.
    ///   - drawsMap: whether the report's map is drawn (HTML); without it, no fences are chosen
    ///     for it (``fences`` is empty).
    public init(
        evaluations: [TraceEvaluation], fences: FenceSet, title: String, generator: String, truth: String,
        degradation: Degradation?, bands: [SpeedBand] = SpeedBand.standard, drawsMap: Bool = true
    ) {
        self.init(
            entries: evaluations.map(TraceEntry.init), fences: fences, title: title, generator: generator, truth: truth,
            degradation: degradation, bands: bands, drawsMap: drawsMap)
    }

    /// Builds the report of traces already evaluated and reduced to their entries (the traces of
    /// every shard of a run, merged).
    ///
    /// - Parameter entries: the traces, in input order.
    public init(
        entries: [TraceEntry], fences: FenceSet, title: String, generator: String, truth: String,
        degradation: Degradation?, bands: [SpeedBand] = SpeedBand.standard, drawsMap: Bool = true
    ) {
        self.title = title
        self.generator = generator
        fencesFile = fences.file
        self.truth = truth
        self.degradation = degradation
        self.bands = bands
        let scores = entries.compactMap(\.score)
        var summary = AccuracySummary(scores, fences: fences, bands: bands)
        summary.settle()
        self.summary = summary
        // One trace's lists are shared, not copied (a long drive's visits are hundreds of megabytes).
        visits = scores.count == 1 ? scores[0].visits : scores.flatMap(\.visits)
        falseDetections = scores.count == 1 ? scores[0].falseDetections : scores.flatMap(\.falseDetections)
        traces = entries
        // Each trace's check-ins folded in input order, as one pass over the traces would.
        var checkIns = CheckInSummary()
        for entry in entries { checkIns.merge(entry.checkIns) }
        self.checkIns = checkIns
        guard drawsMap else {
            self.fences = []
            fencesOmitted = 0
            return
        }
        // Fences near the tracks, visited ones first, at most the limit.
        var box: BoundingBox?
        for t in traces {
            for p in t.cleanTrack + t.feedTrack {
                let xy = XY(longitude: p.longitude, latitude: p.latitude)
                if box == nil { box = BoundingBox(minX: xy.x, minY: xy.y, maxX: xy.x, maxY: xy.y) } else { box?.include(xy) }
            }
        }
        let margin = box.map { max($0.width, $0.height) * 0.1 + 0.0005 } ?? 0
        let near = box?.expanded(by: margin)
        // Visited fences by index (a visit names its fence's index in `fences`; by id when it
        // does not), and the ids of fences visited under another index.
        var visitedIndex = [Bool](repeating: false, count: fences.fences.count)
        var visitedID = Set<String>()
        func visit(_ j: Int, _ id: String) {
            if visitedIndex.indices.contains(j), fences.fences[j].id == id { visitedIndex[j] = true } else { visitedID.insert(id) }
        }
        for v in visits { visit(v.truth.fence, v.truth.fenceID) }
        for d in falseDetections { visit(d.visit.fence, d.visit.fenceID) }
        var chosen: [FenceShape] = []
        // Candidates by index into the fence set (sorting whole fences moved each one about).
        var candidates: [(visited: Bool, fence: Int)] = []
        for (j, fence) in fences.fences.enumerated() {
            guard let b = MapFigure.extent(fence.shape, fence.kind) else { continue }
            let visited = visitedIndex[j] || (!visitedID.isEmpty && visitedID.contains(fence.id))
            if let near, !near.intersects(b), !visited { continue }
            candidates.append((visited, j))
        }
        let all = fences.fences
        candidates.sort { a, b in a.visited != b.visited ? a.visited : all[a.fence].id < all[b.fence].id }
        for c in candidates.prefix(AccuracyReport.fenceDrawLimit) {
            let fence = all[c.fence]
            chosen.append(FenceShape(id: fence.id, zone: fence.zone ?? "default", kind: fence.kind, shape: fence.shape))
        }
        self.fences = chosen
        fencesOmitted = max(0, candidates.count - AccuracyReport.fenceDrawLimit)
    }

    /// An enter notification by its fence id and time: where a false detection is drawn.
    struct EnterKey: Hashable {
        var fence: String
        var time: Timestamp
    }

    /// The markers of one trace: its notifications, passthroughs and lost signals with a place,
    /// its missed truth visits at their true entry, its false detections.
    ///
    /// - Complexity: O(events + visits): a false detection finds its enter in a table built in
    ///   the same pass over the events (a search of the log for each one made reports of long
    ///   traces quadratic); the pass stops at ``markerLimit`` markers.
    static func markers(_ e: TraceEvaluation) -> [Marker] {
        markers(events: e.outcome.events, score: e.score)
    }

    /// The first `limit` markers of a trace's `events` (read once, in order, until `limit`
    /// markers are found) and `score`.
    static func markers(events: some Sequence<LogEvent>, score: TraceScore?, limit: Int = AccuracyReport.markerLimit) -> [Marker] {
        var out: [Marker] = []
        // The place of the first enter of each (fence, time); `nil` when it has none.
        var enters: [EnterKey: (longitude: Double?, latitude: Double?)] = [:]
        let falseDetections = score?.falseDetections ?? []
        for event in events {
            if !falseDetections.isEmpty, event.type == .enter, case .string(let f)? = event.field("fence") {
                let key = EnterKey(fence: f, time: event.time)
                if enters[key] == nil { enters[key] = (event.longitude, event.latitude) }
            }
            guard event.isDrawn, let lon = event.longitude, let lat = event.latitude else { continue }
            let fence: String
            if case .string(let s)? = event.field("fence") { fence = s } else { fence = "" }
            let kind: Marker.Kind
            switch event.type {
            case .enter: kind = .enter
            case .exit: kind = .exit
            case .passthrough: kind = .passthrough
            default: kind = .lost
            }
            out.append(
                Marker(kind: kind, longitude: lon, latitude: lat, label: "\(event.type.rawValue) \(fence) \(event.time)", fence: fence))
            // The markers below come after these: none of them would be drawn.
            if out.count == limit { return out }
        }
        for d in falseDetections {
            let enter = enters[EnterKey(fence: d.visit.fenceID, time: d.visit.enter)]
            guard let lon = enter?.longitude, let lat = enter?.latitude else { continue }
            out.append(
                Marker(
                    kind: .falseDetection, longitude: lon, latitude: lat, label: "false detection \(d.visit.fenceID) \(d.visit.enter)",
                    fence: d.visit.fenceID))
            if out.count == limit { return out }
        }
        for v in score?.visits ?? [] where !v.detected {
            guard let lon = v.truth.enterLongitude, let lat = v.truth.enterLatitude else { continue }
            out.append(
                Marker(
                    kind: .missed, longitude: lon, latitude: lat, label: "missed \(v.truth.fenceID) \(v.truth.enter)",
                    fence: v.truth.fenceID))
            if out.count == limit { return out }
        }
        return out
    }
}

/// The cosine of an angle in degrees (for drawing only): the portable series the degradation
/// uses, so that drawings do not depend on the C library either.
func cosDegrees(_ degrees: Double) -> Double {
    PortableMath.cos(degrees * .pi / 180)
}
