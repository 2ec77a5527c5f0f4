import Support
import Testing

@testable import Traces

/// A degradation made a fix at a time (``DegradedFeed``, what a report and a degraded replay
/// stream) gives the same fixes, bit for bit, as the degradations first written over whole
/// arrays (`DegradationOracle.swift`), on random traces: fixes without time, repeated times,
/// segments, gaps, every step alone and all together, and feeds past the resampling limit.
@Suite struct DegradedFeedTests {
    static let t0 = Timestamp(seconds: 1_767_225_600)

    /// A random trace of up to 300 fixes near Zürich.
    static func trace(_ rng: inout SplitMix64) -> [Fix] {
        var t = 0.0
        var segment = 0
        var fixes: [Fix] = []
        for k in 0..<Int(rng.next() % 300) {
            switch rng.next() % 16 {
            case 0: t += 500
            case 1: segment += 1; t += 3
            case 2: break
            default: t += Double(rng.next() % 4000) / 1000
            }
            let untimed = rng.next() % 25 == 0
            fixes.append(
                Fix(
                    time: untimed ? nil : Self.t0.adding(seconds: t), latitude: 47.39 + Double(k) * 1e-5,
                    longitude: 8.5 + Double(rng.next() % 100) * 1e-6, accuracyMeters: 3 + Double(rng.next() % 40),
                    accuracySource: .reported, speedMetersPerSecond: rng.next() % 3 == 0 ? nil : 8, segment: segment))
        }
        return fixes
    }

    /// A random degradation: each step on or off.
    static func degradation(_ rng: inout SplitMix64, seed: UInt64) -> Degradation {
        let on = { (rng: inout SplitMix64) in rng.next() % 2 == 0 }
        return Degradation(
            resampleSeconds: on(&rng) ? [0.25, 1, 2.5, 7, 30][Int(rng.next() % 5)] : nil,
            noise: on(&rng) ? 1.5 : 0, dropout: on(&rng) ? 0.3 : 0, dropoutBurst: on(&rng) ? 4 : 1,
            spikes: on(&rng) ? 0.1 : 0, jitterSeconds: on(&rng) ? 2 : 0, seed: seed)
    }

    @Test(arguments: Array(1...120) as [UInt64])
    func aFixAtATimeMakesWhatTheWholeArrayMade(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let fixes = Self.trace(&rng)
        let d = Self.degradation(&rng, seed: seed)
        for maxGap in [Double.infinity, 120] {
            let oracle = d.oracleApply(to: fixes, maxGapSeconds: maxGap)
            var feed = DegradedFeed(d, maxGapSeconds: maxGap)
            var streamed: [Fix] = []
            for fix in fixes { try feed.push(fix) { streamed.append($0) } }
            try feed.finish { streamed.append($0) }
            #expect(streamed == oracle, "seed \(seed), maxGap \(maxGap), \(d)")
            #expect(try d.apply(to: fixes, maxGapSeconds: maxGap) == oracle)
        }
    }

    /// Not vacuous: every step changes a trace of 200 fixes, and the feed follows each.
    @Test func everyStepChangesTheFixes() throws {
        var rng = SplitMix64(seed: 7)
        var fixes: [Fix] = []
        while fixes.count < 200 { fixes = Self.trace(&rng) }
        let steps = [
            Degradation(resampleSeconds: 2.5, seed: 1), Degradation(noise: 1, seed: 1), Degradation(dropout: 0.3, seed: 1),
            Degradation(spikes: 0.2, seed: 1), Degradation(jitterSeconds: 2, seed: 1),
        ]
        for d in steps {
            let out = try d.apply(to: fixes)
            #expect(out != fixes, "\(d)")
            #expect(out == d.oracleApply(to: fixes))
        }
    }

    /// Past the resampling limit the feed refuses, with the limit in its message, exactly when
    /// stepping instant by instant makes more fixes than it; below, it makes the same fixes.
    @Test func pastTheLimitTheFeedRefuses() throws {
        let fixes = (0..<100).map { k in
            Fix(
                time: Self.t0.adding(seconds: Double(k)), latitude: 47.39, longitude: 8.5 + Double(k) * 1e-4, accuracyMeters: 5,
                accuracySource: .reported)
        }
        let d = Degradation(resampleSeconds: 1, seed: 3)
        let stepped = DegradationTests.stepped(d, fixes, interval: 1, maxGap: .infinity)
        for limit in [10, stepped.count - 1, stepped.count, stepped.count + 1, 5000] {
            let streamed = Result { () throws(FencesimError) in try d.resample(fixes, interval: 1, limit: limit) }
            switch streamed {
            case .success(let made): #expect(stepped.count <= limit && made == stepped, "limit \(limit)")
            case .failure(let error):
                #expect(stepped.count > limit, "limit \(limit): \(error.message)")
                #expect(error.code == .usage && error.message.contains("more than the \(Degradation.grouped(limit))"), "\(error.message)")
            }
        }
    }
}
