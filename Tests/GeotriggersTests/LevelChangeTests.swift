import Spatial
import Support
import Testing

@testable import Geotriggers

/// A fence with `level: intervals` has its every change of state kept for `inside` lines
/// (`GeotriggerEngine.takeLevelChanges`): notified or not, silent initial ones, the confirmed
/// flip of a debounce, and both ends of a visit between fixes.
@Suite struct LevelChangeTests {
    /// `in|out:fence@fix` (with `~` for a change between fixes) of the changes kept while `fixes` run.
    func changes(_ scene: Scene, _ fixes: [(Double, Double, Double, Double)]) throws -> [String] {
        let engine = GeotriggerEngine(fences: try scene.compiled(), traceName: "test")
        var events: [GeotriggerEvent] = []
        var out: [String] = []
        for (i, f) in fixes.enumerated() {
            engine.process(scene.sample(i, t: f.0, x: f.1, y: f.2, accuracy: f.3), into: &events)
            engine.takeLevelChanges { c in
                out.append("\(c.inside ? "in" : "out"):\(scene.fences[c.fence].id)@\(c.fixIndex)\(c.interpolated ? "~" : "")")
            }
        }
        return out
    }

    static let through: [(Double, Double, Double, Double)] = [(0, -300, 0, 5), (1, 0, 0, 5), (2, 300, 0, 5)]

    @Test func everyChangeOfStateNotifiedOrNot() throws {
        var scene = try Scene()
        scene.settings.level = .intervals
        scene.settings.notify = .exit
        scene.circle("c", x: 0, y: 0, radius: 100)
        #expect(try changes(scene, Self.through) == ["in:c@1", "out:c@2"])
    }

    @Test func aSilentInitialEnterOpensAStretch() throws {
        var scene = try Scene()
        scene.settings.level = .intervals
        scene.settings.initialTrigger = .none
        scene.circle("c", x: 0, y: 0, radius: 100)
        #expect(try changes(scene, [(0, 0, 0, 5), (1, 300, 0, 5)]) == ["in:c@0", "out:c@1"])
    }

    @Test func aDebounceKeepsOnlyConfirmedChanges() throws {
        var scene = try Scene()
        scene.settings.level = .intervals
        scene.settings.enterAfter = .fixes(2)
        scene.circle("c", x: 0, y: 0, radius: 100)
        // In for one fix (not confirmed), then for two.
        let fixes: [(Double, Double, Double, Double)] = [
            (0, -300, 0, 5), (1, 0, 0, 5), (2, 300, 0, 5), (3, 0, 0, 5), (4, 10, 0, 5), (5, 300, 0, 5),
        ]
        #expect(try changes(scene, fixes) == ["in:c@4", "out:c@5"])
    }

    @Test func aVisitBetweenFixesFollowsTheGapPolicy() throws {
        var scene = try Scene()
        scene.settings.level = .intervals
        scene.circle("c", x: 0, y: 0, radius: 100)
        let jump: [(Double, Double, Double, Double)] = [(0, -300, 0, 5), (10, 300, 0, 5)]
        #expect(try changes(scene, jump) == ["in:c@1~", "out:c@1~"])
        scene.settings.gapPolicy = .interpolate
        #expect(try changes(scene, jump) == ["in:c@1~", "out:c@1~"])
        scene.settings.gapPolicy = .ignore
        #expect(try changes(scene, jump) == [])
    }

    @Test func nothingIsKeptWithoutLevel() throws {
        var scene = try Scene()
        scene.circle("c", x: 0, y: 0, radius: 100)
        scene.circle(
            "d", x: 0, y: 0, radius: 50,
            {
                var o = GeotriggerOverrides(); o.level = .intervals; return o
            }())
        #expect(try changes(scene, Self.through) == ["in:d@1", "out:d@2"])
    }
}
