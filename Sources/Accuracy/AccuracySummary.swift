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
        let all = fences?.fences ?? []
        // Two passes over the visits side by side: the rows by fence (most of the work), and
        // every other group. Counts add up and percentiles sort their values, so nothing
        // depends on which pass ran first. Each pass works on values of its own and hands them
        // over at its end (variables captured by both were boxes, checked for exclusive access
        // at every visit).
        final class Results: @unchecked Sendable {
            var fence = Rows(hours: 0)
            var others: Others?
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { pass in
            if pass == 0 {
                results.fence = AccuracySummary.fenceRows(scores, all, hours: hours)
            } else {
                results.others = AccuracySummary.otherGroups(scores, all, hours: hours, bands: bands)
            }
        }
        guard let others = results.others else { preconditionFailure("the second pass ran") }
        overall = others.overall
        byTrace = others.traces
        byFence = results.fence.groups()
        byZone = others.zone.groups()
        // The given bands in speed order, then any other label a visit carries, sorted.
        let band = others.bands
        let extra = band.labels.indices.dropFirst(bands.count).sorted { band.labels[$0] < band.labels[$1] }
        bySpeedBand = (Array(0..<min(bands.count, band.labels.count)) + extra).map {
            Group(key: band.labels[$0], metrics: band.metrics[$0])
        }
    }

    /// Every fence with visits gets its row in `rows`, in fence order, before any visit is
    /// added: the rows by fence index (-1 for none). Fences read in place: a loop variable
    /// copied each fence (a dozen references retained).
    ///
    /// - Parameter distinct: whether the keys are mostly distinct (fence ids): room is made for
    ///   a row a fence at once, and a key is looked up once as it is added (a table grown from
    ///   empty to 100,000 ids was resized 18 times, and each new id looked up twice: the first
    ///   pass took 246 M instructions of the large workload's 200,000-fix report, 114 M so).
    ///   Zones, a few hundred keys named again and again, are looked up first.
    private static func rows(_ rows: inout Rows, _ all: [Fence], distinct: Bool, key: (borrowing Fence) -> String) -> [Int] {
        var byIndex = [Int](repeating: -1, count: all.count)
        if distinct { rows.reserve(all.count) }
        all.withUnsafeBufferPointer { all in
            for j in all.indices where GroundTruth.hasVisits(kind: all[j].kind) {
                byIndex[j] = distinct ? rows.rowAdding(key(all[j])) : rows.row(key(all[j]))
            }
        }
        return byIndex
    }

    /// The row of `rows` for fence index `j` named `key` (the index's row when it names it).
    @inline(__always)
    private static func row(_ rows: inout Rows, _ byIndex: [Int], _ j: Int, _ key: String) -> Int {
        if byIndex.indices.contains(j), byIndex[j] >= 0, rows.keys[byIndex[j]] == key { return byIndex[j] }
        return rows.row(key)
    }

    /// The first pass: the rows by fence id; a visit finds its row through its fence's index
    /// (no hashing per visit), or by its id when the index does not name it.
    private static func fenceRows(_ scores: [TraceScore], _ all: [Fence], hours: Double) -> Rows {
        var fence = Rows(hours: hours)
        let fenceRow = rows(&fence, all, distinct: true) { $0.id }
        for s in scores {
            // Read in place: a loop variable would copy each visit (and retain its names); groups
            // take its numbers (``AccuracyMetrics/Outcome``). Each visit's row first, so that
            // every row makes room for its visits once.
            s.visits.withUnsafeBufferPointer { visits in
                let rows = visits.indices.map { k in row(&fence, fenceRow, visits[k].truth.fence, visits[k].truth.fenceID) }
                AccuracySummary.reserve(&fence.metrics, rows)
                for k in visits.indices { fence.metrics[rows[k]].add(AccuracyMetrics.Outcome(visits[k])) }
            }
            for d in s.falseDetections { fence.metrics[row(&fence, fenceRow, d.visit.fence, d.visit.fenceID)].addFalseDetection() }
        }
        return fence
    }

    /// Makes room in each of `metrics` for the visits `rows` names it for (a row a visit).
    private static func reserve(_ metrics: inout [AccuracyMetrics], _ rows: [Int]) {
        var counts = [Int](repeating: 0, count: metrics.count)
        for r in rows { counts[r] += 1 }
        for r in metrics.indices where counts[r] > 0 { metrics[r].reserve(visits: counts[r]) }
    }

    /// What the second pass adds up.
    private struct Others {
        var overall: AccuracyMetrics
        var zone: Rows
        /// By speed band: the given bands first, then other labels in the order visits named them.
        var bands: (labels: [String], metrics: [AccuracyMetrics])
        var traces: [Group] = []
    }

    /// The second pass: overall, by zone, by speed band and by trace.
    private static func otherGroups(_ scores: [TraceScore], _ all: [Fence], hours: Double, bands: [SpeedBand]) -> Others {
        var others = Others(
            overall: AccuracyMetrics(hours: hours), zone: Rows(hours: hours),
            bands: (bands.map(\.label), bands.map { _ in AccuracyMetrics(countsDetections: false) }))
        let zoneRow = rows(&others.zone, all, distinct: false) { $0.zone ?? "default" }
        // One trace's numbers are the overall ones (its hours are the total's, to the bit):
        // taken from them, not added up a second time.
        let oneTrace = scores.count == 1
        for s in scores {
            var t = AccuracyMetrics(hours: s.durationSeconds / 3600)
            s.visits.withUnsafeBufferPointer { visits in add(visits, to: &others, trace: &t, zoneRow: zoneRow, oneTrace: oneTrace) }
            for d in s.falseDetections {
                others.overall.addFalseDetection()
                if !oneTrace { t.addFalseDetection() }
                others.zone.metrics[row(&others.zone, zoneRow, d.visit.fence, d.zone)].addFalseDetection()
            }
            others.traces.append(Group(key: s.trace, metrics: oneTrace ? others.overall : t))
        }
        return others
    }

    /// Adds one trace's visits to the second pass's groups and to its own (`trace`, unless it is
    /// the only one). A function of its own, `others` passed in place: captured by the closures
    /// of the loop over the visits, it was a box checked for exclusive access twice a visit (the
    /// second pass 158 → 134 M instructions on the large workload's 200,000-fix report).
    private static func add(
        _ visits: UnsafeBufferPointer<VisitScore>, to others: inout Others, trace t: inout AccuracyMetrics, zoneRow: [Int],
        oneTrace: Bool
    ) {
        // Each visit's rows first, so that every group makes room for its visits once.
        var zones: [Int] = []
        var bands: [Int] = []
        zones.reserveCapacity(visits.count)
        bands.reserveCapacity(visits.count)
        for k in visits.indices {
            zones.append(row(&others.zone, zoneRow, visits[k].truth.fence, visits[k].zone))
            bands.append(bandRow(&others.bands, visits[k].speedBand))
        }
        others.overall.reserve(visits: visits.count)
        if !oneTrace { t.reserve(visits: visits.count) }
        AccuracySummary.reserve(&others.zone.metrics, zones)
        AccuracySummary.reserve(&others.bands.metrics, bands)
        for k in visits.indices {
            let outcome = AccuracyMetrics.Outcome(visits[k])
            others.overall.add(outcome)
            if !oneTrace { t.add(outcome) }
            others.zone.metrics[zones[k]].add(outcome)
            others.bands.metrics[bands[k]].add(outcome)
        }
    }

    /// The row of a band's label in `bands` (labels compared alone: the rows' metrics are not
    /// copied), added when new.
    private static func bandRow(_ bands: inout (labels: [String], metrics: [AccuracyMetrics]), _ label: String) -> Int {
        if let k = bands.labels.firstIndex(of: label) { return k }
        bands.labels.append(label)
        bands.metrics.append(AccuracyMetrics(countsDetections: false))
        return bands.labels.count - 1
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
            return add(key)
        }

        /// ``row(_:)`` for a key that is most likely new: added by one lookup, the row it had
        /// put back when it was not new (a second lookup, for a repeated key alone).
        mutating func rowAdding(_ key: String) -> Int {
            if let k = index.updateValue(keys.count, forKey: key) {
                index[key] = k
                return k
            }
            return append(key)
        }

        private mutating func add(_ key: String) -> Int {
            index[key] = keys.count
            return append(key)
        }

        /// A new row for `key`, which ``index`` already names.
        private mutating func append(_ key: String) -> Int {
            keys.append(key)
            metrics.append(AccuracyMetrics(hours: hours))
            return keys.count - 1
        }

        /// Makes room for `count` rows.
        mutating func reserve(_ count: Int) {
            index.reserveCapacity(count)
            keys.reserveCapacity(count)
            metrics.reserveCapacity(count)
        }

        /// The groups, by key.
        func groups() -> [Group] {
            keys.indices.sorted { keys[$0] < keys[$1] }.map { Group(key: keys[$0], metrics: metrics[$0]) }
        }
    }
}
