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

/// The operating system's geofencing layer (issue 25): each test names the documented rule it
/// checks. Sources are listed beside each parameter in docs/profiles.md.
@Suite struct OSProfileTests {
    static let frame = FrameDefinition.transverseMercator(latitudeOfOrigin: 37.75, centralMeridian: -122.2)
    static let t0 = Timestamp(seconds: 1_767_225_600)

    /// A scene of circle fences (centre in metres, radius) and a layer over it.
    struct Scene {
        let metric: MetricFrame
        let fences: FenceSet

        init(_ circles: [(x: Double, y: Double, r: Double)], extra: [Fence] = []) throws {
            let metric = try MetricFrame(OSProfileTests.frame)
            var list: [Fence] = []
            for (k, c) in circles.enumerated() {
                list.append(
                    Fence(
                        index: k, id: "f\(k)", kind: .circle(radiusMeters: c.r), shape: .point(metric.inverse(XY(c.x, c.y))),
                        location: SourceLocation(file: "scene.geojson", line: k + 1)))
            }
            for var e in extra {
                e.index = list.count
                list.append(e)
            }
            self.metric = metric
            fences = FenceSet(file: "scene.geojson", fences: list)
        }

        func layer(_ profile: OSProfile, trace: String = "t") -> OSLayer {
            OSLayer(profile: profile, trace: trace, fences: fences, frame: metric)
        }

        func sample(_ k: Int, seconds: Double, x: Double, y: Double, accuracy: Double = 0) -> Sample {
            let ll = metric.inverse(XY(x, y))
            return Sample(
                index: k, time: OSProfileTests.t0.adding(seconds: seconds), position: XY(x, y), longitude: ll.longitude,
                latitude: ll.latitude, accuracy: accuracy)
        }
    }

    /// Runs `path` (seconds, x, y, accuracy) through `layer`; returns every line, in order.
    static func run(_ layer: inout OSLayer, _ scene: Scene, _ path: [(Double, Double, Double, Double)]) -> [LogEvent] {
        var out: [OSLayer.Output] = []
        for (k, p) in path.enumerated() {
            layer.process([], sample: scene.sample(k, seconds: p.0, x: p.1, y: p.2, accuracy: p.3), into: &out)
        }
        layer.finish(into: &out)
        return out.map { o in
            switch o {
            case .log(let e): e
            case .delivered(let e, _): e
            }
        }
    }

    /// A profile with no delay, loss or duplicates, so that tests see the decisions.
    static func immediate(_ platform: OSProfile.Platform) -> OSProfile {
        var p = OSProfile.builtIn(platform)
        p.delayMeanSeconds = 0
        p.delayMinimumSeconds = 0
        return p
    }

    static func summary(_ events: [LogEvent]) -> [String] {
        events.map { e in
            let trigger = Scoring.text(e.field("trigger")) ?? "?"
            let fence = Scoring.text(e.field("fence")) ?? "?"
            return "\(e.type.rawValue) \(trigger) \(fence) @\(Int(e.time.seconds(since: t0).rounded()))"
        }
    }

    static func fix(_ e: LogEvent) -> Int? {
        if case .int(let k)? = e.field("fix") { return Int(k) }
        return nil
    }

    /// A straight walk along x from `from` to `to` metres at `speed` m/s, one fix every `every` s.
    static func walk(from: Double, to: Double, speed: Double, every: Double, start: Double = 0, accuracy: Double = 0)
        -> [(Double, Double, Double, Double)]
    {
        let duration = abs(to - from) / speed
        let steps = Int((duration / every).rounded(.up))
        return (0...steps).map { k in
            let t = min(duration, Double(k) * every)
            return (start + t, from + (to - from) * t / duration, 0, accuracy)
        }
    }

    // MARK: iOS: distance past the boundary, then 20 s on the same side

    /// Apple, Location Awareness Programming Guide, "Monitoring Shape-Based Regions": "the user
    /// must travel a minimum distance over the boundary and remain on the same side of the
    /// boundary for at least 20 seconds"; "for testing purposes, you can assume that the
    /// minimum distance is approximately 200 meters".
    @Test func iosEntryNeedsDistancePastTheBoundaryAndTwentySeconds() throws {
        // A 500 m fence: the entry needs 200 m inside (below half its radius), then 20 s.
        let scene = try Scene([(0, 0, 500)])
        var layer = scene.layer(Self.immediate(.iosRegion))
        // From 1,000 m east, west at 10 m/s, a fix a second: the boundary at 50 s, 200 m inside
        // (x = 300) at 70 s, and 20 s later (x = 100) at 90 s.
        let events = Self.run(&layer, scene, Self.walk(from: 1000, to: 0, speed: 10, every: 1))
        #expect(Self.summary(events) == ["delivered enter f0 @90"])
        #expect(Scoring.text(events.first?.field("fixTime")) == Self.t0.adding(seconds: 90).description)
    }

    @Test func iosExitNeedsTwoHundredMetresOutsideAndTwentySeconds() throws {
        let scene = try Scene([(0, 0, 300)])
        var layer = scene.layer(Self.immediate(.iosRegion))
        // From the centre east at 10 m/s: the boundary at 30 s, 200 m out at 50 s, +20 s = 70 s.
        let events = Self.run(&layer, scene, Self.walk(from: 0, to: 1200, speed: 10, every: 1))
        // The state at the first fix (inside) is learnt silently: CLCircularRegion reports crossings.
        #expect(Self.summary(events) == ["delivered exit f0 @70"])
    }

    @Test func iosTransitionThatDoesNotHoldTwentySecondsIsNotDelivered() throws {
        let scene = try Scene([(0, 0, 100)])
        var layer = scene.layer(Self.immediate(.iosRegion))
        // Start far outside (the initial state), walk in to 50 m inside (half the radius, the
        // cap of the 200 m) and straight back out 10 s later.
        var path = Self.walk(from: 400, to: 50, speed: 10, every: 1)
        path += Self.walk(from: 50, to: 400, speed: 10, every: 1, start: 36).dropFirst()
        let events = Self.run(&layer, scene, path)
        #expect(Self.summary(events) == ["dropped enter f0 @42"])
        #expect(Scoring.text(events.first?.field("reason")) == "unconfirmed")
    }

    // MARK: Android: overlap of the accuracy circle and the fence

    /// Google, quoted by Radius Networks (ProximityKitGeofenceNotifier): "the geofence service
    /// calculates the overlapping ratio of the location circle and the geofence circle and only
    /// generates the entrance alert when the ratio is at least 85% for a bigger geofence or 75%
    /// for a smaller geofence. For an exit alert, the ratio threshold used is 15% or 25%."
    @Test func overlapShareOfTwoCircles() {
        #expect(OSLayer.overlapShare(accuracy: 10, radius: 100, distance: 0) == 1)
        #expect(OSLayer.overlapShare(accuracy: 10, radius: 100, distance: 111) == 0)
        // Equal unit circles one radius apart: 2·acos(1/2) − √3/2 of π.
        let lens = (2 * acos(0.5) - 3.0.squareRoot() / 2) / Double.pi
        #expect(abs(OSLayer.overlapShare(accuracy: 1, radius: 1, distance: 1) - lens) < 1e-12)
        // A point fix: in or out.
        #expect(OSLayer.overlapShare(accuracy: 0, radius: 100, distance: 100) == 1)
        #expect(OSLayer.overlapShare(accuracy: 0, radius: 100, distance: 100.001) == 0)
    }

    @Test func androidEntersAtEightyFivePercentOverlapAndExitsAtFifteen() throws {
        // A 200 m fence and 50 m accuracy circles (the fence is the bigger: 85 % / 15 %).
        let scene = try Scene([(0, 0, 200)])
        var profile = Self.immediate(.androidGeofencing)
        profile.initialTrigger = .enter
        var layer = scene.layer(profile)
        let outside = 400.0
        var path: [(Double, Double, Double, Double)] = []
        // Walk in 1 m a second from 400 m out to 100 m from the centre, then back out.
        for k in 0...300 { path.append((Double(k), outside - Double(k), 0, 50)) }
        for k in 1...300 { path.append((300 + Double(k), 100 + Double(k), 0, 50)) }
        let events = Self.run(&layer, scene, path)
        #expect(events.map(\.type) == [.delivered, .delivered])
        // The entry at the first fix whose circle overlaps the fence by at least 85 %, the exit at
        // the first whose overlap is at most 15 %.
        let enterFix = path.firstIndex { OSLayer.overlapShare(accuracy: 50, radius: 200, distance: $0.1) >= 0.85 }
        let exitFix = path.indices.first { $0 > 300 && OSLayer.overlapShare(accuracy: 50, radius: 200, distance: path[$0].1) <= 0.15 }
        #expect(Self.fix(events[0]) == enterFix)
        #expect(Self.fix(events[1]) == exitFix)
        // Both are well past the boundary: a fix on it overlaps by about half.
        #expect(path[enterFix ?? 0].1 < 200 - 20 && path[exitFix ?? 0].1 > 200 + 20)
    }

    @Test func androidSmallerFenceUsesSeventyFivePercent() throws {
        // A 100 m fence (the minimum radius) under 150 m accuracy circles: the fence is the smaller.
        let scene = try Scene([(0, 0, 100)])
        var layer = scene.layer(Self.immediate(.androidGeofencing))
        let path = Self.walk(from: 600, to: 0, speed: 1, every: 1, accuracy: 150)
        let events = Self.run(&layer, scene, path)
        let enterFix = path.firstIndex { OSLayer.overlapShare(accuracy: 150, radius: 100, distance: $0.1) >= 0.75 }
        #expect(enterFix != nil)
        #expect(events.first.flatMap(Self.fix) == enterFix)
        let at85 = path.firstIndex { OSLayer.overlapShare(accuracy: 150, radius: 100, distance: $0.1) >= 0.85 }
        #expect((at85 ?? 0) > (enterFix ?? 0), "75 % comes first on the way in")
    }

    /// Android developer guide, "Choose the optimal radius for your geofence": a minimum radius
    /// of 100-150 m; fencesim monitors a smaller fence as one of `minimumRadius` (assumed).
    @Test func smallFencesAreMonitoredAtTheMinimumRadius() throws {
        let scene = try Scene([(0, 0, 30)])
        var layer = scene.layer(Self.immediate(.androidGeofencing))
        // Point fixes (no accuracy) walking to 60 m from the centre: outside 30 m, inside 100 m.
        let events = Self.run(&layer, scene, Self.walk(from: 300, to: 60, speed: 10, every: 1))
        #expect(Self.summary(events) == ["delivered enter f0 @20"])
        var strict = Self.immediate(.androidGeofencing)
        strict.minimumRadiusMeters = 0
        var raw = scene.layer(strict)
        #expect(Self.run(&raw, scene, Self.walk(from: 300, to: 60, speed: 10, every: 1)).isEmpty)
    }

    // MARK: Initial triggers

    /// GeofencingRequest.Builder: the default initial trigger is INITIAL_TRIGGER_ENTER |
    /// INITIAL_TRIGGER_DWELL; CLCircularRegion reports crossings (requestState(for:) asks for
    /// the state); CLMonitor's events carry each condition's state, from the start.
    @Test func initialTriggers() throws {
        let scene = try Scene([(0, 0, 200), (1000, 0, 200)])
        let path: [(Double, Double, Double, Double)] = [(0, 0, 0, 0), (60, 10, 0, 0)]
        var android = scene.layer(Self.immediate(.androidGeofencing))
        #expect(Self.summary(Self.run(&android, scene, path)) == ["delivered enter f0 @0"])
        var region = scene.layer(Self.immediate(.iosRegion))
        #expect(Self.run(&region, scene, path).isEmpty)
        // INITIAL_TRIGGER_EXIT: an exit for a fence the device is outside of.
        var exitFirst = Self.immediate(.androidGeofencing)
        exitFirst.initialTrigger = .exit
        var android2 = scene.layer(exitFirst)
        #expect(Self.summary(Self.run(&android2, scene, path)) == ["delivered exit f1 @0"])
        var monitor = scene.layer(Self.immediate(.iosMonitor))
        // CLMonitor: both states, once each, after 20 s on the same side.
        let events = Self.run(&monitor, scene, path)
        #expect(Self.summary(events) == ["delivered enter f0 @60", "delivered exit f1 @60"])
        #expect(events.allSatisfy { Scoring.text($0.field("reason")) == "initialTrigger" })
    }

    /// Geofence.Builder setLoiteringDelay: the delay between GEOFENCE_TRANSITION_ENTER and
    /// GEOFENCE_TRANSITION_DWELL; DWELL comes after ENTER.
    @Test func androidDwellAfterTheLoiteringDelay() throws {
        let scene = try Scene([(0, 0, 200)])
        var profile = Self.immediate(.androidGeofencing)
        profile.loiteringDelaySeconds = 120
        var stays = scene.layer(profile)
        var path = Self.walk(from: 500, to: 0, speed: 10, every: 10)
        path += (1...20).map { (50 + Double($0) * 10, 0, 0, 0) }
        let events = Self.run(&stays, scene, path)
        #expect(Self.summary(events) == ["delivered enter f0 @30", "delivered dwell f0 @150"])
        // Leaving before the delay: no dwell.
        var leaves = scene.layer(profile)
        let short = Self.walk(from: 500, to: -500, speed: 10, every: 10)
        #expect(Self.summary(Self.run(&leaves, scene, short)).map { $0.hasPrefix("delivered dwell") } == [false, false])
    }

    // MARK: Limits

    /// Apple: 20 regions per app, more fail with regionMonitoringFailure; Android: 100
    /// geofences per app (GEOFENCE_TOO_MANY_GEOFENCES). Both monitor circles only.
    @Test func fencesPastTheRegionLimitAndNonCirclesAreDropped() throws {
        let circles = (0..<21).map { (x: Double($0) * 1000, y: 0.0, r: 100.0) }
        let metric = try MetricFrame(Self.frame)
        let ll = { (x: Double, y: Double) in metric.inverse(XY(x, y)) }
        let square = Fence(
            index: 0, id: "square", kind: .area, shape: .polygon([[ll(0, 5000), ll(100, 5000), ll(100, 5100), ll(0, 5100), ll(0, 5000)]]),
            location: SourceLocation(file: "scene.geojson", line: 30))
        let scene = try Scene(circles, extra: [square])
        let ios = scene.layer(Self.immediate(.iosRegion))
        #expect(ios.monitored.filter(\.active).count == 20)
        #expect(ios.refused == [20: .regionLimit, 21: .notCircle])
        #expect(scene.layer(Self.immediate(.androidGeofencing)).monitored.count == 21)
        // CLLocationManager.maximumRegionMonitoringDistance: larger regions fail.
        var capped = Self.immediate(.androidGeofencing)
        capped.maximumRadiusMeters = 99
        #expect(scene.layer(capped).refused.filter { $0.value == .radiusLimit }.count == 21)
        // The engine's notifications of a refused fence become `dropped` with the reason.
        var layer = ios
        var out: [OSLayer.Output] = []
        let sample = scene.sample(0, seconds: 0, x: 20_000, y: 0)
        let engine = [20, 21].map { j in
            GeotriggerEvent(
                kind: .enter, time: sample.time, fence: j, fixIndex: 0, fixTime: sample.time, feed: .point, feedRadius: 0,
                distance: -5, accuracy: 0, longitude: sample.longitude, latitude: sample.latitude)
        }
        layer.process(engine, sample: sample, into: &out)
        let reasons: [String?] = out.compactMap { o in
            if case .log(let e) = o, e.type == .dropped { return Scoring.text(e.field("reason")) }
            return nil
        }
        #expect(reasons == ["regionLimit", "notCircle"])
    }

    /// Apps past the limit register the nearest fences and choose again as the device moves
    /// ("I only want to monitor the closest 20", cowbell/cordova-plugin-geofence#15; Radar and
    /// transistorsoft register the nearest). Refused fences are never heard; with `nearest`
    /// every fence on the way is.
    @Test func nearestFencesAreRegisteredAsTheDeviceMoves() throws {
        // 30 fences 1 km apart along x; a drive along them at 20 m/s, a fix every 5 s.
        let scene = try Scene((0..<30).map { (x: Double($0) * 1000, y: 0.0, r: 150.0) })
        let path = Self.walk(from: -500, to: 29_500, speed: 20, every: 5)
        var limited = Self.immediate(.androidGeofencing)
        limited.regionLimit = 20
        var refuse = scene.layer(limited)
        let refused = Self.run(&refuse, scene, path).filter { $0.type == .delivered }
        var nearestProfile = limited
        nearestProfile.beyondLimit = .nearest
        nearestProfile.refreshDistanceMeters = 500
        var nearest = scene.layer(nearestProfile)
        let heard = Self.run(&nearest, scene, path).filter { $0.type == .delivered }
        func fences(_ events: [LogEvent], _ trigger: String) -> Set<String> {
            Set(events.filter { Scoring.text($0.field("trigger")) == trigger }.compactMap { Scoring.text($0.field("fence")) })
        }
        #expect(fences(refused, "enter") == Set((0..<20).map { "f\($0)" }))
        #expect(fences(heard, "enter") == Set((0..<30).map { "f\($0)" }))
        #expect(fences(heard, "exit") == Set((0..<30).map { "f\($0)" }))
        #expect(nearest.monitored.filter(\.active).count == 20)
    }

    // MARK: Delivery

    /// Android guide: latency "usually less than 2 minutes"; setNotificationResponsiveness is a
    /// best-effort batching of alerts. The delay is drawn per decision, at least the minimum.
    @Test func deliveryDelayAndBatching() throws {
        // 200 crossings of one fence, back and forth.
        let scene = try Scene([(0, 0, 200)])
        var profile = OSProfile.builtIn(.androidGeofencing)
        profile.delayMinimumSeconds = 5
        profile.delayMeanSeconds = 40
        profile.seed = 9
        var path: [(Double, Double, Double, Double)] = []
        for k in 0..<200 { path.append((Double(k) * 600, k % 2 == 0 ? 1000 : 0, 0, 0)) }
        var layer = scene.layer(profile)
        let events = Self.run(&layer, scene, path)
        let delays = events.compactMap { e -> Double? in
            guard let decided = Scoring.text(e.field("fixTime")).flatMap(LabelledVisits.time) else { return nil }
            return e.time.seconds(since: decided)
        }
        #expect(delays.count == 199)
        #expect(delays.allSatisfy { $0 >= 5 })
        let mean = delays.reduce(0, +) / Double(delays.count) - 5
        #expect(abs(mean - 40) < 8, "mean beyond the minimum \(mean)")
        // Batching: every delivery on a multiple of the responsiveness.
        profile.responsivenessSeconds = 300
        var batched = scene.layer(profile)
        let late = Self.run(&batched, scene, path)
        #expect(late.count == 199)
        #expect(late.allSatisfy { $0.time.nanoseconds(since: Timestamp(seconds: 0)) % 300_000_000_000 == 0 })
    }

    @Test func lossAndDuplicatesAreSeededPerFenceAndOccurrence() throws {
        let scene = try Scene([(0, 0, 200), (0, 5000, 200)])
        var profile = Self.immediate(.androidGeofencing)
        profile.exitLoss = 0.3
        profile.duplicateShare = 0.2
        profile.seed = 4
        var path: [(Double, Double, Double, Double)] = []
        for k in 0..<400 { path.append((Double(k) * 600, k % 2 == 0 ? 1000 : 0, 0, 0)) }
        var layer = scene.layer(profile)
        let events = Self.run(&layer, scene, path)
        let lost = events.filter { $0.type == .dropped }
        #expect(lost.allSatisfy { Scoring.text($0.field("trigger")) == "exit" && Scoring.text($0.field("reason")) == "lost" })
        let exits = 200.0
        #expect(abs(Double(lost.count) / exits - 0.3) < 0.08, "lost \(lost.count) of 200 exits")
        let duplicates = events.filter { $0.type == .duplicate }.count
        let delivered = events.filter { $0.type == .delivered }.count
        #expect(abs(Double(duplicates) / Double(delivered) - 0.2) < 0.07)
        // The same seed, the same events; the other fence, far away, changes nothing.
        var again = scene.layer(profile)
        #expect(Self.summary(Self.run(&again, scene, path)) == Self.summary(events))
        let alone = try Scene([(0, 0, 200)])
        var single = alone.layer(profile)
        #expect(Self.summary(Self.run(&single, alone, path)) == Self.summary(events))
        profile.seed = 5
        var other = scene.layer(profile)
        #expect(Self.summary(Self.run(&other, scene, path)) != Self.summary(events))
    }

    // MARK: Pipeline

    /// A replay with a profile: the engine's events stay (the geometry view), the profile's lines
    /// are added, the bytes do not depend on the number of workers, and scoring the app view reads
    /// the deliveries.
    @Test func replayWithAProfileIsTheSameBytesOnAnyWorkerCount() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fences = try FenceReader.read(path: Paths.repository("traces/demo-fences.geojson"))
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        var inputs: [TraceInput] = []
        for k in 0..<3 {
            let copy = dir.appendingPathComponent("drive\(k).gpx")
            try FileManager.default.copyItem(atPath: Paths.repository("traces/demo-drive.gpx"), toPath: copy.path)
            inputs.append(TraceInput(path: copy.path, label: "drive\(k)"))
        }
        func log(workers: Int, profile: OSProfile?) throws -> [LogEvent] {
            let zurich = FrameDefinition.transverseMercator(latitudeOfOrigin: 47.37, centralMeridian: 8.53)
            var configuration = Replayer.Configuration(fences: fences, frame: zurich, settings: settings, workers: workers)
            configuration.profile = profile
            return Replayer.merge(try Replayer(configuration).run(inputs))
        }
        var profile = OSProfile.builtIn(.androidGeofencing)
        profile.exitLoss = 0.3
        profile.seed = 11
        let one = try log(workers: 1, profile: profile)
        let two = try log(workers: 2, profile: profile)
        #expect(EventLogFormat.jsonl.render(one) == EventLogFormat.jsonl.render(two))
        #expect(EventLogFormat.csv.render(one) == EventLogFormat.csv.render(two))
        // The geometry view is the log without a profile, line for line.
        let plain = try log(workers: 2, profile: nil)
        let geometry = one.filter { ![.delivered, .duplicate, .dropped].contains($0.type) }
        #expect(EventLogFormat.jsonl.render(geometry) == EventLogFormat.jsonl.render(plain))
        #expect(one.contains { $0.type == .delivered })
        // Scoring's views: the engine's enters, or the deliveries at their time.
        var app = Scoring.Reader(fences: fences, view: .app)
        var engine = Scoring.Reader(fences: fences)
        for e in one where e.trace == "drive0" {
            app.take(e)
            engine.take(e)
        }
        let delivered = one.filter { $0.trace == "drive0" && $0.type == .delivered && Scoring.text($0.field("trigger")) != "dwell" }
        #expect(app.events.filter { $0.kind == .enter || $0.kind == .exit }.map(\.time) == delivered.map(\.time))
        #expect(engine.events.filter { $0.kind == .enter }.count == plain.filter { $0.trace == "drive0" && $0.type == .enter }.count)
    }

    /// A report scores a second view beside the first (what `report` prints with a profile): the
    /// second score is the score an evaluation of that view alone gives, visit for visit, in
    /// either order of the views, and the first is unchanged by the second.
    @Test func theSecondViewScoresAsThatViewAlone() throws {
        let fences = try FenceReader.read(path: Paths.repository("traces/demo-fences.geojson"))
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        let zurich = FrameDefinition.transverseMercator(latitudeOfOrigin: 47.37, centralMeridian: 8.53)
        var profile = OSProfile.builtIn(.androidGeofencing)
        profile.exitLoss = 0.3
        profile.seed = 11
        let input = TraceInput(path: Paths.repository("traces/demo-drive.gpx"), label: "drive")
        func evaluate(_ view: Scoring.View, also: Scoring.View?) throws -> TraceEvaluation {
            var replay = Replayer.Configuration(fences: fences, frame: zurich, settings: settings, workers: 1)
            replay.profile = profile
            var configuration = Evaluator.Configuration(replay: replay)
            configuration.view = view
            configuration.alsoView = also
            return try #require(try Evaluator(configuration).run([input]).first)
        }
        /// Everything a score holds, as text (the score is not `Equatable`).
        func text(_ score: TraceScore?) -> String {
            guard let s = score else { return "none" }
            return "\(s.trace) \(s.durationSeconds) \(s.visits) \(s.falseDetections) \(s.detections) "
                + "\(s.passthroughs) \(s.lostEnters) \(s.lostExits) \(s.orphanExits)"
        }
        let app = try evaluate(.app, also: nil)
        let geometry = try evaluate(.geometry, also: nil)
        let appThenGeometry = try evaluate(.app, also: .geometry)
        let geometryThenApp = try evaluate(.geometry, also: .app)
        #expect(app.outcome.error == nil && geometry.outcome.error == nil)
        #expect(text(appThenGeometry.score) == text(app.score))
        #expect(text(appThenGeometry.alternateScore) == text(geometry.score))
        #expect(text(geometryThenApp.score) == text(geometry.score))
        #expect(text(geometryThenApp.alternateScore) == text(app.score))
        #expect(app.alternateScore == nil)
        // The views differ on this drive (the profile lost exits), so the test can tell them apart.
        #expect(text(app.score) != text(geometry.score))
    }

    /// Scoring's app view reads deliveries (and duplicates) at their time, counts what the
    /// platform lost or refused, and ignores the engine's lines and unconfirmed transitions; the
    /// geometry view is the other way round.
    @Test func scoringViews() throws {
        let scene = try Scene([(0, 0, 200)])
        let t = Self.t0
        func line(_ type: LogEvent.EventType, _ seconds: Double, trigger: String? = nil, reason: String? = nil) -> LogEvent {
            var fields: [(String, JSONValue)] = [("fence", .string("f0"))]
            if let trigger { fields.append(("trigger", .string(trigger))) }
            if let reason { fields.append(("reason", .string(reason))) }
            return LogEvent(time: t.adding(seconds: seconds), trace: "t", type: type, fields: fields)
        }
        let log = [
            line(.enter, 1), line(.delivered, 5, trigger: "enter"), line(.duplicate, 6, trigger: "enter"),
            line(.dropped, 7, trigger: "exit", reason: "unconfirmed"), line(.exit, 9), line(.dropped, 9, trigger: "exit", reason: "lost"),
            line(.delivered, 10, trigger: "dwell"), line(.dropped, 11, trigger: "enter", reason: "regionLimit"),
        ]
        var app = Scoring.Reader(fences: scene.fences, view: .app)
        var geometry = Scoring.Reader(fences: scene.fences)
        for e in log {
            app.take(e)
            geometry.take(e)
        }
        #expect(app.events.map(\.kind) == [.enter, .enter, .lostExit, .lostEnter])
        #expect(app.events.map { $0.time.seconds(since: t) } == [5, 6, 9, 11])
        #expect(geometry.events.map(\.kind) == [.enter, .exit])
    }

    @Test func profilesReadFromScenarioValues() throws {
        let yaml = "platform: android-geofencing\nexitLoss: 0.25\nloiteringDelay: 300\nseed: 3\n"
        let profile = try OSProfile(config: try ConfigNode.parseYAML(yaml, file: "p.yaml"), directory: ".")
        var expected = OSProfile.builtIn(.androidGeofencing)
        expected.exitLoss = 0.25
        expected.loiteringDelaySeconds = 300
        expected.seed = 3
        #expect(profile == expected)
        // What calibrate writes reads back as the same profile.
        let written = expected.yaml(fits: ["exitLoss": OSProfile.FitNote(samples: 12, residual: "0.01")])
        #expect(try OSProfile(config: try ConfigNode.parseYAML(written, file: "w.yaml"), directory: ".") == expected)
        for built in OSProfile.Platform.allCases {
            let p = OSProfile.builtIn(built)
            #expect(try OSProfile(config: try ConfigNode.parseYAML(p.yaml(), file: "b.yaml"), directory: ".") == p)
        }
        // Bad values are located at their key.
        do {
            _ = try OSProfile(
                config: try ConfigNode.parseYAML("platform: android-geofencing\nexitLoss: 1.5\n", file: "bad.yaml"), directory: ".")
            Issue.record("exitLoss 1.5 was accepted")
        } catch {
            #expect(error.location?.line == 2 && error.message.contains("exitLoss"), "\(error)")
        }
        #expect(throws: FencesimError.self) {
            try OSProfile(config: try ConfigNode.parseYAML("platform: windows\n", file: "bad.yaml"), directory: ".")
        }
    }
}
