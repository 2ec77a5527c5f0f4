import CheckIns
import Fences
import Geotriggers
import Spatial
import Support

/// A test world in metres around (0°, 0°), adapted from the geotrigger tests' `Scene`: fences and
/// fixes are written in frame coordinates and converted to WGS84 for the fence model; the real
/// engine produces the geotrigger events that drive a ``CheckInMachine``.
struct World {
    static let definition = FrameDefinition.transverseMercator(latitudeOfOrigin: 0, centralMeridian: 0)
    let frame: MetricFrame
    var fences: [Fence] = []
    var overrides: [GeotriggerOverrides] = []
    var settings = GeotriggerSettings()
    var zones: [Zone] = []
    static let start = Timestamp(seconds: 1_767_225_600)  // 2026-01-01T00:00:00Z, a Thursday

    /// One fix: `t` seconds after the start at metres (`x`, `y`).
    struct Fix {
        var t: Double
        var x: Double
        var y: Double
        var speed: Double?
        var course: Double?

        init(_ t: Double, _ x: Double, _ y: Double, speed: Double? = nil, course: Double? = nil) {
            self.t = t
            self.x = x
            self.y = y
            self.speed = speed
            self.course = course
        }
    }

    /// What a run produced: the engine's events and the machine's, per fix and in all.
    struct Run {
        var geotriggers: [GeotriggerEvent] = []
        var checkIns: [CheckInEvent] = []
        var machine: CheckInMachine
    }

    init() throws {
        frame = try MetricFrame(World.definition)
    }

    mutating func add(
        _ id: String, _ kind: Fence.Kind, _ shape: Shape, zone: String?, _ override: GeotriggerOverrides = GeotriggerOverrides()
    ) {
        let wgs = shape.mapPositions { frame.inverse($0) }
        fences.append(
            Fence(
                index: fences.count, id: id, kind: kind, shape: wgs, zone: zone,
                location: SourceLocation(file: "world.geojson", line: fences.count + 2, column: 5)))
        overrides.append(override)
    }

    mutating func circle(_ id: String, x: Double, y: Double, radius: Double, zone: String? = nil) {
        add(id, .circle(radiusMeters: radius), .point(XY(x, y)), zone: zone)
    }

    mutating func rectangle(_ id: String, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, zone: String? = nil) {
        let ring = [XY(x0, y0), XY(x1, y0), XY(x1, y1), XY(x0, y1), XY(x0, y0)]
        add(id, .area, .polygon([ring]), zone: zone)
    }

    mutating func line(_ id: String, _ points: [XY], zone: String? = nil) {
        add(id, .line, .lineString(points), zone: zone)
    }

    mutating func beacon(_ id: String, x: Double, y: Double, range: Double, proximity: BeaconProximity, zone: String? = nil) {
        add(id, .beacon(rangeMeters: range, proximity: proximity), .point(XY(x, y)), zone: zone)
    }

    var fenceSet: FenceSet { FenceSet(file: "world.geojson", fences: fences) }

    func sample(_ index: Int, _ fix: Fix) -> Sample {
        let ll = frame.inverse(XY(fix.x, fix.y))
        return Sample(
            index: index, time: World.start.adding(seconds: fix.t), position: XY(fix.x, fix.y), longitude: ll.x,
            latitude: ll.y, accuracy: 5, speed: fix.speed, course: fix.course)
    }

    /// Runs `fixes` through a fresh engine and a fresh check-in machine, fix by fix, as the
    /// pipeline does.
    func run(_ fixes: [Fix]) throws -> Run {
        let compiled = try CompiledFences(
            fenceSet, frame: World.definition, settings: FenceSettings(overrides.map { $0.applied(to: settings) }))
        let engine = GeotriggerEngine(fences: compiled, traceName: "test")
        var run = Run(machine: try CheckInMachine(fences: fenceSet, zones: zones))
        var batch: [GeotriggerEvent] = []
        for (i, fix) in fixes.enumerated() {
            let sample = sample(i, fix)
            batch.removeAll()
            engine.process(sample, into: &batch)
            run.geotriggers += batch
            run.machine.process(batch, at: CheckInFix(sample), into: &run.checkIns)
        }
        return run
    }

    /// Fixes every `interval` seconds along a straight line, `count` of them.
    static func straight(from: XY, to: XY, count: Int, interval: Double = 1, startingAt t0: Double = 0) -> [Fix] {
        (0..<count).map { k in
            let f = count > 1 ? Double(k) / Double(count - 1) : 0
            return Fix(t0 + Double(k) * interval, from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f)
        }
    }
}

/// `kind:fence` strings (with the reason of suppressed events), for compact expectations.
func summary(_ events: [CheckInEvent]) -> [String] {
    events.map { e in
        switch e.kind {
        case .suppressed: "suppressed(\(e.reason?.rawValue ?? "?")):\(e.fenceID)"
        default: "\(e.kind.rawValue):\(e.fenceID)"
        }
    }
}

/// Seconds since ``World/start``.
func seconds(_ t: Timestamp) -> Double { t.seconds(since: World.start) }
