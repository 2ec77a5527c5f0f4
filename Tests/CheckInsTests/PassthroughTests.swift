import CheckIns
import Fences
import Geotriggers
import Spatial
import Support
import Testing

/// Visits hidden between two fixes (SPEC §2 `gapPolicy`) and what they do to check-ins.
@Suite struct PassthroughTests {
    /// 30 m/s with 1 s fixes along the x axis: x = -40, -10, 20, 50, 80. A circle of radius 8 at
    /// x = 5 is entered at t = 1 + 7/30 and left at t = 1 + 23/30, between two fixes.
    static let fast = (0..<5).map { k in World.Fix(Double(k), -40 + 30 * Double(k), 0) }

    @Test func passthroughIsACheckInAndACheckOut() throws {
        var world = try World()
        world.circle("small", x: 5, y: 0, radius: 8)
        let run = try world.run(Self.fast)
        #expect(run.geotriggers.map(\.kind) == [.passthrough])
        #expect(summary(run.checkIns) == ["checkin:small", "checkout:small"])
        #expect(run.checkIns.allSatisfy { $0.interpolated && $0.trigger.kind == .passthrough })
        let checkIn = run.checkIns[0]
        let checkOut = run.checkIns[1]
        #expect(abs(seconds(checkIn.time) - (1 + 7.0 / 30)) < 1e-6)
        #expect(abs(seconds(checkOut.time) - (1 + 23.0 / 30)) < 1e-6)
        #expect(checkOut.dwellSeconds == checkOut.time.seconds(since: checkIn.time))
        #expect(checkOut.dwellMinutes == 0)
    }

    @Test func passthroughInAZoneWithoutCheckOutOnlyChecksIn() throws {
        var world = try World()
        world.zones = [Zone(id: "z", checkOut: false)]
        world.circle("small", x: 5, y: 0, radius: 8, zone: "z")
        let run = try world.run(Self.fast)
        #expect(summary(run.checkIns) == ["checkin:small"])
    }

    @Test func blockedPassthroughIsOneSuppressedEvent() throws {
        var world = try World()
        world.zones = [Zone(id: "z", schedule: [Zone.ScheduleEntry(at: World.start, enabled: false)])]
        world.circle("small", x: 5, y: 0, radius: 8, zone: "z")
        let run = try world.run(Self.fast)
        #expect(summary(run.checkIns) == ["suppressed(zoneDisabled):small"])
    }

    @Test func interpolatedPairChecksInAndOutAtItsTimes() throws {
        var world = try World()
        world.settings.gapPolicy = .interpolate
        world.rectangle("box", -3, -4, 13, 4)
        let run = try world.run(Self.fast)
        #expect(run.geotriggers.map(\.kind) == [.enter, .exit])
        #expect(summary(run.checkIns) == ["checkin:box", "checkout:box"])
        #expect(run.checkIns.allSatisfy { $0.interpolated })
        #expect(abs((run.checkIns[1].dwellSeconds ?? 0) - 16.0 / 30) < 1e-6)
    }

    /// Two hidden visits of two fences of one zone in one segment are taken in time order.
    @Test func hiddenVisitsOfOneZoneInTimeOrder() throws {
        var bench = Bench()
        bench.zones = [Zone(id: "z")]
        bench.fence("a", zone: "z")
        bench.fence("b", zone: "z")
        var machine = try bench.machine()
        // a: 1.2–1.6, b: 1.3–1.7 (overlapping); then b again 1.8–1.9.
        let events = [
            bench.event(.passthrough, "a", t: 1.2, fix: 2, interpolated: true, enter: 1.2, exit: 1.6),
            bench.event(.passthrough, "b", t: 1.3, fix: 2, interpolated: true, enter: 1.3, exit: 1.7),
            bench.event(.passthrough, "b", t: 1.8, fix: 2, interpolated: true, enter: 1.8, exit: 1.9),
        ]
        let out = machine.feed(events, bench.fix(2, t: 2))
        #expect(summary(out) == ["checkin:a", "suppressed(checkedIn):b", "checkout:a", "checkin:b", "checkout:b"])
        #expect(out.map { seconds($0.time) } == [1.2, 1.3, 1.6, 1.8, 1.9])
    }

    /// A zero-length visit (a path touching the fence between fixes) checks in and out at once.
    @Test func zeroLengthVisit() throws {
        var bench = Bench()
        bench.fence("a")
        var machine = try bench.machine()
        let out = machine.feed(
            [bench.event(.passthrough, "a", t: 1.5, fix: 2, interpolated: true, enter: 1.5, exit: 1.5)], bench.fix(2, t: 2))
        #expect(summary(out) == ["checkin:a", "checkout:a"])
        #expect(out.last?.dwellSeconds == 0)
    }
}
