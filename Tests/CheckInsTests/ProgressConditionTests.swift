import CheckIns
import Fences
import Geotriggers
import Spatial
import Support
import Testing

/// Conditions over several triggers: percentage crossed and travel path (SPEC §3).
@Suite struct ProgressConditionTests {
    /// Four circles 100 m apart along the x axis, all in zone `zone`.
    static func fourCircles(_ zone: Zone) throws -> World {
        var world = try World()
        world.zones = [zone]
        for k in 0..<4 {
            world.circle("c\(k + 1)", x: Double(k) * 100, y: 0, radius: 10, zone: zone.id)
        }
        return world
    }

    static let alongTheCircles = World.straight(from: XY(-50, 0), to: XY(350, 0), count: 41)

    @Test func percentageCrossedCompletedByTheThirdOfFourFences() throws {
        let world = try Self.fourCircles(Zone(id: "pc", conditions: ZoneConditions(percentageCrossed: .init(percent: 75))))
        let run = try world.run(Self.alongTheCircles)
        #expect(
            summary(run.checkIns) == [
                "suppressed(percentageCrossed):c1", "suppressed(percentageCrossed):c2", "checkin:c3", "checkout:c3",
                // The check-in reset the count: c4 alone is 25 %.
                "suppressed(percentageCrossed):c4",
            ])
        let checkIn = try #require(run.checkIns.first(where: { $0.kind == .checkin }))
        #expect(checkIn.crossedFences == ["c1", "c2", "c3"])
        #expect(checkIn.willCheckOut == true)
        #expect(run.checkIns[1].detail?.contains("2 of 4 fences (50 %)") == true)
    }

    @Test func percentageCrossedWithinAWindow() throws {
        var bench = Bench()
        bench.zones = [
            Zone(id: "pc", checkOut: false, conditions: ZoneConditions(percentageCrossed: .init(percent: 75, windowSeconds: 30)))
        ]
        for k in 1...4 { bench.fence("c\(k)", zone: "pc") }
        var machine = try bench.machine()
        let out = machine.feedEach([
            bench.event(.enter, "c1", t: 0), bench.event(.enter, "c2", t: 20),
            bench.event(.enter, "c3", t: 40),  // c1 is 40 s old: 2 of 4 within 30 s
            bench.event(.enter, "c4", t: 50),  // c2, c3, c4
        ])
        #expect(
            summary(out) == [
                "suppressed(percentageCrossed):c1", "suppressed(percentageCrossed):c2", "suppressed(percentageCrossed):c3", "checkin:c4",
            ])
        #expect(out[3].crossedFences == ["c2", "c3", "c4"])
    }

    /// A zone mixing fences and lines checks out only when a fence completed the percentage
    /// (seed 002's warning about GEOLINE and percentage crossed).
    @Test(arguments: [true, false])
    func percentageCrossedMixingFencesAndLines(completedByLine: Bool) throws {
        var bench = Bench()
        bench.zones = [Zone(id: "mix", conditions: ZoneConditions(percentageCrossed: .init(percent: 50)))]
        bench.fence("f1", zone: "mix")
        bench.fence("f2", zone: "mix")
        bench.fence("l1", zone: "mix", kind: .line)
        bench.fence("l2", zone: "mix", kind: .line)
        var machine = try bench.machine()
        let cross = bench.event(.cross, "l1", t: completedByLine ? 10 : 0, interpolated: true, direction: .leftToRight)
        let enter = bench.event(.enter, "f1", t: completedByLine ? 0 : 10)
        let exit = bench.event(.exit, "f1", t: 20)
        let out = machine.feedEach(completedByLine ? [enter, cross, exit] : [cross, enter, exit])
        if completedByLine {
            #expect(summary(out) == ["suppressed(percentageCrossed):f1", "checkin:l1"])
            #expect(out[1].willCheckOut == false)
        } else {
            #expect(summary(out) == ["suppressed(percentageCrossed):l1", "checkin:f1", "checkout:f1"])
            #expect(out[1].willCheckOut == true)
            #expect(out[2].dwellSeconds == 10)
        }
    }

    /// Path c1 → c2 → c3 over four fences: out of order restarts, the first fence restarts from
    /// itself, a repeat of the last matched fence and fences off the path change nothing.
    @Test func travelPathEnteredOutOfOrder() throws {
        var bench = Bench()
        bench.zones = [Zone(id: "tp", checkOut: false, conditions: ZoneConditions(travelPath: ["c1", "c2", "c3"]))]
        for k in 1...4 { bench.fence("c\(k)", zone: "tp") }
        var machine = try bench.machine()
        let order = ["c2", "c1", "c3", "c4", "c1", "c1", "c2", "c4", "c3"]
        let out = machine.feedEach(order.enumerated().map { bench.event(.enter, $0.element, t: Double($0.offset) * 10) })
        #expect(summary(out) == order.dropLast().map { "suppressed(travelPath):\($0)" } + ["checkin:c3"])
        #expect(out.map(\.crossedFences.count) == [0, 1, 0, 0, 1, 1, 2, 2, 3])
        #expect(out.last?.crossedFences == ["c1", "c2", "c3"])
        #expect(out[2].detail?.contains("0 of 3") == true)
    }

    @Test func travelPathRestartsFromItsFirstFence() throws {
        var bench = Bench()
        bench.zones = [Zone(id: "tp", checkOut: false, conditions: ZoneConditions(travelPath: ["c1", "c2", "c3"]))]
        for k in 1...3 { bench.fence("c\(k)", zone: "tp") }
        var machine = try bench.machine()
        let order = ["c1", "c2", "c1", "c3", "c1", "c2", "c3", "c3"]
        let out = machine.feedEach(order.enumerated().map { bench.event(.enter, $0.element, t: Double($0.offset) * 10) })
        // c1 c2 | c1 (restart) c3 (out of order) | c1 c2 c3: check-in; then c3 alone: 0 of 3.
        #expect(
            summary(out) == ["c1", "c2", "c1", "c3", "c1", "c2"].map { "suppressed(travelPath):\($0)" } + [
                "checkin:c3", "suppressed(travelPath):c3",
            ])
    }

    /// The engine drives the path: a straight drive meets the circles in the order c1, c2, c3.
    @Test(arguments: [(["c1", "c2", "c3"], true), (["c2", "c1", "c3"], false)])
    func travelPathDrivenByTheEngine(path: [String], checksIn: Bool) throws {
        var world = try Self.fourCircles(Zone(id: "tp", conditions: ZoneConditions(travelPath: path)))
        world.fences.removeLast()
        world.overrides.removeLast()
        let run = try world.run(Self.alongTheCircles)
        let kinds = run.checkIns.map(\.kind)
        if checksIn {
            #expect(summary(run.checkIns) == ["suppressed(travelPath):c1", "suppressed(travelPath):c2", "checkin:c3", "checkout:c3"])
        } else {
            #expect(kinds == [.suppressed, .suppressed, .suppressed])
        }
    }

    /// A completing enter blocked by another gate can be retried by entering the last path fence
    /// again.
    @Test func blockedCompletionRetriesAtTheLastFence() throws {
        var bench = Bench()
        bench.zones = [Zone(id: "tp", checkOut: false, conditions: ZoneConditions(speed: .init(maximum: 10), travelPath: ["c1", "c2"]))]
        bench.fence("c1", zone: "tp")
        bench.fence("c2", zone: "tp")
        var machine = try bench.machine()
        var out = machine.feed([bench.event(.enter, "c1", t: 0)], bench.fix(0, t: 0, speed: 5))
        out += machine.feed([bench.event(.enter, "c2", t: 10, fix: 1)], bench.fix(1, t: 10, speed: 20))
        out += machine.feed([bench.event(.enter, "c2", t: 20, fix: 2)], bench.fix(2, t: 20, speed: 5))
        #expect(summary(out) == ["suppressed(travelPath):c1", "suppressed(speed):c2", "checkin:c2"])
    }
}
