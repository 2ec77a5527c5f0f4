import Fences
import Spatial
import Support
import Testing
@testable import Simulation

/// Scoring (SPEC §6.3) on hand-built cases; every number is worked out by hand in the comments.
@Suite struct ScoringTests {
    static let t0 = Timestamp(seconds: 1_767_225_600)  // 2026-01-01T00:00:00Z
    static func t(_ s: Double) -> Timestamp { t0.adding(seconds: s) }

    static let fences = FenceSet(file: "fences.geojson", fences: [
        Fence(index: 0, id: "F", kind: .circle(radiusMeters: 50), shape: .point(XY(8.5, 47.39)), zone: "shops", location: SourceLocation(file: "fences.geojson", line: 2)),
        Fence(index: 1, id: "G", kind: .circle(radiusMeters: 50), shape: .point(XY(8.51, 47.39)), location: SourceLocation(file: "fences.geojson", line: 3)),
    ])

    static func event(_ type: LogEvent.EventType, _ fence: String, _ s: Double, _ extra: [(String, JSONValue)] = []) -> LogEvent {
        LogEvent(time: t(s), trace: "drive", type: type, fields: [("fence", .string(fence))] + extra)
    }

    static func truth(_ fence: Int, _ enter: Double, _ exit: Double?, speed: Double = 10, startsInside: Bool = false) -> TruthVisit {
        TruthVisit(fence: fence, fenceID: fences.fences[fence].id, enter: t(enter), exit: exit.map(t), startsInside: startsInside, enterSpeed: speed)
    }

    static func score(_ truth: [TruthVisit], _ events: [LogEvent], duration: Double = 3600) -> TraceScore {
        Scoring.score(truth: truth, events: events, fences: fences, trace: "drive", durationSeconds: duration)
    }

    @Test func visitMissedBecauseTheFenceLiesInAGap() throws {
        // True visit 100–102 s at 30 m/s; the fixes at 99 s and 103 s are both outside, so the
        // engine reports a passthrough instead of an enter.
        let s = Self.score([Self.truth(0, 100, 102, speed: 30)], [
            Self.event(.passthrough, "F", 103, [("enterTime", .string(Self.t(100).description)), ("exitTime", .string(Self.t(102).description))]),
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
        let s = Self.score([Self.truth(0, 0, nil, speed: 0, startsInside: true)], [Self.event(.enter, "F", 0), Self.event(.exit, "F", 300)],
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
        let events = [Self.event(.enter, "F", 110), Self.event(.exit, "F", 200), Self.event(.enter, "F", 210), Self.event(.exit, "F", 250),
                      Self.event(.enter, "F", 260), Self.event(.exit, "F", 405)]
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
        let lost = Self.score([Self.truth(0, 100, 200)], [Self.event(.enter, "F", 120), Self.event(.suppressed, "F", 205, [("reason", .string("exitLoss"))])])
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

    @Test(arguments: [(4.94, "0-5"), (4.96, "5-15"), (29.96, "30+"), (29.94, "15-30"), (30.0, "30+"), (nil, "unknown")] as [(Double?, String)])
    func speedBands(speed: Double?, band: String) {
        #expect(SpeedBand.label(for: speed) == band)
    }
}
