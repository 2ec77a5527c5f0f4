import Fences
import Spatial
import Support

@testable import Geotriggers

/// A deliberately slow geotrigger engine, written from SPEC §2 so that a reader can check it by
/// eye: at every fix it looks at every fence and decides with GEOS predicates and distances only
/// (no grid, no cache, no calendar, no arithmetic polygon tests). ``OracleDifferentialTests``
/// hold ``GeotriggerEngine`` to it, event for event.
///
/// What it shares with the engine defines the inputs and the wording of the outputs, not the
/// decisions: the metric frame, the filter language (``FilterExpression``), message templates and
/// their number format, the threshold's description, the seeded beacon noise
/// (``GeotriggerEngine/signalNoise(seed:fence:fix:)``) and Spatial's GEOS wrappers.
///
/// Not thread-safe (it owns a GEOS context); one oracle per trace.
final class OracleEngine {
    /// A fence in the metric frame once its buffer is applied (SPEC §1.2).
    enum Shape {
        /// A circle or a beacon: entered within `enterRadius` of the centre, left beyond
        /// `exitRadius` (a circle has one radius; a beacon checks in within its proximity and
        /// out beyond its range, grown by a positive buffer).
        case disc(center: XY, enterRadius: Double, exitRadius: Double)
        /// A polygon or multipolygon (holes respected), or a buffered line (a corridor).
        case area(Geometry)
        /// A line crossed in either direction.
        case line([XY])
        /// A fence its buffer removed: never entered.
        case empty
    }

    /// A state change seen but not yet confirmed (debounce).
    struct Pending {
        var since: Timestamp
        var sinceFix: Int
        var count: Int
    }

    /// One fence's state.
    struct State {
        var inside = false
        var pending: Pending?
        var enteredAt: Timestamp?
        var dwellDone = false
        /// The last fix the fence's filter let through: where the movement to the next one starts.
        var lastFix: Sample?
    }

    let fences: [Fence]
    let settings: [GeotriggerSettings]
    let shapes: [Shape]
    let traceName: String
    private let frame: MetricFrame
    private let context: GEOSContext
    private var states: [State]
    /// The previous fix in time order, and the first one's time (for `interval` and `elapsed`).
    private var previous: Sample?
    private var firstTime: Timestamp?
    /// By fence: whether it exists now (``Fences/FenceValidity``), since when, and whether its
    /// filter let the previous fix through.
    private var exists: [Bool]
    private var existsSince: [Timestamp]
    private var acceptedLast: [Bool]

    /// - Parameters:
    ///   - fences: the fences in WGS84, as read from a file.
    ///   - settings: each fence's resolved settings.
    init(fences: [Fence], settings: [GeotriggerSettings], frame definition: FrameDefinition, traceName: String) throws {
        precondition(fences.count == settings.count, "one settings value per fence")
        self.fences = fences
        self.settings = settings
        self.traceName = traceName
        frame = try MetricFrame(definition)
        context = try GEOSContext()
        var shapes: [Shape] = []
        for (fence, s) in zip(fences, settings) {
            shapes.append(try OracleEngine.shape(fence, buffer: s.bufferMeters, frame: frame, context: context))
        }
        self.shapes = shapes
        states = Array(repeating: State(), count: fences.count)
        exists = Array(repeating: true, count: fences.count)
        existsSince = Array(repeating: .earliest, count: fences.count)
        acceptedLast = Array(repeating: true, count: fences.count)
    }

    /// The fence in metres with its buffer (SPEC §1.2, §2 `buffer`).
    static func shape(_ fence: Fence, buffer: Double, frame: MetricFrame, context: GEOSContext) throws -> Shape {
        switch fence.kind {
        case .circle(let radius):
            let r = radius + buffer
            return r > 0 ? .disc(center: frame.forward(fence.shape.positions[0]), enterRadius: r, exitRadius: r) : .empty
        case .beacon(let range, let proximity):
            return .disc(
                center: frame.forward(fence.shape.positions[0]), enterRadius: proximity.distance(range: range),
                exitRadius: range + max(0, buffer))
        case .line:
            let points = fence.shape.positions.map { frame.forward($0) }
            guard buffer > 0 else { return .line(points) }
            return .area(try Geometry(.lineString(points), context: context).buffer(buffer))
        case .area:
            let polygon = try Geometry(fence.shape.mapPositions { frame.forward($0) }, context: context)
            guard buffer != 0 else { return .area(polygon) }
            let buffered = try polygon.buffer(buffer)
            return buffered.isEmpty ? .empty : .area(buffered)
        }
    }

    /// The events of the next fix of the trace, in log order.
    func process(_ fix: Sample) throws -> [GeotriggerEvent] {
        // A fix earlier than the one before is skipped, as if it had not been received.
        if let previous, fix.time < previous.time { return [] }
        if firstTime == nil { firstTime = fix.time }
        var events: [GeotriggerEvent] = []
        if let previous {
            events += try validityChanges(from: previous, to: fix)
        } else {
            for j in fences.indices {
                exists[j] = fences[j].validity?.contains(fix.time) ?? true
                existsSince[j] = fix.time
            }
        }
        for j in fences.indices {
            let accepted = settings[j].filter.map { f in f.accepts { field($0, of: fix) } } ?? true
            // A fence that does not exist is not tested.
            if exists[j] { events += try step(j, fix, isFirst: previous == nil) }
            acceptedLast[j] = accepted
        }
        previous = fix
        return inLogOrder(events)
    }

    /// Events by time, then fence id, then kind; one fence's events at one instant keep the order
    /// they were made in.
    func inLogOrder(_ events: [GeotriggerEvent]) -> [GeotriggerEvent] {
        func kindOrder(_ kind: GeotriggerEvent.Kind) -> Int {
            [.passthrough, .cross, .enter, .exit, .dwell, .suppressed].firstIndex(of: kind)!
        }
        return events.enumerated().sorted { x, y in
            let (a, b) = (x.element, y.element)
            if a.time != b.time { return a.time < b.time }
            if a.fence != b.fence { return fences[a.fence].id < fences[b.fence].id }
            if a.kind != b.kind { return kindOrder(a.kind) < kindOrder(b.kind) }
            return x.offset < y.offset
        }.map(\.element)
    }

    // MARK: - Fences that appear and disappear

    /// What happens between `last` and `fix` as fences appear and disappear: at each instant (in
    /// time order) the fences that disappear, by id, then those that appear. A fence that
    /// disappears as another version of the same id appears is replaced by it. Each is decided
    /// at the last fix's position, as a first test.
    func validityChanges(from last: Sample, to fix: Sample) throws -> [GeotriggerEvent] {
        var all: [(time: Timestamp, fence: Int, exists: Bool)] = []
        for j in fences.indices {
            guard let validity = fences[j].validity else { continue }
            for change in validity.changes(after: last.time, through: fix.time) { all.append((change.time, j, change.exists)) }
        }
        func byID(_ a: Int, _ b: Int) -> Bool { fences[a].id != fences[b].id ? fences[a].id < fences[b].id : a < b }
        var events: [GeotriggerEvent] = []
        for time in Set(all.map(\.time)).sorted() {
            let gone = all.filter { $0.time == time && !$0.exists }.map(\.fence).sorted(by: byID)
            var coming = all.filter { $0.time == time && $0.exists }.map(\.fence).sorted(by: byID)
            for j in gone {
                let was = states[j]
                exists[j] = false
                states[j] = State()
                if let k = coming.first(where: { fences[$0].id == fences[j].id }) {
                    coming.removeAll { $0 == k }
                    exists[k] = true
                    existsSince[k] = time
                    guard was.inside else {
                        events += try appear(k, at: time, last, reason: "replaced")
                        continue
                    }
                    var stays = true
                    if case .line = shapes[k] {
                        stays = false
                    } else if acceptedLast[k] {
                        stays = try feedMeets(
                            k, last.position, radius: settings[k].feed == .accuracy ? last.accuracy : 0,
                            noiseAtFix: last.index
                        ).stay
                    }
                    if stays {
                        states[k].inside = true
                        states[k].enteredAt = was.enteredAt
                        states[k].dwellDone = was.dwellDone
                    } else {
                        events.append(try event(.exit, j, last, time: time, reason: "replaced"))
                    }
                } else if was.inside {
                    events.append(try event(.exit, j, last, time: time, reason: "removed"))
                }
            }
            for k in coming {
                exists[k] = true
                existsSince[k] = time
                events += try appear(k, at: time, last, reason: "added")
            }
        }
        return events
    }

    /// Fence `k` appears at `time`: inside if the last fix (when its filter let it through) meets
    /// the enter condition, with an enter unless `initialTrigger` is `none`.
    func appear(_ k: Int, at time: Timestamp, _ last: Sample, reason: String) throws -> [GeotriggerEvent] {
        if case .line = shapes[k] { return [] }
        guard acceptedLast[k] else { return [] }
        let a = settings[k].feed == .accuracy ? last.accuracy : 0
        guard try feedMeets(k, last.position, radius: a, noiseAtFix: last.index).enter else { return [] }
        states[k].inside = true
        states[k].enteredAt = time
        states[k].dwellDone = false
        if settings[k].initialTrigger == .none {
            states[k].dwellDone = settings[k].dwellSeconds == nil
            return []
        }
        return [try event(.enter, k, last, time: time, reason: reason)]
    }

    // MARK: - One fence at one fix

    /// What fix `fix` does to fence `j`: filter, crossings of a line, the state machine with
    /// debounce, visits hidden since the fence's last fix, dwell.
    func step(_ j: Int, _ fix: Sample, isFirst: Bool) throws -> [GeotriggerEvent] {
        let s = settings[j]
        // A fix the filter rejects does not exist for this fence.
        if let filter = s.filter, !filter.accepts({ field($0, of: fix) }) { return [] }
        var state = states[j]
        defer { states[j].lastFix = fix }
        // The movement since the fence's last fix, unless a gap longer than maxGap or the end of
        // a source segment cut it.
        // A fence that appeared since that fix has no movement to look at.
        let from = state.lastFix.flatMap {
            fix.time.seconds(since: $0.time) <= s.maxGapSeconds && fix.segment == $0.segment && existsSince[j] <= $0.time ? $0 : nil
        }

        if case .line(let points) = shapes[j] {
            guard let from else { return [] }
            return try lineCrossings(j, points, from, fix)
        }

        var events: [GeotriggerEvent] = []
        let a = s.feed == .accuracy ? fix.accuracy : 0
        let (enterHolds, stayHolds) = try feedMeets(j, fix.position, radius: a, noiseAtFix: fix.index)
        let wasInside = state.inside
        let wasPending = state.pending != nil
        let wanted = wasInside ? stayHolds : enterHolds
        if wanted == wasInside {
            // A flip seen earlier did not last: it is suppressed.
            if let pending = state.pending {
                let threshold = wasInside ? s.exitAfter : s.enterAfter
                events.append(
                    try event(
                        .suppressed, j, fix, time: fix.time,
                        reason:
                            "debounce: \(wasInside ? "exit" : "enter") seen since fix \(pending.sinceFix) was not confirmed (\(threshold))")
                )
                state.pending = nil
            }
        } else {
            let threshold = wasInside ? s.exitAfter : s.enterAfter
            var confirmed = true
            var reason: String?
            if !threshold.isImmediate {
                var pending = state.pending ?? Pending(since: fix.time, sinceFix: fix.index, count: 0)
                pending.count += 1
                switch threshold {
                case .seconds(let seconds): confirmed = fix.time.seconds(since: pending.since) >= seconds
                case .fixes(let n): confirmed = pending.count >= n
                }
                state.pending = confirmed ? nil : pending
                reason = "debounce: confirmed after \(pending.count) fixes since fix \(pending.sinceFix) (\(threshold))"
            }
            if confirmed {
                state.inside = !wasInside
                if state.inside {
                    state.enteredAt = fix.time
                    state.dwellDone = false
                    // initialTrigger none: a trace that starts inside is inside, silently.
                    if !(isFirst && s.initialTrigger == .none) {
                        events.append(try event(.enter, j, fix, time: fix.time, reason: reason))
                    }
                } else {
                    state.enteredAt = nil
                    events.append(try event(.exit, j, fix, time: fix.time, reason: reason))
                }
            }
        }

        // A visit can hide between two fixes only when the fence was out, with nothing pending,
        // at both of them.
        if !wasInside, !wasPending, !state.inside, state.pending == nil, s.gapPolicy != .ignore, let from {
            events += try hiddenVisits(j, from, fix)
        }

        if state.inside, let dwell = s.dwellSeconds, !state.dwellDone, let enteredAt = state.enteredAt,
            fix.time.seconds(since: enteredAt) >= dwell
        {
            state.dwellDone = true
            var e = try event(.dwell, j, fix, time: enteredAt.adding(seconds: dwell))
            e.dwellSeconds = dwell
            events.append(e)
        }
        states[j] = state
        return events
    }

    /// Whether the feed centred at `p` (the point when `a` is 0, else the disc of radius `a`)
    /// meets fence `j`'s enter condition and its stay condition under its relationship. The
    /// boundary counts as inside. A noisy beacon adds its seeded noise for fix `noiseAtFix` to
    /// the distance (`nil`: a point between fixes, where no signal is read).
    func feedMeets(_ j: Int, _ p: XY, radius a: Double, noiseAtFix: Int?) throws -> (enter: Bool, stay: Bool) {
        let relationship = settings[j].relationship
        switch shapes[j] {
        case .disc(let center, let enterRadius, let exitRadius):
            var d = try Geometry(point: p, context: context).distance(to: try Geometry(point: center, context: context))
            let noise = fences[j].beaconSignalNoise
            if noise.sigmaMeters > 0, let fixIndex = noiseAtFix {
                d = max(0, d + noise.sigmaMeters * GeotriggerEngine.signalNoise(seed: noise.seed, fence: j, fix: fixIndex))
            }
            // The disc meets a circle of radius R when its centre is within R + a; it lies in it
            // when its centre is within R - a.
            func meets(_ r: Double) -> Bool { d <= r + a }
            func liesIn(_ r: Double) -> Bool { d + a <= r }
            switch relationship {
            case .intersects: return (meets(enterRadius), meets(exitRadius))
            case .contains: return (liesIn(enterRadius), liesIn(exitRadius))
            case .containsIntersects: return (liesIn(enterRadius), meets(exitRadius))
            }
        case .area(let fence):
            let point = try Geometry(point: p, context: context)
            let inside = try fence.intersects(point)
            // The disc meets the fence when its centre is in the fence or the fence is within
            // `a`; it lies in the fence when its centre is in the fence at least `a` from the
            // boundary.
            let meets = try inside || fence.distance(to: point) <= a
            let liesIn = try inside && fence.boundary().distance(to: point) >= a
            switch relationship {
            case .intersects: return (meets, meets)
            case .contains: return (liesIn, liesIn)
            case .containsIntersects: return (liesIn, meets)
            }
        case .line, .empty:
            return (false, false)
        }
    }

    /// The signed distance from `p` to fence `j`'s boundary (negative inside; for beacons from
    /// the check-in distance; for lines unsigned).
    func signedDistance(_ j: Int, _ p: XY) throws -> Double? {
        let point = try Geometry(point: p, context: context)
        switch shapes[j] {
        case .disc(let center, let enterRadius, _):
            return try point.distance(to: try Geometry(point: center, context: context)) - enterRadius
        case .area(let fence):
            let d = try fence.boundary().distance(to: point)
            return try fence.intersects(point) ? -d : d
        case .line(let points):
            return try Geometry(.lineString(points), context: context).distance(to: point)
        case .empty:
            return nil
        }
    }

    // MARK: - Between fixes

    /// Visits of fence `j` that lie wholly between fixes `from` and `to`, assuming straight,
    /// uniform motion (SPEC §2 `gapPolicy`): a `passthrough` each, or an interpolated enter and
    /// exit.
    func hiddenVisits(_ j: Int, _ from: Sample, _ to: Sample) throws -> [GeotriggerEvent] {
        let p = from.position
        let q = to.position
        guard p != q else { return [] }
        let s = settings[j]
        // contains and contains-intersects enter on containment.
        let containing = s.relationship != .intersects
        // A visit is claimed only when both fixes' accuracies agree: the smaller disc must meet
        // the fence, the larger must fit in it.
        let a = s.feed == .point ? 0 : containing ? max(from.accuracy, to.accuracy) : min(from.accuracy, to.accuracy)
        var visits: [(Double, Double)] = []
        switch shapes[j] {
        case .disc(let center, let enterRadius, _):
            // Where the centre is within the circle the disc's centre must reach.
            if let visit = OracleEngine.chord(p, q, center, containing ? enterRadius - a : enterRadius + a) { visits = [visit] }
        case .area(let fence):
            let cuts = try areaCuts(fence, p, q, a, containing)
            // Both fixes are outside, so the path between consecutive cuts is a stretch wholly
            // inside or wholly outside; inside when its middle meets the enter condition. A visit
            // is a run of inside stretches, or a cut between two outside stretches (a touch).
            var k = 0
            while k < cuts.count {
                var end = k
                while end + 1 < cuts.count {
                    let middle = (cuts[end] + cuts[end + 1]) / 2
                    guard try feedMeets(j, OracleEngine.point(p, q, middle), radius: a, noiseAtFix: nil).enter else { break }
                    end += 1
                }
                visits.append((cuts[k], cuts[end]))
                k = end + 1
            }
        case .line, .empty:
            return []
        }
        let span = to.time.seconds(since: from.time)
        let reason =
            "fence lies between fix \(from.index) and fix \(to.index) (\(MessageTemplate.format(span)) s, \(MessageTemplate.format(p.distance(to: q))) m apart)"
        var events: [GeotriggerEvent] = []
        for (f0, f1) in visits {
            let enterTime = from.time.adding(seconds: span * f0)
            let exitTime = from.time.adding(seconds: span * f1)
            switch s.gapPolicy {
            case .ignore:
                break
            case .report:
                var e = try event(
                    .passthrough, j, to, time: enterTime, reason: reason, at: OracleEngine.point(p, q, f0), withDistance: true)
                e.enterTime = enterTime
                e.exitTime = exitTime
                events.append(e)
            case .interpolate:
                events.append(try event(.enter, j, to, time: enterTime, reason: reason, at: OracleEngine.point(p, q, f0)))
                events.append(try event(.exit, j, to, time: exitTime, reason: reason, at: OracleEngine.point(p, q, f1)))
            }
        }
        return events
    }

    /// The part of segment `p`→`q` within distance `r` of `c`, as fractions along it; `nil` when
    /// there is none (or `r` is not positive).
    static func chord(_ p: XY, _ q: XY, _ c: XY, _ r: Double) -> (Double, Double)? {
        guard r > 0 else { return nil }
        // |p + t (q - p) - c|² = r²: qa t² + qb t + qc = 0.
        let (dx, dy) = (q.x - p.x, q.y - p.y)
        let (fx, fy) = (p.x - c.x, p.y - c.y)
        let qa = dx * dx + dy * dy
        let qb = 2 * (fx * dx + fy * dy)
        let qc = fx * fx + fy * fy - r * r
        let discriminant = qb * qb - 4 * qa * qc
        guard qa > 0, discriminant >= 0 else { return nil }
        let t1 = (-qb - discriminant.squareRoot()) / (2 * qa)
        let t2 = (-qb + discriminant.squareRoot()) / (2 * qa)
        guard t1 <= 1, t2 >= 0 else { return nil }
        return (max(0, t1), min(1, t2))
    }

    /// Fractions along `p`→`q` where it meets the boundary of the area the feed's centre must
    /// reach: the fence grown by `a` (shrunk when `containing`), as a GEOS buffer.
    func areaCuts(_ fence: Geometry, _ p: XY, _ q: XY, _ a: Double, _ containing: Bool) throws -> [Double] {
        let segment = try Geometry(.lineString([p, q]), context: context)
        // Nothing to cut unless the segment comes that near (a shortcut: the buffer is slow).
        guard try (containing || a == 0) ? fence.intersects(segment) : fence.distance(to: segment) <= a else { return [] }
        let region = a == 0 ? fence : try fence.buffer(containing ? -a : a)
        if region.isEmpty { return [] }
        return try region.crossings(from: p, to: q).map(\.fraction)
    }

    /// The line crossings of the movement `from`→`to`: a `cross` event each, with the side the
    /// device came from (relative to the line's digitised direction) and the interpolated time.
    func lineCrossings(_ j: Int, _ points: [XY], _ from: Sample, _ to: Sample) throws -> [GeotriggerEvent] {
        let p = from.position
        let q = to.position
        guard p != q else { return [] }
        let movement = try Geometry(.lineString([p, q]), context: context)
        var events: [GeotriggerEvent] = []
        for k in 0..<(points.count - 1) {
            let (a, b) = (points[k], points[k + 1])
            // A fix exactly on the line counts as on its left, so a path through a point of the
            // line crosses it once.
            func onLeft(_ x: XY) -> Bool { (b.x - a.x) * (x.y - a.y) - (b.y - a.y) * (x.x - a.x) >= 0 }
            guard onLeft(p) != onLeft(q) else { continue }
            guard case .point(let meeting) = try movement.intersection(try Geometry(.lineString([a, b]), context: context)).shape else {
                continue
            }
            // A vertex belongs to the segment it starts (the last segment keeps both ends): a
            // crossing there counts once.
            if meeting == b, k < points.count - 2 { continue }
            // How far along the movement the meeting point lies.
            let (dx, dy) = (q.x - p.x, q.y - p.y)
            let f = min(1, max(0, ((meeting.x - p.x) * dx + (meeting.y - p.y) * dy) / (dx * dx + dy * dy)))
            var e = try event(
                .cross, j, to, time: from.time.adding(seconds: to.time.seconds(since: from.time) * f),
                reason: "line crossed between fix \(from.index) and fix \(to.index)", at: meeting)
            e.direction = onLeft(p) ? .leftToRight : .rightToLeft
            events.append(e)
        }
        return events
    }

    static func point(_ p: XY, _ q: XY, _ f: Double) -> XY {
        XY(p.x + (q.x - p.x) * f, p.y + (q.y - p.y) * f)
    }

    // MARK: - Events

    /// An event of fence `j` made at fix `fix`, with its provenance.
    func event(_ kind: GeotriggerEvent.Kind, _ j: Int, _ fix: Sample, time: Timestamp, reason: String? = nil) throws -> GeotriggerEvent {
        make(
            kind, j, fix, time: time, reason: reason, distance: try signedDistance(j, fix.position), longitude: fix.longitude,
            latitude: fix.latitude)
    }

    /// An event at a point between fixes, made at the later fix `fix`: interpolated, at distance
    /// 0 from the fence (it is where the path meets it), except a passthrough, which reports the
    /// later fix's distance.
    func event(
        _ kind: GeotriggerEvent.Kind, _ j: Int, _ fix: Sample, time: Timestamp, reason: String, at point: XY,
        withDistance: Bool = false
    ) throws -> GeotriggerEvent {
        let lonLat = frame.inverse(point)
        var e = make(
            kind, j, fix, time: time, reason: reason, distance: withDistance ? try signedDistance(j, fix.position) : 0,
            longitude: lonLat.x, latitude: lonLat.y)
        e.interpolated = true
        return e
    }

    private func make(
        _ kind: GeotriggerEvent.Kind, _ j: Int, _ fix: Sample, time: Timestamp, reason: String?, distance: Double?,
        longitude: Double, latitude: Double
    ) -> GeotriggerEvent {
        let s = settings[j]
        // `notify` silences enters or exits; everything else is always a notification (a
        // passthrough is an enter and an exit, and every setting notifies one of them).
        let notified = kind == .enter ? s.notify.includesEnter : kind == .exit ? s.notify.includesExit : true
        var e = GeotriggerEvent(
            kind: kind, time: time, fence: j, fixIndex: fix.index, fixTime: fix.time, feed: s.feed,
            feedRadius: s.feed == .accuracy ? fix.accuracy : 0, distance: distance, accuracy: fix.accuracy,
            reason: reason, notified: notified, longitude: longitude, latitude: latitude)
        if notified, kind != .suppressed, let template = s.message {
            e.message = message(template, kind, j, fix)
        }
        return e
    }

    func message(_ template: MessageTemplate, _ kind: GeotriggerEvent.Kind, _ j: Int, _ fix: Sample) -> String {
        let fence = fences[j]
        return template.render(
            MessageTemplate.Context(
                fenceProperty: { key in
                    switch key {
                    case "id": return fence.id
                    case "name": return fence.name
                    case "zone": return fence.zone
                    default:
                        guard let node = fence.property(key), !node.isNull else { return nil }
                        return node.string ?? JSONWriter.string(node.value)
                    }
                },
                fixField: { self.field($0, of: fix) },
                fixTime: fix.time.description, fixIndex: fix.index, eventType: kind.rawValue, trace: traceName))
    }

    /// A fix field for filters and messages; `elapsed` counts from the trace's first fix,
    /// `interval` from the previous fix in time order.
    func field(_ f: FixField, of fix: Sample) -> Double? {
        switch f {
        case .accuracy: fix.accuracy
        case .speed: fix.speed
        case .course: fix.course
        case .altitude: fix.altitude
        case .hdop: fix.hdop
        case .satellites: fix.satellites.map(Double.init)
        case .latitude: fix.latitude
        case .longitude: fix.longitude
        case .elapsed: firstTime.map { fix.time.seconds(since: $0) }
        case .interval: previous.map { fix.time.seconds(since: $0.time) }
        }
    }
}
