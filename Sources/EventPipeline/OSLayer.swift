import Fences
import Foundation
import Geotriggers
import Scenarios
import Spatial
import Support
import Traces

/// The operating system's geofencing layer for one trace (an ``OSProfile`` at work): it keeps
/// its own state per monitored fence from the fixes, decides entries, exits and dwells by the
/// profile's rule, and delivers them to the app late, batched, twice, or not at all.
///
/// Sans-I/O and deterministic: fixes in, log lines and app notifications out. Every draw is a
/// pure function of the profile's seed, the trace's name, the fence id, the kind and how many
/// decisions of that kind the fence has had before in the trace (as ``SignalLoss`` draws), so
/// the output depends neither on workers nor on other fences.
///
/// The geometry engine's events are not its input (the operating system does not run the app's
/// engine); it reads them only to say why a fence it does not monitor gave the app nothing
/// (`dropped` with `regionLimit` or `notCircle`).
struct OSLayer {
    /// What one fix produced, in order.
    enum Output {
        /// A line for the log only (`dropped`).
        case log(LogEvent)
        /// A notification the app receives: its line (`delivered`, `duplicate`) and the event
        /// check-ins take.
        case delivered(LogEvent, GeotriggerEvent)
    }

    /// The operating system's belief about one fence.
    enum Side { case unknown, inside, outside }

    /// A transition decided by the operating system, before delivery.
    struct Decision {
        var kind: GeotriggerEvent.Kind
        var fence: Int
        /// When it was decided: the deciding fix's time (a dwell: the end of the loitering
        /// delay), written as the line's `fixTime`.
        var time: Timestamp
        var fixIndex: Int
        /// Signed distance from the fix to the effective boundary (negative inside), metres.
        var distance: Double
        var accuracy: Double
        var longitude: Double
        var latitude: Double
        /// Made by the initial trigger (the state at the first fix), not by a crossing.
        var initial: Bool
    }

    /// A decision on its way to the app.
    struct Delivery {
        var time: Timestamp
        /// Order among deliveries of the same instant: the order they were queued.
        var order: Int
        var decision: Decision
        var duplicate: Bool
    }

    struct Monitored {
        var fence: Int
        var centre: XY
        /// The radius the operating system monitors (at least the profile's minimum).
        var radius: Double
        var side: Side = .unknown
        /// A transition seen, waiting for its time on the same side.
        var pending: (target: Side, since: Timestamp)?
        var dwellDue: Timestamp?
        var decided: [Int] = [0, 0, 0]
        /// Registered with the operating system now (past the region limit it is not).
        var active = true
        /// When the fence exists (``Fences/Fence/validity``; `nil`: always): the app registers it
        /// only then.
        var validity: FenceValidity?
        /// Whether it exists at the last fix.
        var exists = true
    }

    let profile: OSProfile
    let trace: String
    let ids: [String]
    let zones: [String?]
    /// Why each fence that is never monitored is not (by fence index).
    let refused: [Int: OSProfile.DropReason]
    /// Every circle fence, registered (``Monitored/active``) or not.
    var monitored: [Monitored]
    /// The place in ``monitored`` of each circle fence, by fence index.
    let slot: [Int: Int]
    /// The places in ``monitored`` of the fences with a validity (most have none).
    let changing: [Int]
    /// Where the nearest fences were last chosen (``OSProfile/BeyondLimit/nearest``).
    var chosenAt: XY?
    var queue: [Delivery] = []
    var queued = 0

    /// The layer of `profile` for `trace` over `fences` projected by `frame`: with
    /// ``OSProfile/BeyondLimit/refuse`` the first ``OSProfile/regionLimit`` circle fences (file
    /// order) are monitored; with ``OSProfile/BeyondLimit/nearest`` the nearest, chosen at the
    /// first fix and again as the device moves.
    init(profile: OSProfile, trace: String, fences: FenceSet, frame: MetricFrame) {
        self.profile = profile
        self.trace = trace
        ids = fences.fences.map(\.id)
        zones = fences.fences.map(\.zone)
        var refused: [Int: OSProfile.DropReason] = [:]
        var monitored: [Monitored] = []
        var slot: [Int: Int] = [:]
        for (j, fence) in fences.fences.enumerated() {
            guard case .circle(let radius) = fence.kind, case .point(let centre) = fence.shape else {
                refused[j] = .notCircle
                continue
            }
            if let limit = profile.maximumRadiusMeters, radius > limit {
                refused[j] = .radiusLimit
                continue
            }
            var m = Monitored(fence: j, centre: frame.forward(centre), radius: max(radius, profile.minimumRadiusMeters))
            m.validity = fence.validity
            if monitored.count >= profile.regionLimit {
                guard profile.beyondLimit == .nearest else {
                    refused[j] = .regionLimit
                    continue
                }
                m.active = false
            }
            slot[j] = monitored.count
            monitored.append(m)
        }
        self.refused = refused
        changing = monitored.indices.filter { monitored[$0].validity != nil }
        self.monitored = monitored
        self.slot = slot
    }

    /// Registers the ``OSProfile/regionLimit`` fences nearest `position` (by distance to their
    /// boundary, then file order) when the device has moved ``OSProfile/refreshDistanceMeters``
    /// since the last choice. A fence let go forgets its state; one registered anew starts
    /// unknown, so the initial trigger applies to it.
    private mutating func chooseNearest(_ position: XY) {
        guard profile.beyondLimit == .nearest, monitored.count > profile.regionLimit else { return }
        if let last = chosenAt, position.distance(to: last) < profile.refreshDistanceMeters { return }
        chosenAt = position
        // Only fences that exist now are candidates: the app registers no other.
        let order = monitored.indices.filter { monitored[$0].exists }.sorted { a, b in
            let da = position.distance(to: monitored[a].centre) - monitored[a].radius
            let db = position.distance(to: monitored[b].centre) - monitored[b].radius
            return da != db ? da < db : monitored[a].fence < monitored[b].fence
        }
        var keep = Set<Int>()
        for k in order.prefix(profile.regionLimit) { keep.insert(k) }
        for k in monitored.indices {
            let active = keep.contains(k)
            if monitored[k].active && !active {
                monitored[k].side = .unknown
                monitored[k].pending = nil
                monitored[k].dwellDue = nil
            }
            monitored[k].active = active
        }
    }

    /// Takes one fix (and the geometry engine's events for it): decides, then hands out every
    /// delivery due by the fix's time.
    mutating func process(_ engineEvents: [GeotriggerEvent], sample: Sample, into out: inout [Output]) {
        follow(validityAt: sample.time)
        chooseNearest(sample.position)
        for e in engineEvents where e.notified && (e.kind == .enter || e.kind == .exit || e.kind == .dwell) {
            // A fence that no longer exists is not the platform's to drop (the engine's exit with
            // reason removed says why it ended).
            if let m = slot[e.fence], !monitored[m].exists { continue }
            let unregistered = slot[e.fence].map { !monitored[$0].active } ?? false
            guard let reason = refused[e.fence] ?? (unregistered ? .regionLimit : nil) else { continue }
            let d = Decision(
                kind: e.kind, fence: e.fence, time: e.time, fixIndex: e.fixIndex, distance: e.distance ?? 0,
                accuracy: e.accuracy, longitude: e.longitude, latitude: e.latitude, initial: false)
            let detail: String
            switch reason {
            case .regionLimit:
                detail =
                    profile.beyondLimit == .nearest
                    ? "the app registers the \(profile.regionLimit) nearest fences and this one is not among them"
                    : "the platform monitors \(profile.regionLimit) fences per app and this one is past them"
            case .radiusLimit:
                detail = "its radius is past the platform's largest (\(JSONWriter.number(profile.maximumRadiusMeters ?? 0)) m)"
            default:
                detail = "the platform monitors circles only"
            }
            out.append(.log(dropped(d, reason, detail: detail)))
        }
        for m in monitored.indices where monitored[m].active && monitored[m].exists { decide(m, sample: sample, into: &out) }
        release(upTo: sample.time, into: &out)
    }

    /// Registers and unregisters the fences that appear and disappear by `time` (a fence's
    /// validity, a fence-changes file's additions, removals and replacements, each a fence
    /// version of its own): the app registers a fence with the operating system only while it
    /// exists. A fence unregistered forgets its state and nothing is decided for it (the
    /// operating system tells the app nothing of a region it no longer monitors; decisions
    /// already made are still delivered); one registered anew starts unknown, so the profile's
    /// initial trigger applies to it, as at the trace's first fix. With ``OSProfile/BeyondLimit/nearest``
    /// the nearest fences are chosen again among those that exist.
    private mutating func follow(validityAt time: Timestamp) {
        var changed = false
        for m in changing {
            guard let validity = monitored[m].validity else { continue }
            let exists = validity.contains(time)
            guard exists != monitored[m].exists else { continue }
            monitored[m].exists = exists
            changed = true
            if !exists {
                monitored[m].side = .unknown
                monitored[m].pending = nil
                monitored[m].dwellDue = nil
            }
        }
        if changed { chosenAt = nil }
    }

    /// Hands out every delivery still queued: the trace has ended, the app still hears them.
    mutating func finish(into out: inout [Output]) {
        release(upTo: nil, into: &out)
    }

    /// The share of the accuracy circle (radius `a`) and the fence (radius `r`) that overlap,
    /// of the smaller of the two, with the centres `d` apart.
    static func overlapShare(accuracy a: Double, radius r: Double, distance d: Double) -> Double {
        guard a > 0 else { return d <= r ? 1 : 0 }
        let small = min(a, r), large = max(a, r)
        if d >= a + r { return 0 }
        if d <= large - small { return 1 }
        let c1 = ((d * d + a * a - r * r) / (2 * d * a)).clamped(-1, 1)
        let c2 = ((d * d + r * r - a * a) / (2 * d * r)).clamped(-1, 1)
        let k = max(0, (-d + a + r) * (d + a - r) * (d - a + r) * (d + a + r))
        let lens = a * a * acos(c1) + r * r * acos(c2) - 0.5 * k.squareRoot()
        return min(1, max(0, lens / (Double.pi * small * small)))
    }

    private mutating func decide(_ m: Int, sample: Sample, into out: inout [Output]) {
        var f = monitored[m]
        defer { monitored[m] = f }
        let p = profile
        let fromCentre = sample.position.distance(to: f.centre)
        let signed = fromCentre - f.radius
        let entryDistance = min(p.entryDistanceMeters, p.entryDistanceCapShare * f.radius)
        var insideNow = -signed >= entryDistance
        var outsideNow = signed >= p.exitDistanceMeters
        if p.rule == .accuracyOverlap {
            let share = OSLayer.overlapShare(accuracy: sample.accuracy, radius: f.radius, distance: fromCentre)
            let larger = f.radius >= sample.accuracy
            insideNow = insideNow && share >= (larger ? p.enterOverlapLarger : p.enterOverlapSmaller)
            outsideNow = outsideNow && share <= (larger ? p.exitOverlapLarger : p.exitOverlapSmaller)
        }
        let decision = { (kind: GeotriggerEvent.Kind, time: Timestamp, initial: Bool) in
            Decision(
                kind: kind, fence: f.fence, time: time, fixIndex: sample.index, distance: signed,
                accuracy: sample.accuracy, longitude: sample.longitude, latitude: sample.latitude, initial: initial)
        }
        // A pending transition holds while the device stays on its side of the boundary.
        if let pending = f.pending, (pending.target == .inside) != (signed <= 0) {
            f.pending = nil
            if f.side != .unknown {
                out.append(
                    .log(
                        dropped(
                            decision(pending.target == .inside ? .enter : .exit, sample.time, false), .unconfirmed,
                            detail: "back across the boundary before \(JSONWriter.number(p.sameSideSeconds)) s on the new side")))
            }
        }
        if f.pending == nil {
            if f.side != .inside, insideNow {
                f.pending = (.inside, sample.time)
            } else if f.side != .outside, outsideNow {
                f.pending = (.outside, sample.time)
            }
        }
        if let pending = f.pending, sample.time.seconds(since: pending.since) >= p.sameSideSeconds {
            f.pending = nil
            let initial = f.side == .unknown
            f.side = pending.target
            let notify: Bool
            if initial {
                switch p.initialTrigger {
                case .none: notify = false
                case .enter: notify = pending.target == .inside
                case .exit: notify = pending.target == .outside
                case .state: notify = true
                }
            } else {
                notify = true
            }
            let kind: GeotriggerEvent.Kind = pending.target == .inside ? .enter : .exit
            f.dwellDue = nil
            if kind == .enter, notify || p.initialTrigger == .enter, let delay = p.loiteringDelaySeconds {
                f.dwellDue = sample.time.adding(seconds: delay)
            }
            if notify { deliver(decision(kind, sample.time, initial), &f, into: &out) }
        }
        if f.side == .inside, let due = f.dwellDue, due <= sample.time {
            f.dwellDue = nil
            deliver(decision(.dwell, due, false), &f, into: &out)
        }
    }

    /// Loses, delays and duplicates one decision, by its own draws.
    private mutating func deliver(_ d: Decision, _ f: inout Monitored, into out: inout [Output]) {
        let slot = d.kind == .enter ? 0 : d.kind == .exit ? 1 : 2
        let occurrence = f.decided[slot]
        f.decided[slot] += 1
        var rng = OSLayer.generator(seed: profile.seed, trace: trace, fence: ids[d.fence], kind: d.kind, occurrence: occurrence)
        let lossDraw = rng.nextUnitDouble()
        let share = d.kind == .enter ? profile.entryLoss : d.kind == .exit ? profile.exitLoss : 0
        if lossDraw < share {
            out.append(
                .log(
                    dropped(
                        d, .lost,
                        detail: "decided by the operating system and never delivered (\(d.kind == .enter ? "entryLoss" : "exitLoss"))")))
            return
        }
        let time = deliveryTime(after: d.time, &rng)
        enqueue(Delivery(time: time, order: 0, decision: d, duplicate: false))
        if rng.nextUnitDouble() < profile.duplicateShare {
            enqueue(Delivery(time: deliveryTime(after: time, &rng), order: 0, decision: d, duplicate: true))
        }
    }

    /// `start` plus a drawn delay (rounded up to the millisecond the log writes), then up to the
    /// next multiple of the responsiveness.
    private func deliveryTime(after start: Timestamp, _ rng: inout SplitMix64) -> Timestamp {
        let u = rng.nextUnitDouble()
        let delay = profile.delayMinimumSeconds + profile.delayMeanSeconds * -PortableMath.log(1 - u)
        var time = start.adding(nanoseconds: Int64((min(delay, OSProfile.secondsLimit) * 1000).rounded(.up)) * 1_000_000)
        let window = profile.responsivenessSeconds
        if window > 0 {
            let batched = (time.epochSeconds / window).rounded(.up) * window
            let ms = (batched * 1000).rounded()
            time = Timestamp(
                seconds: Int64((ms / 1000).rounded(.down)), nanoseconds: Int64(ms - (ms / 1000).rounded(.down) * 1000) * 1_000_000)
        }
        return time
    }

    private mutating func enqueue(_ delivery: Delivery) {
        var d = delivery
        d.order = queued
        queued += 1
        queue.append(d)
        var k = queue.count - 1
        while k > 0, queue[k].time < queue[k - 1].time {
            queue.swapAt(k, k - 1)
            k -= 1
        }
    }

    private mutating func release(upTo time: Timestamp?, into out: inout [Output]) {
        var taken = 0
        while taken < queue.count, time.map({ queue[taken].time <= $0 }) ?? true {
            let d = queue[taken]
            out.append(.delivered(delivered(d), notification(d)))
            taken += 1
        }
        if taken > 0 { queue.removeFirst(taken) }
    }

    // MARK: Lines

    private func fields(_ d: Decision) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("fence", .string(ids[d.fence]))]
        if let zone = zones[d.fence] { fields.append(("zone", .string(zone))) }
        fields.append(("trigger", .string(d.kind.rawValue)))
        fields.append(("fix", .int(Int64(d.fixIndex))))
        fields.append(("fixTime", .string(d.time.description)))
        fields.append(("distance", .meters(d.distance)))
        fields.append(("accuracy", .meters(d.accuracy)))
        return fields
    }

    private func dropped(_ d: Decision, _ reason: OSProfile.DropReason, detail: String) -> LogEvent {
        var f = fields(d)
        f.append(("reason", .string(reason.rawValue)))
        f.append(("message", .string("\(d.kind.rawValue) not delivered (\(profile.platform.rawValue)): \(detail)")))
        return LogEvent(time: d.time, trace: trace, type: .dropped, fields: f, longitude: d.longitude, latitude: d.latitude)
    }

    private func delivered(_ d: Delivery) -> LogEvent {
        var f = fields(d.decision)
        if d.decision.initial { f.append(("reason", .string("initialTrigger"))) }
        let delay = d.time.seconds(since: d.decision.time)
        f.append(
            (
                "message",
                .string(
                    "\(d.decision.kind.rawValue) \(d.duplicate ? "delivered again" : "delivered") \(JSONWriter.number((delay * 1000).rounded() / 1000)) s after the operating system decided it (\(profile.platform.rawValue))"
                )
            ))
        return LogEvent(
            time: d.time, trace: trace, type: d.duplicate ? .duplicate : .delivered, fields: f,
            longitude: d.decision.longitude, latitude: d.decision.latitude)
    }

    private func notification(_ d: Delivery) -> GeotriggerEvent {
        let x = d.decision
        return GeotriggerEvent(
            kind: x.kind, time: d.time, fence: x.fence, fixIndex: x.fixIndex, fixTime: x.time, feed: .point, feedRadius: 0,
            distance: x.distance, accuracy: x.accuracy, dwellSeconds: x.kind == .dwell ? profile.loiteringDelaySeconds : nil,
            reason: d.duplicate ? "duplicate" : nil, longitude: x.longitude, latitude: x.latitude)
    }

    /// The generator of the `occurrence`-th (0-based) decision of `kind` of `fence` in `trace`.
    static func generator(seed: UInt64, trace: String, fence: String, kind: GeotriggerEvent.Kind, occurrence: Int) -> SplitMix64 {
        var hash = SignalLoss.fnv1a(trace, SignalLoss.fnv1a(fence, 0xcbf2_9ce4_8422_2325))
        hash = SignalLoss.fnv1a(kind.rawValue, hash) ^ UInt64(truncatingIfNeeded: occurrence) &* 0x9E37_79B9_7F4A_7C15
        var rng = SplitMix64(seed: hash ^ seed ^ 0x6F73_6C61_7965_7221)
        _ = rng.next()
        return rng
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(high, Swift.max(low, self)) }
}
