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
        #expect(Self.records(one) == Self.records(many))
    }

    /// Each slot's record, as text (the records are compared whole).
    static func records(_ index: FenceIndex) -> [String] {
        (0..<index.count).map { slot in
            let r = index.records[slot]
            return
                "\(r.x) \(r.y) \(r.r) \(r.rx) \(r.cells) \(r.kind) \(r.relationship) \(r.accuracyFeed) \(r.initialNone) \(r.large) \(r.scheduled) \(index.runBoxStart[slot])"
        }
    }

    /// Slots number the fences by the grid cell of their envelope's centre; the cells' slots name
    /// the fences the grid registered there, and the records and polygon places are by slot.
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
        let table = index.cellTable
        for c in 0..<(grid.starts.count - 1) {
            var slots: [Int32] = []
            for k in Int(table.scheduledStarts[c])..<Int(table.scheduledStarts[c + 1]) { slots.append(table.scheduledSlots[k]) }
            for k in Int(table.scannedStarts[c])..<Int(table.scannedStarts[c + 1]) { slots.append(table.scannedSlots[k]) }
            let registered = grid.items[Int(grid.starts[c])..<Int(grid.starts[c + 1])]
            #expect(slots.map { index.slotFence[Int($0)] }.sorted() == registered.sorted())
        }
        for slot in 0..<index.count where index.kinds[Int(index.slotFence[slot])] == .circle {
            #expect(index.records[slot].x == index.centerX[Int(index.slotFence[slot])])
        }
        var polygons = 0
        for (fence, kind) in index.kinds.enumerated() where kind == .area {
            guard case .polygon(let rings) = try #require(index.areas[fence]).shape else {
                Issue.record("a rectangle is a polygon"); continue
            }
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
        #expect(one.grid.items.count > 20_000)
        #expect(many.slotFence == one.slotFence)
        #expect(Self.records(many) == Self.records(one))
        #expect(many.kinds == one.kinds && many.centerX == one.centerX && many.radius == one.radius)
        #expect(many.idRank == one.idRank)
        #expect(many.polygonRings.map(\.vertexStart) == one.polygonRings.map(\.vertexStart))
        let vertices = (one.polygonRings.last { $0.ringCount > 0 }).map { $0.vertexStart + 5 } ?? 0
        #expect(vertices > 0)
        #expect((0..<vertices).allSatisfy { many.polygonXs[$0] == one.polygonXs[$0] && many.polygonYs[$0] == one.polygonYs[$0] })
    }
}
