import Fences
import Spatial
import Support
import Testing

@testable import Geotriggers

/// Fences that exist only part of the time (``Fences/FenceValidity``): appearing under the
/// device, disappearing under it, replaced by a moved version, and on a schedule.
@Suite struct ValidityTests {
    /// `kind:id@fix@seconds after the start[:reason]` for each event.
    static func timeline(_ events: [GeotriggerEvent], _ scene: Scene) -> [String] {
        events.map { e in
            "\(e.kind.rawValue):\(scene.fences[e.fence].id)@\(e.fixIndex)@\(e.time.seconds(since: scene.start))"
                + (e.reason.map { ":\($0)" } ?? "")
        }
    }

    /// A device standing at the origin for 11 fixes, one a second, then walking east 20 m a
    /// second for 10 more.
    static let standThenWalk: [(Double, Double, Double, Double)] =
        (0...10).map { (Double($0), 0, 0, 5) } + (1...10).map { (Double(10 + $0), Double($0) * 20, 0, 5) }

    @Test(arguments: [GeotriggerSettings.InitialTrigger.enter, .none])
    func fenceAppearingUnderTheDeviceEntersPerItsInitialTrigger(initial: GeotriggerSettings.InitialTrigger) throws {
        var scene = try Scene()
        var o = GeotriggerOverrides()
        o.initialTrigger = initial
        scene.circle("a", x: 0, y: 0, radius: 30, o)
        scene.fences[0].validity = FenceValidity(from: scene.start.adding(seconds: 4.5))
        let events = Self.timeline(try scene.run(Self.standThenWalk), scene)
        // Tested at the change, at the last fix (4); the exit proves it was inside.
        let enter = initial == .enter ? ["enter:a@4@4.5:added"] : []
        #expect(events == enter + ["exit:a@12@12.0"])
    }

    @Test func fenceValidFromAFixTimeIsTestedAtTheFixBefore() throws {
        var scene = try Scene()
        scene.circle("a", x: 0, y: 0, radius: 30)
        scene.fences[0].validity = FenceValidity(from: scene.start.adding(seconds: 5))
        #expect(Self.timeline(try scene.run(Self.standThenWalk), scene) == ["enter:a@4@5.0:added", "exit:a@12@12.0"])
    }

    @Test func fenceDisappearingUnderTheDeviceExitsRemoved() throws {
        var scene = try Scene()
        scene.circle("a", x: 0, y: 0, radius: 30)
        scene.circle("b", x: 200, y: 0, radius: 30)
        scene.fences[0].validity = FenceValidity(until: scene.start.adding(seconds: 6.5))
        // "b" is gone before the device reaches it: not tested, no events, not even between fixes.
        scene.fences[1].validity = FenceValidity(until: scene.start.adding(seconds: 15))
        #expect(Self.timeline(try scene.run(Self.standThenWalk), scene) == ["enter:a@0@0.0", "exit:a@6@6.5:removed"])
    }

    @Test func fenceReplacedAwayFromTheDeviceExitsReplaced() throws {
        var scene = try Scene()
        scene.circle("a", x: 0, y: 0, radius: 30)
        scene.circle("a", x: 160, y: 0, radius: 30)
        let change = scene.start.adding(seconds: 7.5)
        scene.fences[0].validity = FenceValidity(until: change)
        scene.fences[1].validity = FenceValidity(from: change)
        // Out at the change; in the moved fence when the device walks into it.
        #expect(
            Self.timeline(try scene.run(Self.standThenWalk), scene)
                == ["enter:a@0@0.0", "exit:a@7@7.5:replaced", "enter:a@17@17.0", "exit:a@20@20.0"])
    }

    @Test func fenceReplacedStillAroundTheDeviceKeepsItsState() throws {
        var scene = try Scene()
        var o = GeotriggerOverrides()
        o.dwellSeconds = .some(9)
        scene.circle("a", x: 0, y: 0, radius: 30, o)
        scene.circle("a", x: 40, y: 0, radius: 50, o)
        let change = scene.start.adding(seconds: 3.5)
        scene.fences[0].validity = FenceValidity(until: change)
        scene.fences[1].validity = FenceValidity(from: change)
        let events = try scene.run(Self.standThenWalk)
        // No event at the change; the dwell counts from the first enter; the exit is the new
        // shape's (90 m east).
        #expect(Self.timeline(events, scene) == ["enter:a@0@0.0", "dwell:a@9@9.0", "exit:a@15@15.0"])
        #expect(events.last?.fence == 1)
    }

    @Test func fenceReplacedOverTheDeviceEntersReplaced() throws {
        var scene = try Scene()
        scene.circle("a", x: 300, y: 0, radius: 30)
        scene.circle("a", x: 0, y: 0, radius: 30)
        let change = scene.start.adding(seconds: 2.25)
        scene.fences[0].validity = FenceValidity(until: change)
        scene.fences[1].validity = FenceValidity(from: change)
        #expect(Self.timeline(try scene.run(Self.standThenWalk), scene) == ["enter:a@2@2.25:replaced", "exit:a@12@12.0"])
    }

    /// A window from 23:59 to 00:01 in Zurich (UTC+1 in winter) on the day it starts on: the
    /// night from Wednesday 31 December 2025 to Thursday is 22:59 to 23:01 UTC.
    @Test(arguments: [(Set([3]), true), (Set([4]), false), (Set<Int>(), true)])
    func scheduleAcrossMidnightInATimeZone(days: Set<Int>, open: Bool) throws {
        var scene = try Scene()
        scene.circle("a", x: 0, y: 0, radius: 30)
        scene.fences[0].validity = FenceValidity(schedule: [
            ZoneConditions.TimeWindow(
                days: days, fromMinute: 23 * 60 + 59, toMinute: 1,
                timeZone: "Europe/Zurich")
        ])
        // 22:58:20 to 23:02:00 UTC, every 20 s, at the fence.
        let fixes = (0...11).map { (-3700 + Double($0) * 20, 0.0, 0.0, 5.0) }
        let events = Self.timeline(try scene.run(fixes), scene)
        #expect(events == (open ? ["enter:a@1@-3660.0:added", "exit:a@7@-3540.0:removed"] : []))
    }

    /// A fence the device crosses between two fixes makes a passthrough only when it existed
    /// at the first of them.
    @Test(arguments: [(nil, nil, true), (0.5, nil, false), (nil, 0.5, false), (-1.0, nil, true)] as [(Double?, Double?, Bool)])
    func noVisitBetweenFixesToAFenceThatDidNotExist(from: Double?, until: Double?, seen: Bool) throws {
        var scene = try Scene()
        scene.circle("a", x: 100, y: 0, radius: 10)
        if from != nil || until != nil {
            scene.fences[0].validity = FenceValidity(
                from: from.map { scene.start.adding(seconds: $0) },
                until: until.map { scene.start.adding(seconds: $0) })
        }
        let events = Self.timeline(try scene.run([(0, 0, 0, 5), (1, 200, 0, 5)]), scene)
        #expect(events == (seen ? ["passthrough:a@1@0.45:fence lies between fix 0 and fix 1 (1 s, 200 m apart)"] : []), "\(events)")
    }

    @Test func levelStretchesEndWhereAFenceIsRemoved() throws {
        var scene = try Scene()
        scene.settings.level = .intervals
        scene.circle("a", x: 0, y: 0, radius: 30)
        scene.fences[0].validity = FenceValidity(from: scene.start.adding(seconds: 1.5), until: scene.start.adding(seconds: 6.5))
        let engine = GeotriggerEngine(fences: try scene.compiled(), traceName: "test")
        var events: [GeotriggerEvent] = []
        var changes: [String] = []
        for (i, f) in Self.standThenWalk.enumerated() {
            engine.process(scene.sample(i, t: f.0, x: f.1, y: f.2, accuracy: f.3), into: &events)
            engine.takeLevelChanges { changes.append("\($0.inside ? "in" : "out")@\($0.fixIndex)@\($0.time.seconds(since: scene.start))") }
        }
        #expect(changes == ["in@1@1.5", "out@6@6.5"])
    }

    @Test func aReplacementAroundTheDeviceChangesNoLevel() throws {
        var scene = try Scene()
        scene.settings.level = .intervals
        scene.circle("a", x: 0, y: 0, radius: 30)
        scene.circle("a", x: 40, y: 0, radius: 50)
        let change = scene.start.adding(seconds: 3.5)
        scene.fences[0].validity = FenceValidity(until: change)
        scene.fences[1].validity = FenceValidity(from: change)
        let engine = GeotriggerEngine(fences: try scene.compiled(), traceName: "test")
        var events: [GeotriggerEvent] = []
        var changes: [String] = []
        for (i, f) in Self.standThenWalk.enumerated() {
            engine.process(scene.sample(i, t: f.0, x: f.1, y: f.2, accuracy: f.3), into: &events)
            engine.takeLevelChanges { changes.append("\($0.inside ? "in" : "out"):\($0.fence)@\($0.fixIndex)") }
        }
        // In at the first version, out of the second: one stretch of the fence "a".
        #expect(changes == ["in:0@0", "out:1@15"])
    }

    @Test func validityChangesAreFoundOnWholeMinutes() {
        let start = Timestamp(seconds: 1_767_225_600)  // Thursday 2026-01-01T00:00Z
        let validity = FenceValidity(
            until: start.adding(seconds: 600.5),
            schedule: [ZoneConditions.TimeWindow(days: [], fromMinute: 2, toMinute: 4, timeZone: "UTC")])
        let found = validity.changes(after: start, through: start.adding(seconds: 900)).map { ($0.time.seconds(since: start), $0.exists) }
        #expect(found.map(\.0) == [120, 240])
        #expect(found.map(\.1) == [true, false])
        // Nothing within a window, nor at the start itself.
        #expect(validity.changes(after: start.adding(seconds: 120), through: start.adding(seconds: 180)).isEmpty)
        #expect(FenceValidity(from: start).changes(after: start, through: start.adding(seconds: 1)).isEmpty)
        #expect(FenceValidity(from: start).changes(after: start.adding(seconds: -1), through: start).map(\.exists) == [true])
    }
}
