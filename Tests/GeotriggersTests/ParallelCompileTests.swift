import Fences
import Spatial
import Support
import Testing
@testable import Geotriggers

/// Compiling fences on several threads gives the single-threaded result: the same metric shapes
/// and envelopes in fence order, and the same warnings in the same order.
@Suite struct ParallelCompileTests {
    /// Circles, rectangles (some with holes), lines and buffered fences, a few buffered away.
    static func scene() throws -> Scene {
        var scene = try Scene()
        for k in 0..<300 {
            let x = Double(k % 20) * 250
            let y = Double(k / 20) * 250
            var o = GeotriggerOverrides()
            switch k % 6 {
            case 0:
                scene.circle("c\(k)", x: x, y: y, radius: 40 + Double(k % 9))
            case 1:
                o.bufferMeters = k % 4 == 1 ? -60 : 5  // -60 leaves nothing of a 50 m square: a warning (25 of them)
                scene.rectangle("r\(k)", x, y, x + 50, y + 50, o)
            case 2:
                scene.rectangle("h\(k)", x, y, x + 120, y + 90, holes: [(x + 10, y + 10, x + 30, y + 30)])
            case 3:
                scene.line("l\(k)", [XY(x, y), XY(x + 80, y + 20), XY(x + 100, y + 90)])
            case 4:
                o.bufferMeters = 12
                scene.line("b\(k)", [XY(x, y), XY(x + 60, y)], o)
            default:
                o.bufferMeters = -100  // a circle of 45 m buffered away: a warning (50 of them)
                scene.circle("e\(k)", x: x, y: y, radius: 45, o)
            }
        }
        return scene
    }

    static func describe(_ index: FenceIndex) -> [String] {
        var out: [String] = []
        for j in 0..<index.count {
            let shape: String
            switch index.shapes[j] {
            case .circle(let c, let r): shape = "circle \(c) \(r)"
            case .beacon(let c, let a, let b): shape = "beacon \(c) \(a) \(b)"
            case .area(let a): shape = "area \(a.shape) \(a.envelope)"
            case .line(let points): shape = "line \(points)"
            case .empty: shape = "empty"
            }
            out.append("\(j) \(shape) \(index.envelopes[j].map { "\($0)" } ?? "-")")
        }
        return out + index.warnings.map(\.description)
    }

    @Test(arguments: [2, 3, 8])
    func shapesEnvelopesAndWarningsMatchOneThread(workers: Int) throws {
        let scene = try Self.scene()
        let set = FenceSet(file: "scene", fences: scene.fences)
        let settings = scene.overrides.map { $0.applied(to: scene.settings) }
        let one = try FenceIndex(set, frame: Scene.definition, settings: settings, workers: 1)
        let many = try FenceIndex(set, frame: Scene.definition, settings: settings, workers: workers)
        let reference = Self.describe(one)
        #expect(Self.describe(many) == reference)
        #expect(one.warnings.count == 75)
        #expect(one.cellRecords.count == many.cellRecords.count)
    }
}
