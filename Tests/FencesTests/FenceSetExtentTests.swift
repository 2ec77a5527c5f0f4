import Spatial
import Support
import Testing

@testable import Fences

/// A fence set's extent skips the geodesics of circles inside the other fences' box and is the
/// same box as every fence's extent put together (the oracle), on random sets of circles,
/// beacons, polygons and lines, from the equator to near the poles and across radii of a metre
/// to a thousand kilometres.
@Suite struct FenceSetExtentTests {
    @Test(arguments: Array(1...40) as [UInt64])
    func sameAsEveryFenceTogether(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * rng.nextUnitDouble() }
        let latitude = [0.0, 47.39, -33.9, 84.0, -88.5][Int(seed % 5)]
        var fences: [Fence] = []
        for j in 0..<Int(1 + rng.next() % 300) {
            let c = XY(longitude: uniform(-0.5, 0.5) + 8.5, latitude: max(-89.9, min(89.9, latitude + uniform(-0.3, 0.3))))
            let location = SourceLocation(file: "f.geojson", line: j + 1)
            switch rng.next() % 4 {
            case 0:
                let r = [1.0, 50, 5_000, 300_000, 1_000_000][Int(rng.next() % 5)] * uniform(0.5, 1)
                fences.append(Fence(index: j, id: "c\(j)", kind: .circle(radiusMeters: r), shape: .point(c), location: location))
            case 1:
                fences.append(
                    Fence(
                        index: j, id: "b\(j)", kind: .beacon(rangeMeters: uniform(1, 200), proximity: .far), shape: .point(c),
                        location: location))
            case 2:
                let d = uniform(0.0001, 0.05)
                let ring = [XY(c.x - d, c.y - d), XY(c.x + d, c.y - d), XY(c.x + d, c.y + d), XY(c.x - d, c.y + d), XY(c.x - d, c.y - d)]
                fences.append(Fence(index: j, id: "p\(j)", kind: .area, shape: .polygon([ring]), location: location))
            default:
                fences.append(Fence(index: j, id: "l\(j)", kind: .line, shape: .lineString([c, XY(c.x + 0.01, c.y)]), location: location))
            }
        }
        let set = FenceSet(file: "f.geojson", fences: fences)
        var oracle: BoundingBox?
        for f in fences {
            guard let b = f.boundingBox else { continue }
            if oracle == nil { oracle = b } else { oracle?.include(b) }
        }
        #expect(set.boundingBox == oracle)
    }
}
