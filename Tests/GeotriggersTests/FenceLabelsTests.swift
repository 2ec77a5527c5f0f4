import Fences
import Spatial
import Support
import Testing

@testable import Geotriggers

/// The compact tables the event log reads instead of the fences themselves, against the fences.
@Suite struct FenceLabelsTests {
    /// A scene of random circles, beacons and rectangles (some with zones, some with ids that
    /// need more than a small string), over an area of several grid cells.
    static func scene(seed: UInt64, count: Int) throws -> Scene {
        var rng = SplitMix64(seed: seed)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnitDouble() }
        var scene = try Scene()
        for k in 0..<count {
            let x = uniform(-3_000, 3_000), y = uniform(-3_000, 3_000)
            let id = rng.next() % 3 == 0 ? "fence-with-a-long-identifier-\(k)" : "f\(k)"
            var override = GeotriggerOverrides()
            override.bufferMeters = rng.next() % 2 == 0 ? uniform(-5, 20) : nil
            switch rng.next() % 3 {
            case 0:
                scene.circle(id, x: x, y: y, radius: uniform(1, 400), override)
            case 1:
                let range = uniform(5, 60)
                scene.add(id, .beacon(rangeMeters: range, proximity: .meters(range * uniform(0.2, 1))), .point(XY(x, y)), override)
            default:
                scene.rectangle(id, x, y, x + uniform(10, 300), y + uniform(10, 300), holes: [], override)
            }
            if rng.next() % 2 == 0 { scene.fences[k].zone = "z\(rng.next() % 50)" }
        }
        return scene
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func labelsAreTheFencesIDsAndZones(seed: UInt64) throws {
        let scene = try FenceLabelsTests.scene(seed: seed, count: 500)
        let index = try scene.index(workers: 1)
        let labels = index.labels
        #expect(labels.count == scene.fences.count)
        for j in scene.fences.indices {
            #expect(labels[j].id == scene.fences[j].id)
            #expect(labels[j].zone == scene.fences[j].zone)
        }
    }

    /// A disc's signed distance from the plain arrays is the bits of the shape's
    /// (`XY.distance(to:)` less the radius), at random points near and far, and on the centre.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func discDistancesAreTheShapesBits(seed: UInt64) throws {
        let scene = try FenceLabelsTests.scene(seed: seed, count: 300)
        let fences = try scene.compiled()
        var rng = SplitMix64(seed: seed ^ 0xD15C)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnitDouble() }
        var discs = 0
        for j in 0..<fences.count {
            let center: XY
            switch fences.shapes[j] {
            case .circle(let c, _), .beacon(let c, _, _): center = c
            default:
                let p = XY(uniform(-3_000, 3_000), uniform(-3_000, 3_000))
                #expect(fences.signedDistance(fence: j, at: p)?.bitPattern == fences.shapeDistance(fence: j, at: p)?.bitPattern)
                continue
            }
            discs += 1
            var points = [center, XY(center.x + 1e-9, center.y), XY(center.x, center.y - 5e-7)]
            for _ in 0..<40 { points.append(XY(center.x + uniform(-500, 500), center.y + uniform(-500, 500))) }
            for _ in 0..<10 { points.append(XY(uniform(-1e6, 1e6), uniform(-1e6, 1e6))) }
            for p in points {
                let fast = try #require(fences.signedDistance(fence: j, at: p))
                let shape = try #require(fences.shapeDistance(fence: j, at: p))
                #expect(fast.bitPattern == shape.bitPattern)
            }
        }
        #expect(discs > 100)
    }
}
