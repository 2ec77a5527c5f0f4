import Spatial
import Testing

@testable import Geotriggers

/// ``GeotriggerEngine/Output/counts`` (bench summaries): enters and exits become tallies instead
/// of events, everything else stays as it was.
@Suite struct CountsOnlyTests {
    static func scene() throws -> Scene {
        var scene = try Scene()
        scene.circle("c", x: 0, y: 0, radius: 50)
        scene.rectangle("r", 100, -20, 160, 20)
        scene.circle("wide", x: 120, y: 0, radius: 200)
        scene.line("l", [XY(200, -50), XY(200, 50)])
        return scene
    }

    static func sorted(_ tallies: [GeotriggerEngine.Tally]) -> [GeotriggerEngine.Tally] {
        tallies.sorted { ($0.fixIndex, $0.fence, $0.enter ? 1 : 0) < ($1.fixIndex, $1.fence, $1.enter ? 1 : 0) }
    }

    @Test func talliesAreTheEntersAndExitsOfTheEvents() throws {
        let scene = try CountsOnlyTests.scene()
        let compiled = try scene.compiled()
        let full = GeotriggerEngine(fences: compiled, traceName: "t")
        let counting = GeotriggerEngine(fences: compiled, traceName: "t", output: .counts)
        var events: [GeotriggerEvent] = []
        var others: [GeotriggerEvent] = []
        // Out and back, so that every fence is entered and left.
        let fixes =
            Scene.straight(from: XY(-100, 0), to: XY(400, 0), count: 51)
            + Scene.straight(from: XY(400, 0), to: XY(-100, 0), count: 51).map { ($0.0 + 51, $0.1, $0.2, $0.3) }
        for (i, f) in fixes.enumerated() {
            let sample = scene.sample(i, t: f.0, x: f.1, y: f.2, accuracy: f.3)
            full.process(sample, into: &events)
            counting.process(sample, into: &others)
        }
        let expected = events.filter { $0.kind == .enter || $0.kind == .exit }
            .map { GeotriggerEngine.Tally(enter: $0.kind == .enter, fixIndex: $0.fixIndex, fence: $0.fence) }
        #expect(Set(expected.map(\.fence)).count == 3, "every area and circle is entered")
        #expect(CountsOnlyTests.sorted(counting.tallies) == CountsOnlyTests.sorted(expected))
        // The line's crossings are still events, and nothing else changes.
        let rest = events.filter { $0.kind != .enter && $0.kind != .exit }
        #expect(!rest.isEmpty)
        #expect(others.map(\.kind) == rest.map(\.kind))
        #expect(others.map(\.fixIndex) == rest.map(\.fixIndex))
        #expect(counting.statistics == full.statistics)
    }

    @Test func resynchronizingTalliesNothing() throws {
        let scene = try CountsOnlyTests.scene()
        let counting = GeotriggerEngine(fences: try scene.compiled(), traceName: "t", output: .counts)
        // The sample before a slice puts the engine inside "c" and "wide" without an enter.
        counting.resynchronize(with: scene.sample(7, t: 7, x: 0, y: 0))
        #expect(counting.tallies.isEmpty)
        var events: [GeotriggerEvent] = []
        counting.process(scene.sample(8, t: 8, x: -60, y: 0), into: &events)
        #expect(counting.tallies == [GeotriggerEngine.Tally(enter: false, fixIndex: 8, fence: 0)])
        #expect(events.isEmpty)
    }
}
