import Fences
import Geotriggers
import Spatial
import Support
import Testing

@testable import Accuracy
@testable import EventPipeline

/// Scoring (SPEC §6.3) on hand-built cases; every number is worked out by hand in the comments.
@Suite struct ScoringTests {
    static let t0 = Timestamp(seconds: 1_767_225_600)  // 2026-01-01T00:00:00Z
    static func t(_ s: Double) -> Timestamp { t0.adding(seconds: s) }

    static let fences = FenceSet(
        file: "fences.geojson",
        fences: [
            Fence(
                index: 0, id: "F", kind: .circle(radiusMeters: 50), shape: .point(XY(8.5, 47.39)), zone: "shops",
                location: SourceLocation(file: "fences.geojson", line: 2)),
            Fence(
                index: 1, id: "G", kind: .circle(radiusMeters: 50), shape: .point(XY(8.51, 47.39)),
                location: SourceLocation(file: "fences.geojson", line: 3)),
        ])

    static func event(_ type: LogEvent.EventType, _ fence: String, _ s: Double, _ extra: [(String, JSONValue)] = []) -> LogEvent {
        LogEvent(time: t(s), trace: "drive", type: type, fields: [("fence", .string(fence))] + extra)
    }

    static func truth(_ fence: Int, _ enter: Double, _ exit: Double?, speed: Double = 10, startsInside: Bool = false) -> TruthVisit {
        TruthVisit(
            fence: fence, fenceID: fences.fences[fence].id, enter: t(enter), exit: exit.map(t), startsInside: startsInside,
            enterSpeed: speed)
    }

    static func score(_ truth: [TruthVisit], _ events: [LogEvent], duration: Double = 3600) -> TraceScore {
        Scoring.score(truth: truth, events: events, fences: fences, trace: "drive", durationSeconds: duration)
    }

    /// Scoring groups a drive's visits by fence with a counting sort where the indices are dense
    /// and a comparison sort where they are sparse: either way the groups of a stable comparison
    /// sort, on random fence indices (repeats, gaps, one fence, none; spreads on both sides).
    @Test func positionsByFenceGroupAsASortWould() {
        var random = SplitMix64(seed: 11)
        for n in [0, 1, 2, 7, 100, 5000] {
            for spread in [1, 3, 50, 100_000] {
                let fences = (0..<n).map { _ in Int(random.next() % UInt64(spread)) }
                let sorted = fences.indices.sorted { a, b in fences[a] != fences[b] ? fences[a] < fences[b] : a < b }
                var expected: [(Int, [Int])] = []
                for p in sorted {
                    if expected.last?.0 == fences[p] { expected[expected.count - 1].1.append(p) } else { expected.append((fences[p], [p])) }
                }
                let groups = Scoring.positionsByFence(fences)
                #expect(groups.map(\.fence) == expected.map(\.0), "n \(n), spread \(spread)")
                #expect(groups.map { Array($0.positions) } == expected.map(\.1), "n \(n), spread \(spread)")
            }
        }
    }

    /// Percentiles worked out once (``AccuracyMetrics/settle()``, what a report does for every
    /// group) are those of the values, and a value changed afterwards is seen: no stale numbers.
    @Test func settledPercentilesFollowTheValues() {
        var m = AccuracyMetrics()
        m.enterLatencies = (0..<300).map { Double(($0 * 7919) % 301) / 10 }
        m.exitLatencies = [2, 1]
        let enter = m.enterLatency
        m.settle()
        #expect(m.enterLatency == enter && m.exitLatency == AccuracyMetrics.Percentiles([1, 2]) && m.dwellError == nil)
        m.enterLatencies.append(1000)
        #expect(m.enterLatency == AccuracyMetrics.Percentiles(m.enterLatencies) && m.enterLatency != enter)
        m.settle()
        m.dwellErrors.append(4)
        #expect(m.dwellError?.count == 1 && m.enterLatency?.count == 301)
        // Settled like another group: its numbers only when the values are the same bits.
        var same = AccuracyMetrics()
        same.enterLatencies = m.enterLatencies
        same.exitLatencies = m.exitLatencies
        same.dwellErrors = m.dwellErrors
        m.settle()
        same.settle(like: m)
        #expect(same.enterLatency == m.enterLatency && same.dwellError == m.dwellError)
        var other = same
        other.enterLatencies[0] = -other.enterLatencies[0] - 1
        other.settle(like: m)
        #expect(other.enterLatency == AccuracyMetrics.Percentiles(other.enterLatencies) && other.enterLatency != m.enterLatency)
    }

    @Test func visitMissedBecauseTheFenceLiesInAGap() throws {
        // True visit 100–102 s at 30 m/s; the fixes at 99 s and 103 s are both outside, so the
        // engine reports a passthrough instead of an enter.
        let s = Self.score(
            [Self.truth(0, 100, 102, speed: 30)],
            [
                Self.event(
                    .passthrough, "F", 103,
                    [("enterTime", .string(Self.t(100).description)), ("exitTime", .string(Self.t(102).description))])
            ])
        let v = try #require(s.visits.first)
        #expect(!v.detected)
        #expect(v.missReason == .gap)
        #expect(v.speedBand == "30+")
        #expect(s.passthroughs == 1)
        #expect(s.falseDetections.isEmpty)
        let m = AccuracySummary([s], fences: Self.fences).overall
        #expect(m.truthVisits == 1 && m.detected == 0 && m.missed == 1 && m.missedInGap == 1)
        #expect(m.recall == 0)
        #expect(m.precision == nil)  // no detections at all
        #expect(m.f1 == nil)
    }

    @Test func lateEnter() throws {
        // True 100–200 s; detected 130–205 s: enter +30 s, exit +5 s, dwell (205−130) − 100 = −25 s.
        let s = Self.score([Self.truth(0, 100, 200)], [Self.event(.enter, "F", 130), Self.event(.exit, "F", 205)])
        let v = try #require(s.visits.first)
        #expect(v.detected)
        #expect(v.enterLatency == 30)
        #expect(v.exitLatency == 5)
        #expect(v.dwellError == -25)
        #expect(v.flaps == 0 && v.falseExits == 0)
        let m = AccuracySummary([s], fences: Self.fences).overall
        #expect(m.recall == 1 && m.precision == 1 && m.f1 == 1)
        #expect(m.enterLatency?.p50 == 30)
    }

    @Test func falseExitFromDrift() throws {
        // Parked inside F for the whole 400 s trace (truth open at the end); one drifted fix makes
        // an exit at 300 s and the device is never seen back in: one false exit, no flap, no exit
        // latency (the true visit has no exit). 1 false exit in 400 s = 9 per hour.
        let s = Self.score(
            [Self.truth(0, 0, nil, speed: 0, startsInside: true)], [Self.event(.enter, "F", 0), Self.event(.exit, "F", 300)],
            duration: 400)
        let v = try #require(s.visits.first)
        #expect(v.detected)
        #expect(v.enterLatency == 0)
        #expect(v.falseExits == 1)
        #expect(v.flaps == 0)
        #expect(v.exitLatency == nil && v.dwellError == nil)
        #expect(v.speedBand == "0-5")
        let m = AccuracySummary([s], fences: Self.fences).overall
        #expect(m.falseExits == 1)
        #expect(m.falseExitsPerHour == 9)
    }

    @Test func flap() throws {
        // True 100–400 s; detected 110–200, 210–250, 260–405: the first matches, the other two are
        // flaps; the exits at 200 and 250 are false (the device is back in before 400 s); the
        // exit latency uses the last detected exit: 405 − 400 = 5 s; dwell (405−110) − 300 = −5 s.
        let events = [
            Self.event(.enter, "F", 110), Self.event(.exit, "F", 200), Self.event(.enter, "F", 210), Self.event(.exit, "F", 250),
            Self.event(.enter, "F", 260), Self.event(.exit, "F", 405),
        ]
        let s = Self.score([Self.truth(0, 100, 400)], events, duration: 1800)
        let v = try #require(s.visits.first)
        #expect(v.flaps == 2)
        #expect(v.falseExits == 2)
        #expect(v.enterLatency == 10)
        #expect(v.exitLatency == 5)
        #expect(v.dwellError == -5)
        #expect(s.falseDetections.isEmpty)
        let m = AccuracySummary([s], fences: Self.fences).overall
        #expect(m.precision == 1)  // flaps do not lower precision
        #expect(m.flaps == 2)
        #expect(m.falseExitsPerHour == 4)  // 2 in half an hour
    }

    @Test func openVisitAtTheEndOfTheTrace() throws {
        // The path ends inside F (truth open) and the detection never exits either: detected, enter
        // latency 20 s, no exit latency, no exit missed.
        let open = Self.score([Self.truth(0, 100, nil)], [Self.event(.enter, "F", 120)])
        let v = try #require(open.visits.first)
        #expect(v.detected && v.enterLatency == 20)
        #expect(v.exitLatency == nil && !v.exitMissed)
        #expect(open.detections.first?.exit == nil)
        // The device left at 200 s but the exit never came (lost): the detection is open at the
        // end, so the exit is missed.
        let lost = Self.score(
            [Self.truth(0, 100, 200)], [Self.event(.enter, "F", 120), Self.event(.suppressed, "F", 205, [("reason", .string("exitLoss"))])])
        let w = try #require(lost.visits.first)
        #expect(w.detected && w.exitMissed && w.exitLatency == nil)
        #expect(lost.lostExits == 1)
        #expect(AccuracySummary([lost]).overall.exitsMissed == 1)
    }

    @Test func falseDetectionAndMatchingOrder() throws {
        // G is never truly visited: its detection is false. F has two true visits; one long
        // detection overlapping both (its exit was lost) matches the first only (earliest first),
        // so the second is missed.
        let events = [Self.event(.enter, "F", 10), Self.event(.enter, "G", 50), Self.event(.exit, "G", 60), Self.event(.exit, "F", 320)]
        let s = Self.score([Self.truth(0, 10, 100), Self.truth(0, 200, 300)], events)
        #expect(s.falseDetections.map(\.visit.fenceID) == ["G"])
        #expect(s.visits.map(\.detected) == [true, false])
        #expect(s.visits[1].missReason == .undetected)
        let summary = AccuracySummary([s], fences: Self.fences)
        let m = summary.overall
        // recall 1/2, precision 1/(1+1), F1 0.5.
        #expect(m.recall == 0.5 && m.precision == 0.5 && m.f1 == 0.5)
        #expect(summary.byFence.map(\.key) == ["F", "G"])
        #expect(summary.byZone.map(\.key) == ["default", "shops"])
        #expect(summary.byZone[0].metrics.falseDetections == 1)
        #expect(summary.bySpeedBand.map(\.key) == ["0-5", "5-15", "15-30", "30+"])
        #expect(summary.bySpeedBand[1].metrics.truthVisits == 2)
    }

    @Test func nearestRankPercentiles() throws {
        let p = try #require(AccuracyMetrics.Percentiles([5, 1, 4, 2, 3, 10, 9, 8, 7, 6]))
        // n = 10: p50 is the 5th smallest, p90 the 9th, p99 the 10th.
        #expect(p.p50 == 5 && p.p90 == 9 && p.p99 == 10 && p.mean == 5.5)
    }

    /// Small groups are sorted in place on the stack: the same percentiles and mean, to the bit,
    /// as sorting a copy (the oracle), with ties, negative zeros and negative values.
    @Test func smallGroupsSortedInPlaceGiveTheSamePercentiles() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let n = 1 + Int(rng.next() % UInt64(AccuracyMetrics.Percentiles.inPlaceLimit + 4))
            let values = (0..<n).map { _ -> Double in
                switch rng.next() % 6 {
                case 0: -0.0
                case 1: 0.0
                case 2: Double(rng.next() % 5) / 10
                default: (rng.nextUnitDouble() - 0.3) * 100
                }
            }
            let p = try #require(AccuracyMetrics.Percentiles(values))
            let sorted = values.sorted()
            func rank(_ q: Double) -> Double { sorted[min(n - 1, max(0, Int((q * Double(n)).rounded(.up)) - 1))] }
            #expect(
                [p.p50, p.p90, p.p99, p.mean].map(\.bitPattern)
                    == [rank(0.5), rank(0.9), rank(0.99), sorted.reduce(0, +) / Double(n)].map(\.bitPattern))
            #expect(p.count == n)
        }
    }

    @Test(
        arguments: [(4.94, "0-5"), (4.96, "5-15"), (29.96, "30+"), (29.94, "15-30"), (30.0, "30+"), (nil, "unknown")] as [(Double?, String)]
    )
    func speedBands(speed: Double?, band: String) {
        #expect(SpeedBand.label(for: speed) == band)
    }

    /// Groups by fence, zone and band are found through a visit's fence index, and by name when
    /// the index does not name the fence (labelled visits of other files, two fences sharing an
    /// id, a zone the fence does not have): the same groups as keying every visit by its names.
    @Test func groupsAgreeWithGroupingByName() throws {
        let fences = FenceSet(
            file: "f.geojson",
            fences: [
                Fence(
                    index: 0, id: "A", kind: .circle(radiusMeters: 50), shape: .point(XY(8.5, 47.39)), zone: "z1",
                    location: SourceLocation(file: "f.geojson", line: 1)),
                Fence(
                    index: 1, id: "B", kind: .circle(radiusMeters: 50), shape: .point(XY(8.51, 47.39)),
                    location: SourceLocation(file: "f.geojson", line: 2)),
                Fence(
                    index: 2, id: "A", kind: .circle(radiusMeters: 50), shape: .point(XY(8.52, 47.39)), zone: "z2",
                    location: SourceLocation(file: "f.geojson", line: 3)),
                Fence(
                    index: 3, id: "L", kind: .line, shape: .lineString([XY(8.5, 47.4), XY(8.6, 47.4)]),
                    location: SourceLocation(file: "f.geojson", line: 4)),
            ])
        func visit(_ j: Int, _ id: String, _ zone: String, _ band: String, _ latency: Double?) -> VisitScore {
            var v = VisitScore(
                trace: "t", zone: zone, truth: TruthVisit(fence: j, fenceID: id, enter: Self.t(Double(j)), exit: Self.t(100)),
                match: latency.map { DetectedVisit(fence: j, fenceID: id, enter: Self.t($0)) }, detectedExit: nil, flaps: 0,
                falseExits: 0, speedBand: band)
            v.enterLatency = latency
            return v
        }
        let visits = [
            visit(0, "A", "z1", "0-5", 1), visit(2, "A", "z2", "5-15", 2), visit(1, "B", "default", "30+", nil),
            visit(9, "X", "elsewhere", "unknown", 4), visit(1, "C", "default", "0-5", 5), visit(0, "A", "z9", "0-5", 6),
        ]
        let detections = [
            TraceScore.FalseDetection(trace: "t", zone: "z1", visit: DetectedVisit(fence: 0, fenceID: "A", enter: Self.t(1))),
            TraceScore.FalseDetection(trace: "t", zone: "nowhere", visit: DetectedVisit(fence: 7, fenceID: "Y", enter: Self.t(2))),
        ]
        let summary = AccuracySummary(
            [TraceScore(trace: "t", durationSeconds: 3600, visits: visits, falseDetections: detections)], fences: fences)
        // The oracle: every group keyed by name.
        func expected(_ key: (VisitScore) -> String, _ detectionKey: (TraceScore.FalseDetection) -> String?, seed: [String]) -> [String: (
            Int, Int, [Double]
        )] {
            var groups: [String: (Int, Int, [Double])] = [:]
            for k in seed { groups[k] = (0, 0, []) }
            for v in visits { groups[key(v), default: (0, 0, [])].0 += 1; if let l = v.enterLatency { groups[key(v)]!.2.append(l) } }
            for d in detections { if let k = detectionKey(d) { groups[k, default: (0, 0, [])].1 += 1 } }
            return groups
        }
        func actual(_ groups: [AccuracySummary.Group]) -> [String: (Int, Int, [Double])] {
            Dictionary(
                uniqueKeysWithValues: groups.map {
                    ($0.key, ($0.metrics.truthVisits, $0.metrics.falseDetections ?? 0, $0.metrics.enterLatencies))
                })
        }
        func same(_ a: [String: (Int, Int, [Double])], _ b: [String: (Int, Int, [Double])]) -> Bool {
            a.count == b.count && a.allSatisfy { k, v in b[k].map { $0.0 == v.0 && $0.1 == v.1 && $0.2 == v.2 } ?? false }
        }
        #expect(summary.byFence.map(\.key) == ["A", "B", "C", "X", "Y"])
        #expect(same(actual(summary.byFence), expected({ $0.truth.fenceID }, { $0.visit.fenceID }, seed: ["A", "B"])))
        #expect(summary.byZone.map(\.key) == ["default", "elsewhere", "nowhere", "z1", "z2", "z9"])
        #expect(same(actual(summary.byZone), expected({ $0.zone }, { $0.zone }, seed: ["z1", "default", "z2"])))
        #expect(summary.bySpeedBand.map(\.key) == ["0-5", "5-15", "15-30", "30+", "unknown"])
        #expect(same(actual(summary.bySpeedBand), expected({ $0.speedBand }, { _ in nil }, seed: ["0-5", "5-15", "15-30", "30+"])))
    }
}

/// Latency percentiles sort long arrays by their bits: the same order as the comparison sort.
@Suite struct PercentileSortTests {
    @Test(arguments: [0, 10, 255, 256, 1000, 100_000])
    func bitSortGivesTheComparisonSortsOrder(count: Int) {
        var rng = SplitMix64(seed: UInt64(count) &+ 17)
        var values: [Double] = []
        for k in 0..<count {
            switch rng.next() % 8 {
            case 0: values.append(Double(Int(rng.next() % 200)) - 100)  // repeated whole seconds
            case 1: values.append((rng.nextUnitDouble() - 0.5) * 1e-300)  // tiny, subnormal-ish
            case 2: values.append(k % 2 == 0 ? .infinity : -.infinity)
            case 3: values.append(0)
            case 4: values.append(.leastNonzeroMagnitude * (k % 2 == 0 ? 1 : -1))
            default: values.append((rng.nextUnitDouble() - 0.5) * 1e6)
            }
        }
        let expected = values.sorted()
        let sorted = AccuracyMetrics.Percentiles.sorted(values)
        #expect(sorted.map(\.bitPattern) == expected.map(\.bitPattern))
        // A negative zero or a NaN takes the comparison sort (their bit order is not their order).
        let withNegativeZero = values + [-0.0] + Array(repeating: 1.5, count: 300)
        #expect(AccuracyMetrics.Percentiles.sorted(withNegativeZero).map(\.bitPattern) == withNegativeZero.sorted().map(\.bitPattern))
    }
}

/// Scoring reads a geotrigger line of the log from its own fields: what it reads is what it
/// reads of the same line as a ``LogEvent`` (passthrough spans to the millisecond, as logged).
@Suite struct ScoringReaderTests {
    @Test func anEngineLineReadsAsItsLogEvent() {
        let fences = FenceSet(
            file: "f.geojson",
            fences: [
                Fence(
                    index: 0, id: "A", kind: .circle(radiusMeters: 50), shape: .point(XY(8.5, 47.39)),
                    location: SourceLocation(file: "f.geojson", line: 1)),
                Fence(
                    index: 1, id: "B", kind: .circle(radiusMeters: 50), shape: .point(XY(8.51, 47.39)),
                    location: SourceLocation(file: "f.geojson", line: 2)),
                Fence(
                    index: 2, id: "A", kind: .circle(radiusMeters: 50), shape: .point(XY(8.52, 47.39)),
                    location: SourceLocation(file: "f.geojson", line: 3)),
            ])
        var rng = SplitMix64(seed: 9)
        let t0 = Timestamp(seconds: 1_767_225_600)
        var fromLines = Scoring.Reader(fences: fences)
        var fromEvents = Scoring.Reader(fences: fences)
        let kinds: [GeotriggerEvent.Kind] = [.enter, .exit, .passthrough, .suppressed, .dwell, .cross]
        let reasons: [String?] = [nil, SignalLoss.entryReason, SignalLoss.exitReason, "debounce"]
        for k in 0..<2000 {
            let time = t0.adding(nanoseconds: Int64(k) * 1_000_000_007 + Int64(rng.next() % 999_999))
            let kind = kinds[Int(rng.next() % UInt64(kinds.count))]
            let event = GeotriggerEvent(
                kind: kind, time: time, fence: Int(rng.next() % 3), fixIndex: k, fixTime: time, feed: .point, feedRadius: 0, distance: 1,
                accuracy: 5, interpolated: rng.next() % 2 == 0,
                enterTime: kind == .passthrough ? time.adding(nanoseconds: -Int64(rng.next() % 2_000_000_000)) : nil,
                exitTime: kind == .passthrough && rng.next() % 4 != 0 ? time.adding(nanoseconds: -Int64(rng.next() % 500_000)) : nil,
                reason: kind == .suppressed ? reasons[Int(rng.next() % 4)] : nil, longitude: 8.5, latitude: 47.39)
            let line = EngineLogLine(event, fences: fences, trace: "t")
            fromLines.take(LogLine.engine(line))
            fromEvents.take(line.logEvent)
        }
        #expect(fromLines.events.count > 500)
        #expect(fromLines.events == fromEvents.events)
        // Passthrough spans were read to the millisecond, as the log writes them (the events'
        // own times have sub-millisecond parts).
        let spans = fromLines.events.filter { $0.kind == .passthrough }
        #expect(spans.count > 50 && spans.allSatisfy { $0.enter.nanoseconds % 1_000_000 == 0 })
        #expect(spans.contains { $0.exit.nanoseconds % 1_000_000 == 0 && $0.exit != $0.enter })
        // The detections name their fences alike whether the ids come from the fences or from
        // the readers' table of names (two fences share the id "A").
        let byFences = Scoring.Detections(read: fromLines.events, fences: fences)
        let byNames = Scoring.Detections(read: fromLines.events, names: Scoring.Reader.Names(fences))
        #expect(byFences.visits.count > 100 && Set(byFences.visits.map(\.fenceID)) == ["A", "B"])
        #expect(byNames.visits == byFences.visits)
        #expect(byNames.byFence.map(\.fence) == byFences.byFence.map(\.fence))
    }
}
