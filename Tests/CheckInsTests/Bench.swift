import CheckIns
import Fences
import Geotriggers
import Spatial
import Support

/// Hand-built geotrigger events for unit cases: fences without geometry that matters, events at
/// chosen times, fixes with chosen speeds and courses.
struct Bench {
    var fences: [Fence] = []
    var zones: [Zone] = []
    var start = World.start

    mutating func fence(_ id: String, zone: String? = nil, kind: Fence.Kind = .circle(radiusMeters: 50)) {
        fences.append(
            Fence(
                index: fences.count, id: id, kind: kind, shape: .point(XY(0, 0)), zone: zone,
                location: SourceLocation(file: "bench.geojson", line: fences.count + 2, column: 5)))
    }

    func index(_ id: String) -> Int {
        fences.firstIndex(where: { $0.id == id }) ?? -1
    }

    func machine() throws -> CheckInMachine {
        try CheckInMachine(fences: FenceSet(file: "bench.geojson", fences: fences), zones: zones)
    }

    /// A geotrigger event of `kind` for fence `id`, `t` seconds after the start (by whole
    /// nanoseconds when `nanoseconds` is given).
    func event(
        _ kind: GeotriggerEvent.Kind, _ id: String, t: Double, fix: Int = 0, interpolated: Bool = false,
        direction: GeotriggerEvent.Direction? = nil, enter: Double? = nil, exit: Double? = nil
    ) -> GeotriggerEvent {
        let time = start.adding(seconds: t)
        return GeotriggerEvent(
            kind: kind, time: time, fence: index(id), fixIndex: fix, fixTime: time, feed: .point, feedRadius: 0,
            distance: nil, accuracy: 5, interpolated: interpolated, direction: direction,
            enterTime: enter.map { start.adding(seconds: $0) }, exitTime: exit.map { start.adding(seconds: $0) },
            longitude: 0, latitude: 0)
    }

    /// A fix `t` seconds after the start; `north` metres north of (0°, 0°) (about 1e-5° per metre).
    func fix(_ index: Int, t: Double, north: Double = 0, east: Double = 0, speed: Double? = nil, course: Double? = nil) -> CheckInFix {
        CheckInFix(
            index: index, time: start.adding(seconds: t), latitude: north / 110_574, longitude: east / 111_320,
            speedMetersPerSecond: speed, courseDegrees: course)
    }
}

extension CheckInMachine {
    /// Feeds one event (or none) at a fix at the event's time and returns what it produced.
    mutating func feed(_ events: [GeotriggerEvent], _ fix: CheckInFix) -> [CheckInEvent] {
        var out: [CheckInEvent] = []
        process(events, at: fix, into: &out)
        return out
    }

    /// Feeds each event at its own fix (index k, at the event's time) and returns everything.
    mutating func feedEach(_ events: [GeotriggerEvent]) -> [CheckInEvent] {
        var out: [CheckInEvent] = []
        for (k, e) in events.enumerated() {
            var fixed = e
            fixed.fixIndex = k
            process([fixed], at: CheckInFix(index: k, time: e.fixTime, latitude: 0, longitude: 0), into: &out)
        }
        return out
    }
}
