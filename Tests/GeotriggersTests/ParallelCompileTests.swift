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
        let one = try scene.index(workers: 1)
        let many = try scene.index(workers: workers)
        let reference = Self.describe(one)
        #expect(Self.describe(many) == reference)
        #expect(one.warnings.count == 75)
        #expect(one.cellRecords.count == many.cellRecords.count)
    }

    /// The records laid out in cell order by several threads are those one thread lays out.
    @Test(arguments: [1, 2, 3, 7])
    func cellRecordsFilledByThreadsAreInCellOrder(workers: Int) {
        let byFence = (0..<50).map { j in
            FenceIndex.CellRecord(x: Double(j), y: -Double(j), r: 1, rx: 2, slot: Int32(j), flags: UInt8(j % 4))
        }
        let items = (0..<1_001).map { Int32(($0 * 37) % 50) }
        let records = FenceIndex.cellRecords(items, byFence, workers: workers, perWorker: 10)
        #expect(records.map(\.slot) == items)
        #expect(records.map(\.x) == items.map { Double($0) })
        #expect(records.map(\.flags) == items.map { UInt8($0 % 4) })
        #expect(FenceIndex.cellRecords([], byFence, workers: workers, perWorker: 1).isEmpty)
    }

    /// Slots number the fences by the grid cell of their envelope's centre; every record names
    /// the slot of the fence the grid registered there, and the polygon places are by slot.
    @Test func slotsFollowTheGridCells() throws {
        var scene = try Scene()
        for k in 0..<600 {
            // Fences in a scattered order, so that slot order differs from fence order.
            let x = Double((k * 97) % 40) * 90
            let y = Double((k * 31) % 15) * 90
            if k % 4 == 0 {
                scene.rectangle("r\(k)", x, y, x + 60, y + 40)
            } else {
                scene.circle("c\(k)", x: x, y: y, radius: 25 + Double(k % 5))
            }
        }
        let index = try scene.index(workers: 1)
        #expect(index.slotFence.sorted() == (0..<Int32(600)).map { $0 })
        #expect(index.slotFence != index.slotFence.sorted(), "the scene's fence order is not its cell order")
        for (slot, fence) in index.slotFence.enumerated() { #expect(index.fenceSlot[Int(fence)] == Int32(slot)) }
        let grid = index.grid
        func cell(_ fence: Int32) -> Int {
            let e = index.envelopes[Int(fence)]!
            let column = Int(((e.minX + e.maxX) / 2 - grid.originX) / grid.cellSize)
            let row = Int(((e.minY + e.maxY) / 2 - grid.originY) / grid.cellSize)
            return row * grid.columns + column
        }
        let cells = index.slotFence.map(cell)
        #expect(cells == cells.sorted(), "slots go cell by cell")
        for k in index.cellRecords.indices {
            #expect(index.slotFence[Int(index.cellRecords[k].slot)] == grid.items[k])
        }
        var polygons = 0
        for (fence, kind) in index.kinds.enumerated() where kind == .area {
            guard case .polygon(let rings) = try #require(index.areas[fence]).shape else { Issue.record("a rectangle is a polygon"); continue }
            let place = index.polygonRings[Int(index.fenceSlot[fence])]
            #expect(place.ringCount == 1)
            for (k, p) in rings[0].enumerated() {
                #expect(index.polygonXs[place.vertexStart + k] == p.x && index.polygonYs[place.vertexStart + k] == p.y)
            }
            polygons += 1
        }
        #expect(polygons == 150)
    }

    /// Two pieces of work side by side give what they give one after the other.
    @Test(arguments: [false, true])
    func bothGivesBothResults(parallel: Bool) {
        let (a, b) = FenceIndex.both(parallel, { (0..<10_000).reduce(0, +) }, { String(repeating: "x", count: 3) })
        #expect(a == 49_995_000)
        #expect(b == "xxx")
    }

    /// A set large enough to lay out the grid and the arrays side by side gives the same index
    /// as one thread.
    @Test func aLargeSetLaidOutSideBySideMatchesOneThread() throws {
        var scene = try Scene()
        for k in 0..<(FenceIndex.fencesPerWorker + 500) {
            let x = Double(k % 100) * 120
            let y = Double(k / 100) * 120
            if k % 3 == 0 {
                scene.rectangle("r\(k)", x, y, x + 70, y + 50)
            } else {
                scene.circle("c\(k)", x: x, y: y, radius: 30 + Double(k % 7))
            }
        }
        let one = try scene.index(workers: 1)
        let many = try scene.index(workers: 2)
        #expect(one.cellRecords.count > 20_000)
        #expect(many.cellRecords.map(\.slot) == one.cellRecords.map(\.slot))
        #expect(many.slotFence == one.slotFence)
        #expect(many.cellRecords.map(\.x) == one.cellRecords.map(\.x))
        #expect(many.kinds == one.kinds && many.centerX == one.centerX && many.radius == one.radius)
        #expect(many.idRank == one.idRank)
        #expect(many.polygonRings.map(\.vertexStart) == one.polygonRings.map(\.vertexStart))
        let vertices = (one.polygonRings.last { $0.ringCount > 0 }).map { $0.vertexStart + 5 } ?? 0
        #expect(vertices > 0)
        #expect((0..<vertices).allSatisfy { many.polygonXs[$0] == one.polygonXs[$0] && many.polygonYs[$0] == one.polygonYs[$0] })
    }
}
