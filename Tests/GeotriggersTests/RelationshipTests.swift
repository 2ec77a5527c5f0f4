import Spatial
import Support
import Testing

@testable import Geotriggers

/// Hand-computed cases for each relationship × feed, on a circle of radius 100 m at the origin
/// and a 200 m square. Fixes walk along the x axis; the expected enter and exit fixes follow
/// from the distances written beside them.
@Suite struct RelationshipTests {
    // x positions: 300 (d=300), 180, 110, 96, 60, 0, then back out 96, 110, 180.
    static let path: [(Double, Double, Double, Double)] = [
        (0, 300, 0, 12), (1, 180, 0, 12), (2, 110, 0, 12), (3, 96, 0, 12), (4, 60, 0, 12), (5, 0, 0, 12),
        (6, 96, 0, 12), (7, 110, 0, 12), (8, 180, 0, 12),
    ]

    @Test(arguments: [
        // Point feed: inside when d <= 100 → fixes 3..6.
        (GeotriggerSettings.Feed.point, GeotriggerSettings.Relationship.intersects, ["enter:c@3", "exit:c@7"]),
        (.point, .contains, ["enter:c@3", "exit:c@7"]),
        (.point, .containsIntersects, ["enter:c@3", "exit:c@7"]),
        // Disc of 12 m: intersects when d <= 112 → fixes 2..7; contains when d + 12 <= 100 → 4..5.
        (.accuracy, .intersects, ["enter:c@2", "exit:c@8"]),
        (.accuracy, .contains, ["enter:c@4", "exit:c@6"]),
        // Hysteresis: enter when contained (fix 4), exit when no longer intersecting (fix 8).
        (.accuracy, .containsIntersects, ["enter:c@4", "exit:c@8"]),
    ])
    func circle(feed: GeotriggerSettings.Feed, relationship: GeotriggerSettings.Relationship, expected: [String]) throws {
        var scene = try Scene()
        scene.settings.feed = feed
        scene.settings.relationship = relationship
        scene.settings.gapPolicy = .ignore
        scene.circle("c", x: 0, y: 0, radius: 100)
        #expect(summary(try scene.run(Self.path), scene) == expected)
    }

    @Test(arguments: [
        (GeotriggerSettings.Feed.point, GeotriggerSettings.Relationship.intersects, ["enter:s@3", "exit:s@7"]),
        (.point, .contains, ["enter:s@3", "exit:s@7"]),
        (.accuracy, .intersects, ["enter:s@2", "exit:s@8"]),
        (.accuracy, .contains, ["enter:s@4", "exit:s@6"]),
        (.accuracy, .containsIntersects, ["enter:s@4", "exit:s@8"]),
    ])
    func square(feed: GeotriggerSettings.Feed, relationship: GeotriggerSettings.Relationship, expected: [String]) throws {
        var scene = try Scene()
        scene.settings.feed = feed
        scene.settings.relationship = relationship
        scene.settings.gapPolicy = .ignore
        // The square's east edge is at x = 100, like the circle's: same distances along the axis.
        scene.rectangle("s", -100, -100, 100, 100)
        #expect(summary(try scene.run(Self.path), scene) == expected)
    }

    @Test func boundaryCountsAsInside() throws {
        var scene = try Scene()
        scene.circle("c", x: 0, y: 0, radius: 100)
        let compiled = try scene.compiled()
        guard case .circle(let center, let r) = compiled.shapes[0] else { Issue.record("expected a circle"); return }
        let engine = GeotriggerEngine(fences: compiled, traceName: "t")
        var events: [GeotriggerEvent] = []
        engine.process(scene.sample(0, t: 0, x: center.x + r, y: center.y), into: &events)
        #expect(events.map(\.kind) == [.enter])
        #expect(events.first?.distance == 0)
    }

    @Test func polygonVertexIsInside() throws {
        var scene = try Scene()
        scene.rectangle("s", -100, -100, 100, 100)
        let compiled = try scene.compiled()
        guard case .area(let area) = compiled.shapes[0], case .polygon(let rings) = area.shape else {
            Issue.record("expected a polygon"); return
        }
        let vertex = rings[0][1]
        let engine = GeotriggerEngine(fences: compiled, traceName: "t")
        var events: [GeotriggerEvent] = []
        engine.process(scene.sample(0, t: 0, x: vertex.x, y: vertex.y), into: &events)
        #expect(events.map(\.kind) == [.enter])
    }

    @Test func holeIsOutside() throws {
        var scene = try Scene()
        scene.settings.gapPolicy = .ignore
        // A 400 m square with a 100 m hole in the middle; walk west to east through it.
        scene.rectangle("ring", -200, -200, 200, 200, holes: [(-50, -50, 50, 50)])
        let fixes: [(Double, Double, Double, Double)] = [(0, -300, 0, 5), (1, -150, 0, 5), (2, 0, 0, 5), (3, 150, 0, 5), (4, 300, 0, 5)]
        let events = try scene.run(fixes)
        #expect(summary(events, scene) == ["enter:ring@1", "exit:ring@2", "enter:ring@3", "exit:ring@4"])
        // In the hole the fix is 50 m from the nearest boundary, outside: signed distance +50.
        let exitInHole = try #require(events.first { $0.fixIndex == 2 })
        #expect(abs((exitInHole.distance ?? 0) - 50) < 1e-6)
        let enter = try #require(events.first)
        #expect(abs((enter.distance ?? 0) + 50) < 1e-6)
    }

    @Test func signedDistanceAndProvenance() throws {
        var scene = try Scene()
        scene.settings.feed = .accuracy
        scene.circle("c", x: 0, y: 0, radius: 100)
        let events = try scene.run([(0, 300, 0, 20), (1, 90, 0, 20)])
        let enter = try #require(events.first)
        #expect(enter.kind == .enter)
        #expect(enter.fixIndex == 1)
        #expect(enter.time == scene.start.adding(seconds: 1))
        #expect(enter.feed == .accuracy)
        #expect(enter.feedRadius == 20)
        #expect(enter.accuracy == 20)
        #expect(abs((enter.distance ?? 0) + 10) < 1e-9)
    }

    @Test func initialTrigger() throws {
        var scene = try Scene()
        scene.circle("c", x: 0, y: 0, radius: 100)
        let fixes: [(Double, Double, Double, Double)] = [(0, 0, 0, 5), (1, 300, 0, 5)]
        #expect(summary(try scene.run(fixes), scene) == ["enter:c@0", "exit:c@1"])
        scene.settings.initialTrigger = .none
        #expect(summary(try scene.run(fixes), scene) == ["exit:c@1"])
    }

    @Test func notifyFiltersNotificationsButNotState() throws {
        var scene = try Scene()
        scene.settings.notify = .exit
        scene.circle("c", x: 0, y: 0, radius: 100)
        let events = try scene.run([(0, 300, 0, 5), (1, 0, 0, 5), (2, 300, 0, 5)])
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(events.map(\.notified) == [false, true])
    }

    @Test func bufferGrowsAndShrinks() throws {
        var scene = try Scene()
        scene.settings.gapPolicy = .ignore
        var grow = GeotriggerOverrides()
        grow.bufferMeters = 50
        var shrink = GeotriggerOverrides()
        shrink.bufferMeters = -50
        scene.rectangle("big", -100, -100, 100, 100, grow)
        scene.rectangle("small", -100, -100, 100, 100, shrink)
        scene.circle("circle", x: 0, y: 0, radius: 100, shrink)
        // x = 140 is inside the grown square only; x = 60 inside the square but outside the shrunk ones.
        let events = try scene.run([(0, 300, 0, 5), (1, 140, 0, 5), (2, 60, 0, 5), (3, 0, 0, 5)])
        // Simultaneous events are ordered by fence id.
        #expect(summary(events, scene) == ["enter:big@1", "enter:circle@3", "enter:small@3"])
    }

    @Test func messageTemplate() throws {
        var scene = try Scene()
        scene.settings.message = try MessageTemplate("Entered {fence.id} at {fix.accuracy} m ({event.type}, fix {fix.index})")
        scene.circle("c", x: 0, y: 0, radius: 100)
        let events = try scene.run([(0, 300, 0, 7.5), (1, 0, 0, 7.25)])
        #expect(events.first?.message == "Entered c at 7.25 m (enter, fix 1)")
    }

    /// No movement joins two segments of the source (issue 22, GPX `trkseg`): a 1 m circle and
    /// a line between the last fix of one segment and the first of the next give no passthrough
    /// and no crossing; the same fixes in one segment give both.
    @Test func segmentsAreNotJoined() throws {
        var scene = try Scene()
        scene.circle("c", x: 0, y: 0, radius: 1)
        scene.line("l", [XY(0, -10), XY(0, 10)])
        func run(segments: [Int]) throws -> [GeotriggerEvent] {
            let engine = GeotriggerEngine(fences: try scene.compiled(), traceName: "test")
            var events: [GeotriggerEvent] = []
            for (i, x) in [-60.0, -40, 40, 60].enumerated() {
                var sample = scene.sample(i, t: Double(i) * 4, x: x, y: 0)
                sample.segment = segments[i]
                engine.process(sample, into: &events)
            }
            return events
        }
        let joined = try run(segments: [0, 0, 0, 0])
        #expect(joined.map(\.kind) == [.passthrough, .cross] || joined.map(\.kind) == [.cross, .passthrough], "\(joined.map(\.kind))")
        #expect(try run(segments: [0, 0, 1, 1]).isEmpty)
    }

    /// A fix's fields print as precisely as they were read (47.375 is not 47.38; 47.4 is not
    /// 47.40), whole numbers without a fraction.
    @Test func messageFieldsKeepTheirPrecision() throws {
        var scene = try Scene()
        scene.settings.message = try MessageTemplate("{fix.accuracy} m, fix {fix.index}")
        scene.circle("c", x: 0, y: 0, radius: 100)
        let events = try scene.run([(0, 300, 0, 7.5), (1, 0, 0, 47.375)])
        #expect(events.first?.message == "47.375 m, fix 1")
        #expect(MessageTemplate.fieldText(47.375) == "47.375")
        #expect(MessageTemplate.fieldText(37.7726567) == "37.7726567")
        #expect(MessageTemplate.fieldText(47.4) == "47.4")
        #expect(MessageTemplate.fieldText(12) == "12")
        #expect(MessageTemplate.fieldText(-0.1) == "-0.1")
    }

    @Test func filterSkipsFixes() throws {
        var scene = try Scene()
        scene.settings.filter = try FilterExpression("accuracy <= 10")
        scene.settings.gapPolicy = .ignore
        scene.circle("c", x: 0, y: 0, radius: 100)
        // The fix inside has a poor accuracy and is skipped: no visit.
        let events = try scene.run([(0, 300, 0, 5), (1, 0, 0, 50), (2, 300, 0, 5)])
        #expect(events.isEmpty)
    }
}
