import Spatial
import Support
import Testing

@testable import Geotriggers

/// Fences that fall between fixes, and line fences.
@Suite struct CrossingTests {
    /// A device at 30 m/s with 1 s fixes along the x axis: x = -40, -10, 20, 50, 80.
    static let fast: [(Double, Double, Double, Double)] = (0..<5).map { k in (Double(k), -40 + 30 * Double(k), 0, 5) }

    @Test func passthroughReportsInterpolatedTimes() throws {
        var scene = try Scene()
        // Fixes at x = -40, -10, 20, 50, 80. A circle of radius 8 at x = 5 spans x in [-3, 13],
        // between the fixes at x = -10 (t = 1) and x = 20 (t = 2): entry at t = 1 + 7/30, exit at
        // t = 1 + 23/30.
        scene.circle("small", x: 5, y: 0, radius: 8)
        let events = try scene.run(Self.fast)
        #expect(events.count == 1)
        let e = try #require(events.first)
        #expect(e.kind == .passthrough)
        #expect(e.interpolated)
        #expect(e.fixIndex == 2)
        let enter = try #require(e.enterTime)
        let exit = try #require(e.exitTime)
        #expect(abs(enter.seconds(since: scene.start) - (1 + 7.0 / 30)) < 1e-6)
        #expect(abs(exit.seconds(since: scene.start) - (1 + 23.0 / 30)) < 1e-6)
        #expect(e.time == enter)
    }

    @Test func interpolatePolicyEmitsAPair() throws {
        var scene = try Scene()
        scene.settings.gapPolicy = .interpolate
        scene.rectangle("box", -3, -4, 13, 4)
        let events = try scene.run(Self.fast)
        #expect(summary(events, scene) == ["enter:box@2", "exit:box@2"])
        #expect(events.allSatisfy { $0.interpolated })
        #expect(abs(events[0].time.seconds(since: scene.start) - (1 + 7.0 / 30)) < 1e-6)
        #expect(abs(events[1].time.seconds(since: scene.start) - (1 + 23.0 / 30)) < 1e-6)
    }

    @Test func ignorePolicyReportsNothing() throws {
        var scene = try Scene()
        scene.settings.gapPolicy = .ignore
        scene.circle("small", x: 5, y: 0, radius: 8)
        #expect(try scene.run(Self.fast).isEmpty)
    }

    @Test func noPassthroughAcrossALongGap() throws {
        var scene = try Scene()
        scene.settings.maxGapSeconds = 10
        scene.circle("small", x: 5, y: 0, radius: 8)
        // Same positions, but 60 s between the fixes around the fence: a new segment.
        let fixes: [(Double, Double, Double, Double)] = [(0, -40, 0, 5), (1, -10, 0, 5), (61, 20, 0, 5)]
        #expect(try scene.run(fixes).isEmpty)
    }

    @Test func accuracyDiscPassthrough() throws {
        var scene = try Scene()
        scene.settings.feed = .accuracy
        // The path passes 22 m from the centre of a circle of radius 10 (at x = 5), and 26.6 m
        // at the fixes either side (x = -10 and 20): with 5 m discs no visit; with 15 m discs the
        // disc reaches 10 + 15 = 25 m, so a visit hidden between the fixes.
        scene.circle("c", x: 5, y: 22, radius: 10)
        #expect(try scene.run(Self.fast).isEmpty)
        let wide = Self.fast.map { ($0.0, $0.1, $0.2, 15.0) }
        let events = try scene.run(wide)
        #expect(events.map(\.kind) == [.passthrough])
    }

    @Test func concavePolygonGivesTwoHiddenVisits() throws {
        var scene = try Scene()
        scene.settings.gapPolicy = .interpolate
        // A U shape open to the north: the path along y = 5 crosses both arms between two fixes.
        let u: [XY] = [XY(-30, -10), XY(30, -10), XY(30, 20), XY(20, 20), XY(20, 0), XY(-20, 0), XY(-20, 20), XY(-30, 20), XY(-30, -10)]
        scene.add("u", .area, .polygon([u]))
        let events = try scene.run([(0, -100, 5, 5), (1, 100, 5, 5)])
        #expect(events.map(\.kind) == [.enter, .exit, .enter, .exit])
        let times = events.map { $0.time.seconds(since: scene.start) }
        // Arms at x in [-30, -20] and [20, 30] along a 200 m, 1 s segment.
        let expected = [70.0, 80, 120, 130].map { $0 / 200 }
        for (t, e) in zip(times, expected) { #expect(abs(t - e) < 1e-6) }
    }

    @Test func lineCrossedInBothDirections() throws {
        var scene = try Scene()
        // A line digitised south to north along x = 0: east is its right.
        scene.line("gate", [XY(0, -50), XY(0, 50)])
        let fixes: [(Double, Double, Double, Double)] = [(0, -20, 0, 5), (2, 20, 0, 5), (3, 30, 10, 5), (4, -10, 10, 5)]
        let events = try scene.run(fixes)
        #expect(summary(events, scene) == ["cross:gate@1", "cross:gate@3"])
        #expect(events.map(\.direction) == [.leftToRight, .rightToLeft])
        // Half-way between t = 0 and t = 2; three quarters of the way from t = 3 to t = 4.
        #expect(abs(events[0].time.seconds(since: scene.start) - 1) < 1e-9)
        #expect(abs(events[1].time.seconds(since: scene.start) - 3.75) < 1e-9)
        #expect(events.allSatisfy { $0.interpolated })
    }

    @Test func lineVertexCrossedOnce() throws {
        var scene = try Scene()
        scene.line("zigzag", [XY(0, -50), XY(0, 0), XY(0, 50)])
        #expect(try scene.run([(0, -10, 0, 5), (1, 10, 0, 5)]).count == 1)
    }

    @Test func fixOnTheLineCountsOnce() throws {
        var scene = try Scene()
        scene.line("gate", [XY(0, -50), XY(0, 50)])
        // The middle fix lies exactly on the line: one crossing, not zero or two.
        let events = try scene.run([(0, 10, 0, 5), (1, 0, 0, 5), (2, -10, 0, 5)])
        #expect(events.count == 1)
        #expect(events.first?.direction == .rightToLeft)
    }

    @Test func bufferedLineIsACorridor() throws {
        var scene = try Scene()
        var corridor = GeotriggerOverrides()
        corridor.bufferMeters = 10
        scene.line("road", [XY(0, -100), XY(0, 100)], corridor)
        scene.settings.gapPolicy = .ignore
        let events = try scene.run([(0, -30, 0, 5), (1, -5, 0, 5), (2, 5, 0, 5), (3, 30, 0, 5)])
        #expect(summary(events, scene) == ["enter:road@1", "exit:road@3"])
    }
}
