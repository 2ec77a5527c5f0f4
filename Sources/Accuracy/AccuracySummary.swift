import Dispatch
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
        // Rows by fence id and by zone; a visit finds its rows through its fence's index (no
        // hashing per visit), or by its names when the index does not name them.
        var fence = Rows(hours: hours)
        var zone = Rows(hours: hours)
        let all = fences?.fences ?? []
        var fenceRow: [Int] = []
        var zoneRow: [Int] = []
        /// Every fence with visits gets its row, in fence order, before any visit is added (each
        /// pass sets up its own table: a serial stretch of 100,000 rows otherwise). Fences read
        /// in place: a loop variable copied each fence (a dozen references retained).
        func rows(_ rows: inout Rows, _ byIndex: inout [Int], key: (borrowing Fence) -> String) {
            byIndex = [Int](repeating: -1, count: all.count)
            all.withUnsafeBufferPointer { all in
                for j in all.indices where GroundTruth.hasVisits(kind: all[j].kind) { byIndex[j] = rows.row(key(all[j])) }
            }
        }
        var band: [(label: String, metrics: AccuracyMetrics)] = bands.map { ($0.label, AccuracyMetrics(countsDetections: false)) }
        func bandRow(_ label: String) -> Int {
            if let k = band.firstIndex(where: { $0.label == label }) { return k }
            band.append((label, AccuracyMetrics(countsDetections: false)))
            return band.count - 1
        }
        /// The row of `rows` for fence index `j` named `key` (the index's row when it names it).
        func row(_ rows: inout Rows, _ byIndex: [Int], _ j: Int, _ key: String) -> Int {
            if byIndex.indices.contains(j), byIndex[j] >= 0, rows.keys[byIndex[j]] == key { return byIndex[j] }
            return rows.row(key)
        }
        // Two passes over the visits side by side: the rows by fence (most of the work), and
        // every other group. Counts add up and percentiles sort their values, so nothing
        // depends on which pass ran first.
        var traces: [Group] = []
        struct Shared: @unchecked Sendable {
            let body: (Int) -> Void
        }
        let passes = Shared { pass in
            if pass == 0 {
                rows(&fence, &fenceRow) { $0.id }
                for s in scores {
                    // Read in place: a loop variable would copy each visit (and retain its names).
                    s.visits.withUnsafeBufferPointer { visits in
                        for k in visits.indices {
                            fence.metrics[row(&fence, fenceRow, visits[k].truth.fence, visits[k].truth.fenceID)].add(visits[k])
                        }
                    }
                    for d in s.falseDetections { fence.metrics[row(&fence, fenceRow, d.visit.fence, d.visit.fenceID)].addFalseDetection() }
                }
                return
            }
            rows(&zone, &zoneRow) { $0.zone ?? "default" }
            // One trace's numbers are the overall ones (its hours are the total's, to the bit):
            // taken from them, not added up a second time.
            let oneTrace = scores.count == 1
            for s in scores {
                var t = AccuracyMetrics(hours: s.durationSeconds / 3600)
                s.visits.withUnsafeBufferPointer { visits in
                    for k in visits.indices {
                        overall.add(visits[k])
                        if !oneTrace { t.add(visits[k]) }
                        zone.metrics[row(&zone, zoneRow, visits[k].truth.fence, visits[k].zone)].add(visits[k])
                        band[bandRow(visits[k].speedBand)].metrics.add(visits[k])
                    }
                }
                for d in s.falseDetections {
                    overall.addFalseDetection()
                    if !oneTrace { t.addFalseDetection() }
                    zone.metrics[row(&zone, zoneRow, d.visit.fence, d.zone)].addFalseDetection()
                }
                traces.append(Group(key: s.trace, metrics: oneTrace ? overall : t))
            }
        }
        DispatchQueue.concurrentPerform(iterations: 2) { passes.body($0) }
        self.overall = overall
        byTrace = traces
        byFence = fence.groups()
        byZone = zone.groups()
        // The given bands in speed order, then any other label a visit carries, sorted.
        let extra = band[bands.count...].sorted { $0.label < $1.label }
        bySpeedBand = (band[..<bands.count] + extra).map { Group(key: $0.label, metrics: $0.metrics) }
    }

    /// Works out every group's percentiles once (``AccuracyMetrics/settle()``), on two threads:
    /// the groups that hold every visit (overall, bands, traces) on one, zones and fences on the
    /// other. Each group sorts its own values, so nothing depends on the split. For a report,
    /// which reads them all; a sweep reads only the overall numbers of each combination.
    public mutating func settle() {
        // Moved out (the arrays' one reference), settled, and moved back: no copy.
        var overall = self.overall
        var bySpeedBand = self.bySpeedBand
        var byTrace = self.byTrace
        var byZone = self.byZone
        var byFence = self.byFence
        (self.bySpeedBand, self.byTrace, self.byZone, self.byFence) = ([], [], [], [])
        struct Shared: @unchecked Sendable {
            let body: (Int) -> Void
        }
        let halves = Shared { half in
            if half == 0 {
                overall.settle()
                for k in bySpeedBand.indices { bySpeedBand[k].metrics.settle() }
                // A report of one trace: its values are the overall ones.
                for k in byTrace.indices { byTrace[k].metrics.settle(like: overall) }
            } else {
                for k in byZone.indices { byZone[k].metrics.settle() }
                for k in byFence.indices { byFence[k].metrics.settle() }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 2) { halves.body($0) }
        self.overall = overall
        self.bySpeedBand = bySpeedBand
        self.byTrace = byTrace
        self.byZone = byZone
        self.byFence = byFence
    }

    /// Groups by key, each key once, in the order they were first named.
    struct Rows {
        var keys: [String] = []
        var metrics: [AccuracyMetrics] = []
        var index: [String: Int] = [:]
        let hours: Double

        init(hours: Double) {
            self.hours = hours
        }

        /// The row of `key`, added when new.
        mutating func row(_ key: String) -> Int {
            if let k = index[key] { return k }
            index[key] = keys.count
            keys.append(key)
            metrics.append(AccuracyMetrics(hours: hours))
            return keys.count - 1
        }

        /// The groups, by key.
        func groups() -> [Group] {
            keys.indices.sorted { keys[$0] < keys[$1] }.map { Group(key: keys[$0], metrics: metrics[$0]) }
        }
    }
}
