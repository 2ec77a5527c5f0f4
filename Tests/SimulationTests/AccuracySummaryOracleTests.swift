import Fences
import Spatial
import Support
import Testing

@testable import Accuracy

/// The summary adds each visit to its groups on two threads, through rows found by fence index,
/// lists of latencies reserved per group, and bands ordered given first, others sorted: its
/// numbers must be those of filtering the visits of each group and counting them one by one.
@Suite struct AccuracySummaryOracleTests {
    /// Fences with shared ids (rows by id) and zones, a line (no row), and visits that name fences
    /// beyond the set or by another id (rows by name).
    static let fences = FenceSet(
        file: "f.geojson",
        fences: (0..<12).map { j in
            Fence(
                index: j, id: "f\(j % 9)", kind: j == 11 ? .line : .circle(radiusMeters: 40),
                shape: .point(XY(8.5 + Double(j) * 0.01, 47.39)),
                zone: j % 4 == 0 ? nil : "z\(j % 3)", location: SourceLocation(file: "f.geojson", line: j + 1))
        })

    static func zone(_ j: Int) -> String {
        fences.fences.indices.contains(j) ? fences.fences[j].zone ?? "default" : "default"
    }

    static func scores(seed: UInt64) -> [TraceScore] {
        var random = SplitMix64(seed: 0x5A11 + seed)
        func maybe(_ value: Double) -> Double? { random.next() % 4 == 0 ? nil : value }
        let t0 = Timestamp(seconds: 1_767_225_600)
        let labels = ["0-5", "5-15", "15-30", "30+", "unknown", "walking", "bus"]
        return (0..<Int(1 + seed % 3)).map { n in
            let trace = "trace-\(n)"
            let visits = (0..<Int(200 + random.next() % 400)).map { k -> VisitScore in
                // Mostly fences of the set under their own id; some beyond it or renamed.
                var fence = Int(random.next() % 11)
                var id = fences.fences[fence].id
                if random.next() % 10 == 0 { fence = 40 + Int(random.next() % 3) }
                if random.next() % 10 == 0 { id = "other\(random.next() % 3)" }
                let enter = t0.adding(nanoseconds: Int64(k) * 7_000_000_000)
                let truth = TruthVisit(fence: fence, fenceID: id, enter: enter, exit: enter.adding(nanoseconds: 5_000_000_000))
                let detected = random.next() % 5 != 0
                let match = detected ? DetectedVisit(fence: fence, fenceID: id, enter: enter, exit: nil) : nil
                // Latencies of few distinct values (ties in the sorts), negative zero among them.
                let latency = { Double(Int(random.next() % 7) - 2) * 0.5 }
                var s = VisitScore(
                    trace: trace, zone: random.next() % 8 == 0 ? "elsewhere" : zone(fence), truth: truth, match: match,
                    detectedExit: random.next() % 3 == 0 ? nil : enter, enterLatency: detected ? maybe(latency()) : nil,
                    exitLatency: detected ? maybe(latency()) : nil,
                    dwellError: detected ? maybe(random.next() % 9 == 0 ? -0.0 : latency()) : nil,
                    flaps: Int(random.next() % 3), falseExits: Int(random.next() % 2),
                    speedBand: labels[Int(random.next() % UInt64(labels.count))])
                if !detected { s.missReason = random.next() % 2 == 0 ? .gap : .undetected }
                return s
            }
            let falses = (0..<Int(random.next() % 20)).map { k -> TraceScore.FalseDetection in
                let fence = Int(random.next() % 13)
                let id = fences.fences.indices.contains(fence) ? fences.fences[fence].id : "gone"
                return TraceScore.FalseDetection(
                    trace: trace, zone: zone(fence),
                    visit: DetectedVisit(fence: fence, fenceID: id, enter: t0.adding(nanoseconds: Int64(k) * 1_000_000_000)))
            }
            return TraceScore(trace: trace, durationSeconds: 1800 + Double(n) * 600, visits: visits, falseDetections: falses)
        }
    }

    /// A group's numbers counted one visit at a time.
    static func expected(_ visits: [VisitScore], falses: Int?, hours: Double?) -> AccuracyMetrics {
        var m = AccuracyMetrics(countsDetections: falses != nil, hours: hours)
        m.truthVisits = visits.count
        m.detected = visits.filter(\.detected).count
        m.missed = visits.count - m.detected
        m.missedInGap = visits.filter { $0.missReason == .gap }.count
        m.flaps = visits.reduce(0) { $0 + $1.flaps }
        m.falseExits = visits.reduce(0) { $0 + $1.falseExits }
        m.exitsMissed = visits.filter(\.exitMissed).count
        m.falseDetections = falses
        m.enterLatencies = visits.compactMap(\.enterLatency)
        m.exitLatencies = visits.compactMap(\.exitLatency)
        m.dwellErrors = visits.compactMap(\.dwellError)
        return m
    }

    static func same(_ a: AccuracyMetrics, _ b: AccuracyMetrics) -> Bool {
        a.truthVisits == b.truthVisits && a.detected == b.detected && a.missed == b.missed && a.missedInGap == b.missedInGap
            && a.flaps == b.flaps && a.falseExits == b.falseExits && a.exitsMissed == b.exitsMissed
            && a.falseDetections == b.falseDetections && a.hours == b.hours && a.enterLatency == b.enterLatency
            && a.exitLatency == b.exitLatency && a.dwellError == b.dwellError
    }

    @Test(arguments: 0..<6 as Range<UInt64>)
    func everyGroupCountsItsVisits(seed: UInt64) {
        let scores = Self.scores(seed: seed)
        var summary = AccuracySummary(scores, fences: Self.fences)
        summary.settle()
        let visits = scores.flatMap(\.visits)
        let falses = scores.flatMap(\.falseDetections)
        let hours = scores.reduce(0) { $0 + $1.durationSeconds } / 3600
        #expect(Self.same(summary.overall, Self.expected(visits, falses: falses.count, hours: hours)))
        // Fences: every id of a fence with visits, and every id a visit or false detection names.
        let fenceKeys = Set(
            Self.fences.fences.filter { GroundTruth.hasVisits($0) }.map(\.id) + visits.map(\.truth.fenceID) + falses.map(\.visit.fenceID))
        #expect(summary.byFence.map(\.key) == fenceKeys.sorted())
        for group in summary.byFence {
            let mine = visits.filter { $0.truth.fenceID == group.key }
            let wrong = falses.filter { $0.visit.fenceID == group.key }.count
            #expect(Self.same(group.metrics, Self.expected(mine, falses: wrong, hours: hours)), "fence \(group.key)")
        }
        let zoneKeys = Set(
            Self.fences.fences.filter { GroundTruth.hasVisits($0) }.map { $0.zone ?? "default" } + visits.map(\.zone) + falses.map(\.zone))
        #expect(summary.byZone.map(\.key) == zoneKeys.sorted())
        for group in summary.byZone {
            let mine = visits.filter { $0.zone == group.key }
            let wrong = falses.filter { $0.zone == group.key }.count
            #expect(Self.same(group.metrics, Self.expected(mine, falses: wrong, hours: hours)), "zone \(group.key)")
        }
        // Bands: the given ones in speed order, then the other labels sorted.
        let given = SpeedBand.standard.map(\.label)
        let others = Set(visits.map(\.speedBand)).subtracting(given).sorted()
        #expect(summary.bySpeedBand.map(\.key) == given + others)
        for group in summary.bySpeedBand {
            #expect(
                Self.same(group.metrics, Self.expected(visits.filter { $0.speedBand == group.key }, falses: nil, hours: nil)),
                "band \(group.key)")
        }
        #expect(summary.byTrace.map(\.key) == scores.map(\.trace))
        for (group, s) in zip(summary.byTrace, scores) {
            #expect(
                Self.same(group.metrics, Self.expected(s.visits, falses: s.falseDetections.count, hours: s.durationSeconds / 3600)),
                "trace \(s.trace)")
        }
    }
}
