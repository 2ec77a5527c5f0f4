import Fences
import Spatial
import Support
import Testing

@testable import Accuracy
@testable import EventPipeline

/// Scoring through ``TruthTimeline`` gives what the first scoring, which looked at every truth
/// visit of a fence for every detected visit of it, gave: on random logs with ties, open ends,
/// duplicate enters, orphan exits, passthroughs, lost notifications and overlapping (labelled)
/// truth visits.
@Suite struct ScoringOracleTests {
    static let t0 = Timestamp(seconds: 1_767_225_600)
    static let fences = circles(4)

    /// `count` circles named `F0`, `F1`, ... along a parallel `spacing` degrees apart, the even
    /// ones in zone `even`.
    static func circles(_ count: Int, spacing: Double = 0.01) -> FenceSet {
        FenceSet(
            file: "f.geojson",
            fences: (0..<count).map { j in
                Fence(
                    index: j, id: "F\(j)", kind: .circle(radiusMeters: 50), shape: .point(XY(8.5 + Double(j) * spacing, 47.39)),
                    zone: j % 2 == 0 ? "even" : nil, location: SourceLocation(file: "f.geojson", line: j + 1))
            })
    }

    @Test(arguments: Array(1...200) as [UInt64])
    func sameAsEveryVisitAgainstEveryDetection(seed: UInt64) {
        let horizon: UInt64 = seed % 3 == 0 ? 20 : 400
        Self.compare(seed: seed, fences: Self.fences, visits: 40, events: 80, horizon: horizon)
    }

    /// A long log over many fences, scored in two halves side by side (more than
    /// ``Scoring/parallelAbove`` visits and events): the same as the oracle.
    @Test(arguments: [7, 8] as [UInt64])
    func sameWhenScoredInHalves(seed: UInt64) {
        let many = Self.circles(64)
        let (truth, events) = Self.compare(seed: seed, fences: many, visits: 16_000, events: 24_000, horizon: 40_000, exactly: true)
        #expect(truth + events >= Scoring.parallelAbove)
    }

    /// Few events over a large fence set: the open detections are kept in a table of their own
    /// (not a slot per fence, ``Scoring/OpenDetections``), scored the same as the oracle.
    @Test(arguments: Array(1...40) as [UInt64])
    func sameWithFewEventsOverManyFences(seed: UInt64) {
        let many = Self.circles(400, spacing: 0.001)
        // Visits and events of the first 5 fences only: enters, exits and duplicates of each.
        let (_, events) = Self.compare(seed: seed, fences: many, among: 5, visits: 60, events: 90, horizon: 30)
        #expect(events < many.fences.count / 4)
    }

    /// Random truth visits (up to `visits`, or exactly that many) and events (likewise) over
    /// `fences` (the first `among` of them when given) and one unknown fence id, scored both
    /// ways; the counts made.
    @discardableResult
    static func compare(
        seed: UInt64, fences: FenceSet, among: Int? = nil, visits: Int, events eventCount: Int, horizon: UInt64,
        exactly: Bool = false
    ) -> (truth: Int, events: Int) {
        var rng = SplitMix64(seed: seed)
        func time(_ limit: UInt64) -> Timestamp { Self.t0.adding(seconds: Double(rng.next() % limit)) }
        let n = UInt64(among ?? fences.fences.count)
        var truth: [TruthVisit] = []
        for _ in 0..<(exactly ? visits : Int(rng.next() % UInt64(visits))) {
            let j = Int(rng.next() % n)
            let enter = time(horizon)
            let exit: Timestamp? = rng.next() % 8 == 0 ? nil : enter.adding(seconds: Double(rng.next() % 60))
            truth.append(TruthVisit(fence: j, fenceID: "F\(j)", enter: enter, exit: exit, enterSpeed: Double(rng.next() % 40)))
        }
        var events: [LogEvent] = []
        for _ in 0..<(exactly ? eventCount : Int(rng.next() % UInt64(eventCount))) {
            let fence = "F\(rng.next() % (n + 1))"  // the last is not a fence
            let at = time(horizon + 60)
            var fields: [(String, JSONValue)] = [("fence", .string(fence))]
            let type: LogEvent.EventType
            switch rng.next() % 10 {
            case 0..<4: type = .enter
            case 4..<8: type = .exit
            case 8:
                type = .passthrough
                let a = at.adding(seconds: -Double(rng.next() % 30))
                fields += [
                    ("enterTime", .string(a.description)), ("exitTime", .string(a.adding(seconds: Double(rng.next() % 10)).description)),
                ]
            default:
                type = .suppressed
                fields.append(("reason", .string(rng.next() % 2 == 0 ? SignalLoss.entryReason : SignalLoss.exitReason)))
            }
            events.append(LogEvent(time: at, trace: "t", type: type, fields: fields))
        }
        events.sort { $0.time < $1.time }
        let fast = Scoring.score(truth: truth, events: events, fences: fences, trace: "t", durationSeconds: 500)
        let slow = ScoringOracle.score(truth: truth, events: events, fences: fences, trace: "t", durationSeconds: 500)
        #expect("\(fast.visits)" == "\(slow.visits)")
        #expect("\(fast.falseDetections)" == "\(slow.falseDetections)")
        #expect("\(fast.detections)" == "\(slow.detections)")
        #expect(
            [fast.passthroughs, fast.lostEnters, fast.lostExits, fast.orphanExits]
                == [slow.passthroughs, slow.lostEnters, slow.lostExits, slow.orphanExits])
        return (truth.count, events.count)
    }
}

/// The first scoring, kept verbatim as the oracle: every detected visit of a fence against every
/// truth visit of it.
enum ScoringOracle {
    static func score(
        truth: [TruthVisit], events: [LogEvent], fences: FenceSet, trace: String, durationSeconds: Double,
        bands: [SpeedBand] = SpeedBand.standard
    ) -> TraceScore {
        var index: [String: Int] = [:]
        for (j, f) in fences.fences.enumerated() where index[f.id] == nil { index[f.id] = j }
        func zone(_ j: Int) -> String { fences.fences.indices.contains(j) ? fences.fences[j].zone ?? "default" : "default" }

        var result = TraceScore(trace: trace, durationSeconds: durationSeconds)
        var open: [Int: DetectedVisit] = [:]
        var detections: [DetectedVisit] = []
        var passthroughs: [Int: [(Timestamp, Timestamp)]] = [:]
        var lostEnters: [Int: [Timestamp]] = [:]
        for e in events {
            guard let id = Scoring.text(e.field("fence")), let j = index[id] else { continue }
            switch e.type {
            case .enter:
                if open[j] != nil {
                    open[j]?.duplicateEnters += 1
                } else {
                    open[j] = DetectedVisit(fence: j, fenceID: id, enter: e.time, interpolated: Scoring.flag(e.field("interpolated")))
                }
            case .exit:
                if var visit = open.removeValue(forKey: j) {
                    visit.exit = e.time
                    detections.append(visit)
                } else {
                    result.orphanExits += 1
                }
            case .passthrough:
                let enter = Scoring.text(e.field("enterTime")).flatMap { LabelledVisits.time($0) } ?? e.time
                let exit = Scoring.text(e.field("exitTime")).flatMap { LabelledVisits.time($0) } ?? e.time
                passthroughs[j, default: []].append((enter, exit))
                result.passthroughs += 1
            case .suppressed:
                switch Scoring.text(e.field("reason")) {
                case SignalLoss.entryReason?:
                    lostEnters[j, default: []].append(e.time)
                    result.lostEnters += 1
                case SignalLoss.exitReason?:
                    result.lostExits += 1
                default: break
                }
            default:
                break
            }
        }
        detections += open.values
        detections.sort { a, b in a.enter != b.enter ? a.enter < b.enter : a.fenceID < b.fenceID }
        result.detections = detections

        var truthByFence: [Int: [TruthVisit]] = [:]
        for t in truth.sorted(by: TruthVisit.ordered) { truthByFence[t.fence, default: []].append(t) }
        var detectedByFence: [Int: [DetectedVisit]] = [:]
        for d in detections { detectedByFence[d.fence, default: []].append(d) }

        var scores: [VisitScore] = []
        for j in Set(truthByFence.keys).union(detectedByFence.keys).sorted() {
            let truths = truthByFence[j] ?? []
            let detected = detectedByFence[j] ?? []
            var match: [DetectedVisit?] = Array(repeating: nil, count: truths.count)
            var last: [DetectedVisit?] = Array(repeating: nil, count: truths.count)
            var flaps = Array(repeating: 0, count: truths.count)
            var falseExits = Array(repeating: 0, count: truths.count)
            for (n, d) in detected.enumerated() {
                let candidates = truths.indices.filter { d.overlaps(truths[$0]) }
                if let u = candidates.first(where: { match[$0] == nil }) {
                    match[u] = d
                    last[u] = d
                } else if let c = candidates.first {
                    flaps[c] += 1
                    if let l = last[c], d.enter >= l.enter { last[c] = d }
                } else {
                    result.falseDetections.append(TraceScore.FalseDetection(trace: trace, zone: zone(j), visit: d))
                }
                // A false exit: out while truly inside, and back in (or the trace over) before the true exit.
                guard let exit = d.exit,
                    let t = truths.indices.first(where: { truths[$0].enter <= exit && (truths[$0].exit.map { exit < $0 } ?? true) })
                else { continue }
                if n + 1 < detected.count {
                    let next = detected[n + 1].enter
                    if truths[t].exit.map({ next <= $0 }) ?? true { falseExits[t] += 1 }
                } else if truths[t].exit == nil {
                    falseExits[t] += 1
                }
            }
            for (k, t) in truths.enumerated() {
                var s = VisitScore(
                    trace: trace, zone: zone(j), truth: t, match: match[k], detectedExit: last[k]?.exit, flaps: flaps[k],
                    falseExits: falseExits[k], speedBand: SpeedBand.label(for: t.enterSpeed, in: bands))
                if let m = match[k] {
                    s.enterLatency = m.enter.seconds(since: t.enter)
                    if let x = s.detectedExit, let tx = t.exit {
                        s.exitLatency = x.seconds(since: tx)
                        s.dwellError = x.seconds(since: m.enter) - tx.seconds(since: t.enter)
                    }
                } else {
                    let end = t.exit
                    let inVisit: (Timestamp, Timestamp) -> Bool = { a, b in b >= t.enter && (end.map { a <= $0 } ?? true) }
                    if (passthroughs[j] ?? []).contains(where: { inVisit($0.0, $0.1) }) {
                        s.missReason = .gap
                    } else if (lostEnters[j] ?? []).contains(where: { inVisit($0, $0) }) {
                        s.missReason = .entryLoss
                    } else {
                        s.missReason = .undetected
                    }
                }
                scores.append(s)
            }
        }
        result.visits = scores.sorted { a, b in TruthVisit.ordered(a.truth, b.truth) }
        result.falseDetections.sort { a, b in
            a.visit.enter != b.visit.enter ? a.visit.enter < b.visit.enter : a.visit.fenceID < b.visit.fenceID
        }
        return result
    }

}
