import Fences
import Spatial
import Support
import Testing

@testable import Geotriggers

/// ``GeotriggerEngine`` against ``OracleEngine`` on the random scenes of
/// ``OracleDifferentialTests`` with fences that change over time: random `validFrom` /
/// `validUntil` (some exactly at a fix's time), schedules of a few minutes (some across
/// midnight, in a time zone), and versions that replace a fence (moved, with the same id) or
/// add one. The full event logs must be identical.
@Suite struct ValidityDifferentialTests {
    static let seeds: [UInt64] = Array(1...60)

    /// `scene` with validity and versions drawn from `seed`, over the times of `samples`.
    static func changing(_ scene: Scene, samples: [Sample], seed: UInt64) -> Scene {
        var rng = SplitMix64(seed: seed ^ 0x7A11_D17E)
        func chance(_ p: Double) -> Bool { rng.nextUnitDouble() < p }
        let first = samples.first!.time
        let span = samples.last!.time.seconds(since: first)
        /// A time in the trace: a fix's own time now and then (ties with `<=`), else any.
        func instant() -> Timestamp {
            if chance(0.3) { return samples[Int(rng.next() % UInt64(samples.count))].time }
            return first.adding(seconds: (span * rng.nextUnitDouble() * 1000).rounded() / 1000)
        }
        /// A time just after a fix near fence `j` (where it may be under the device), else any.
        func instant(near j: Int) -> Timestamp {
            let corner = scene.frame.forward(scene.fences[j].shape.positions[0])
            let near = samples.filter { $0.position.distance(to: corner) < 60 }
            guard !near.isEmpty, chance(0.8) else { return instant() }
            return near[Int(rng.next() % UInt64(near.count))].time.adding(seconds: 0.25)
        }
        func window() -> ZoneConditions.TimeWindow {
            // The scene starts at 2026-01-01T00:00Z, a Thursday: windows of a few minutes around
            // the start, some across midnight, in UTC or an hour ahead.
            let zone = chance(0.5) ? "UTC" : "Europe/Zurich"
            let local = zone == "UTC" ? 0 : 60
            let from = (1440 + local - 3 + Int(rng.next() % 30)) % 1440
            let to = (from + 1 + Int(rng.next() % 8)) % 1440
            let days: Set<Int> = chance(0.5) ? [] : (chance(0.5) ? [4] : [3])
            return ZoneConditions.TimeWindow(days: days, fromMinute: from, toMinute: to, timeZone: zone)
        }
        var changed = scene
        let originals = scene.fences.count
        for j in 0..<originals {
            guard chance(0.8) else { continue }
            var validity = FenceValidity()
            if chance(0.5) { validity.from = instant() }
            if chance(0.5) { validity.until = instant(near: j) }
            if let from = validity.from, let until = validity.until, until <= from { (validity.from, validity.until) = (until, from) }
            if validity.from == validity.until { validity.until = nil }
            if chance(0.3) { validity.schedule = [window()] }
            if chance(0.6) {
                // A replacement from `until` (or a new `until`): the same fence moved a little.
                let until = validity.until ?? instant(near: j)
                if let from = validity.from, until <= from { continue }
                validity.until = until
                var next = scene.fences[j]
                next.index = changed.fences.count
                let dx = (rng.nextUnitDouble() - 0.5) * 2e-4
                let dy = (rng.nextUnitDouble() - 0.5) * 2e-4
                next.shape = next.shape.mapPositions { XY($0.x + dx, $0.y + dy) }
                next.validity = FenceValidity(from: until, until: chance(0.3) ? until.adding(seconds: span * 0.2) : nil)
                changed.fences.append(next)
                changed.overrides.append(scene.overrides[j])
            }
            changed.fences[j].validity = validity.from == nil && validity.until == nil && validity.schedule.isEmpty ? nil : validity
        }
        return changed
    }

    static func compare(seed: UInt64) throws -> [GeotriggerEvent] {
        let plain = try OracleDifferentialTests.scene(seed: seed)
        let samples = try OracleDifferentialTests.trace(
            seed: seed, count: 300, scene: plain, oracle: try OracleDifferentialTests.oracle(for: plain))
        let scene = changing(plain, samples: samples, seed: seed)
        let oracle = try OracleDifferentialTests.oracle(for: scene)
        OracleDifferentialTests.expectSameLogs(try OracleDifferentialTests.logs(scene, samples, oracle: oracle), "seed \(seed)")
        let engine = GeotriggerEngine(fences: try scene.compiled(), traceName: "trace")
        var events: [GeotriggerEvent] = []
        for sample in samples { engine.process(sample, into: &events) }
        return events
    }

    @Test(arguments: seeds)
    func sameEventsAsTheOracle(seed: UInt64) throws {
        _ = try Self.compare(seed: seed)
    }

    /// The scenes make fences appear under the device, disappear under it and move away from
    /// it: a differential test that never saw them would prove nothing.
    @Test func scenesExerciseEveryChange() throws {
        var seen: [String: Int] = [:]
        for seed in Self.seeds {
            for e in try Self.compare(seed: seed) {
                if let reason = e.reason, ["added", "removed", "replaced"].contains(reason) {
                    seen["\(e.kind.rawValue) \(reason)", default: 0] += 1
                }
            }
        }
        for tag in ["enter added", "exit removed", "exit replaced", "enter replaced"] {
            #expect(seen[tag, default: 0] >= 5, "\(tag): \(seen[tag, default: 0])")
        }
    }
}
