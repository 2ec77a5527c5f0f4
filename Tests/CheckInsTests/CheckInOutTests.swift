import CheckIns
import Fences
import Geotriggers
import Spatial
import Support
import Testing

/// Check-in on enter, check-out on exit of the fence checked in at, dwell, zones (SPEC §3).
@Suite struct CheckInOutTests {
    /// East along y = 0 from x = -50 to 50, one fix per second 10 m apart.
    static let eastward = World.straight(from: XY(-50, 0), to: XY(50, 0), count: 11)

    @Test func enterChecksInAndExitChecksOutWithZoneAndDwell() throws {
        var world = try World()
        world.zones = [Zone(id: "z1", name: "Shop", checkOut: true, customData: .string("offer-10"))]
        world.rectangle("shop", -10, -10, 10, 10, zone: "z1")
        let run = try world.run(Self.eastward)
        #expect(summary(run.checkIns) == ["checkin:shop", "checkout:shop"])
        let checkIn = try #require(run.checkIns.first)
        let checkOut = try #require(run.checkIns.last)
        #expect(checkIn.zoneID == "z1")
        #expect(checkIn.zoneName == "Shop")
        if case .string(let s) = checkIn.customData { #expect(s == "offer-10") } else { Issue.record("custom data lost") }
        #expect(checkIn.willCheckOut == true)
        #expect(checkIn.fence == 0)
        #expect(seconds(checkIn.time) == 4)  // x = -10: the boundary counts as inside
        #expect(checkIn.trigger.kind == .enter)
        #expect(checkIn.fixIndex == 4)
        #expect(seconds(checkOut.time) == 7)  // x = 20
        #expect(checkOut.trigger.kind == .exit)
        #expect(checkOut.checkInTime == checkIn.time)
        #expect(checkOut.dwellSeconds == 3)
        #expect(checkOut.dwellMinutes == 0)
        #expect(checkOut.zoneName == "Shop")
        #expect(run.machine.openCheckIns.isEmpty)
    }

    @Test func fencesWithoutAZoneAreInTheDefaultZone() throws {
        var world = try World()
        world.rectangle("plain", -10, -10, 10, 10)
        let run = try world.run(Self.eastward)
        #expect(summary(run.checkIns) == ["checkin:plain", "checkout:plain"])
        #expect(run.checkIns.allSatisfy { $0.zoneID == Zone.defaultZoneID })
        #expect(run.checkIns.first?.willCheckOut == true)
        #expect(run.machine.zones.map(\.id) == [Zone.defaultZoneID])
    }

    /// Seed 001's intersecting POIs without zones: entering B while checked in at A checks in at
    /// B too, and each checks out at its own exit (they used to share one default zone, where B
    /// was suppressed with reason checkedIn).
    @Test func fencesWithoutAZoneCheckInEachOnTheirOwn() throws {
        var bench = Bench()
        bench.fence("A")
        bench.fence("B")
        var machine = try bench.machine()
        let out = machine.feedEach([
            bench.event(.enter, "A", t: 0), bench.event(.enter, "B", t: 10), bench.event(.exit, "A", t: 20),
            bench.event(.exit, "B", t: 30),
        ])
        #expect(summary(out) == ["checkin:A", "checkin:B", "checkout:A", "checkout:B"])
        #expect(out.allSatisfy { $0.zoneID == Zone.defaultZoneID && $0.zoneName == "Default" })
        #expect(out.filter { $0.kind == .checkin }.allSatisfy { $0.willCheckOut == true })
        #expect(machine.openCheckIns.isEmpty)
    }

    @Test func zoneWithoutCheckOutNeverChecksOut() throws {
        var world = try World()
        world.zones = [Zone(id: "z", checkOut: false)]
        world.rectangle("a", -10, -10, 10, 10, zone: "z")
        let run = try world.run(Self.eastward)
        #expect(summary(run.checkIns) == ["checkin:a"])
        #expect(run.checkIns.first?.willCheckOut == false)
    }

    @Test func stillInsideAtTheEndLeavesTheCheckInOpen() throws {
        var world = try World()
        world.rectangle("a", -10, -10, 100, 10)
        let run = try world.run(Self.eastward)
        #expect(summary(run.checkIns) == ["checkin:a"])
        #expect(run.machine.openCheckIns.map(\.fenceID) == ["a"])
        #expect(run.machine.isCheckedIn(zone: Zone.defaultZoneID))
    }

    @Test func lineFenceChecksInOnCrossAndNeverChecksOut() throws {
        var world = try World()
        world.zones = [Zone(id: "gate", checkOut: true)]
        world.line("l", [XY(0, -20), XY(0, 20)], zone: "gate")
        let run = try world.run(World.straight(from: XY(-45, 0), to: XY(45, 0), count: 10))
        #expect(summary(run.checkIns) == ["checkin:l"])
        let e = try #require(run.checkIns.first)
        #expect(e.willCheckOut == false)
        #expect(e.interpolated)
        #expect(e.direction != nil)
        #expect(e.trigger.kind == .cross)
        #expect(seconds(e.time) == 4.5)
        #expect(run.machine.openCheckIns.isEmpty)
    }

    /// Two overlapping fences of one zone: the zone checks in at the one entered first, and the
    /// other's enter is suppressed while that check-in is open.
    @Test(arguments: [true, false])
    func overlappingFencesCheckInAtTheFirstEntered(eastward: Bool) throws {
        var world = try World()
        world.zones = [Zone(id: "z")]
        world.rectangle("A", -30, -10, 10, 10, zone: "z")
        world.rectangle("B", -10, -10, 30, 10, zone: "z")
        let fixes = eastward ? Self.eastward : World.straight(from: XY(50, 0), to: XY(-50, 0), count: 11)
        let run = try world.run(fixes)
        let (first, second) = eastward ? ("A", "B") : ("B", "A")
        #expect(summary(run.checkIns) == ["checkin:\(first)", "suppressed(checkedIn):\(second)", "checkout:\(first)"])
    }

    /// The check-out comes from the fence checked in at, while the device is still inside another
    /// fence of the same zone; leaving that other fence later does nothing.
    @Test func checkOutFromTheFenceCheckedInAtWhileInsideAnother() throws {
        var world = try World()
        world.zones = [Zone(id: "z")]
        world.rectangle("A", -30, -10, 10, 10, zone: "z")
        world.rectangle("B", -10, -10, 30, 10, zone: "z")
        let run = try world.run(Self.eastward)
        let checkOut = try #require(run.checkIns.first(where: { $0.kind == .checkout }))
        #expect(checkOut.fenceID == "A")
        #expect(seconds(checkOut.time) == 7)
        // The engine still has the device inside B at that moment: B's exit comes two fixes later.
        let exitB = try #require(run.geotriggers.first(where: { $0.kind == .exit && $0.fence == 1 }))
        #expect(exitB.time > checkOut.time)
        #expect(run.checkIns.last?.kind == .checkout)
        #expect(run.machine.openCheckIns.isEmpty)
    }

    /// Exits are taken before enters at the same instant: stepping from one fence of a zone into
    /// another in one fix checks out and checks in again, whatever the fence ids' order.
    @Test func exitBeforeEnterAtTheSameInstant() throws {
        var bench = Bench()
        bench.zones = [Zone(id: "z")]
        bench.fence("b-later", zone: "z")
        bench.fence("a-first", zone: "z")
        var machine = try bench.machine()
        var out = machine.feed([bench.event(.enter, "b-later", t: 0)], bench.fix(0, t: 0))
        // The engine orders same-instant events by fence id: the enter of "a-first" comes first.
        out += machine.feed(
            [bench.event(.enter, "a-first", t: 10, fix: 1), bench.event(.exit, "b-later", t: 10, fix: 1)], bench.fix(1, t: 10))
        #expect(summary(out) == ["checkin:b-later", "checkout:b-later", "checkin:a-first"])
    }

    @Test func zoneDisabledBetweenCheckInAndCheckOutStillChecksOut() throws {
        var bench = Bench()
        bench.zones = [
            Zone(
                id: "z",
                schedule: [
                    Zone.ScheduleEntry(at: World.start.adding(seconds: 50), enabled: false),
                    Zone.ScheduleEntry(at: World.start.adding(seconds: 200), enabled: true),
                ])
        ]
        bench.fence("a", zone: "z")
        var machine = try bench.machine()
        let out = machine.feedEach([
            bench.event(.enter, "a", t: 0),
            bench.event(.exit, "a", t: 100),  // disabled since t = 50: the check-out still comes
            bench.event(.enter, "a", t: 120),  // disabled: suppressed
            bench.event(.exit, "a", t: 130),
            bench.event(.enter, "a", t: 250),  // enabled again
        ])
        #expect(summary(out) == ["checkin:a", "checkout:a", "suppressed(zoneDisabled):a", "checkin:a"])
        #expect(out[1].dwellSeconds == 100)
        #expect(out[2].detail?.contains("disabled") == true)
    }

    @Test(arguments: [(59.999, 0), (60.0, 1), (119.999_999_999, 1), (120.0, 2), (3600.5, 60)])
    func dwellMinutesRoundDown(dwell: Double, minutes: Int) throws {
        var bench = Bench()
        bench.fence("a")
        var machine = try bench.machine()
        let out = machine.feedEach([bench.event(.enter, "a", t: 10), bench.event(.exit, "a", t: 10 + dwell)])
        let checkOut = try #require(out.last)
        #expect(checkOut.kind == .checkout)
        #expect(checkOut.dwellMinutes == minutes)
        #expect(checkOut.dwellSeconds == checkOut.time.seconds(since: out[0].time))
        #expect(abs((checkOut.dwellSeconds ?? -1) - dwell) < 1e-6)
    }

    @Test func dwellAndDebounceEventsDoNotChangeCheckIns() throws {
        var bench = Bench()
        bench.fence("a")
        var machine = try bench.machine()
        var dwell = bench.event(.dwell, "a", t: 5)
        dwell.dwellSeconds = 5
        var debounce = bench.event(.suppressed, "a", t: 6)
        debounce.reason = "debounce: enter seen since fix 3 was not confirmed"
        #expect(machine.feed([dwell, debounce], bench.fix(0, t: 6)).isEmpty)
        let out = machine.feedEach([bench.event(.enter, "a", t: 10), bench.event(.dwell, "a", t: 15), bench.event(.exit, "a", t: 20)])
        #expect(summary(out) == ["checkin:a", "checkout:a"])
    }

    /// Check-ins follow the engine's state, not its notifications: an enter that `notify: exit`
    /// keeps out of the log still checks in.
    @Test func unnotifiedEntersStillCheckIn() throws {
        var world = try World()
        world.settings.notify = .exit
        world.rectangle("a", -10, -10, 10, 10)
        let run = try world.run(Self.eastward)
        #expect(run.geotriggers.first?.notified == false)
        #expect(summary(run.checkIns) == ["checkin:a", "checkout:a"])
    }

    @Test func engineDwellSettingDoesNotAddCheckIns() throws {
        var world = try World()
        world.settings.dwellSeconds = 1
        world.rectangle("a", -10, -10, 10, 10)
        let run = try world.run(Self.eastward)
        #expect(run.geotriggers.contains { $0.kind == .dwell })
        #expect(summary(run.checkIns) == ["checkin:a", "checkout:a"])
    }
}
