import Fences
import Spatial
import Support

@testable import Geotriggers

/// A test world in metres around (0°, 0°): fences and fixes are written in frame coordinates and
/// converted to WGS84 for the fence model, as a user's files would be.
struct Scene {
    static let definition = FrameDefinition.transverseMercator(latitudeOfOrigin: 0, centralMeridian: 0)
    let frame: MetricFrame
    var fences: [Fence] = []
    var overrides: [GeotriggerOverrides] = []
    var settings = GeotriggerSettings()
    let start = Timestamp(seconds: 1_767_225_600)  // 2026-01-01T00:00:00Z

    init() throws {
        frame = try MetricFrame(Scene.definition)
    }

    func lonLat(_ x: Double, _ y: Double) -> XY { frame.inverse(XY(x, y)) }

    mutating func add(_ id: String, _ kind: Fence.Kind, _ shape: Shape, _ override: GeotriggerOverrides = GeotriggerOverrides()) {
        let wgs = shape.mapPositions { frame.inverse($0) }
        fences.append(Fence(index: fences.count, id: id, kind: kind, shape: wgs, location: SourceLocation(file: "scene")))
        overrides.append(override)
    }

    mutating func circle(_ id: String, x: Double, y: Double, radius: Double, _ override: GeotriggerOverrides = GeotriggerOverrides()) {
        add(id, .circle(radiusMeters: radius), .point(XY(x, y)), override)
    }

    /// An axis-aligned rectangle with optional rectangular holes.
    mutating func rectangle(
        _ id: String, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, holes: [(Double, Double, Double, Double)] = [],
        _ override: GeotriggerOverrides = GeotriggerOverrides()
    ) {
        func ring(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> [XY] {
            [XY(a, b), XY(c, b), XY(c, d), XY(a, d), XY(a, b)]
        }
        add(id, .area, .polygon([ring(x0, y0, x1, y1)] + holes.map { ring($0.0, $0.1, $0.2, $0.3) }), override)
    }

    mutating func line(_ id: String, _ points: [XY], _ override: GeotriggerOverrides = GeotriggerOverrides()) {
        add(id, .line, .lineString(points), override)
    }

    /// The scene's fences compiled into a shared index by `workers` threads.
    func index(workers: Int) throws -> FenceIndex {
        let set = FenceSet(file: "scene", fences: fences)
        return try FenceIndex(
            set, frame: Scene.definition, settings: FenceSettings(overrides.map { $0.applied(to: settings) }), workers: workers)
    }

    func compiled() throws -> CompiledFences {
        let set = FenceSet(file: "scene", fences: fences)
        return try CompiledFences(set, frame: Scene.definition, settings: FenceSettings(overrides.map { $0.applied(to: settings) }))
    }

    /// A fix at metres (`x`, `y`), `t` seconds after the start.
    func sample(_ index: Int, t: Double, x: Double, y: Double, accuracy: Double = 5, speed: Double? = nil) -> Sample {
        let ll = lonLat(x, y)
        return Sample(
            index: index, time: start.adding(seconds: t), position: XY(x, y), longitude: ll.x, latitude: ll.y,
            accuracy: accuracy, speed: speed)
    }

    /// Runs fixes given as (t, x, y, accuracy) through a fresh engine.
    func run(_ fixes: [(Double, Double, Double, Double)]) throws -> [GeotriggerEvent] {
        let engine = GeotriggerEngine(fences: try compiled(), traceName: "test")
        var events: [GeotriggerEvent] = []
        for (i, f) in fixes.enumerated() {
            engine.process(sample(i, t: f.0, x: f.1, y: f.2, accuracy: f.3), into: &events)
        }
        return events
    }

    /// Fixes along a straight line at constant speed: `count` fixes `interval` seconds apart.
    static func straight(from: XY, to: XY, count: Int, interval: Double = 1, accuracy: Double = 5) -> [(Double, Double, Double, Double)] {
        (0..<count).map { k in
            let f = count > 1 ? Double(k) / Double(count - 1) : 0
            return (Double(k) * interval, from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f, accuracy)
        }
    }
}

/// `kind@fixIndex` strings, for compact expectations.
func summary(_ events: [GeotriggerEvent], _ scene: Scene) -> [String] {
    events.map { "\($0.kind.rawValue):\(scene.fences[$0.fence].id)@\($0.fixIndex)" }
}
