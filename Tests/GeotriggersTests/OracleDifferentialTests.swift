import Fences
import Foundation
import Spatial
import Support
import Testing

@testable import Geotriggers

/// ``GeotriggerEngine`` against ``OracleEngine`` on seeded random scenes: every fence kind
/// (circle, polygon with holes, concave polygon, multipolygon, line, buffered line, beacon with
/// and without signal noise), every relationship and feed, buffers that grow and shrink, notify,
/// initial trigger, filters, dwell, debounce in seconds and fixes, maxGap, every gap policy and
/// message templates, over traces that stop, crawl by micrometres along boundaries, walk, drive
/// through fences between fixes, jump, leave gaps and go back in time. The full event logs must
/// be identical.
@Suite struct OracleDifferentialTests {
    static let seeds: [UInt64] = Array(1...60)
    /// Seeds 7, 14, 17, 46, 48, 49 and 53 once showed engine bugs, fixed with issue 20: a filtered
    /// fence's movement beyond the grid query, the segment geometry shared across filters, fix 0's
    /// noise at a beacon's hidden-visit midpoint, a disc touching a polygon exactly, and a noisy
    /// beacon's fix exactly on the grown circle (whose hidden touch the midpoint test split in two;
    /// a circle's visit is now its chord).

    // MARK: - Scenes

    /// A scene of every kind of fence with random settings over a 500 m square.
    static func scene(seed: UInt64) throws -> Scene {
        var rng = SplitMix64(seed: seed)
        var scene = try Scene()
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnitDouble() }
        func chance(_ p: Double) -> Bool { rng.nextUnitDouble() < p }
        func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
        func threshold() -> GeotriggerSettings.Threshold {
            switch rng.next() % 6 {
            case 0: .seconds(Double(1 + rng.next() % 6))
            case 1: .seconds(uniform(0.5, 4))
            case 2: .fixes(2 + Int(rng.next() % 3))
            case 3: pick([.fixes(1), .seconds(0)])  // immediate, written out
            default: .immediate
            }
        }
        let filters = try ["accuracy <= 40", "speed < 12", "interval <= 2 || accuracy < 8", "!(speed >= 30)"].map {
            try FilterExpression($0)
        }
        let templates = try [
            "{event.type} {fence.id} ({fence.name}, {fence.category}, {fence.rank}) fix {fix.index} at {fix.time}",
            "{fix.accuracy} m, {fix.speed} m/s, +{fix.elapsed} s, dt {fix.interval} s, {trace}",
        ].map { try MessageTemplate($0) }
        scene.settings.initialTrigger = pick(GeotriggerSettings.InitialTrigger.allCases)
        scene.settings.gapPolicy = pick(GeotriggerSettings.GapPolicy.allCases)
        func settings(buffer: ClosedRange<Double>?) -> GeotriggerOverrides {
            var o = GeotriggerOverrides()
            o.relationship = pick(GeotriggerSettings.Relationship.allCases)
            o.feed = pick(GeotriggerSettings.Feed.allCases)
            if let buffer, chance(0.3) { o.bufferMeters = uniform(buffer.lowerBound, buffer.upperBound) }
            o.notify = pick(GeotriggerSettings.Notify.allCases)
            if chance(0.2) { o.initialTrigger = pick(GeotriggerSettings.InitialTrigger.allCases) }
            if chance(0.25) { o.filter = pick(filters) }
            if chance(0.3) { o.dwellSeconds = .some(pick([0, 3, 10, uniform(1, 40)])) }
            o.enterAfter = threshold()
            o.exitAfter = threshold()
            if chance(0.25) { o.maxGapSeconds = pick([5, 30, uniform(2, 60)]) }
            if chance(0.5) { o.gapPolicy = pick(GeotriggerSettings.GapPolicy.allCases) }
            if chance(0.3) { o.message = pick(templates) }
            return o
        }
        func add(_ kind: Fence.Kind, _ shape: Shape, _ o: GeotriggerOverrides, noise: Double = 0) {
            let k = scene.fences.count
            // Ids out of file order, so that the log's order by id is not the file's.
            let id = "\(pick(["a", "m", "z"]))\(99 - k)-\(kind.name)"
            var properties = [
                JSONMember(key: "category", node: JSONNode(.string(pick(["shop", "gate", "desk"])))),
                JSONMember(key: "rank", node: JSONNode(.int(Int64(k)))),
            ]
            if noise > 0 {
                properties += [
                    JSONMember(key: "signalNoise", node: JSONNode(.double(noise))),
                    JSONMember(key: "signalSeed", node: JSONNode(.int(Int64(seed * 31 + UInt64(k))))),
                ]
            }
            scene.fences.append(
                Fence(
                    index: k, id: id, name: chance(0.7) ? "Fence \(k)" : nil, kind: kind,
                    shape: shape.mapPositions { scene.frame.inverse($0) }, properties: properties,
                    location: SourceLocation(file: "scene")))
            scene.overrides.append(o)
        }
        func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [XY] {
            [XY(x, y), XY(x + w, y), XY(x + w, y + h), XY(x, y + h), XY(x, y)]
        }
        // Every kind once, then a few more at random.
        var kinds = Array(0..<8)
        for _ in 0..<(3 + rng.next() % 5) { kinds.append(Int(rng.next() % 8)) }
        for kind in kinds {
            let x = uniform(-220, 180)
            let y = uniform(-220, 180)
            switch kind {
            case 0:
                add(.circle(radiusMeters: uniform(3, 60)), .point(XY(x, y)), settings(buffer: -20...15))
            case 1:
                let range = uniform(5, 40)
                let proximity = pick([BeaconProximity.immediate, .near, .far, .meters(range * uniform(0.2, 0.9))])
                add(
                    .beacon(rangeMeters: range, proximity: proximity), .point(XY(x, y)), settings(buffer: -5...10),
                    noise: chance(0.5) ? uniform(0.5, 3) : 0)
            case 2:
                // A rectangle with a rectangular hole.
                let w = uniform(30, 120), h = uniform(30, 120)
                add(
                    .area, .polygon([rectangle(x, y, w, h), rectangle(x + w * 0.3, y + h * 0.3, w * 0.4, h * 0.3)]),
                    settings(buffer: -8...12))
            case 3:
                // Star-shaped, 3 to 20 vertices.
                let n = 3 + Int(rng.next() % 18)
                let mean = uniform(10, 70)
                var ring = (0..<n).map { i -> XY in
                    let angle = (Double(i) + 0.7 * (rng.nextUnitDouble() - 0.5)) * 2 * Double.pi / Double(n)
                    let r = mean * uniform(0.4, 1.5)
                    return XY(x + r * cos(angle), y + r * sin(angle))
                }
                ring.append(ring[0])
                add(.area, .polygon([ring]), settings(buffer: -5...10))
            case 4:
                // Two squares as one multipolygon, the first with a hole.
                let a = rectangle(x, y, 40, 40)
                add(
                    .area, .multiPolygon([[a, rectangle(x + 10, y + 10, 15, 15)], [rectangle(x + 70, y + 20, 30, 30)]]),
                    settings(buffer: -5...10))
            case 5:
                // A comb: concave, teeth 10 m wide and 10 m apart.
                var ring: [XY] = [XY(x, y)]
                let teeth = 2 + Int(rng.next() % 4)
                for t in 0..<teeth {
                    let x0 = x + Double(t) * 20
                    ring += [XY(x0 + 10, y), XY(x0 + 10, y + 50), XY(x0 + 20, y + 50), XY(x0 + 20, y)]
                }
                ring += [XY(x + Double(teeth) * 20 + 10, y - 20), XY(x, y - 20), XY(x, y)]
                add(.area, .polygon([ring]), settings(buffer: -3...6))
            case 6:
                // A line of one to three segments; with a positive buffer, a corridor.
                var points = [XY(x, y)]
                for _ in 0..<(1 + rng.next() % 3) {
                    points.append(XY(points.last!.x + uniform(-120, 120), points.last!.y + uniform(-120, 120)))
                }
                add(.line, .lineString(points), settings(buffer: chance(0.3) ? 3...12 : nil))
            default:
                // A circle around another fence's point: overlapping fences change state at the
                // same fixes, so the order by id matters.
                let center = scene.fences.last.flatMap { $0.shape.positions.first }.map { scene.frame.forward($0) } ?? XY(x, y)
                add(.circle(radiusMeters: uniform(10, 80)), .point(center), settings(buffer: nil))
            }
        }
        return scene
    }

    // MARK: - Traces

    /// A trace over the scene: stops, micrometre crawls (free, and along fence boundaries,
    /// grown or shrunk by the accuracy), fixes whose accuracy disc touches a boundary exactly,
    /// walks, drives fast enough to pass through fences between fixes, jumps, gaps of 30 and
    /// 200 s (half the 30 s ones also ending a source segment), repeated times and times going
    /// back.
    static func trace(seed: UInt64, count: Int, scene: Scene, oracle: OracleEngine) throws -> [Sample] {
        var rng = SplitMix64(seed: seed ^ 0x0DDB_1A5E)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnitDouble() }
        let shapes = oracle.shapes
        /// A position and an accuracy that put the disc exactly on a boundary, as floating-point
        /// sums see it: touching a circle from outside (d = R + a) or from inside (d + a = R), at
        /// its distance from an area, or a fix on an area's vertex. Ties are where `<=` and `<`
        /// part.
        func exactTie() throws -> (XY, Double)? {
            let j = Int(rng.next() % UInt64(shapes.count))
            switch shapes[j] {
            case .disc(let c, let enter, let exit):
                let r = rng.next() % 2 == 0 ? enter : exit
                let outside = rng.next() % 2 == 0
                let angle = uniform(0, 2 * Double.pi)
                let d0 = outside ? r + uniform(0.5, 30) : r * uniform(0, 1)
                let p = XY(c.x + d0 * cos(angle), c.y + d0 * sin(angle))
                let d = p.distance(to: c)
                var a = outside ? d - r : r - d
                for _ in 0..<16 {
                    let sum = outside ? r + a : d + a
                    let target = outside ? d : r
                    if sum == target { return a >= 0 ? (p, a) : nil }
                    a = sum < target ? a.nextUp : a.nextDown
                }
                return nil
            case .area(let g):
                let vertices = try g.shape.positions
                let v = vertices[Int(rng.next() % UInt64(vertices.count))]
                if rng.next() % 3 == 0 { return (v, uniform(0, 20)) }
                let p = XY(v.x + uniform(-15, 15), v.y + uniform(-15, 15))
                return try oracle.signedDistance(j, p).map { (p, abs($0)) }
            case .line, .empty:
                return nil
            }
        }
        // Boundary pieces to crawl along: circles (centre, radius) and straight edges (a, b).
        var circles: [(XY, Double)] = []
        var edges: [(XY, XY)] = []
        for shape in shapes {
            switch shape {
            case .disc(let c, let enter, let exit):
                circles += [(c, enter), (c, exit)]
            case .area(let g):
                let points = try g.shape.positions
                for k in 0..<(points.count - 1) where points[k] != points[k + 1] { edges.append((points[k], points[k + 1])) }
            case .line(let points):
                for k in 0..<(points.count - 1) { edges.append((points[k], points[k + 1])) }
            case .empty:
                break
            }
        }
        var x = uniform(-200, 200), y = uniform(-200, 200)
        var heading = uniform(0, 2 * Double.pi)
        var speed = 0.0
        var accuracy = 10.0
        var t = 0.0
        var mode = 0
        var left = 0
        // Along a boundary: which piece, where along it, how far off it.
        var piece = 0
        var along = 0.0
        var offset = 0.0
        var samples: [Sample] = []
        var segment = 0
        for i in 0..<count {
            if left == 0 {
                mode = Int(rng.next() % 9)
                left = 5 + Int(rng.next() % 30)
                piece = Int(rng.next() % UInt64(max(1, circles.count + edges.count)))
                along = uniform(0, 1)
                // On the boundary, or as far off it as the accuracy disc reaches, give or take
                // micrometres.
                offset = [0, accuracy, -accuracy][Int(rng.next() % 3)]
            }
            left -= 1
            switch rng.next() % 60 {
            case 0: t += 200
            case 1:
                t += 31
                // Every other such gap also ends a source segment.
                if i % 2 == 0 { segment += 1 }
            case 2: t -= 5
            case 3: break  // the same time again
            default: t += 1
            }
            var tie: Double?
            switch mode {
            case 0: speed = 0
            case 1: speed = 1e-6 * uniform(0, 3)
            case 2: speed = uniform(1, 3)
            case 3: speed = uniform(15, 45)
            case 4, 5:
                speed = 0
                let wobble = 1e-6 * uniform(-3, 3)
                along += uniform(-0.002, 0.004)
                if piece < circles.count {
                    let (c, r) = circles[piece]
                    let angle = along * 2 * Double.pi
                    x = c.x + (r + offset + wobble) * cos(angle)
                    y = c.y + (r + offset + wobble) * sin(angle)
                } else if !edges.isEmpty {
                    let (a, b) = edges[piece - circles.count]
                    let length = a.distance(to: b)
                    let (nx, ny) = (-(b.y - a.y) / length, (b.x - a.x) / length)
                    let u = min(1, max(0, along))
                    x = a.x + (b.x - a.x) * u + nx * (offset + wobble)
                    y = a.y + (b.y - a.y) * u + ny * (offset + wobble)
                }
            case 8:
                speed = 0
                if let (p, a) = try exactTie() {
                    (x, y) = (p.x, p.y)
                    tie = a
                }
            case 6:
                if rng.next() % 4 == 0 {
                    x = uniform(-300, 300)
                    y = uniform(-300, 300)
                }
                speed = uniform(3, 15)
            default:
                speed = uniform(3, 15)
            }
            heading += uniform(-0.5, 0.5)
            x += speed * cos(heading)
            y += speed * sin(heading)
            if abs(x) > 320 || abs(y) > 320 { heading += Double.pi }
            accuracy = max(1, min(60, accuracy * exp(uniform(-0.25, 0.25))))
            var a = accuracy
            switch rng.next() % 40 {
            case 0: a = uniform(60, 200)
            case 1: a = 0
            default: break
            }
            if let tie { a = tie }
            var sample = scene.sample(i, t: t, x: x, y: y, accuracy: a, speed: rng.next() % 10 == 0 ? nil : speed)
            sample.segment = segment
            samples.append(sample)
        }
        return samples
    }

    // MARK: - Comparing

    /// One event as the event log shows it (`EngineLogLine.logEvent`), plus what state consumers see
    /// (`notified`) and where it happened (GeoJSON output).
    ///
    /// Compared: kind, fence (by id), fix index, feed, feed radius, accuracy, interpolated,
    /// direction, dwell seconds, reason, notified and message exactly; times of fix-based events
    /// to the nanosecond; distances at the millimetre, as the log rounds them
    /// (`JSONValue.meters`), because the oracle measures with GEOS where the engine uses its
    /// own arithmetic, and the two may differ in the last bits; interpolated times (crossings,
    /// passthroughs) at the millisecond the log writes, and positions to 1e-7° (about a
    /// centimetre), because the oracle finds line crossings with a GEOS intersection rather than
    /// the engine's formula.
    static func render(_ e: GeotriggerEvent, ids: [String]) -> String {
        func exact(_ t: Timestamp) -> String { "\(t.seconds).\(String(format: "%09d", t.nanoseconds))" }
        func ms(_ t: Timestamp) -> String { t.description }
        func meters(_ d: Double) -> String { "\((d * 1000).rounded() / 1000)" }
        func degrees(_ v: Double) -> String { "\((v * 1e7).rounded() / 1e7)" }
        var fields = [
            e.kind.rawValue, e.interpolated ? ms(e.time) : exact(e.time), ids[e.fence], "fix \(e.fixIndex)@\(exact(e.fixTime))",
            e.feed.rawValue, "r \(meters(e.feedRadius))", "d \(e.distance.map(meters) ?? "-")", "acc \(e.accuracy)",
            e.notified ? "notified" : "silent",
        ]
        if e.interpolated { fields.append("interpolated") }
        if let direction = e.direction { fields.append(direction.rawValue) }
        if let t = e.enterTime { fields.append("in \(ms(t))") }
        if let t = e.exitTime { fields.append("out \(ms(t))") }
        if let d = e.dwellSeconds { fields.append("dwell \(d)") }
        if let reason = e.reason { fields.append("\"\(reason)\"") }
        if let message = e.message { fields.append("message \"\(message)\"") }
        fields.append("at \(degrees(e.longitude)),\(degrees(e.latitude))")
        return fields.joined(separator: " ")
    }

    /// The engine's and the oracle's logs of one scene and trace, fix by fix, rendered.
    static func logs(_ scene: Scene, _ samples: [Sample], oracle: OracleEngine) throws -> (engine: [[String]], oracle: [[String]]) {
        let engine = GeotriggerEngine(fences: try scene.compiled(), traceName: "trace")
        let ids = scene.fences.map(\.id)
        var got: [[String]] = []
        var expected: [[String]] = []
        for sample in samples {
            var events: [GeotriggerEvent] = []
            engine.process(sample, into: &events)
            got.append(events.map { render($0, ids: ids) })
            expected.append(try oracle.process(sample).map { render($0, ids: ids) })
        }
        return (got, expected)
    }

    static func oracle(for scene: Scene) throws -> OracleEngine {
        try OracleEngine(
            fences: scene.fences, settings: scene.overrides.map { $0.applied(to: scene.settings) },
            frame: Scene.definition, traceName: "trace")
    }

    /// Records the first fix whose events differ, with both lists.
    static func expectSameLogs(
        _ logs: (engine: [[String]], oracle: [[String]]), _ label: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        guard let k = logs.engine.indices.first(where: { logs.engine[$0] != logs.oracle[$0] }) else { return }
        let total = zip(logs.engine, logs.oracle).filter { $0 != $1 }.count
        Issue.record(
            """
            \(label): fix \(k) is the first of \(total) fixes whose events differ
            engine:
              \(logs.engine[k].joined(separator: "\n  "))
            oracle:
              \(logs.oracle[k].joined(separator: "\n  "))
            """, sourceLocation: sourceLocation)
    }

    // MARK: - Tests

    static func compare(seed: UInt64) throws {
        let scene = try Self.scene(seed: seed)
        let oracle = try Self.oracle(for: scene)
        let samples = try Self.trace(seed: seed, count: 300, scene: scene, oracle: oracle)
        Self.expectSameLogs(try Self.logs(scene, samples, oracle: oracle), "seed \(seed)")
    }

    @Test(arguments: seeds)
    func sameEventsAsTheOracle(seed: UInt64) throws {
        try Self.compare(seed: seed)
    }

    /// The random scenes make every kind of event and every derived reason: a differential test
    /// over scenes that never produce them would prove nothing.
    @Test func scenesExerciseEveryKindOfEvent() throws {
        var seen: [String: Int] = [:]
        var statistics = GeotriggerEngine.Statistics()
        for seed in Self.seeds {
            let scene = try Self.scene(seed: seed)
            let oracle = try Self.oracle(for: scene)
            let engine = GeotriggerEngine(fences: try scene.compiled(), traceName: "trace")
            var events: [GeotriggerEvent] = []
            for sample in try Self.trace(seed: seed, count: 300, scene: scene, oracle: oracle) {
                engine.process(sample, into: &events)
            }
            for e in events {
                var tags = [e.kind.rawValue]
                if e.interpolated, e.kind == .enter { tags.append("interpolated enter") }
                if e.reason?.hasPrefix("debounce: confirmed") == true { tags.append("confirmed") }
                if !e.notified { tags.append("silent") }
                if e.message != nil { tags.append("message") }
                if scene.fences[e.fence].beaconSignalNoise.sigmaMeters > 0 { tags.append("noisy beacon") }
                if e.feed == .accuracy { tags.append("accuracy") }
                for tag in tags { seen[tag, default: 0] += 1 }
            }
            statistics.outOfOrder += engine.statistics.outOfOrder
            statistics.gaps += engine.statistics.gaps
            statistics.filtered += engine.statistics.filtered
            statistics.suppressedFlips += engine.statistics.suppressedFlips
        }
        #expect(statistics.outOfOrder >= 100 && statistics.gaps >= 100 && statistics.filtered >= 500 && statistics.suppressedFlips >= 10)
        for tag in [
            "enter", "exit", "dwell", "cross", "passthrough", "suppressed", "interpolated enter", "confirmed", "silent", "message",
            "noisy beacon", "accuracy",
        ] {
            #expect(seen[tag, default: 0] >= 10, "\(tag): \(seen[tag, default: 0])")
        }
    }

    // MARK: - The oracle on its own

    /// Runs fixes given as (t, x, y, accuracy, speed) through the oracle.
    static func oracleEvents(_ scene: Scene, _ fixes: [(Double, Double, Double, Double, Double?)]) throws -> [GeotriggerEvent] {
        let oracle = try Self.oracle(for: scene)
        var events: [GeotriggerEvent] = []
        for (i, f) in fixes.enumerated() {
            events += try oracle.process(scene.sample(i, t: f.0, x: f.1, y: f.2, accuracy: f.3, speed: f.4))
        }
        return events
    }

    /// The oracle gives the hand-computed answers of ``RelationshipTests`` (a circle of radius
    /// 100 m and a square with the same east edge, 12 m discs), so a disagreement is not
    /// shared by construction.
    @Test(arguments: [
        (GeotriggerSettings.Feed.point, GeotriggerSettings.Relationship.intersects, ["enter@3", "exit@7"]),
        (.point, .containsIntersects, ["enter@3", "exit@7"]),
        (.accuracy, .intersects, ["enter@2", "exit@8"]),
        (.accuracy, .contains, ["enter@4", "exit@6"]),
        (.accuracy, .containsIntersects, ["enter@4", "exit@8"]),
    ])
    func oracleAgreesWithHandComputedRelationships(
        feed: GeotriggerSettings.Feed, relationship: GeotriggerSettings.Relationship,
        expected: [String]
    ) throws {
        for square in [false, true] {
            var scene = try Scene()
            scene.settings.feed = feed
            scene.settings.relationship = relationship
            scene.settings.gapPolicy = .ignore
            if square { scene.rectangle("s", -100, -100, 100, 100) } else { scene.circle("c", x: 0, y: 0, radius: 100) }
            let events = try Self.oracleEvents(scene, RelationshipTests.path.map { ($0.0, $0.1, $0.2, $0.3, nil) })
            #expect(events.map { "\($0.kind.rawValue)@\($0.fixIndex)" } == expected, "square: \(square)")
        }
    }

    /// A fence between two fixes 30 m apart (a circle of radius 8 at x = 5 on the path from
    /// x = -10 to x = 20 in 1 s: in at 7/30 s, out at 23/30 s), and a line crossed half-way.
    @Test func oracleFindsVisitsBetweenFixesAndCrossings() throws {
        var scene = try Scene()
        scene.circle("small", x: 5, y: 0, radius: 8)
        scene.line("gate", [XY(10, -50), XY(10, 50)])
        let events = try Self.oracleEvents(scene, [(0, -10, 0, 5, nil), (1, 20, 0, 5, nil)])
        #expect(events.map(\.kind) == [.passthrough, .cross])
        let passthrough = try #require(events.first)
        #expect(abs(try #require(passthrough.enterTime).seconds(since: scene.start) - 7.0 / 30) < 1e-6)
        #expect(abs(try #require(passthrough.exitTime).seconds(since: scene.start) - 23.0 / 30) < 1e-6)
        #expect(abs(events[1].time.seconds(since: scene.start) - 2.0 / 3) < 1e-6)
        #expect(events[1].direction == .leftToRight)  // from the west, the left of a line digitised northwards
    }

    // MARK: - Known disagreements

    /// The engine's and the oracle's events for fixes given as (t, x, y, accuracy, speed).
    static func expectSameEvents(
        _ scene: Scene, _ fixes: [(Double, Double, Double, Double, Double?)], oracleKinds: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let samples = fixes.enumerated().map { k, f in scene.sample(k, t: f.0, x: f.1, y: f.2, accuracy: f.3, speed: f.4) }
        let logs = try Self.logs(scene, samples, oracle: try Self.oracle(for: scene))
        // What the oracle says, as a reader can check it from the fixes.
        let kindsAndFences = logs.oracle.flatMap { $0 }.map { line in
            let words = line.split(separator: " ")
            return "\(words[0]) \(words[2])"
        }
        #expect(kindsAndFences == oracleKinds, sourceLocation: sourceLocation)
        Self.expectSameLogs(logs, "engine against oracle", sourceLocation: sourceLocation)
    }

    /// Once a bug, fixed with issue 20 (a regression case): a fence with a filter looks for crossings
    /// and hidden visits on the movement from the last fix its filter let through (`previousPassing`),
    /// but the engine's grid query covers only the movement from the previous fix, so when the filter
    /// rejected that fix and the fence lies off the last movement, the fence is not evaluated: the
    /// passthrough and the line crossing are lost. Here fix 1 (speed 20) is rejected and lies far away;
    /// the path from fix 0 to fix 2 goes through the circle and across the line.
    @Test
    func filteredFenceMovementBeyondTheQuery() throws {
        var scene = try Scene()
        var filtered = GeotriggerOverrides()
        filtered.filter = try FilterExpression("speed < 12")
        scene.circle("gate", x: 0, y: 0, radius: 10, filtered)
        scene.line("line", [XY(0, -50), XY(0, 50)], filtered)
        scene.circle("far", x: 1000, y: 1000, radius: 10)
        try Self.expectSameEvents(
            scene, [(0, -100, 0, 5, 5), (1, 600, 600, 5, 20), (2, 100, 0, 5, 5)],
            oracleKinds: ["passthrough gate", "cross line"])
    }

    /// Once a bug, fixed with issue 20 (a regression case): `GeotriggerEngine.segmentGeometry` caches
    /// the movement as a GEOS line once per fix, but fences with different filters start their movement
    /// at different fixes: the first area fence to build it (here "a", filtered, from fix 0) leaves its
    /// segment to the next ("b", unfiltered, from fix 1), whose shortcut `prepared.intersects(segment)`
    /// then tests the wrong line and drops b's passthrough.
    @Test
    func segmentGeometrySharedAcrossFilters() throws {
        var scene = try Scene()
        var filtered = GeotriggerOverrides()
        filtered.filter = try FilterExpression("speed < 12")
        scene.rectangle("a", -50, -60, 50, -1, filtered)
        scene.rectangle("b", -10, -10, 10, 10)
        try Self.expectSameEvents(
            scene, [(0, -100, -30, 5, 5), (1, -100, 0, 5, 20), (2, 100, 0, 5, 5)],
            oracleKinds: ["passthrough a", "passthrough b"])
    }

    /// Once a bug, fixed with issue 20 (a regression case): with the accuracy feed, a visit hidden
    /// between fixes needs the disc (of the smaller accuracy) to reach the fence somewhere along the
    /// movement, but the engine's grid query covers only the later fix's disc and the earlier fix's
    /// point: a fence beside the start of a diagonal movement, beyond that box, is never looked at. The
    /// circle "near" lies 38 m from the path from (0, 0) to (100, -100) (discs of 40 m, fence radius 1
    /// m), 48 m from the first fix, above the box (y > 0).
    @Test
    func accuracyDiscAlongTheMovement() throws {
        var scene = try Scene()
        scene.settings.feed = .accuracy
        scene.circle("near", x: 48.1, y: 5.7, radius: 1)
        scene.circle("far", x: 1000, y: 1000, radius: 10)
        try Self.expectSameEvents(scene, [(0, 0, 0, 40, nil), (1, 100, -100, 40, nil)], oracleKinds: ["passthrough near"])
    }

    /// Once a bug, fixed with issue 20 (a regression case): the engine tests the middle of a stretch
    /// between crossings with `conditions(_:_:_:_:sampleIndex:)` left at its default, fix 0, so a noisy
    /// beacon adds fix 0's noise to a point between two other fixes. With a strongly positive noise at
    /// fix 0 (a chord 25 m from a beacon of range 30 m, σ 3 m, noise +2.3σ) the middle reads outside,
    /// and one passthrough becomes two of no length, at the entry and at the exit.
    @Test
    func noisyBeaconBetweenFixes() throws {
        let seed = try #require((0..<1000 as Range<UInt64>).first { GeotriggerEngine.signalNoise(seed: $0, fence: 0, fix: 0) > 2 })
        var scene = try Scene()
        scene.fences.append(
            Fence(
                index: 0, id: "door", kind: .beacon(rangeMeters: 30, proximity: .far), shape: .point(scene.lonLat(0, 0)),
                properties: [
                    JSONMember(key: "signalNoise", node: JSONNode(.double(3))),
                    JSONMember(key: "signalSeed", node: JSONNode(.int(Int64(seed)))),
                ],
                location: SourceLocation(file: "scene")))
        scene.overrides.append(GeotriggerOverrides())
        try Self.expectSameEvents(scene, [(0, -100, 25, 5, nil), (1, 100, 25, 5, nil)], oracleKinds: ["passthrough door"])
    }

    /// Once a bug, fixed with issue 20 (a regression case): a disc that touches a polygon exactly (its
    /// radius is the fix's distance to the polygon, as the engine's own `signedDistance` and GEOS give
    /// it) intersects the polygon: the boundary counts as inside. The engine's envelope shortcuts (`p.y
    /// < e.minY - a` in `conditions`, the same test on the inline path, and the edge-envelope test in
    /// `PlanarPolygon.classify`) round `minY - a` and rule the polygon out first. Here a 7.75 m disc
    /// 7.75 m below a square's bottom edge.
    @Test
    func discTouchingAPolygonExactly() throws {
        var scene = try Scene()
        scene.settings.feed = .accuracy
        scene.settings.gapPolicy = .ignore
        scene.rectangle("square", 0, 0, 100, 100)
        let distance = try #require(try scene.compiled().signedDistance(fence: 0, at: XY(50, -7.75)))
        try Self.expectSameEvents(scene, [(0, 50, -7.75, distance, nil)], oracleKinds: ["enter square"])
    }
}
