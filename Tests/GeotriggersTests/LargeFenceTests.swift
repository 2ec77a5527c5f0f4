import Spatial
import Testing

@testable import Geotriggers

/// Fences so much larger than the others that the grid keeps them on a list checked at every
/// fix (``FenceGrid/large``) are entered and left like any other, whatever their slot.
@Suite struct LargeFenceTests {
    static func scene() throws -> Scene {
        var scene = try Scene()
        // Small circles set the grid's cells to 25 m; they come first, so the large fences'
        // fence numbers and slots differ.
        for k in 0..<40 {
            scene.circle("small\(k)", x: Double(k % 8) * 600 - 2000, y: Double(k / 8) * 600 - 1200, radius: 10)
        }
        scene.rectangle("county", -1500, -1000, 1500, 1000)
        scene.circle("region", x: 2500, y: 0, radius: 1500)
        return scene
    }

    @Test func largeFencesAreEnteredAndLeft() throws {
        let scene = try LargeFenceTests.scene()
        let compiled = try scene.compiled()
        let largeIDs = compiled.index.grid.large.map { scene.fences[Int($0)].id }
        #expect(Set(largeIDs) == ["county", "region"])
        #expect(
            compiled.index.grid.large.allSatisfy { compiled.index.fenceSlot[Int($0)] != $0 },
            "the large fences' slots differ from their numbers")
        // West to east along y = 50: into the county at x = -1500, out at 1500, into the region
        // at 1000 (it overlaps), out of it past 3999 (the circle is a little narrower at y = 50).
        let fixes = Scene.straight(from: XY(-2000, 50), to: XY(5000, 50), count: 71)
        let events = try scene.run(fixes).filter { $0.kind == .enter || $0.kind == .exit }
        let ofLarge = events.filter { ["county", "region"].contains(scene.fences[$0.fence].id) }
        #expect(summary(ofLarge, scene) == ["enter:county@5", "enter:region@31", "exit:county@36", "exit:region@60"])
    }
}
