import Fences
import Foundation
import Geotriggers
import Spatial
import Support
import Testing
import Traces

@testable import Accuracy
@testable import EventPipeline
@testable import Scenarios

/// Ground truth (SPEC §6.1): crossings and interpolated times checked by hand in a metric frame
/// centred on the fences, so that metres along the path are exact.
@Suite struct GroundTruthTests {
    static let frame = FrameDefinition.transverseMercator(latitudeOfOrigin: 47.39, centralMeridian: 8.5)
    static let t0 = Timestamp(seconds: 1_767_225_600)

    /// A straight path along the frame's x axis from −200 m to +200 m at 10 m/s, a fix every `step` s.
    static func path(step: Double = 10, y: Double = 0) throws -> [Fix] {
        let f = try MetricFrame(frame)
        return stride(from: 0.0, through: 40, by: step).map { s in
            let ll = f.inverse(XY(-200 + 10 * s, y))
            return Fix(
                time: t0.adding(seconds: s), latitude: ll.latitude, longitude: ll.longitude, accuracyMeters: 5, accuracySource: .reported)
        }
    }

    static func lonLat(_ points: [(Double, Double)]) throws -> [XY] {
        let f = try MetricFrame(frame)
        return points.map { f.inverse(XY($0.0, $0.1)) }
    }

    static func fences() throws -> FenceSet {
        let center = try lonLat([(0, 0)])[0]
        // A 200 m square with a 100 m square hole, both centred on the origin.
        let outer = try lonLat([(-100, -100), (100, -100), (100, 100), (-100, 100), (-100, -100)])
        let hole = try lonLat([(-50, -50), (-50, 50), (50, 50), (50, -50), (-50, -50)])
        return FenceSet(
            file: "f.geojson",
            fences: [
                Fence(
                    index: 0, id: "circle", kind: .circle(radiusMeters: 50), shape: .point(center),
                    location: SourceLocation(file: "f.geojson", line: 1)),
                Fence(
                    index: 1, id: "square", kind: .area, shape: .polygon([outer, hole]),
                    location: SourceLocation(file: "f.geojson", line: 2)),
                Fence(
                    index: 2, id: "line", kind: .line, shape: .lineString(try lonLat([(0, -10), (0, 10)])),
                    location: SourceLocation(file: "f.geojson", line: 3)),
            ])
    }

    static func near(_ a: Timestamp?, _ seconds: Double) -> Bool {
        guard let a else { return false }
        return abs(a.seconds(since: t0) - seconds) < 0.001
    }

    /// A fence the truth cannot place is named, at its own line, whichever fence it is: the
    /// truth reads each fence in place by its index, and its error must say which.
    @Test func aFenceTheTruthCannotPlaceIsNamedAtItsLine() throws {
        let good = try Self.fences().fences
        let bad = Fence(
            index: 3, id: "not-a-number", kind: .circle(radiusMeters: .nan), shape: good[0].shape,
            location: SourceLocation(file: "f.geojson", line: 7))
        let set = FenceSet(file: "f.geojson", fences: good + [bad])
        do {
            _ = try GroundTruth(fences: set, frame: Self.frame)
            Issue.record("a fence without a box was accepted")
        } catch {
            #expect(error.code == .badData)
            #expect(error.message.hasPrefix("fence \"not-a-number\": "), "\(error.message)")
            #expect(error.location == SourceLocation(file: "f.geojson", line: 7))
        }
    }

    /// No path joins two fixes further apart than `maxGap` or of two segments (issue 22): the
    /// circle the straight line from −200 m to +200 m would cross is no truth visit when the two
    /// fixes are 300 s apart or of two segments, and is one when they are 40 s apart, under
    /// the same `maxGap`.
    @Test func noPathThroughAGapOrBetweenSegments() throws {
        let fences = FenceSet(file: "f.geojson", fences: [try Self.fences().fences[0]])
        let truth = try GroundTruth(fences: fences, frame: Self.frame, maxGapSeconds: 120)
        let two = try Self.path(step: 40)
        #expect(two.count == 2)
        #expect(try truth.visits(along: two).count == 1)
        var late = two
        late[1].time = Self.t0.adding(seconds: 300)
        #expect(try truth.visits(along: late).isEmpty)
        var split = two
        split[1].segment = 1
        #expect(try truth.visits(along: split).isEmpty)
        // Without a limit the line is path again.
        #expect(try GroundTruth(fences: fences, frame: Self.frame).visits(along: late).count == 1)
    }

    /// A fence's side changes across a gap at the later fix: inside at 0 s (centre), outside
    /// after a 300 s gap (200 m east), a visit from the first fix to the fix after the gap; in
    /// again after another gap, a visit from that fix on, open at the end.
    @Test func aSideChangesAcrossAGapAtTheLaterFix() throws {
        let fences = FenceSet(file: "f.geojson", fences: [try Self.fences().fences[0]])
        let truth = try GroundTruth(fences: fences, frame: Self.frame, maxGapSeconds: 120)
        let f = try MetricFrame(Self.frame)
        let fixes = [(0.0, 0.0), (1, 1), (301, 200), (302, 201), (900, 2)].map { (t, x) in
            let ll = f.inverse(XY(x, 0))
            return Fix(
                time: Self.t0.adding(seconds: t), latitude: ll.latitude, longitude: ll.longitude, accuracyMeters: 5,
                accuracySource: .reported)
        }
        let visits = try truth.visits(along: fixes)
        #expect(visits.count == 2)
        #expect(Self.near(visits[0].enter, 0) && Self.near(visits[0].exit, 301) && visits[0].startsInside)
        #expect(Self.near(visits[1].enter, 900) && visits[1].exit == nil && !visits[1].startsInside)
    }

    /// Across a gap of more than 292 years (nanoseconds past 64 bits) the side changes at the
    /// later fix itself.
    @Test func aSideChangesAtTheLaterFixAcrossCenturies() throws {
        let fences = FenceSet(file: "f.geojson", fences: [try Self.fences().fences[0]])
        let truth = try GroundTruth(fences: fences, frame: Self.frame, maxGapSeconds: 120)
        let f = try MetricFrame(Self.frame)
        let later = Self.t0.adding(seconds: 1e10)
        let fixes = [(Self.t0, 0.0), (Self.t0.adding(seconds: 1), 1), (later, 200), (later.adding(seconds: 1), 201)].map { (t, x) in
            let ll = f.inverse(XY(x, 0))
            return Fix(time: t, latitude: ll.latitude, longitude: ll.longitude, accuracyMeters: 5, accuracySource: .reported)
        }
        let visits = try truth.visits(along: fixes)
        #expect(visits.count == 1)
        #expect(visits.first?.exit == later)
    }

    @Test func circleAndPolygonWithAHole() throws {
        let truth = try GroundTruth(fences: Self.fences(), frame: Self.frame)
        let visits = try truth.visits(along: Self.path())
        // Fixes every 10 s at −200, −100, 0, 100, 200 m: the circle (r 50) is entered at −50 m
        // (t = 15 s) and left at +50 m (25 s), between fixes; the square is entered at −100 m
        // (10 s, on a fix), left into the hole at −50 m (15 s), entered again at +50 m (25 s)
        // and left at +100 m (30 s). The line fence has no visits.
        #expect(visits.map(\.fenceID) == ["square", "circle", "square"])
        let circle = try #require(visits.first { $0.fenceID == "circle" })
        #expect(Self.near(circle.enter, 15) && Self.near(circle.exit, 25))
        #expect(abs((circle.enterSpeed ?? 0) - 10) < 0.01)
        #expect(!circle.startsInside)
        let squares = visits.filter { $0.fenceID == "square" }
        #expect(Self.near(squares[0].enter, 10) && Self.near(squares[0].exit, 15))
        #expect(Self.near(squares[1].enter, 25) && Self.near(squares[1].exit, 30))
        // The crossing point is on the boundary: x = −50 m.
        let f = try MetricFrame(Self.frame)
        let p = f.forward(XY(try #require(circle.enterLongitude), try #require(circle.enterLatitude)))
        #expect(abs(p.x + 50) < 0.001 && abs(p.y) < 0.001)
    }

    @Test func pathStartingInsideAndTouching() throws {
        let truth = try GroundTruth(fences: Self.fences(), frame: Self.frame)
        // Starts at the centre (inside the circle, in the square's hole) and ends at +100 m.
        let f = try MetricFrame(Self.frame)
        let fixes = [0.0, 100].enumerated().map { k, x in
            let ll = f.inverse(XY(x, 0))
            return Fix(time: Self.t0.adding(seconds: Double(k) * 10), latitude: ll.latitude, longitude: ll.longitude)
        }
        let visits = try truth.visits(along: fixes)
        #expect(visits.map(\.fenceID) == ["circle", "square"])
        #expect(visits[0].startsInside && Self.near(visits[0].exit, 5))
        // The square is entered at +50 m (5 s) and the path ends on its boundary (+100 m): inside.
        #expect(Self.near(visits[1].enter, 5) && visits[1].exit == nil)
        // A path along y = 150 m passes north of everything.
        let outside = try truth.visits(along: Self.path(y: 150))
        #expect(outside.isEmpty)
    }

    @Test func referenceTraceTruth() throws {
        let dir = try Paths.temporaryDirectory()
        let fences = try Self.fences()
        // The reference is sampled every 2 s; the feed every 10 s.
        let reference = try Self.path(step: 2)
        let referencePath = try Paths.write(TraceWriter.render(reference, format: .csv), "drive.reference.csv", in: dir)
        let feedPath = try Paths.write(TraceWriter.render(Self.path(step: 10), format: .csv), "drive.csv", in: dir)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverridesFixture.none)
        let configuration = Evaluator.Configuration(
            replay: Replayer.Configuration(fences: fences, frame: Self.frame, settings: settings, workers: 1),
            truth: .reference(dir.appendingPathComponent("{name}.reference.csv").path))
        #expect(
            TruthSource.referencePath(dir.appendingPathComponent("{name}.reference.csv").path, for: TraceInput(path: feedPath))
                == referencePath)
        let results = try Evaluator(configuration).run([TraceInput(path: feedPath, label: "drive")])
        let r = try #require(results.first)
        #expect(r.error == nil)
        let expected = try GroundTruth(fences: fences, frame: Self.frame).visits(along: Trace.load(path: referencePath).fixes)
        #expect(r.truth.map(\.fenceID) == expected.map(\.fenceID))
        #expect(r.truth.map(\.enter) == expected.map(\.enter))
        #expect(r.score?.visits.count == 3)
    }

    /// The truth walk leaves each entry's place in its frame; an evaluation projects back only
    /// the places of its misses (what a report's map marks), to the bits of projecting every
    /// entry (``GroundTruth/visits(along:)``): here the feed, a fix every 10 s that stops at
    /// 20 s, detects the circle's visit and misses both of the square's.
    @Test func onlyMissesArePlacedBack() throws {
        let dir = try Paths.temporaryDirectory()
        let fences = try Self.fences()
        let reference = try Self.path(step: 2)
        let referencePath = try Paths.write(TraceWriter.render(reference, format: .csv), "drive.reference.csv", in: dir)
        let feedPath = try Paths.write(TraceWriter.render(Array(Self.path(step: 10).prefix(3)), format: .csv), "drive.csv", in: dir)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverridesFixture.none)
        let configuration = Evaluator.Configuration(
            replay: Replayer.Configuration(fences: fences, frame: Self.frame, settings: settings, workers: 1),
            truth: .reference(dir.appendingPathComponent("{name}.reference.csv").path))
        let r = try #require(try Evaluator(configuration).run([TraceInput(path: feedPath, label: "drive")]).first)
        let visits = try #require(r.score?.visits)
        let placed = try GroundTruth(fences: fences, frame: Self.frame).visits(along: Trace.load(path: referencePath).fixes)
        #expect(visits.map(\.truth.fenceID) == placed.map(\.fenceID))
        #expect(visits.map(\.detected) == [false, true, false], "\(visits.map(\.truth.fenceID)): \(visits.map(\.detected))")
        for (v, p) in zip(visits, placed) {
            let point: XY?
            if case .frame(let q)? = p.enterPlace { point = q } else { point = nil }
            #expect(point == nil, "visits(along:) projects every place back")
            if v.detected {
                guard case .frame? = v.truth.enterPlace else {
                    Issue.record("a detected visit's entry was projected back: \(v.truth)")
                    continue
                }
            } else {
                #expect(v.truth.enterLongitude?.bitPattern == p.enterLongitude?.bitPattern)
                #expect(v.truth.enterLatitude?.bitPattern == p.enterLatitude?.bitPattern)
                #expect(v.truth.enterLongitude != nil)
            }
        }
    }

    @Test func visitsFileWithAnUnknownFenceIsLocated() throws {
        let dir = try Paths.temporaryDirectory()
        let path = try Paths.write(
            """
            fence,enter,exit
            circle,2026-01-01T00:00:15Z,2026-01-01T00:00:25Z
            square,1767225610,
            nowhere,2026-01-01T00:01:00Z,2026-01-01T00:02:00Z
            """, "visits.csv", in: dir)
        #expect(LabelledVisits.isVisitsFile(path))
        #expect(throws: FencesimError.self) { try LabelledVisits.read(path: path, fences: Self.fences()) }
        let fences = try Self.fences()
        do throws(FencesimError) {
            _ = try LabelledVisits.read(path: path, fences: fences)
        } catch {
            #expect(error.code == .badData)
            #expect(error.location == SourceLocation(file: path, line: 4, column: 1))
            #expect(error.message.contains("unknown fence \"nowhere\""))
        }
        // Without the bad row it reads: the second visit is open at the end.
        let good = try Paths.write("trace,Exit,fence,enter\ndrive,,square,1767225610\n", "good.csv", in: dir)
        let visits = try LabelledVisits.read(path: good, fences: Self.fences())
        #expect(visits.rows.count == 1 && visits.rows[0].visit.exit == nil && visits.rows[0].trace == "drive")
        #expect(visits.visits(for: TraceInput(path: "/x/drive.gpx")).count == 1)
        #expect(visits.visits(for: TraceInput(path: "/x/other.gpx")).isEmpty)
    }

    @Test func signalLossReachesTheLogAndTheScore() throws {
        let dir = try Paths.temporaryDirectory()
        let fences = try Self.fences()
        let feedPath = try Paths.write(TraceWriter.render(Self.path(step: 2), format: .csv), "drive.csv", in: dir)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverridesFixture.none)
        let configuration = Evaluator.Configuration(
            replay: Replayer.Configuration(fences: fences, frame: Self.frame, settings: settings, workers: 1),
            degradation: Degradation(exitLoss: 1, seed: 3))
        let r = try #require(try Evaluator(configuration).run([TraceInput(path: feedPath)]).first)
        #expect(!r.outcome.events.contains { $0.type == .exit })
        let lost = r.outcome.events.filter { $0.type == .suppressed && Scoring.text($0.field("reason")) == "exitLoss" }
        #expect(lost.count == 3)
        #expect(r.score?.lostExits == 3)
        // The circle's visit is detected but its exit never arrives.
        #expect(r.score?.visits.first { $0.truth.fenceID == "circle" }?.exitMissed == true)
    }
}

/// Default geotrigger settings.
enum GeotriggerOverridesFixture {
    static let none = Geotriggers.GeotriggerOverrides()
}
