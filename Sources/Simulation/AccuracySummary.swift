import Fences

/// The aggregates of SPEC §6.3 over many scored traces: overall, per fence, zone, trace and
/// speed band, in a fixed order (fences and zones by id, traces in input order, bands in speed
/// order with `unknown` last).
public struct AccuracySummary: Sendable {
    /// One group and its numbers.
    public struct Group: Sendable {
        public var key: String
        public var metrics: AccuracyMetrics
    }

    public var overall: AccuracyMetrics
    public var byFence: [Group]
    public var byZone: [Group]
    public var byTrace: [Group]
    public var bySpeedBand: [Group]
    /// Total hours of true path.
    public var hours: Double

    /// Aggregates `scores`.
    ///
    /// - Parameters:
    ///   - fences: every scored fence gets a row, visited or not (lines excluded).
    ///   - bands: the speed bands, all shown even when empty.
    public init(_ scores: [TraceScore], fences: FenceSet? = nil, bands: [SpeedBand] = SpeedBand.standard) {
        let hours = scores.reduce(0) { $0 + $1.durationSeconds } / 3600
        self.hours = hours
        var overall = AccuracyMetrics(hours: hours)
        var fence: [String: AccuracyMetrics] = [:]
        var zone: [String: AccuracyMetrics] = [:]
        var band: [String: AccuracyMetrics] = [:]
        for f in fences?.fences ?? [] where GroundTruth.hasVisits(f) {
            fence[f.id] = AccuracyMetrics(hours: hours)
            zone[f.zone ?? "default"] = AccuracyMetrics(hours: hours)
        }
        for b in bands { band[b.label] = AccuracyMetrics(countsDetections: false) }
        var traces: [Group] = []
        for s in scores {
            var t = AccuracyMetrics(hours: s.durationSeconds / 3600)
            for v in s.visits {
                overall.add(v)
                t.add(v)
                fence[v.truth.fenceID, default: AccuracyMetrics(hours: hours)].add(v)
                zone[v.zone, default: AccuracyMetrics(hours: hours)].add(v)
                band[v.speedBand, default: AccuracyMetrics(countsDetections: false)].add(v)
            }
            for d in s.falseDetections {
                overall.addFalseDetection()
                t.addFalseDetection()
                fence[d.visit.fenceID, default: AccuracyMetrics(hours: hours)].addFalseDetection()
                zone[d.zone, default: AccuracyMetrics(hours: hours)].addFalseDetection()
            }
            traces.append(Group(key: s.trace, metrics: t))
        }
        self.overall = overall
        byTrace = traces
        byFence = fence.keys.sorted().map { Group(key: $0, metrics: fence[$0] ?? AccuracyMetrics()) }
        byZone = zone.keys.sorted().map { Group(key: $0, metrics: zone[$0] ?? AccuracyMetrics()) }
        let order = bands.map(\.label) + band.keys.filter { k in !bands.contains { $0.label == k } }.sorted()
        bySpeedBand = order.map { Group(key: $0, metrics: band[$0] ?? AccuracyMetrics(countsDetections: false)) }
    }
}
