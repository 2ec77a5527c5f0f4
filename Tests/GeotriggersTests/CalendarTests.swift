import Fences
import Foundation
import Spatial
import Support
import Testing

@testable import Geotriggers

/// The engine's calendar (fences tested again only when the device could have reached their
/// boundary) counts what a scan of every fence the query reaches at every fix counts, with the
/// same decision (``FenceDecision``): the same enters and exits at the same fixes, the same
/// inside pairs after every fix and the same statistics, over scenes with every kind of fence,
/// relationship and feed, and traces that stop, crawl, speed, jump, go back in time and lose
/// their accuracy or their position. (The decisions themselves are checked against GEOS by
/// ``OracleDifferentialTests``.)
@Suite struct CalendarTests {
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

    /// The slow way: at every fix, every fence the query reaches (the fences registered in the
    /// grid cells of the feed's box, those registered in none, and those the device is inside),
    /// decided afresh; lines are never entered. No calendar, no clearance.
    static func scan(_ compiled: CompiledFences, _ samples: [Sample]) -> Counts {
        let index = compiled.index
        let decider = GeotriggerEngine(fences: compiled, traceName: "t", output: .counts)
        let n = compiled.count
        var inside = [Bool](repeating: false, count: n)
        var counts = Counts()
        var tallies: [GeotriggerEngine.Tally] = []
        var previous: Sample?
        let globalMaxGap = compiled.settings.map(\.maxGapSeconds).min() ?? 120
        let accuracyFeed = compiled.settings.contains { $0.feed == .accuracy }
        for s in samples {
            if let previous, s.time < previous.time {
                counts.statistics.outOfOrder += 1
                counts.insidePairs.append(counts.statistics.insidePairs)
                continue
            }
            counts.statistics.samples += 1
            if let previous, s.time.seconds(since: previous.time) > globalMaxGap { counts.statistics.gaps += 1 }
            let reach = accuracyFeed ? s.accuracy : 0
            let box = BoundingBox(
                minX: s.position.x - reach, minY: s.position.y - reach, maxX: s.position.x + reach, maxY: s.position.y + reach)
            var candidates = Set(index.grid.large.map(Int.init))
            candidates.formUnion(inside.indices.filter { inside[$0] })
            if let c = index.cellTable.cells(box) {
                for row in c.r0...c.r1 {
                    for column in c.c0...c.c1 {
                        let cell = row * index.grid.columns + column
                        for k in Int(index.grid.starts[cell])..<Int(index.grid.starts[cell + 1]) {
                            candidates.insert(Int(index.grid.items[k]))
                        }
                    }
                }
            }
            for j in candidates.sorted() {
                let settings = compiled.settings[j]
                let a = settings.feed == .accuracy ? s.accuracy : 0
                let holds = decider.decide(j, s.position, a, settings.relationship, sampleIndex: s.index).holds(inside: inside[j])
                if holds != inside[j] {
                    inside[j] = holds
                    if !(holds && previous == nil && settings.initialTrigger == .none) {
                        tallies.append(GeotriggerEngine.Tally(enter: holds, fixIndex: s.index, fence: j))
                    }
                }
            }
            counts.statistics.insidePairs += inside.filter { $0 }.count
            counts.insidePairs.append(counts.statistics.insidePairs)
            previous = s
        }
        counts.tallies = sortedTallies(tallies)
        return counts
    }

    /// The engine's counts, fix by fix.
    static func engine(_ compiled: CompiledFences, _ samples: [Sample]) -> Counts {
        let engine = GeotriggerEngine(fences: compiled, traceName: "t", output: .counts)
        var counts = Counts()
        var events: [GeotriggerEvent] = []
        for s in samples {
            engine.process(s, into: &events)
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
            Issue.record(
                "\(got.tallies.count) tallies against \(expected.tallies.count); missing \(Array(missing)), extra \(Array(extra))",
                sourceLocation: sourceLocation)
        }
        if let k = got.insidePairs.indices.first(where: { got.insidePairs[$0] != expected.insidePairs[$0] }) {
            Issue.record(
                "inside pairs differ first after fix \(k): \(got.insidePairs[k]) against \(expected.insidePairs[k])",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func countsWhatAScanCounts(seed: UInt64) throws {
        let scene = try Self.scene(seed: seed)
        let compiled = try scene.compiled()
        let samples = Self.trace(seed: seed, count: 4_000, scene: scene)
        let expected = Self.scan(compiled, samples)
        let got = Self.engine(try CompiledFences(index: compiled.index), samples)
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
        let expected = Self.scan(compiled, samples)
        let got = Self.engine(compiled, samples)
        #expect(expected.tallies.count > 50)
        Self.expectSame(got, expected)
    }

    /// Events and counts are two outputs of one engine: the enters and exits of the events are
    /// the tallies (with visits hidden between fixes ignored, which counts do not look for).
    @Test(arguments: [3, 9] as [UInt64])
    func eventsAndCountsAgree(seed: UInt64) throws {
        var scene = try Self.scene(seed: seed)
        scene.settings.gapPolicy = .ignore
        let compiled = try scene.compiled()
        let samples = Self.trace(seed: seed, count: 3_000, scene: scene)
        let events = GeotriggerEngine(fences: compiled, traceName: "t", output: .events)
        var all: [GeotriggerEvent] = []
        for s in samples { events.process(s, into: &all) }
        let fromEvents = Self.sortedTallies(
            all.filter { $0.kind == .enter || $0.kind == .exit }
                .map { GeotriggerEngine.Tally(enter: $0.kind == .enter, fixIndex: $0.fixIndex, fence: $0.fence) })
        let counted = Self.engine(compiled, samples)
        #expect(fromEvents.count > 50)
        #expect(fromEvents == counted.tallies)
        #expect(events.statistics == counted.statistics)
    }

    /// A trace cut anywhere and resumed with ``GeotriggerEngine/resynchronize(with:)`` counts what
    /// the whole trace counts (the fences and settings are memoryless).
    @Test func resynchronizedSlices() throws {
        var scene = try Self.scene(seed: 21)
        // Without beacons whose proximity is nearer than their range (their state remembers
        // which distance they last met)...
        let kept = scene.fences.indices.filter { k in
            if case .beacon = scene.fences[k].kind { return false }
            return true
        }
        scene.fences = kept.enumerated().map { k, j in
            let f = scene.fences[j]
            return Fence(index: k, id: f.id, kind: f.kind, shape: f.shape, location: f.location)
        }
        scene.overrides = kept.map { scene.overrides[$0] }
        // ...and with the point feed (contains-intersects with a disc enters on containment and
        // stays while it touches).
        for k in scene.overrides.indices { scene.overrides[k].feed = .point }
        let compiled = try scene.compiled()
        #expect(GeotriggerEngine.isMemoryless(compiled.settings, fences: scene.fences))
        let samples = Self.trace(seed: 21, count: 3_000, scene: scene)
        let whole = Self.engine(compiled, samples)
        let engine = GeotriggerEngine(fences: compiled, traceName: "t", output: .counts)
        var events: [GeotriggerEvent] = []
        var rng = SplitMix64(seed: 21)
        var k = 0
        var statistics = GeotriggerEngine.Statistics()
        while k < samples.count {
            let end = min(samples.count, k + 1 + Int(rng.next() % 400))
            if k == 0 { engine.restart() } else { engine.resynchronize(with: samples[k - 1]) }
            for s in samples[k..<end] {
                let before = engine.statistics.insidePairs
                engine.process(s, into: &events)
                statistics.insidePairs += engine.statistics.insidePairs - before
                #expect(statistics.insidePairs == whole.insidePairs[s.index], "after fix \(s.index)")
                if statistics.insidePairs != whole.insidePairs[s.index] { return }
            }
            k = end
        }
        #expect(Self.sortedTallies(engine.tallies) == whole.tallies)
    }

    /// Fences whose state depends on more than the fix are tested at every fix, not scheduled.
    @Test func scheduledOnlyWhenTheFixAloneDecides() throws {
        var scene = try Scene()
        scene.circle("c", x: 0, y: 0, radius: 50)
        func scheduled(_ scene: Scene) throws -> [Bool] {
            let index = try scene.compiled().index
            return (0..<index.count).map { j in index.records[Int(index.fenceSlot[j])].scheduled }
        }
        #expect(try scheduled(scene) == [true])
        var dwell = scene
        dwell.settings.dwellSeconds = 30
        #expect(try scheduled(dwell) == [false])
        var debounced = scene
        debounced.settings.enterAfter = .fixes(3)
        #expect(try scheduled(debounced) == [false])
        var filtered = scene
        filtered.settings.filter = try FilterExpression("accuracy < 20")
        #expect(try scheduled(filtered) == [false])
        var noisy = scene
        noisy.fences.append(
            Fence(
                index: 1, id: "beacon", kind: .beacon(rangeMeters: 30, proximity: .near), shape: .point(noisy.lonLat(0, 0)),
                properties: [JSONMember(key: "signalNoise", node: JSONNode(.double(2)))], location: SourceLocation(file: "scene")))
        noisy.overrides.append(GeotriggerOverrides())
        #expect(try scheduled(noisy) == [true, false])
        var line = scene
        line.line("l", [XY(0, 0), XY(10, 10)])
        #expect(try scheduled(line) == [true, false])
    }

    /// A disc of 1e300 m reaches every fence: the engine enters them all, where the grid's cell
    /// arithmetic used to trap converting the disc's extent to an integer.
    @Test func aDiscBeyondTheGrid() throws {
        var scene = try Scene()
        scene.settings.feed = .accuracy
        scene.circle("c", x: 0, y: 0, radius: 10)
        scene.rectangle("r", 500, 500, 600, 600)
        let compiled = try scene.compiled()
        let samples = [
            scene.sample(0, t: 0, x: 2_000, y: 0, accuracy: 5), scene.sample(1, t: 1, x: 2_000, y: 0, accuracy: 1e300),
            scene.sample(2, t: 2, x: 2_000, y: 0, accuracy: 5),
        ]
        let expected = Self.scan(compiled, samples)
        let got = Self.engine(compiled, samples)
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
        var samples = [scene.sample(0, t: 0, x: 13, y: 0)]
        for i in 1..<40 {
            samples.append(scene.sample(i, t: Double(i), x: 10 + 21e-6 - Double(i) * 1e-6, y: 0))
        }
        let got = Self.engine(compiled, samples)
        let expected = Self.scan(compiled, samples)
        Self.expectSame(got, expected)
        #expect(got.tallies.count == 1)
    }
}
