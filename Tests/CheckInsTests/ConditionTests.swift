import CheckIns
import Fences
import Geotriggers
import Spatial
import Support
import Testing

/// Zone conditions on the enter itself: time windows, speed, bearing (SPEC §3).
@Suite struct ConditionTests {
    static func bench(_ conditions: ZoneConditions, start: Timestamp = World.start) -> Bench {
        var bench = Bench()
        bench.start = start
        bench.zones = [Zone(id: "z", checkOut: false, conditions: conditions)]
        bench.fence("a", zone: "z")
        return bench
    }

    /// Friday 22:00 to 02:00 UTC: the morning part belongs to Friday (2026-01-01 is a Thursday).
    @Test func timeWindowPastMidnight() throws {
        let bench = Self.bench(ZoneConditions(timeWindows: [ZoneConditions.TimeWindow(days: [5], fromMinute: 22 * 60, toMinute: 2 * 60)]))
        var machine = try bench.machine()
        let hours: [Double] = [
            23,  // Thursday 23:00: not Friday
            47,  // Friday 23:00
            49.5,  // Saturday 01:30, in Friday's window
            50,  // Saturday 02:00: the end is exclusive
            71,  // Saturday 23:00
        ]
        let out = machine.feedEach(hours.map { bench.event(.enter, "a", t: $0 * 3600) })
        #expect(
            summary(out) == ["suppressed(timeWindow):a", "checkin:a", "checkin:a", "suppressed(timeWindow):a", "suppressed(timeWindow):a"])
    }

    /// 08:00–09:00 in Europe/Zurich, before and after the change to summer time on 2026-03-29.
    @Test func timeWindowInAnIANAZoneAcrossDaylightSavingTime() throws {
        let start = try #require(Timestamp(year: 2026, month: 3, day: 28))
        let bench = Self.bench(
            ZoneConditions(timeWindows: [
                ZoneConditions.TimeWindow(days: [], fromMinute: 8 * 60, toMinute: 9 * 60, timeZone: "Europe/Zurich")
            ]),
            start: start)
        var machine = try bench.machine()
        let hours: [Double] = [
            6.5,  // 28 March 06:30Z = 07:30 CET
            7.5,  // 28 March 07:30Z = 08:30 CET
            48 + 6.5,  // 30 March 06:30Z = 08:30 CEST
            48 + 7.5,  // 30 March 07:30Z = 09:30 CEST
        ]
        let out = machine.feedEach(hours.map { bench.event(.enter, "a", t: $0 * 3600) })
        #expect(summary(out) == ["suppressed(timeWindow):a", "checkin:a", "checkin:a", "suppressed(timeWindow):a"])
    }

    @Test func anyOfSeveralTimeWindows() throws {
        let bench = Self.bench(
            ZoneConditions(timeWindows: [
                ZoneConditions.TimeWindow(days: [], fromMinute: 8 * 60, toMinute: 9 * 60),
                ZoneConditions.TimeWindow(days: [], fromMinute: 17 * 60, toMinute: 18 * 60),
            ]))
        var machine = try bench.machine()
        let out = machine.feedEach([8.5, 12, 17.5].map { bench.event(.enter, "a", t: $0 * 3600) })
        #expect(summary(out) == ["checkin:a", "suppressed(timeWindow):a", "checkin:a"])
    }

    @Test func speedRangeUsesTheFixSpeed() throws {
        let bench = Self.bench(ZoneConditions(speed: ZoneConditions.Range(minimum: 2, maximum: 10)))
        var machine = try bench.machine()
        var out: [CheckInEvent] = []
        for (k, (t, speed)) in [(0.0, 5.0), (10, 15), (20, 1.5), (30, 10)].enumerated() {
            out += machine.feed([bench.event(.enter, "a", t: t, fix: k)], bench.fix(k, t: t, speed: speed))
        }
        #expect(summary(out) == ["checkin:a", "suppressed(speed):a", "suppressed(speed):a", "checkin:a"])
        #expect(out[1].detail?.contains("15 m/s") == true)
    }

    /// Without a speed in the fix, the speed implied by the previous fix; without a previous fix,
    /// the condition fails.
    @Test func speedFallsBackToThePreviousFix() throws {
        let bench = Self.bench(ZoneConditions(speed: ZoneConditions.Range(minimum: 2, maximum: 10)))
        var machine = try bench.machine()
        var out = machine.feed([bench.event(.enter, "a", t: 0)], bench.fix(0, t: 0))
        #expect(summary(out) == ["suppressed(speed):a"])
        // 100 m north in 20 s: 5 m/s.
        out = machine.feed([], bench.fix(1, t: 10, north: 0))
        out += machine.feed([bench.event(.enter, "a", t: 30, fix: 2)], bench.fix(2, t: 30, north: 100))
        #expect(summary(out) == ["checkin:a"])
        // 1000 m in 10 s: 100 m/s.
        out = machine.feed([bench.event(.enter, "a", t: 40, fix: 3)], bench.fix(3, t: 40, north: 1100))
        #expect(summary(out) == ["suppressed(speed):a"])
        #expect(out.first?.detail?.contains("derived from fixes 2 and 3") == true)
    }

    /// An arc through north: 350° clockwise to 10°.
    @Test(arguments: [(355.0, true), (5, true), (350, true), (10, true), (20, false), (180, false), (-5, true)])
    func bearingArcThroughNorth(course: Double, checksIn: Bool) throws {
        let bench = Self.bench(ZoneConditions(bearing: ZoneConditions.BearingRange(from: 350, to: 10)))
        var machine = try bench.machine()
        let out = machine.feed([bench.event(.enter, "a", t: 0)], bench.fix(0, t: 0, course: course))
        #expect(summary(out) == [checksIn ? "checkin:a" : "suppressed(bearing):a"])
    }

    @Test func bearingFallsBackToTheDirectionOfTravel() throws {
        let bench = Self.bench(ZoneConditions(bearing: ZoneConditions.BearingRange(from: 350, to: 10)))
        var machine = try bench.machine()
        var out = machine.feed([], bench.fix(0, t: 0))
        out += machine.feed([bench.event(.enter, "a", t: 10, fix: 1)], bench.fix(1, t: 10, north: 50))  // north
        out += machine.feed([bench.event(.enter, "a", t: 20, fix: 2)], bench.fix(2, t: 20, north: 50, east: 50))  // east
        out += machine.feed([bench.event(.enter, "a", t: 30, fix: 3)], bench.fix(3, t: 30, north: 50, east: 50))  // not moving
        #expect(summary(out) == ["checkin:a", "suppressed(bearing):a", "suppressed(bearing):a"])
        #expect(out[2].detail?.contains("no course") == true)
    }

    /// A line whose zone only accepts eastbound travel (bearing 45°–135°): driven by the engine,
    /// with the course implied by the fixes.
    @Test func lineWithABearingGateChecksInOneWayOnly() throws {
        var world = try World()
        world.zones = [
            Zone(id: "gate", checkOut: false, conditions: ZoneConditions(bearing: ZoneConditions.BearingRange(from: 45, to: 135)))
        ]
        world.line("l", [XY(0, -20), XY(0, 20)], zone: "gate")
        let fixes =
            World.straight(from: XY(-45, 0), to: XY(45, 0), count: 10)
            + World.straight(from: XY(45, 0), to: XY(-45, 0), count: 10, startingAt: 10)
        let run = try world.run(fixes)
        #expect(summary(run.checkIns) == ["checkin:l", "suppressed(bearing):l"])
        #expect(run.checkIns.map(\.direction) == [.leftToRight, .rightToLeft])
    }

    /// A line whose zone accepts only left-to-right crossings (SPEC §3 travel direction): the
    /// line runs south to north, so eastbound travel crosses it from its left.
    @Test func lineWithATravelDirectionChecksInOneWayOnly() throws {
        var world = try World()
        world.zones = [Zone(id: "gate", checkOut: false, conditions: ZoneConditions(travelDirection: .leftToRight))]
        world.line("l", [XY(0, -20), XY(0, 20)], zone: "gate")
        let fixes =
            World.straight(from: XY(-45, 0), to: XY(45, 0), count: 10)
            + World.straight(from: XY(45, 0), to: XY(-45, 0), count: 10, startingAt: 10)
        let run = try world.run(fixes)
        #expect(summary(run.checkIns) == ["checkin:l", "suppressed(travelDirection):l"])
        #expect(run.checkIns.last?.detail?.contains("right-to-left") == true)
    }

    @Test func gatesAreCheckedInOrder() throws {
        // Disabled beats every condition; conditions come after the re-trigger time.
        var bench = Bench()
        bench.zones = [
            Zone(
                id: "z", checkOut: false, minimumRetriggerSeconds: 100,
                schedule: [Zone.ScheduleEntry(at: World.start.adding(seconds: 1000), enabled: false)],
                conditions: ZoneConditions(speed: ZoneConditions.Range(minimum: 100)))
        ]
        bench.fence("a", zone: "z")
        var machine = try bench.machine()
        var out = machine.feed([bench.event(.enter, "a", t: 0)], bench.fix(0, t: 0, speed: 200))
        out += machine.feed([bench.event(.enter, "a", t: 50, fix: 1)], bench.fix(1, t: 50, speed: 1))
        out += machine.feed([bench.event(.enter, "a", t: 150, fix: 2)], bench.fix(2, t: 150, speed: 1))
        out += machine.feed([bench.event(.enter, "a", t: 1500, fix: 3)], bench.fix(3, t: 1500, speed: 1))
        #expect(summary(out) == ["checkin:a", "suppressed(mrt):a", "suppressed(speed):a", "suppressed(zoneDisabled):a"])
    }
}
