import CheckIns
import Fences
import Geotriggers
import Spatial
import Support
import Testing

/// Invariants over seeded random event streams (STYLE: property tests for invariants).
@Suite struct PropertyTests {
    /// Checks, for one trace's input and output:
    /// - every enter, crossing and passthrough yields exactly one check-in or suppressed event;
    /// - in every zone, check-ins awaiting a check-out and check-outs alternate, each check-out
    ///   follows a check-in with `willCheckOut: true` at the same fence, and its `dwellSeconds`
    ///   is the difference of their times and `dwellMinutes` its whole minutes;
    /// - each check-out happens at an exit of that fence;
    /// - `willCheckOut` is the zone's `checkOut` except for line crossings;
    /// - check-ins respect the re-trigger time from the end of the zone's previous check-in;
    /// - output times never go backwards.
    static func checkInvariants(
        input: [GeotriggerEvent], output: [CheckInEvent], zones: [Zone], zoneOfFence: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let candidates = input.filter { [.enter, .cross, .passthrough].contains($0.kind) }.count
        let decided = output.filter { $0.kind != .checkout }.count
        #expect(candidates == decided, "every candidate is decided once", sourceLocation: sourceLocation)
        var exits = Set<String>()
        for e in input {
            if e.kind == .exit { exits.insert("\(e.fence)@\(e.time)") }
            if e.kind == .passthrough, let t = e.exitTime { exits.insert("\(e.fence)@\(t)") }
        }
        var open: [String: CheckInEvent] = [:]
        var reference: [String: Timestamp] = [:]
        var last: Timestamp?
        for e in output {
            if let last { #expect(e.time >= last, "time order", sourceLocation: sourceLocation) }
            last = e.time
            let zone = zones.first(where: { $0.id == e.zoneID })
            #expect(zone != nil, sourceLocation: sourceLocation)
            // A fence without a zone is a default zone of its own: keyed by the fence.
            let key = zoneOfFence[e.fence]
            #expect(key == e.zoneID || key == Self.ownZone(e.fence), sourceLocation: sourceLocation)
            switch e.kind {
            case .checkin:
                #expect(open[key] == nil, "a check-in while the zone is checked in", sourceLocation: sourceLocation)
                #expect(e.willCheckOut == ((zone?.checkOut ?? false) && e.trigger.kind != .cross), sourceLocation: sourceLocation)
                if let mrt = zone?.minimumRetriggerSeconds, let r = reference[key] {
                    #expect(e.time >= r.adding(seconds: mrt), "re-trigger time", sourceLocation: sourceLocation)
                }
                if e.willCheckOut == true { open[key] = e } else { reference[key] = e.time }
            case .checkout:
                guard let checkIn = open[key] else {
                    Issue.record("a check-out without a check-in: \(e.fenceID) at \(e.time)", sourceLocation: sourceLocation)
                    continue
                }
                #expect(checkIn.fence == e.fence, sourceLocation: sourceLocation)
                #expect(checkIn.willCheckOut == true, sourceLocation: sourceLocation)
                #expect(e.checkInTime == checkIn.time, sourceLocation: sourceLocation)
                #expect(e.dwellSeconds == e.time.seconds(since: checkIn.time), sourceLocation: sourceLocation)
                #expect(e.dwellMinutes == Int((e.time.nanoseconds(since: checkIn.time)) / 60_000_000_000), sourceLocation: sourceLocation)
                #expect(exits.contains("\(e.fence)@\(e.time)"), "a check-out at an exit", sourceLocation: sourceLocation)
                open[key] = nil
                reference[key] = e.time
            case .suppressed:
                #expect(e.reason != nil, sourceLocation: sourceLocation)
                if e.reason == .checkedIn { #expect(open[key] != nil, sourceLocation: sourceLocation) }
            }
        }
    }

    /// The invariants' key of the zone of fence `j` when it has none: it checks in on its own.
    static func ownZone(_ j: Int) -> String { "\(Zone.defaultZoneID)#\(j)" }

    static func randomZones(_ rng: inout SplitMix64) -> [Zone] {
        (0..<3).map { k in
            // z0 always checks out, so every stream has check-outs to check.
            var zone = Zone(
                id: "z\(k)", checkOut: k == 0 || rng.nextUnitDouble() < 0.7,
                minimumRetriggerSeconds: [0, 15, 60][Int(rng.next() % 3)])
            if rng.nextUnitDouble() < 0.3 {
                zone.schedule = [
                    Zone.ScheduleEntry(at: World.start.adding(seconds: 200), enabled: false),
                    Zone.ScheduleEntry(at: World.start.adding(seconds: 400), enabled: true),
                ]
            }
            if rng.nextUnitDouble() < 0.3 { zone.conditions.speed = ZoneConditions.Range(maximum: 12) }
            if rng.nextUnitDouble() < 0.2 { zone.conditions.percentageCrossed = .init(percent: 50, windowSeconds: 120) }
            return zone
        }
    }

    /// Random streams shaped like the engine's: per fence, enters and exits alternate; lines only
    /// cross; hidden visits only while outside; dwell and debounce noise; several events per fix.
    @Test(arguments: Array(UInt64(1)...UInt64(40)))
    func alternationOnRandomStreams(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var bench = Bench()
        let zones = Self.randomZones(&rng)
        bench.zones = zones
        var isLine: [Bool] = []
        var zoneOfFence: [String] = []
        for j in 0..<8 {
            let zone = j == 0 ? "z0" : rng.nextUnitDouble() < 0.15 ? nil : zones[Int(rng.next() % 3)].id
            let line = j > 0 && rng.nextUnitDouble() < 0.25
            bench.fence("f\(j)", zone: zone, kind: line ? .line : .circle(radiusMeters: 20))
            isLine.append(line)
            zoneOfFence.append(zone ?? Self.ownZone(j))
        }
        var machine = try bench.machine()
        var inside = Array(repeating: false, count: 8)
        var input: [GeotriggerEvent] = []
        var output: [CheckInEvent] = []
        var t = 0.0
        for k in 0..<300 {
            let previous = t
            t += [0, 0.5, 1, 3, 10][Int(rng.next() % 5)]
            var batch: [GeotriggerEvent] = []
            for j in 0..<8 where rng.nextUnitDouble() < 0.15 {
                let id = "f\(j)"
                let between = previous + (t - previous) * rng.nextUnitDouble()
                if isLine[j] {
                    if t > previous {
                        batch.append(bench.event(.cross, id, t: between, fix: k, interpolated: true, direction: .leftToRight))
                    }
                } else if !inside[j], t > previous, rng.nextUnitDouble() < 0.3 {
                    let end = between + (t - between) * rng.nextUnitDouble()
                    batch.append(bench.event(.passthrough, id, t: between, fix: k, interpolated: true, enter: between, exit: end))
                } else if rng.nextUnitDouble() < 0.1 {
                    batch.append(bench.event(inside[j] ? .dwell : .suppressed, id, t: t, fix: k))
                } else {
                    inside[j].toggle()
                    batch.append(bench.event(inside[j] ? .enter : .exit, id, t: t, fix: k))
                }
            }
            batch.sort { $0.time < $1.time }
            input += batch
            let speed: Double? = rng.nextUnitDouble() < 0.2 ? nil : 20 * rng.nextUnitDouble()
            machine.process(batch, at: bench.fix(k, t: t, north: t * 5, speed: speed), into: &output)
        }
        #expect(output.contains { $0.kind == .checkout })
        Self.checkInvariants(input: input, output: output, zones: machine.zones, zoneOfFence: zoneOfFence)
    }

    /// A seeded random walk through overlapping fences, lines and a beacon, driven by the real
    /// engine under each gap policy.
    @Test(arguments: [GeotriggerSettings.GapPolicy.report, .interpolate, .ignore])
    func alternationThroughTheEngine(gapPolicy: GeotriggerSettings.GapPolicy) throws {
        for seed in UInt64(1)...UInt64(5) {
            var rng = SplitMix64(seed: seed &* 7919)
            var world = try World()
            world.settings.gapPolicy = gapPolicy
            world.zones = Self.randomZones(&rng)
            world.rectangle("r1", -60, -40, 20, 40, zone: "z0")
            world.rectangle("r2", -20, -40, 60, 40, zone: "z0")
            world.circle("c1", x: 80, y: 80, radius: 25, zone: "z1")
            world.circle("c2", x: -80, y: 70, radius: 6)
            world.line("l1", [XY(0, -150), XY(0, 150)], zone: "z1")
            world.line("l2", [XY(-150, -100), XY(150, -100)], zone: "z2")
            world.beacon("b1", x: 100, y: -50, range: 30, proximity: .near, zone: "z2")
            var fixes: [World.Fix] = []
            var x = 0.0, y = 0.0, t = 0.0
            for _ in 0..<600 {
                t += 1 + Double(rng.next() % 4)
                x = min(200, max(-200, x + 60 * (rng.nextUnitDouble() - 0.5)))
                y = min(200, max(-200, y + 60 * (rng.nextUnitDouble() - 0.5)))
                fixes.append(World.Fix(t, x, y, speed: rng.nextUnitDouble() < 0.5 ? nil : 15 * rng.nextUnitDouble()))
            }
            let run = try world.run(fixes)
            #expect(run.checkIns.contains { $0.kind == .checkout })
            Self.checkInvariants(
                input: run.geotriggers, output: run.checkIns, zones: run.machine.zones,
                zoneOfFence: world.fences.enumerated().map { $1.zone ?? Self.ownZone($0) })
        }
    }
}
