import Foundation
import Support
import Testing

@testable import Spatial

/// ``PlanarPolygon/roughLocate(_:xs:ys:start:ringEnds:runBoxes:)`` against the exact test: the
/// same side wherever the boundary is farther than the error bound, and a distance within it.
@Suite struct RoughLocateTests {
    /// The run boxes of these rings appended to `boxes` (as the summary engine lays them out).
    @discardableResult
    static func appendRunBoxes(
        xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, start: Int,
        ringEnds: UnsafeBufferPointer<Int>, to boxes: inout [Double]
    ) -> Int {
        let runs = PlanarPolygon.runCount(start: start, ringEnds: ringEnds)
        let first = boxes.count
        boxes.append(contentsOf: repeatElement(0, count: 4 * runs))
        boxes.withUnsafeMutableBufferPointer {
            PlanarPolygon.writeRunBoxes(xs: xs, ys: ys, start: start, ringEnds: ringEnds, into: $0.baseAddress! + first)
        }
        return runs
    }

    /// A star-shaped ring of `n` vertices about (`cx`, `cy`), with a repeated vertex (an edge of
    /// no length).
    static func ring(_ rng: inout SplitMix64, n: Int, cx: Double, cy: Double, radius: Double) -> [XY] {
        var ring = (0..<n).map { i -> XY in
            let angle = Double(i) * 2 * Double.pi / Double(n)
            let r = radius * (0.3 + rng.nextUnitDouble())
            return XY(cx + r * cos(angle), cy + r * sin(angle))
        }
        ring.append(ring[0])
        ring.insert(ring[1], at: 1)
        return ring
    }

    @Test func agreesWithTheExactTest() throws {
        var rng = SplitMix64(seed: 99)
        var compared = 0
        for shape in 0..<300 {
            let cx = (rng.nextUnitDouble() - 0.5) * 60_000, cy = (rng.nextUnitDouble() - 0.5) * 60_000
            let outer = Self.ring(&rng, n: 3 + Int(rng.next() % 50), cx: cx, cy: cy, radius: 450)
            // Every third polygon has a hole, every fifth is two polygons.
            var rings = [outer]
            if shape % 3 == 0 { rings.append(Self.ring(&rng, n: 6, cx: cx, cy: cy, radius: 40).reversed()) }
            var polygon = Shape.polygon(rings)
            if shape % 5 == 0 { polygon = .multiPolygon([rings, [Self.ring(&rng, n: 9, cx: cx + 1500, cy: cy, radius: 200)]]) }
            let exact = try #require(PlanarPolygon(polygon))
            var xs: [Double] = [], ys: [Double] = [], boxes: [Double] = []
            let ends = try #require(PlanarPolygon.appendRings(of: polygon, to: &xs, &ys))
            let vertices = rings.flatMap { $0 }
            for _ in 0..<40 {
                var p = XY(cx + (rng.nextUnitDouble() - 0.5) * 1200, cy + (rng.nextUnitDouble() - 0.5) * 1200)
                if rng.next() % 4 == 0 {
                    // On an edge, or a hair from it, or on a vertex.
                    let k = Int(rng.next() % UInt64(vertices.count - 1))
                    let f = rng.next() % 3 == 0 ? 0 : rng.nextUnitDouble()
                    p = XY(
                        vertices[k].x + f * (vertices[k + 1].x - vertices[k].x) + 1e-7 * (rng.nextUnitDouble() - 0.5),
                        vertices[k].y + f * (vertices[k + 1].y - vertices[k].y))
                }
                // Without a hint, and with a run picked at random (even one past the last).
                let hint = Int(rng.next() % 20)
                let (rough, hinted) = xs.withUnsafeBufferPointer { x in
                    ys.withUnsafeBufferPointer { y in
                        ends.withUnsafeBufferPointer { e in
                            boxes.removeAll()
                            RoughLocateTests.appendRunBoxes(xs: x.baseAddress!, ys: y.baseAddress!, start: 0, ringEnds: e, to: &boxes)
                            return boxes.withUnsafeBufferPointer { b in
                                (
                                    PlanarPolygon.roughLocate(
                                        p, xs: x.baseAddress!, ys: y.baseAddress!, start: 0, ringEnds: e, runBoxes: b.baseAddress!),
                                    PlanarPolygon.roughLocate(
                                        p, xs: x.baseAddress!, ys: y.baseAddress!, start: 0, ringEnds: e, runBoxes: b.baseAddress!,
                                        hint: hint)
                                )
                            }
                        }
                    }
                }
                #expect(rough.inside == hinted.inside)
                #expect(rough.distance == hinted.distance || abs(rough.distance - hinted.distance) <= 1e-12 * max(1, rough.distance))
                // The run it names holds the nearest edge: hinted with it, the answer is the same.
                let again = xs.withUnsafeBufferPointer { x in
                    ys.withUnsafeBufferPointer { y in
                        ends.withUnsafeBufferPointer { e in
                            boxes.withUnsafeBufferPointer { b in
                                PlanarPolygon.roughLocate(
                                    p, xs: x.baseAddress!, ys: y.baseAddress!, start: 0, ringEnds: e, runBoxes: b.baseAddress!,
                                    hint: rough.nearestRun)
                            }
                        }
                    }
                }
                #expect(again.distance == rough.distance && again.nearestRun == rough.nearestRun)
                let error = PlanarPolygon.roughDistanceError(magnitude: max(abs(p.x), abs(p.y), abs(cx) + 2000, abs(cy) + 2000))
                switch exact.locate(p) {
                case .inside(let d):
                    #expect(abs(rough.distance - d) <= error)
                    if rough.distance > error { #expect(rough.inside) }
                case .outside(let d):
                    #expect(abs(rough.distance - d) <= error)
                    if rough.distance > error { #expect(!rough.inside) }
                case .nearBoundary:
                    #expect(rough.distance <= error)
                }
                compared += 1
            }
        }
        #expect(compared == 12_000)
    }

    /// Runs of four edges, the last of each ring shorter; their envelopes hold their vertices.
    @Test func runBoxesCoverTheirEdges() throws {
        let square = [XY(0, 0), XY(10, 0), XY(10, 10), XY(5, 12), XY(0, 10), XY(-2, 5), XY(0, 0)]
        var xs: [Double] = [], ys: [Double] = [], boxes: [Double] = []
        let ends = try #require(PlanarPolygon.appendRings(of: .polygon([square]), to: &xs, &ys))
        let runs = xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in
                ends.withUnsafeBufferPointer {
                    RoughLocateTests.appendRunBoxes(xs: x.baseAddress!, ys: y.baseAddress!, start: 0, ringEnds: $0, to: &boxes)
                }
            }
        }
        #expect(runs == 2)
        #expect(boxes == [0, 0, 10, 12, -2, 0, 0, 10])
    }
}
