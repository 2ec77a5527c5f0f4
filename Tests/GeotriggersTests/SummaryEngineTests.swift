import Fences
import Foundation
import Spatial
import Support
import Testing
@testable import Geotriggers

/// ``SummaryEngine`` counts what the general engine counts (``GeotriggerEngine/countsOnly``):
/// the same enters and exits at the same fixes, the same inside pairs after every fix and the
/// same statistics, over scenes with every kind of fence, relationship and feed it takes, and
/// traces that stop, crawl, speed, jump, go back in time and lose their accuracy.
@Suite struct SummaryEngineTests {
    /// A scene of `count` random fences of every kind over a 3 km square around the origin.
    static func scene(seed: UInt64, count: Int = 70) throws -> Scene {
        var rng = SplitMix64(seed: seed)
        var scene = try Scene()
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnitDouble() }
        func override() -> GeotriggerOverrides {
            var o = GeotriggerOverrides()
            o.relationship = GeotriggerSettings.Relationship.allCases[Int(rng.next() % 3)]
            o.feed = rng.next() % 2 == 0 ? .point : .accuracy
            if rng.next() % 4 == 0 { o.initialTrigger = GeotriggerSettings.InitialTrigger.none }
            return o
        }
        for k in 0..<count {
            let x = uniform(-1500, 1500)
            let y = uniform(-1500, 1500)
            switch rng.next() % 9 {
            case 0, 1:
                scene.circle("c\(k)", x: x, y: y, radius: uniform(5, 300), override())
            case 2:
                let range = uniform(10, 120)
                scene.add("b\(k)", .beacon(rangeMeters: range, proximity: .meters(range * uniform(0.2, 0.9))), .point(XY(x, y)), override())
            case 3:
                let w = uniform(20, 400), h = uniform(20, 400)
                let holes = rng.next() % 2 == 0 ? [(x + w * 0.3, y + h * 0.3, x + w * 0.6, y + h * 0.6)] : []
                scene.rectangle("r\(k)", x, y, x + w, y + h, holes: holes, override())
            case 4, 5:
                // Star-shaped, 3 to 60 vertices (the arithmetic path's groups of four and the
                // scalar tail).
                let n = 3 + Int(rng.next() % 58)
                let mean = uniform(20, 300)
                var ring = (0..<n).map { i -> XY in
                    let angle = (Double(i) + 0.7 * (rng.nextUnitDouble() - 0.5)) * 2 * Double.pi / Double(n)
                    let r = mean * uniform(0.4, 1.5)
                    return XY(x + r * cos(angle), y + r * sin(angle))
                }
                ring.append(ring[0])
                scene.add("s\(k)", .area, .polygon([ring]), override())
            case 6:
                // A comb: concave, with teeth a few metres apart.
                var ring: [XY] = [XY(x, y)]
                let teeth = 2 + Int(rng.next() % 8)
                for t in 0..<teeth {
                    let x0 = x + Double(t) * 20
                    ring += [XY(x0 + 10, y), XY(x0 + 10, y + 80), XY(x0 + 20, y + 80), XY(x0 + 20, y)]
                }
                ring += [XY(x + Double(teeth) * 20 + 10, y - 30), XY(x, y - 30), XY(x, y)]
                scene.add("comb\(k)", .area, .polygon([ring]), override())
            case 7:
                // Two squares as one multipolygon.
                let a = [XY(x, y), XY(x + 50, y), XY(x + 50, y + 50), XY(x, y + 50), XY(x, y)]
                let b = a.map { XY($0.x + 120, $0.y + 30) }
                scene.add("m\(k)", .area, .multiPolygon([[a], [b]]), override())
            default:
                scene.line("l\(k)", [XY(x, y), XY(x + uniform(-200, 200), y + uniform(-200, 200))], override())
            }
        }
        // A polygon of 400 vertices (GEOS decides it), one far larger than the grid allows per
        // fence (always watched), and a circle a negative buffer removes (never entered).
        var big = (0..<400).map { i -> XY in
            let angle = Double(i) * 2 * Double.pi / 400
            let r = 250 + 40 * sin(Double(i) * 0.7)
            return XY(300 + r * cos(angle), -200 + r * sin(angle))
        }
        big.append(big[0])
        scene.add("big", .area, .polygon([big]), override())
        scene.circle("huge", x: 60_000, y: 0, radius: 59_000, override())
        var gone = GeotriggerOverrides()
        gone.bufferMeters = -100
        scene.circle("gone", x: 0, y: 0, radius: 50, gone)
        return scene
    }

    /// A trace over the scene: walking, driving, standing still, crawling by micrometres, sliding
    /// along a rectangle's edge, jumping kilometres, going back in time, gaps, accuracies that
    /// jump or are not numbers, and positions that are not numbers or infinite.
    static func trace(seed: UInt64, count: Int, scene: Scene) -> [Sample] {
        var rng = SplitMix64(seed: seed ^ 0x5DEECE66D)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnitDouble() }
        var x = uniform(-1000, 1000), y = uniform(-1000, 1000)
        var heading = uniform(0, 2 * Double.pi)
        var speed = 10.0
        var accuracy = 10.0
        var t = 0.0
        var samples: [Sample] = []
        // The first rectangle's first corner, in the frame (its west edge is slid along).
        var edge: (x: Double, y0: Double)?
        if let rectangle = scene.fences.first(where: { $0.id.hasPrefix("r") }), let corner = rectangle.shape.positions.first {
            let p = scene.frame.forward(corner)
            edge = (p.x, p.y)
        }
        var mode = 0
        var left = 0
        for i in 0..<count {
            if left == 0 {
                mode = Int(rng.next() % 7)
                left = 5 + Int(rng.next() % 60)
            }
            left -= 1
            t += rng.next() % 50 == 0 ? 200 : 1
            if rng.next() % 97 == 0 { t -= 5 }
            switch mode {
            case 0: speed = 0
            case 1: speed = 1e-6 * uniform(0, 3)
            case 2: speed = uniform(1, 3)
            case 3: speed = uniform(10, 40)
            case 4:
                if let edge {
                    // Along the first rectangle's west edge, exactly on it.
                    x = edge.x
                    y = edge.y0 + uniform(-20, 60)
                    speed = 0
                }
            default: speed = uniform(3, 15)
            }
            heading += uniform(-0.4, 0.4)
            x += speed * cos(heading)
            y += speed * sin(heading)
            if rng.next() % 211 == 0 {
                x = uniform(-3000, 3000)
                y = uniform(-3000, 3000)
            }
            if abs(x) > 2500 || abs(y) > 2500 { heading += Double.pi }
            accuracy = max(1, min(80, accuracy * exp(uniform(-0.2, 0.2))))
            if rng.next() % 53 == 0 { accuracy = uniform(1, 300) }
            var a = accuracy
            if rng.next() % 301 == 0 { a = .nan }
            // A disc far beyond the grid (and beyond what Int holds in grid cells).
            if rng.next() % 701 == 0 { a = 1e300 }
            var sample = scene.sample(i, t: t, x: x, y: y, accuracy: a)
            // A position the projection could not give (PROJ's HUGE_VAL, or not a number).
            switch rng.next() % 499 {
            case 0: sample.position = XY(.nan, .nan)
            case 1: sample.position = XY(.infinity, .infinity)
            default: break
            }
            samples.append(sample)
        }
        return samples
    }

    struct Counts: Equatable {
        var tallies: [String] = []
        var insidePairs: [Int] = []
        var statistics = GeotriggerEngine.Statistics()
    }

    static func sortedTallies(_ tallies: [GeotriggerEngine.Tally]) -> [String] {
        tallies.map { "\($0.fixIndex):\($0.fence):\($0.enter ? "enter" : "exit")" }.sorted()
    }

    /// The general engine's counts, fix by fix.
    static func general(_ compiled: CompiledFences, _ samples: [Sample]) -> Counts {
        let engine = GeotriggerEngine(fences: compiled, traceName: "t")
        engine.countsOnly = true
        engine.computesDistances = false
        engine.detectsHiddenVisits = false
        var counts = Counts()
        var events: [GeotriggerEvent] = []
        for s in samples {
            engine.process(s, into: &events)
            counts.insidePairs.append(engine.statistics.insidePairs)
        }
        counts.tallies = sortedTallies(engine.tallies)
        counts.statistics = engine.statistics
        counts.statistics.filtered = 0
        counts.statistics.suppressedFlips = 0
        return counts
    }

    static func summary(_ engine: SummaryEngine, _ samples: [Sample]) -> Counts {
        var counts = Counts()
        for s in samples {
            engine.process(index: s.index, time: s.time, x: s.position.x, y: s.position.y, accuracy: s.accuracy)
            counts.insidePairs.append(engine.statistics.insidePairs)
        }
        counts.tallies = sortedTallies(engine.tallies)
        counts.statistics = engine.statistics
        return counts
    }

    /// Records the first difference between two runs, briefly.
    static func expectSame(_ got: Counts, _ expected: Counts, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(got.statistics == expected.statistics, sourceLocation: sourceLocation)
        if got.tallies != expected.tallies {
            let missing = Set(expected.tallies).subtracting(got.tallies).sorted().prefix(5)
            let extra = Set(got.tallies).subtracting(expected.tallies).sorted().prefix(5)
            Issue.record("\(got.tallies.count) tallies against \(expected.tallies.count); missing \(Array(missing)), extra \(Array(extra))",
                         sourceLocation: sourceLocation)
        }
        if let k = got.insidePairs.indices.first(where: { got.insidePairs[$0] != expected.insidePairs[$0] }) {
            Issue.record("inside pairs differ first after fix \(k): \(got.insidePairs[k]) against \(expected.insidePairs[k])",
                         sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func countsWhatTheGeneralEngineCounts(seed: UInt64) throws {
        let scene = try Self.scene(seed: seed)
        let compiled = try scene.compiled()
        let samples = Self.trace(seed: seed, count: 4_000, scene: scene)
        let table = try #require(SummaryEngine.Table(compiled.index))
        let expected = Self.general(compiled, samples)
        let got = Self.summary(SummaryEngine(table: table, compiled: try CompiledFences(index: compiled.index)), samples)
        #expect(expected.tallies.count > 50, "the trace enters and leaves fences")
        #expect(expected.statistics.outOfOrder > 0 && expected.statistics.gaps > 0)
        Self.expectSame(got, expected)
    }

    /// Every fence in the accuracy feed with a disc wider than the fences: fences are reached
    /// from several cells at once, and the query box changes at almost every fix.
    @Test func wideDiscs() throws {
        var scene = try Self.scene(seed: 11, count: 40)
        scene.settings.feed = .accuracy
        for k in scene.overrides.indices { scene.overrides[k].feed = nil }
        let compiled = try scene.compiled()
        var samples = Self.trace(seed: 11, count: 2_000, scene: scene)
        for k in samples.indices where samples[k].accuracy.isFinite { samples[k].accuracy *= 6 }
        let table = try #require(SummaryEngine.Table(compiled.index))
        let expected = Self.general(compiled, samples)
        let got = Self.summary(SummaryEngine(table: table, compiled: compiled), samples)
        #expect(expected.tallies.count > 50)
        Self.expectSame(got, expected)
    }

    /// A trace cut anywhere and resumed with ``SummaryEngine/resynchronize(index:time:x:y:accuracy:)``
    /// counts what the general engine counts when resynchronized at the same places.
    @Test func resynchronizedSlices() throws {
        let scene = try Self.scene(seed: 21)
        let compiled = try scene.compiled()
        let samples = Self.trace(seed: 21, count: 3_000, scene: scene)
        let table = try #require(SummaryEngine.Table(compiled.index))
        let general = GeotriggerEngine(fences: compiled, traceName: "t")
        general.countsOnly = true
        general.detectsHiddenVisits = false
        let engine = SummaryEngine(table: table, compiled: compiled)
        var events: [GeotriggerEvent] = []
        var rng = SplitMix64(seed: 21)
        var k = 0
        while k < samples.count {
            let end = min(samples.count, k + 1 + Int(rng.next() % 400))
            if k == 0 {
                general.restart()
                engine.restart()
            } else {
                let p = samples[k - 1]
                general.resynchronize(with: p)
                engine.resynchronize(index: p.index, time: p.time, x: p.position.x, y: p.position.y, accuracy: p.accuracy)
            }
            for s in samples[k..<end] {
                general.process(s, into: &events)
                engine.process(index: s.index, time: s.time, x: s.position.x, y: s.position.y, accuracy: s.accuracy)
                #expect(engine.statistics.insidePairs == general.statistics.insidePairs, "after fix \(s.index)")
            }
            k = end
        }
        #expect(Self.sortedTallies(engine.tallies) == Self.sortedTallies(general.tallies))
        #expect(engine.statistics.samples == general.statistics.samples)
    }

    /// Settings the engine cannot count in advance: it declines, and the general engine is used.
    @Test func declinesWhatItCannotCount() throws {
        var scene = try Scene()
        scene.circle("c", x: 0, y: 0, radius: 50)
        #expect(SummaryEngine.Table(try scene.compiled().index) != nil)
        var dwell = scene
        dwell.settings.dwellSeconds = 30
        #expect(SummaryEngine.Table(try dwell.compiled().index) == nil)
        var debounced = scene
        debounced.settings.enterAfter = .fixes(3)
        #expect(SummaryEngine.Table(try debounced.compiled().index) == nil)
        var noisy = scene
        noisy.fences.append(Fence(index: 1, id: "beacon", kind: .beacon(rangeMeters: 30, proximity: .near), shape: .point(noisy.lonLat(0, 0)),
                                  properties: [JSONMember(key: "signalNoise", node: JSONNode(.double(2)))], location: SourceLocation(file: "scene")))
        noisy.overrides.append(GeotriggerOverrides())
        #expect(SummaryEngine.Table(try noisy.compiled().index) == nil)
    }

    /// A disc of 1e300 m reaches every fence: both engines enter them all, where the grid's
    /// cell arithmetic used to trap converting the disc's extent to an integer.
    @Test func aDiscBeyondTheGrid() throws {
        var scene = try Scene()
        scene.settings.feed = .accuracy
        scene.circle("c", x: 0, y: 0, radius: 10)
        scene.rectangle("r", 500, 500, 600, 600)
        let compiled = try scene.compiled()
        let samples = [scene.sample(0, t: 0, x: 2_000, y: 0, accuracy: 5), scene.sample(1, t: 1, x: 2_000, y: 0, accuracy: 1e300),
                       scene.sample(2, t: 2, x: 2_000, y: 0, accuracy: 5)]
        let expected = Self.general(compiled, samples)
        let got = Self.summary(SummaryEngine(table: try #require(SummaryEngine.Table(compiled.index)), compiled: compiled), samples)
        Self.expectSame(got, expected)
        #expect(got.tallies == ["1:0:enter", "1:1:enter", "2:0:exit", "2:1:exit"])
    }

    /// A device that comes within 20 µm of a circle in one step of 3 m, then crawls onto it a
    /// micrometre a fix, enters at the fix that reaches it: the clearance of 3 m is kept less
    /// the slack, and the odometer rounds up.
    @Test func crawlingOntoTheBoundary() throws {
        var scene = try Scene()
        scene.circle("c", x: 0, y: 0, radius: 10)
        let compiled = try scene.compiled()
        let engine = SummaryEngine(table: try #require(SummaryEngine.Table(compiled.index)), compiled: compiled)
        var samples = [scene.sample(0, t: 0, x: 13, y: 0)]
        for i in 1..<40 {
            samples.append(scene.sample(i, t: Double(i), x: 10 + 21e-6 - Double(i) * 1e-6, y: 0))
        }
        let got = Self.summary(engine, samples)
        let expected = Self.general(compiled, samples)
        Self.expectSame(got, expected)
        #expect(got.tallies.count == 1)
    }
}
