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
            Fix(time: t0.adding(seconds: Double(k) * interval), latitude: 47.39, longitude: 8.5 + Double(k) * interval * 10 / 75_300,
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
    @Test func resamplingMakesNoFixAcrossAGap() {
        var fixes = Self.drive(count: 200)
        for k in 100..<200 { fixes[k].time = fixes[k].time?.adding(seconds: 3000) }
        let resample = Degradation(resampleSeconds: 2, seed: 1)
        let out = resample.apply(to: fixes, maxGapSeconds: 120)
        let gapStart = Self.t0.adding(seconds: 99)
        let gapEnd = Self.t0.adding(seconds: 3100)
        #expect(out.count >= 98 && out.count <= 100)
        #expect(!out.contains { f in f.time.map { $0 > gapStart && $0 < gapEnd } ?? false })
        #expect(resample.apply(to: fixes).count > 1500)
    }

    @Test func sameSeedSameBytesDifferentSeedDifferent() {
        let all = Degradation(resampleSeconds: 3, noise: 1, dropout: 0.1, dropoutBurst: 3, spikes: 0.05, jitterSeconds: 0.4, seed: 42)
        let a = TraceWriter.render(all.apply(to: Self.drive()), format: .csv)
        let b = TraceWriter.render(all.apply(to: Self.drive()), format: .csv)
        var other = all
        other.seed = 43
        let c = TraceWriter.render(other.apply(to: Self.drive()), format: .csv)
        #expect(a == b)
        #expect(a != c)
        // Pinned: the same on every machine (no platform maths library is involved).
        #expect(a.split(separator: "\n")[1] == "2026-01-01T00:00:00.883Z,47.3899478,8.5001335,5.0,10.00,")
    }

    @Test func nothingChangesByDefault() {
        let fixes = Self.drive(count: 50)
        #expect(Degradation().apply(to: fixes) == fixes)
        #expect(!Degradation().changesFixes && !Degradation().losesSignals)
    }

    @Test func resampleInterval() throws {
        let out = Degradation(resampleSeconds: 30, seed: 7).apply(to: Self.drive(count: 601))
        let times = out.compactMap(\.time)
        #expect(times.count == 20 || times.count == 21)
        for (a, b) in zip(times, times.dropFirst()) { #expect(b.nanoseconds(since: a) == 30_000_000_000) }
        // Positions are interpolated on the straight line: the latitude never changes.
        #expect(out.allSatisfy { abs($0.latitude - 47.39) < 1e-12 })
        // Upsampling works too, and no fix falls between two source segments.
        var split = Self.drive(count: 20, interval: 2)
        for k in 10..<20 { split[k].segment = 1 }
        let up = Degradation(resampleSeconds: 0.5, seed: 1).apply(to: split)
        let gapStart = try #require(split[9].time), gapEnd = try #require(split[10].time)
        #expect(!up.contains { guard let t = $0.time else { return false }; return t > gapStart && t < gapEnd })
    }

    @Test(arguments: [1.0, 8.0])
    func dropoutShare(burst: Double) {
        let fixes = Self.drive(count: 40_000)
        let out = Degradation(dropout: 0.2, dropoutBurst: burst, seed: 5).apply(to: fixes)
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

    @Test func noiseScalesWithAccuracy() {
        for accuracy in [4.0, 12.0] {
            let fixes = Self.drive(count: 20_000, accuracy: accuracy)
            let out = Degradation(noise: 0.5, seed: 11).apply(to: fixes)
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

    @Test func spikesLieAboutTheirAccuracy() {
        let fixes = Self.drive(count: 20_000)
        let out = Degradation(spikes: 0.05, spikeMeters: 200, seed: 9).apply(to: fixes)
        let jumps = zip(fixes, out).map { a, b in let o = Self.offset(a, b); return (o.east * o.east + o.north * o.north).squareRoot() }
        let spiked = jumps.filter { $0 > 1 }
        #expect(abs(Double(spiked.count) / Double(fixes.count) - 0.05) < 0.008)
        #expect(spiked.allSatisfy { $0 > 99 && $0 < 301 })
        // The reported accuracy stays good.
        #expect(out.allSatisfy { $0.accuracyMeters == 5 })
    }

    @Test func jitterKeepsTimeOrder() throws {
        let fixes = Self.drive(count: 5000)
        let out = Degradation(jitterSeconds: 2, seed: 4).apply(to: fixes)
        #expect(out.count == fixes.count)
        let times = out.compactMap(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let shifts = zip(fixes, out).compactMap { a, b in b.time.flatMap { bt in a.time.map { bt.seconds(since: $0) } } }
        #expect(shifts.filter { $0 != 0 }.count > 4000)
        #expect(shifts.allSatisfy { abs($0) <= 0.451 }, "largest shift \(shifts.map(abs).max() ?? 0)")
        // Positions are untouched.
        #expect(zip(fixes, out).allSatisfy { $0.latitude == $1.latitude && $0.longitude == $1.longitude })
    }

    @Test func portableLogarithmAndTrigonometry() {
        for x in [1e-300, 1e-5, 0.1, 0.5, 0.999, 1, 2, 10, 1e10] {
            #expect(abs(PortableMath.log(x) - Foundation.log(x)) <= 4 * Foundation.log(x).ulp.magnitude + 1e-300)
        }
        for x in stride(from: -1.5707963, through: 1.5707963, by: 0.01) {
            #expect(abs(PortableMath.sin(x) - Foundation.sin(x)) < 1e-15)
            #expect(abs(PortableMath.cos(x) - Foundation.cos(x)) < 1e-15)
        }
    }
}
