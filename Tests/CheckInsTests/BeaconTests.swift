import CheckIns
import Fences
import Geotriggers
import Spatial
import Support
import Testing

/// Beacons check in at their proximity and out only beyond their full range (SPEC §3, seed 002).
@Suite struct BeaconTests {
    @Test func checkedInAtNearChecksOutOnlyBeyondFullRange() throws {
        var world = try World()
        world.zones = [Zone(id: "store")]
        world.beacon("door", x: 0, y: 0, range: 30, proximity: .near, zone: "store")
        // 50 m, 10 m (in range, not near), 2 m (near: check-in), 20 m, 29 m (still in range),
        // 31 m (beyond: check-out), 50 m.
        let fixes = [50.0, 10, 2, 20, 29, 31, 50].enumerated().map { World.Fix(Double($0.offset) * 10, $0.element, 0) }
        let partial = try world.run(Array(fixes.prefix(5)))
        #expect(summary(partial.checkIns) == ["checkin:door"])
        #expect(partial.checkIns.first?.fixIndex == 2)
        #expect(partial.machine.isCheckedIn(zone: "store"))  // at 20 m and 29 m of a 30 m range

        let run = try world.run(fixes)
        #expect(summary(run.checkIns) == ["checkin:door", "checkout:door"])
        let checkOut = try #require(run.checkIns.last)
        #expect(checkOut.fixIndex == 5)
        #expect(checkOut.dwellSeconds == 30)
        #expect(run.checkIns.first?.willCheckOut == true)
    }

    @Test func notCheckedInWithinRangeButOutsideProximity() throws {
        var world = try World()
        world.beacon("door", x: 0, y: 0, range: 30, proximity: .immediate)
        let fixes = [50.0, 20, 2, 20, 50].enumerated().map { World.Fix(Double($0.offset) * 10, $0.element, 0) }
        let run = try world.run(fixes)
        #expect(run.checkIns.isEmpty)
    }
}
