import Fences
import Foundation
import Geotriggers
import Spatial
import Support
import Testing
import Traces

@testable import Accuracy

/// Ground truth through the fence grid: the same visits as every fence against every segment,
/// and work that grows with the path, not with the path times the fence set.
@Suite struct GroundTruthIndexTests {
    static let frame = FrameDefinition.transverseMercator(latitudeOfOrigin: 37.75, centralMeridian: -122.2)
    static let t0 = Timestamp(seconds: 1_767_225_600)

    // MARK: - Scenes

    /// Random fences in a square of `size` metres centred on the frame's origin: circles,
    /// beacons, star-shaped polygons (some with a hole), multipolygons and lines, with sizes
    /// from a few metres to a few hundred.
    static func fences(count: Int, size: Double, seed: UInt64) throws -> FenceSet {
        let f = try MetricFrame(frame)
        var rng = SplitMix64(seed: seed)
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * rng.nextUnitDouble() }
        func ll(_ x: Double, _ y: Double) -> XY { f.inverse(XY(x, y)) }
        func star(_ cx: Double, _ cy: Double, _ r: Double, _ n: Int, clockwise: Bool = false) -> [XY] {
            var ring: [XY] = []
            for k in 0..<n {
                let a = 2 * Double.pi * Double(clockwise ? n - k : k) / Double(n)
                let rr = r * uniform(0.6, 1)
                ring.append(ll(cx + rr * cos(a), cy + rr * sin(a)))
            }
            return ring + [ring[0]]
        }
        var out: [Fence] = []
        for j in 0..<count {
            let cx = uniform(-size / 2, size / 2)
            let cy = uniform(-size / 2, size / 2)
            let r = uniform(3, 300)
            let location = SourceLocation(file: "random.geojson", line: j + 1)
            let id = String(format: "f%05d", j)
            switch rng.next() % 10 {
            case 0..<4:
                out.append(Fence(index: j, id: id, kind: .circle(radiusMeters: r), shape: .point(ll(cx, cy)), location: location))
            case 4:
                out.append(
                    Fence(index: j, id: id, kind: .beacon(rangeMeters: r, proximity: .near), shape: .point(ll(cx, cy)), location: location))
            case 5..<8:
                let outer = star(cx, cy, r, 3 + Int(rng.next() % 12))
                let rings = rng.next() % 3 == 0 ? [outer, star(cx, cy, r * 0.3, 3 + Int(rng.next() % 5), clockwise: true)] : [outer]
                out.append(Fence(index: j, id: id, kind: .area, shape: .polygon(rings), location: location))
            case 8:
                let a = star(cx - r, cy, r / 2, 4 + Int(rng.next() % 6))
                let b = star(cx + r, cy, r / 2, 4 + Int(rng.next() % 6))
                out.append(Fence(index: j, id: id, kind: .area, shape: .multiPolygon([[a], [b]]), location: location))
            default:
                out.append(Fence(index: j, id: id, kind: .line, shape: .lineString([ll(cx - r, cy), ll(cx + r, cy)]), location: location))
            }
        }
        return FenceSet(file: "random.geojson", fences: out)
    }

    /// A random walk of `count` fixes a second apart in the same square: cruising, stops (the
    /// same point again), jumps, and now and then a fix exactly on a fence's centre.
    static func path(count: Int, size: Double, seed: UInt64) throws -> [Fix] {
        let f = try MetricFrame(frame)
        var rng = SplitMix64(seed: seed)
        var x = 0.0
        var y = 0.0
        var heading = 0.0
        var fixes: [Fix] = []
        for k in 0..<count {
            switch rng.next() % 20 {
            case 0: break  // a stop
            case 1:  // a jump
                x += (rng.nextUnitDouble() - 0.5) * 400
                y += (rng.nextUnitDouble() - 0.5) * 400
            default:
                heading += (rng.nextUnitDouble() - 0.5) * 0.8
                let step = 25 * rng.nextUnitDouble()
                x += step * cos(heading)
                y += step * sin(heading)
            }
            // Reflect at the edges so that the walk stays among the fences.
            if abs(x) > size / 2 { x = x.sign == .minus ? -size + -x : size - x; heading += .pi }
            if abs(y) > size / 2 { y = y.sign == .minus ? -size + -y : size - y; heading += .pi }
            let p = f.inverse(XY(x, y))
            fixes.append(Fix(time: t0.adding(seconds: Double(k)), latitude: p.latitude, longitude: p.longitude))
        }
        return fixes
    }

    // MARK: - The oracle

    /// Every fence against every segment of the path, with GEOS for every polygon question (no
    /// grid, no envelope test, no arithmetic polygon): SPEC §6.1 read literally.
    static func bruteForceVisits(_ fences: FenceSet, _ fixes: [Fix]) throws -> [TruthVisit] {
        let f = try MetricFrame(frame)
        let context = try GEOSContext()
        enum Region {
            case circle(XY, Double)
            case area(Geometry)
        }
        let regions: [Region?] = try fences.fences.map { fence in
            switch fence.kind {
            case .line: return nil
            case .circle(let r), .beacon(let r, _):
                guard case .point(let p) = fence.shape else { return nil }
                return .circle(f.forward(p), r)
            case .area:
                let g = try Geometry(fence.shape.mapPositions { f.forward($0) }, context: context)
                return g.isEmpty ? nil : .area(g)
            }
        }
        func inside(_ region: Region, _ p: XY) throws -> Bool {
            switch region {
            case .circle(let c, let r): return p.distance(to: c) <= r
            case .area(let g): return try g.intersects(try Geometry(point: p, context: context))
            }
        }
        func crossings(_ region: Region, _ a: XY, _ b: XY) throws -> [Double] {
            switch region {
            case .circle(let c, let r):
                // |a + t·(b − a) − c|² = r², the numerically stable pair of roots.
                let dx = b.x - a.x, dy = b.y - a.y, fx = a.x - c.x, fy = a.y - c.y
                let qa = dx * dx + dy * dy
                let qb = 2 * (fx * dx + fy * dy)
                let qc = fx * fx + fy * fy - r * r
                let discriminant = qb * qb - 4 * qa * qc
                guard qa > 0, discriminant > 0 else { return [] }
                let root = discriminant.squareRoot()
                let q = -0.5 * (qb + (qb >= 0 ? root : -root))
                return ([q / qa] + (q != 0 ? [qc / q] : [])).filter { $0 > 0 && $0 < 1 }.sorted()
            case .area(let g):
                return try g.crossings(from: a, to: b).map(\.fraction).filter { $0 > 0 && $0 < 1 }
            }
        }
        let path = fixes.filter { $0.time != nil }
        guard let first = path.first, let firstTime = first.time else { return [] }
        let points = path.map { f.forward(XY(longitude: $0.longitude, latitude: $0.latitude)) }
        var open: [TruthVisit?] = Array(repeating: nil, count: regions.count)
        var done: [TruthVisit] = []
        let firstSpeed = path.count > 1 ? GroundTruth.speed(path[0], path[1]) : nil
        for (j, region) in regions.enumerated() {
            guard let region, try inside(region, points[0]) else { continue }
            open[j] = TruthVisit(
                fence: j, fenceID: fences.fences[j].id, enter: firstTime, exit: nil, startsInside: true,
                enterSpeed: firstSpeed, enterLongitude: first.longitude, enterLatitude: first.latitude)
        }
        for i in 0..<max(0, points.count - 1) {
            let a = points[i], b = points[i + 1]
            guard a != b, let ta = path[i].time, let tb = path[i + 1].time else { continue }
            let speed = GroundTruth.speed(path[i], path[i + 1])
            let span = tb.nanoseconds(since: ta)
            for (j, region) in regions.enumerated() {
                guard let region else { continue }
                let fractions = [0] + (try crossings(region, a, b)) + [1]
                var state = open[j] != nil
                for k in 0..<(fractions.count - 1) where fractions[k + 1] > fractions[k] {
                    let f0 = fractions[k]
                    let mid = (f0 + fractions[k + 1]) / 2
                    let now = try inside(region, XY(a.x + (b.x - a.x) * mid, a.y + (b.y - a.y) * mid))
                    guard now != state else { continue }
                    state = now
                    let time = ta.adding(nanoseconds: Int64((Double(span) * f0).rounded()))
                    let place = f.inverse(XY(a.x + (b.x - a.x) * f0, a.y + (b.y - a.y) * f0))
                    if now {
                        open[j] = TruthVisit(
                            fence: j, fenceID: fences.fences[j].id, enter: time, exit: nil, enterSpeed: speed,
                            enterLongitude: place.longitude, enterLatitude: place.latitude)
                    } else if var visit = open[j] {
                        open[j] = nil
                        visit.exit = time
                        if time > visit.enter { done.append(visit) }
                    }
                }
            }
        }
        done += open.compactMap { $0 }
        return done.sorted { a, b in TruthVisit.ordered(a, b) || (!TruthVisit.ordered(b, a) && a.fence < b.fence) }
    }

    /// Equal lists, or a failure naming the first difference (not both lists).
    static func expectSame(_ indexed: [TruthVisit], _ oracle: [TruthVisit], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        var k = 0
        while k < min(indexed.count, oracle.count), indexed[k] == oracle[k] { k += 1 }
        let same = indexed.count == oracle.count && k == indexed.count
        let a = k < indexed.count ? "\(indexed[k])" : "none"
        let b = k < oracle.count ? "\(oracle[k])" : "none"
        #expect(
            same, "\(indexed.count) visits indexed, \(oracle.count) by brute force; first difference at \(k): \(a) vs \(b)",
            sourceLocation: sourceLocation)
    }

    // MARK: - Tests

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func indexedTruthEqualsEveryFenceAgainstEverySegment(seed: UInt64) throws {
        let fences = try Self.fences(count: 150, size: 2000, seed: seed)
        let fixes = try Self.path(count: 1500, size: 2000, seed: seed &+ 100)
        let indexed = try GroundTruth(fences: fences, frame: Self.frame).visits(along: fixes)
        let oracle = try Self.bruteForceVisits(fences, fixes)
        #expect(indexed.count > 20, "the scene should have visits to compare")
        Self.expectSame(indexed, oracle)
    }

    /// A truth that takes the fences as an index projected them (a report's: the vertices are
    /// projected once) finds the visits of one that projects them itself, bit for bit: circles,
    /// beacons, polygons with holes, multipolygons and lines, some buffered (the index then
    /// holds a buffered shape, not the drawn one, and the truth projects that fence itself).
    @Test(arguments: [21, 22, 23] as [UInt64])
    func aTruthFromTheIndexProjectionFindsTheSameVisits(seed: UInt64) throws {
        let fences = try Self.fences(count: 300, size: 2500, seed: seed)
        let settings = FenceSettings(
            fences.fences.indices.map { j in
                var s = GeotriggerSettings()
                s.bufferMeters = j % 5 == 0 ? 25 : j % 7 == 0 ? -4 : 0
                return s
            })
        let index = try FenceIndex(fences, frame: Self.frame, settings: settings)
        let projected = index.projected
        // The test covers both paths: areas taken from the index, and buffered ones not.
        let areas = fences.fences.indices.filter { if case .area = fences.fences[$0].kind { true } else { false } }
        #expect(areas.contains { settings[$0].bufferMeters == 0 && projected.shape($0) != nil })
        #expect(
            areas.contains { settings[$0].bufferMeters != 0 }
                && areas.allSatisfy { settings[$0].bufferMeters == 0 || projected.shape($0) == nil })
        let fixes = try Self.path(count: 2500, size: 2500, seed: seed &+ 100)
        let own = try GroundTruth(fences: fences, frame: Self.frame).visits(along: fixes)
        let shared = try GroundTruth(fences: fences, frame: Self.frame, projected: projected).visits(along: fixes)
        #expect(own.count > 20, "the scene should have visits to compare")
        #expect(own == shared)
        // Shapes of another frame are not taken.
        let elsewhere = FrameDefinition.transverseMercator(latitudeOfOrigin: 37.75, centralMeridian: -122.1)
        let other = try FenceIndex(fences, frame: elsewhere, settings: settings).projected
        #expect(try GroundTruth(fences: fences, frame: Self.frame, projected: other).visits(along: fixes) == own)
    }

    @Test func pathStartingInsideAndOnBoundaries() throws {
        // Fixes on circle centres and exactly on a square's corners and edges.
        let f = try MetricFrame(Self.frame)
        let ll = { (x: Double, y: Double) in f.inverse(XY(x, y)) }
        let fences = FenceSet(
            file: "edge.geojson",
            fences: [
                Fence(
                    index: 0, id: "c", kind: .circle(radiusMeters: 20), shape: .point(ll(0, 0)),
                    location: SourceLocation(file: "edge.geojson", line: 1)),
                Fence(
                    index: 1, id: "s", kind: .area, shape: .polygon([[ll(0, 0), ll(40, 0), ll(40, 40), ll(0, 40), ll(0, 0)]]),
                    location: SourceLocation(file: "edge.geojson", line: 2)),
            ])
        let corners: [(Double, Double)] = [(0, 0), (40, 0), (40, 40), (20, 40), (20, 20), (60, 20), (0, 0), (-30, -30)]
        let fixes = corners.enumerated().map { k, c in
            let p = ll(c.0, c.1)
            return Fix(time: Self.t0.adding(seconds: Double(k * 5)), latitude: p.latitude, longitude: p.longitude)
        }
        let indexed = try GroundTruth(fences: fences, frame: Self.frame).visits(along: fixes)
        Self.expectSame(indexed, try Self.bruteForceVisits(fences, fixes))
        #expect(indexed.first?.startsInside == true)
    }

    /// Work grows with the path, not with path × fences: fence–segment pairs tested per segment
    /// stay a small constant as the path doubles, and as the fence set grows fourfold at the same
    /// density. All fences against all segments would test 2,000 pairs per segment here.
    @Test func candidateTestsGrowLinearlyWithThePath() throws {
        let fences = try Self.fences(count: 2000, size: 14000, seed: 11)
        let truth = try GroundTruth(fences: fences, frame: Self.frame)
        _ = try truth.visits(along: try Self.path(count: 2000, size: 14000, seed: 12))
        let short = truth.candidateTests
        let long = try GroundTruth(fences: fences, frame: Self.frame)
        _ = try long.visits(along: try Self.path(count: 8000, size: 14000, seed: 12))
        #expect(short > 0)
        // Four times the path: about four times the tests (the walk's first quarter is the short one).
        let ratio = Double(long.candidateTests) / Double(short)
        #expect(ratio > 2.5 && ratio < 5.5, "ratio \(ratio)")
        #expect(Double(long.candidateTests) / 8000 < 10, "per segment: \(Double(long.candidateTests) / 8000)")

        // The same density over four times the area: tests per segment do not grow with the set.
        let wide = try GroundTruth(fences: try Self.fences(count: 8000, size: 28000, seed: 11), frame: Self.frame)
        _ = try wide.visits(along: try Self.path(count: 8000, size: 28000, seed: 12))
        #expect(Double(wide.candidateTests) / 8000 < 10, "per segment: \(Double(wide.candidateTests) / 8000)")
        // Most fence–segment pairs are answered by distance alone: the path had not yet
        // travelled as far as the fence's boundary was.
        #expect(long.skippedTests > long.geometryTests, "skipped \(long.skippedTests), measured \(long.geometryTests)")
    }

    /// Arithmetic answers for a segment and a polygon only where it is sure, and then with
    /// GEOS's own answer to the bit: no crossing where GEOS finds none, the same fractions where
    /// the segment crosses edges inside them. Segments from anywhere near star polygons (some
    /// with holes), through their vertices and along their edges.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func arithmeticCrossingsAreGEOSs(seed: UInt64) throws {
        let f = try MetricFrame(Self.frame)
        var rng = SplitMix64(seed: seed &+ 300)
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * rng.nextUnitDouble() }
        var ring: [XY] = []
        let n = 5 + Int(rng.next() % 20)
        for k in 0..<n {
            let angle = 2 * Double.pi * Double(k) / Double(n)
            let radius = uniform(40, 100)
            ring.append(XY(radius * cos(angle), radius * sin(angle)))
        }
        ring.append(ring[0])
        let hole = [XY(-10, -10), XY(-10, 10), XY(10, 10), XY(10, -10), XY(-10, -10)]
        let metric = Shape.polygon(seed % 2 == 0 ? [ring, hole] : [ring])
        let fences = FenceSet(
            file: "p.geojson",
            fences: [
                Fence(
                    index: 0, id: "p", kind: .area, shape: metric.mapPositions { f.inverse($0) },
                    location: SourceLocation(file: "p.geojson", line: 1))
            ])
        let truth = try GroundTruth(fences: fences, frame: Self.frame)
        let geometry = try Geometry(truth.layout.shapes[0], context: truth.context)
        let vertices = truth.layout.shapes[0]
        guard case .polygon(let rings) = vertices else { Issue.record("not a polygon"); return }
        let corners = rings.flatMap { $0 }
        var proper = 0
        var none = 0
        for k in 0..<3000 {
            var a = XY(uniform(-150, 150), uniform(-150, 150))
            var b = XY(uniform(-150, 150), uniform(-150, 150))
            switch k % 5 {
            case 0: a = corners[Int(rng.next() % UInt64(corners.count))]  // from a vertex
            case 1:  // along an edge
                let e = Int(rng.next() % UInt64(corners.count - 1))
                a = corners[e]
                b = XY(corners[e].x + (corners[e + 1].x - corners[e].x) * 0.5, corners[e].y + (corners[e + 1].y - corners[e].y) * 0.5)
            case 2: b = XY(a.x + uniform(-5, 5), a.y + uniform(-5, 5))  // short
            default: break
            }
            guard a != b else { continue }
            let expected = try geometry.crossings(from: a, to: b).map(\.fraction).filter { $0 > 0 && $0 < 1 }
            switch try truth.arithmeticCrossings(a, b, area: 0) {
            case .none:
                none += 1
                #expect(try geometry.crossings(from: a, to: b).isEmpty, "segment \(a) -> \(b)")
            case .proper(let fractions):
                proper += 1
                #expect(fractions.map(\.bitPattern) == expected.map(\.bitPattern), "segment \(a) -> \(b): \(fractions) vs \(expected)")
            case .unsure:
                break
            }
        }
        #expect(proper > 300 && none > 300, "proper \(proper), none \(none)")
    }

    /// A path walked a stretch at a time (``GroundTruth/PathWalk``, what a report streams),
    /// each stretch starting with the visits the one before left open, gives the visits of one
    /// walk of the whole path and of every fence against every segment, at every stretch
    /// length: visits open across a stretch's end are carried, never split or lost.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func stretchesGiveTheWholeWalksVisits(seed: UInt64) throws {
        let fences = try Self.fences(count: 150, size: 2000, seed: seed &+ 40)
        let fixes = try Self.path(count: 3000, size: 2000, seed: seed &+ 140)
        let truth = try GroundTruth(fences: fences, frame: Self.frame)
        var once = GroundTruth.PathWalk(truth, stretchFixes: .max)
        for fix in fixes { try once.push(fix) }
        let whole = truth.placingEntries(try once.finish())
        Self.expectSame(whole, try Self.bruteForceVisits(fences, fixes))
        for stretchFixes in [2, 3, 17, 100, 2999, 3000, 3001] {
            var walk = GroundTruth.PathWalk(truth, stretchFixes: stretchFixes)
            for fix in fixes { try walk.push(fix) }
            Self.expectSame(truth.placingEntries(try walk.finish()), whole)
        }
        // Some visit spans a stretch's end (else the carrying is not tested).
        let ends = stride(from: 99, to: fixes.count, by: 99).compactMap { fixes[$0].time }
        #expect(whole.contains { v in ends.contains { t in v.enter < t && (v.exit.map { $0 > t } ?? true) } })
    }

    /// A trace stream with a frame hands each fix with its projection (what a report's replay
    /// and truth take instead of projecting each fix twice): every fix in file order, at the same
    /// bits as a frame of the consumer's own, and the truth walked on those points is the truth
    /// walked on its own projections. A stream without a frame hands no points.
    @Test func streamedPointsAreTheConsumersOwn() throws {
        let fences = try Self.fences(count: 60, size: 1500, seed: 7)
        let fixes = try Self.path(count: 2500, size: 1500, seed: 8)
        let dir = try Paths.temporaryDirectory()
        let path = try Paths.write(TraceWriter.render(fixes, format: .csv), "drive.csv", in: dir)
        let own = try MetricFrame(Self.frame)
        let truth = try GroundTruth(fences: fences, frame: Self.frame)
        let stream = TraceStream(path: path, options: TraceReadOptions(), consumers: 1, frame: Self.frame, chunkSize: 300)
        var read: [Fix] = []
        var walk = GroundTruth.PathWalk(truth, stretchFixes: 700)
        while let chunk = stream.next(0) {
            #expect(chunk.points.count == chunk.fixes.count)
            for k in chunk.fixes.indices {
                let fix = chunk.fixes[k]
                let mine = own.forward(XY(longitude: fix.longitude, latitude: fix.latitude))
                #expect(chunk.point(k)?.x.bitPattern == mine.x.bitPattern && chunk.point(k)?.y.bitPattern == mine.y.bitPattern)
                try walk.push(fix, at: chunk.point(k))
                read.append(fix)
            }
        }
        _ = try stream.result()
        #expect(read.count == fixes.count)
        let streamed = truth.placingEntries(try walk.finish())
        #expect(!streamed.isEmpty)
        Self.expectSame(streamed, try truth.visits(along: read))
        let plain = TraceStream(path: path, options: TraceReadOptions(), consumers: 1)
        while let chunk = plain.next(0) { #expect(chunk.points.isEmpty && chunk.point(0) == nil) }
        _ = try plain.result()
    }

    /// A stretch may end anywhere, on a fence's boundary too: with fixes exactly on a square's
    /// edge for most of the path, walks in stretches of every length from 2 to 40 fixes give
    /// the whole walk's visits.
    @Test func stretchesEndingOnABoundary() throws {
        let f = try MetricFrame(Self.frame)
        let ll = { (x: Double, y: Double) in f.inverse(XY(x, y)) }
        let fences = FenceSet(
            file: "edge.geojson",
            fences: [
                Fence(
                    index: 0, id: "s", kind: .area, shape: .polygon([[ll(0, 0), ll(400, 0), ll(400, 400), ll(0, 400), ll(0, 0)]]),
                    location: SourceLocation(file: "edge.geojson", line: 1))
            ])
        // Along the bottom edge (on the boundary), then inside, then out.
        var points: [(Double, Double)] = (0..<300).map { (Double($0), 0) }
        points += (0..<300).map { (300 - Double($0) * 0.5, 50) }
        points += (0..<300).map { (150, 50 - Double($0)) }
        let fixes = points.enumerated().map { k, p in
            let q = ll(p.0, p.1)
            return Fix(time: Self.t0.adding(seconds: Double(k)), latitude: q.latitude, longitude: q.longitude)
        }
        let truth = try GroundTruth(fences: fences, frame: Self.frame)
        let whole = try truth.visits(along: fixes)
        #expect(!whole.isEmpty)
        for stretchFixes in 2...40 {
            var walk = GroundTruth.PathWalk(truth, stretchFixes: stretchFixes)
            for fix in fixes { try walk.push(fix) }
            Self.expectSame(truth.placingEntries(try walk.finish()), whole)
        }
    }

    /// After a long drive (an odometer of thousands of kilometres, where a metre is a small
    /// fraction of the total), the path crawls along a square's edge and around a circle at
    /// micrometre offsets, on the boundary and across it: the distance-based skipping gives the
    /// same visits as every fence against every segment.
    @Test func micrometreCrawlsAfterALongDrive() throws {
        let f = try MetricFrame(Self.frame)
        let ll = { (x: Double, y: Double) in f.inverse(XY(x, y)) }
        let fences = FenceSet(
            file: "crawl.geojson",
            fences: [
                Fence(
                    index: 0, id: "square", kind: .area, shape: .polygon([[ll(0, 0), ll(40, 0), ll(40, 40), ll(0, 40), ll(0, 0)]]),
                    location: SourceLocation(file: "crawl.geojson", line: 1)),
                Fence(
                    index: 1, id: "circle", kind: .circle(radiusMeters: 10), shape: .point(ll(20, -30)),
                    location: SourceLocation(file: "crawl.geojson", line: 2)),
            ])
        var points: [(Double, Double)] = []
        // Out and back 2,000 km in 20 km steps, passing through both fences each way.
        for k in 0...100 { points.append((-20 - Double(k) * 20_000, 5)) }
        for k in stride(from: 100, through: 0, by: -1) { points.append((20 + Double(k) * 20_000, -30)) }
        // Along the square's bottom edge at offsets from a micrometre to a nanometre, on it, across it.
        let offsets = [1e-6, -1e-6, 1e-7, 0, -1e-7, 2e-6, -3e-6, 0, 1e-9, -1e-9, 5e-7]
        for (k, dy) in offsets.enumerated() { points.append((1 + Double(k) * 3.5, dy)) }
        // Around the circle just inside and just outside its radius.
        for k in 0..<40 {
            let a = Double(k) * Double.pi / 10
            let r = 10 + (k % 2 == 0 ? 1e-6 : -1e-6) * Double(k % 5)
            points.append((20 + r * cos(a), -30 + r * sin(a)))
        }
        let fixes = points.enumerated().map { k, p in
            let q = ll(p.0, p.1)
            return Fix(time: Self.t0.adding(seconds: Double(k)), latitude: q.latitude, longitude: q.longitude)
        }
        let truth = try GroundTruth(fences: fences, frame: Self.frame)
        let indexed = try truth.visits(along: fixes)
        Self.expectSame(indexed, try Self.bruteForceVisits(fences, fixes))
        #expect(indexed.count >= 4)
    }
}
