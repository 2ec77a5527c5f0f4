import Foundation
import Spatial
import Support
import Testing

@testable import Traces

/// Degradation (SPEC §6.2): determinism and the effect of each degradation.
@Suite struct DegradationTests {
    static let t0 = Timestamp(seconds: 1_767_225_600)

    /// A straight drive east at 10 m/s near Zürich, `count` fixes `interval` s apart.
    static func drive(count: Int = 2000, interval: Double = 1, accuracy: Double = 5) -> [Fix] {
        (0..<count).map { k in
            Fix(
                time: t0.adding(seconds: Double(k) * interval), latitude: 47.39, longitude: 8.5 + Double(k) * interval * 10 / 75_300,
                accuracyMeters: accuracy, accuracySource: .reported, speedMetersPerSecond: 10)
        }
    }

    /// Metres east and north from `a` to `b` (local approximation, good to 0.5 % here).
    static func offset(_ a: Fix, _ b: Fix) -> (east: Double, north: Double) {
        ((b.longitude - a.longitude) * 111_320 * cos(a.latitude * .pi / 180), (b.latitude - a.latitude) * 111_132)
    }

    /// Resampling makes no fix across a gap longer than `maxGap` (issue 22: a GeoLife trace's
    /// logging gaps of hours became thousands of invented fixes): a drive of 100 fixes, a
    /// 3,000 s gap, 100 more, resampled every 2 s, gives about 100 fixes, none in the gap;
    /// without the limit the gap fills.
    @Test func resamplingMakesNoFixAcrossAGap() throws {
        var fixes = Self.drive(count: 200)
        for k in 100..<200 { fixes[k].time = fixes[k].time?.adding(seconds: 3000) }
        let resample = Degradation(resampleSeconds: 2, seed: 1)
        let out = try resample.apply(to: fixes, maxGapSeconds: 120)
        let gapStart = Self.t0.adding(seconds: 99)
        let gapEnd = Self.t0.adding(seconds: 3100)
        #expect(out.count >= 98 && out.count <= 100)
        #expect(!out.contains { f in f.time.map { $0 > gapStart && $0 < gapEnd } ?? false })
        #expect(try resample.apply(to: fixes).count > 1500)
    }

    /// Resampling counts each pair of fixes' instants and makes them (issue 21: it stepped
    /// through every instant, gaps included, and `resample=1e-9` never ended): the same fixes as
    /// stepping instant by instant, on random traces with gaps, segments, repeated times and
    /// intervals shorter and longer than the fixes'; and a request past the limit is refused
    /// before anything is made.
    @Test(arguments: Array(1...60) as [UInt64])
    func resamplingMakesWhatSteppingMade(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var t = 0.0
        var segment = 0
        var fixes: [Fix] = []
        for k in 0..<Int(rng.next() % 60) {
            switch rng.next() % 12 {
            case 0: t += 500
            case 1: segment += 1; t += 3
            case 2: break
            default: t += Double(rng.next() % 4000) / 1000
            }
            fixes.append(
                Fix(
                    time: Self.t0.adding(seconds: t), latitude: 47.39 + Double(k) * 1e-5, longitude: 8.5, accuracyMeters: 5,
                    accuracySource: .reported, segment: segment))
        }
        let interval = [0.25, 1, 2.5, 7, 30][Int(rng.next() % 5)]
        let d = Degradation(resampleSeconds: interval, seed: seed)
        for maxGap in [Double.infinity, 120] {
            #expect(
                try d.resample(fixes, interval: interval, maxGapSeconds: maxGap)
                    == Self.stepped(d, fixes, interval: interval, maxGap: maxGap))
        }
    }

    /// A trace spanning more than the 292 years 64-bit nanoseconds hold (a drive in 1700 and
    /// one in 2026): both drives are resampled, each at its own instants (the later one was
    /// lost to an overflowed offset).
    @Test func resamplingATraceOfCenturies() throws {
        let early = Self.drive(count: 11)
        var late = Self.drive(count: 11)
        let shift = Timestamp(year: 2026, month: 1, day: 1)!.seconds - Timestamp(year: 1700, month: 1, day: 1)!.seconds
        var fixes: [Fix] = []
        for var f in early {
            f.time = f.time.map { Timestamp(seconds: $0.seconds - shift, nanoseconds: Int64($0.nanoseconds)) }
            fixes.append(f)
        }
        for k in late.indices { late[k].segment = 1 }
        fixes += late
        let out = try Degradation(resampleSeconds: 1, seed: 3).apply(to: fixes, maxGapSeconds: 120)
        let before = out.filter { ($0.time?.seconds ?? 0) < 0 }
        let after = out.filter { ($0.time?.seconds ?? 0) > 0 }
        #expect(before.count >= 9 && after.count >= 9, "\(before.count) in 1700, \(after.count) in 2026")
        #expect(after.allSatisfy { $0.time! >= late[0].time! && $0.time! <= late[10].time! })
    }

    @Test func resamplingPastTheLimitIsRefusedBeforeAnyFixIsMade() throws {
        let fixes = Self.drive(count: 1000)
        // 999 s every millisecond: about a million fixes, against a limit of 10,000.
        #expect(throws: FencesimError.self) { try Degradation(seed: 1).resample(fixes, interval: 0.001, limit: 10_000) }
        // A day's gap is not stepped through: two fixes a year apart in two segments make at most two.
        var far = Self.drive(count: 2)
        far[1].time = far[0].time?.adding(seconds: 3e7)
        far[1].segment = 1
        #expect(try Degradation(seed: 1).resample(far, interval: 1e-3, maxGapSeconds: 120, limit: 10).count <= 2)
        let error = try #require(throws: FencesimError.self) {
            try Degradation(resampleSeconds: 1e-3, seed: 1).apply(to: Self.drive(count: 20_000))
        }
        #expect(error.code == .usage)
        #expect(error.message.contains("more than the 10,000,000"), "\(error.message)")
    }

    /// The resampling as it was first written, instant by instant (the oracle), with the
    /// segment and `maxGap` rule.
    static func stepped(_ d: Degradation, _ fixes: [Fix], interval: Double, maxGap: Double) -> [Fix] {
        let timed = fixes.filter { $0.time != nil }
        guard let firstTime = timed.first?.time, let lastTime = timed.last?.time else { return [] }
        let step = max(1, Int64((interval * 1e9).rounded()))
        var rng = d.generator(.resample)
        let phase = Int64(rng.nextUnitDouble() * Double(step)) / 1_000_000 * 1_000_000
        let span = lastTime.nanoseconds(since: firstTime)
        var out: [Fix] = []
        var j = 0
        var offset = phase
        while offset <= span {
            let t = firstTime.adding(nanoseconds: offset)
            offset += step
            while j + 1 < timed.count, let next = timed[j + 1].time, next <= t { j += 1 }
            let a = timed[j]
            guard let ta = a.time else { continue }
            if ta == t || j + 1 >= timed.count {
                if ta == t { out.append(a) }
                continue
            }
            let b = timed[j + 1]
            guard let tb = b.time, a.segment == b.segment, tb.seconds(since: ta) <= maxGap else { continue }
            let f = Double(t.nanoseconds(since: ta)) / Double(tb.nanoseconds(since: ta))
            var fix = a
            fix.time = t
            fix.latitude = a.latitude + (b.latitude - a.latitude) * f
            fix.longitude = a.longitude + (b.longitude - a.longitude) * f
            fix.accuracyMeters = a.accuracyMeters + (b.accuracyMeters - a.accuracyMeters) * f
            if let sa = a.speedMetersPerSecond, let sb = b.speedMetersPerSecond { fix.speedMetersPerSecond = sa + (sb - sa) * f }
            if let ea = a.altitudeMeters, let eb = b.altitudeMeters { fix.altitudeMeters = ea + (eb - ea) * f }
            out.append(fix)
        }
        return out
    }

    @Test func sameSeedSameBytesDifferentSeedDifferent() throws {
        let all = Degradation(resampleSeconds: 3, noise: 1, dropout: 0.1, dropoutBurst: 3, spikes: 0.05, jitterSeconds: 0.4, seed: 42)
        let a = TraceWriter.render(try all.apply(to: Self.drive()), format: .csv)
        let b = TraceWriter.render(try all.apply(to: Self.drive()), format: .csv)
        var other = all
        other.seed = 43
        let c = TraceWriter.render(try other.apply(to: Self.drive()), format: .csv)
        #expect(a == b)
        #expect(a != c)
        // Pinned: the same on every machine (no platform maths library is involved).
        #expect(a.split(separator: "\n")[1] == "2026-01-01T00:00:00.883Z,47.3899478,8.5001335,5.0,10.00,")
    }

    @Test func nothingChangesByDefault() throws {
        let fixes = Self.drive(count: 50)
        #expect(try Degradation().apply(to: fixes) == fixes)
        #expect(!Degradation().changesFixes && !Degradation().losesSignals)
    }

    @Test func resampleInterval() throws {
        let out = try Degradation(resampleSeconds: 30, seed: 7).apply(to: Self.drive(count: 601))
        let times = out.compactMap(\.time)
        #expect(times.count == 20 || times.count == 21)
        for (a, b) in zip(times, times.dropFirst()) { #expect(b.nanoseconds(since: a) == 30_000_000_000) }
        // Positions are interpolated on the straight line: the latitude never changes.
        #expect(out.allSatisfy { abs($0.latitude - 47.39) < 1e-12 })
        // Upsampling works too, and no fix falls between two source segments.
        var split = Self.drive(count: 20, interval: 2)
        for k in 10..<20 { split[k].segment = 1 }
        let up = try Degradation(resampleSeconds: 0.5, seed: 1).apply(to: split)
        let gapStart = try #require(split[9].time), gapEnd = try #require(split[10].time)
        #expect(
            !up.contains {
                guard let t = $0.time else { return false }; return t > gapStart && t < gapEnd
            })
    }

    @Test(arguments: [1.0, 8.0])
    func dropoutShare(burst: Double) throws {
        let fixes = Self.drive(count: 40_000)
        let out = try Degradation(dropout: 0.2, dropoutBurst: burst, seed: 5).apply(to: fixes)
        let kept = Double(out.count) / Double(fixes.count)
        #expect(abs(kept - 0.8) < 0.02, "kept \(kept)")
        // Bursts: the mean run of consecutive drops is about `burst` fixes.
        var runs: [Int] = []
        var run = 0
        var k = 0
        for f in fixes {
            if k < out.count, out[k] == f {
                if run > 0 { runs.append(run) }
                run = 0
                k += 1
            } else {
                run += 1
            }
        }
        let mean = Double(runs.reduce(0, +)) / Double(max(runs.count, 1))
        // Independent drops (burst 1) make geometric runs of mean 1 / (1 − share).
        let expected = burst == 1 ? 1 / 0.8 : burst
        #expect(abs(mean - expected) < expected * 0.1, "mean run \(mean)")
    }

    @Test func noiseScalesWithAccuracy() throws {
        for accuracy in [4.0, 12.0] {
            let fixes = Self.drive(count: 20_000, accuracy: accuracy)
            let out = try Degradation(noise: 0.5, seed: 11).apply(to: fixes)
            let east = zip(fixes, out).map { Self.offset($0, $1).east }
            let north = zip(fixes, out).map { Self.offset($0, $1).north }
            for values in [east, north] {
                let mean = values.reduce(0, +) / Double(values.count)
                let sd = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
                #expect(abs(mean) < 0.05 * accuracy)
                #expect(abs(sd - 0.5 * accuracy) < 0.03 * accuracy, "σ \(sd) for accuracy \(accuracy)")
            }
            #expect(out.allSatisfy { $0.accuracyMeters == accuracy })
        }
    }

    @Test func spikesLieAboutTheirAccuracy() throws {
        let fixes = Self.drive(count: 20_000)
        let out = try Degradation(spikes: 0.05, spikeMeters: 200, seed: 9).apply(to: fixes)
        let jumps = zip(fixes, out).map { a, b in
            let o = Self.offset(a, b); return (o.east * o.east + o.north * o.north).squareRoot()
        }
        let spiked = jumps.filter { $0 > 1 }
        #expect(abs(Double(spiked.count) / Double(fixes.count) - 0.05) < 0.008)
        #expect(spiked.allSatisfy { $0 > 99 && $0 < 301 })
        // The reported accuracy stays good.
        #expect(out.allSatisfy { $0.accuracyMeters == 5 })
    }

    @Test func jitterKeepsTimeOrder() throws {
        let fixes = Self.drive(count: 5000)
        let out = try Degradation(jitterSeconds: 2, seed: 4).apply(to: fixes)
        #expect(out.count == fixes.count)
        let times = out.compactMap(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let shifts = zip(fixes, out).compactMap { a, b in b.time.flatMap { bt in a.time.map { bt.seconds(since: $0) } } }
        #expect(shifts.filter { $0 != 0 }.count > 4000)
        #expect(shifts.allSatisfy { abs($0) <= 0.451 }, "largest shift \(shifts.map(abs).max() ?? 0)")
        // Positions are untouched.
        #expect(zip(fixes, out).allSatisfy { $0.latitude == $1.latitude && $0.longitude == $1.longitude })
    }

    @Test func portableLogarithmAndTrigonometry() throws {
        for x in [1e-300, 1e-5, 0.1, 0.5, 0.999, 1, 2, 10, 1e10] {
            #expect(abs(PortableMath.log(x) - Foundation.log(x)) <= 4 * Foundation.log(x).ulp.magnitude + 1e-300)
        }
        for x in stride(from: -1.5707963, through: 1.5707963, by: 0.01) {
            #expect(abs(PortableMath.sin(x) - Foundation.sin(x)) < 1e-15)
            #expect(abs(PortableMath.cos(x) - Foundation.cos(x)) < 1e-15)
        }
    }
}
