import CheckIns
import Fences
import Geotriggers
import Spatial
import Support
import Testing

/// Minimum re-trigger time (SPEC §3; seed 002: with check-out, it starts at the check-out).
@Suite struct RetriggerTests {
    /// Enter at 0, exit at 100, MRT 600 s: the reference is the check-out (100) in a zone with
    /// check-out, the check-in (0) in a zone without.
    static func machine(checkOut: Bool) throws -> (Bench, CheckInMachine) {
        var bench = Bench()
        bench.zones = [Zone(id: "z", checkOut: checkOut, minimumRetriggerSeconds: 600)]
        bench.fence("a", zone: "z")
        bench.fence("b", zone: "z")
        return (bench, try bench.machine())
    }

    @Test(arguments: [true, false])
    func reEntryOneSecondBeforeAndAfterTheRetriggerTime(checkOut: Bool) throws {
        var (bench, machine) = try Self.machine(checkOut: checkOut)
        let reference = checkOut ? 100.0 : 0.0
        let out = machine.feedEach([
            bench.event(.enter, "a", t: 0),
            bench.event(.exit, "a", t: 100),
            bench.event(.enter, "a", t: reference + 599),  // one second before: blocked
            bench.event(.exit, "a", t: reference + 599.5),
            bench.event(.enter, "a", t: reference + 601),  // one second after: checks in
        ])
        let expected = (checkOut ? ["checkin:a", "checkout:a"] : ["checkin:a"]) + ["suppressed(mrt):a", "checkin:a"]
        #expect(summary(out) == expected)
        let blocked = try #require(out.first(where: { $0.kind == .suppressed }))
        #expect(blocked.detail?.contains(checkOut ? "last check-out" : "last check-in") == true)
    }

    /// "Passed" means `>=`: an enter exactly at reference + MRT checks in.
    @Test(arguments: [true, false])
    func reEntryExactlyAtTheRetriggerTimeChecksIn(checkOut: Bool) throws {
        var (bench, machine) = try Self.machine(checkOut: checkOut)
        let reference = checkOut ? 100.0 : 0.0
        let out = machine.feedEach([
            bench.event(.enter, "a", t: 0), bench.event(.exit, "a", t: 100), bench.event(.enter, "a", t: reference + 600),
        ])
        #expect(out.last?.kind == .checkin)
    }

    /// The re-trigger time belongs to the zone: another fence of the zone is blocked too.
    @Test func retriggerTimeCoversEveryFenceOfTheZone() throws {
        var (bench, machine) = try Self.machine(checkOut: true)
        let out = machine.feedEach([
            bench.event(.enter, "a", t: 0), bench.event(.exit, "a", t: 100), bench.event(.enter, "b", t: 300),
        ])
        #expect(summary(out) == ["checkin:a", "checkout:a", "suppressed(mrt):b"])
    }

    /// A suppressed enter does not move the reference.
    @Test func suppressedEntersDoNotRestartTheRetriggerTime() throws {
        var (bench, machine) = try Self.machine(checkOut: false)
        let out = machine.feedEach([
            bench.event(.enter, "a", t: 0), bench.event(.enter, "b", t: 500), bench.event(.enter, "a", t: 650),
        ])
        #expect(summary(out) == ["checkin:a", "suppressed(mrt):b", "checkin:a"])
    }

    /// A line crossed twice within the re-trigger time checks in once; a line check-in never
    /// checks out, so its own time is the reference even in a zone with check-out.
    @Test(arguments: [true, false])
    func lineCrossedTwiceWithinTheRetriggerTime(checkOut: Bool) throws {
        var world = try World()
        world.zones = [Zone(id: "gate", checkOut: checkOut, minimumRetriggerSeconds: 60)]
        world.line("l", [XY(0, -20), XY(0, 20)], zone: "gate")
        // East (crossing at 4.5 s), back west (14.5 s), east again from 70 s (74.5 s).
        let fixes =
            World.straight(from: XY(-45, 0), to: XY(45, 0), count: 10)
            + World.straight(from: XY(45, 0), to: XY(-45, 0), count: 10, startingAt: 10)
            + World.straight(from: XY(-45, 0), to: XY(45, 0), count: 10, startingAt: 70)
        let run = try world.run(fixes)
        #expect(run.geotriggers.filter { $0.kind == .cross }.count == 3)
        #expect(summary(run.checkIns) == ["checkin:l", "suppressed(mrt):l", "checkin:l"])
        #expect(run.checkIns.map { seconds($0.time) } == [4.5, 14.5, 74.5])
        // The line points north: eastward is left to right.
        #expect(run.checkIns.map(\.direction) == [.leftToRight, .rightToLeft, .leftToRight])
        #expect(run.checkIns.filter { $0.kind == .checkin }.allSatisfy { $0.willCheckOut == false })
    }
}
