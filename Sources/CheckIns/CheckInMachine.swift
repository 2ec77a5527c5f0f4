import Fences
import Geotriggers
import Spatial
import Support

/// The Bluedot check-in/check-out state machine of one device (SPEC §3): zones, check-ins,
/// check-outs with dwell time, minimum re-trigger time, beacons and zone conditions.
///
/// Sans-I/O, like ``Geotriggers/GeotriggerEngine``: feed it, for every fix of a trace in order,
/// the geotrigger events the engine produced for that fix with ``process(_:at:into:)``; it appends
/// the `checkin`, `checkout` and `suppressed` events they cause. It never reads the clock.
///
/// fencesim's definitions, where the vendor's documentation is not precise:
///
/// - **Triggers.** A fence `enter`, a line `cross`, and a `passthrough` (a visit hidden between two
///   fixes) are check-in candidates; each one yields exactly one `checkin` or one `suppressed`
///   event, so nothing is dropped silently. A `passthrough` counts as an enter at its interpolated
///   entry time followed by an exit at its interpolated exit time, both `interpolated`; in a zone
///   with check-out it is a check-in immediately followed by its check-out. Interpolated
///   enter/exit pairs (`gapPolicy: interpolate`) are ordinary enters and exits at their
///   interpolated times. `dwell` and debounce `suppressed` events are ignored: the pipeline logs
///   them, they do not change check-ins. Every event counts whether or not the fence's `notify`
///   setting lets it out as a notification.
/// - **Order.** Within one fix's events, triggers are taken in time order; at the same instant
///   exits come before enters (so stepping from one fence of a zone straight into another checks
///   out and then checks in again, subject to the re-trigger time), except the exit of a
///   zero-length visit, which follows its own enter.
/// - **One check-in per zone.** While a zone has a check-in awaiting its check-out, enters of its
///   other fences are `suppressed` with reason `checkedIn`. The check-out comes when the device
///   exits the fence it checked in at, even while it is still inside another fence of the zone,
///   and even if the zone has been disabled since (seed 002, "Interaction with the Enable /
///   Disable zones feature"). A fence without a zone is a zone of its own (see
///   ``init(fences:zones:)``), so this never couples it with another fence.
/// - **`willCheckOut`** is true for check-ins in zones with `checkOut`, except check-ins made by a
///   line `cross`: a GEOLINE has no area, so it never checks out (seed 002). A line with a
///   positive buffer is a corridor with an area; its enters check in and out like any fence.
/// - **Minimum re-trigger time.** The reference time is the end of the zone's last check-in: its
///   check-out when it checks out, else the check-in itself (so: the last check-out in a zone
///   with check-out, the last check-in in a zone without; seed 002: "when check-out is enabled
///   for a Zone, the minimum re-trigger time starts from the point of the check-out"). A
///   candidate at time `t` is blocked (`mrt`) when `t < reference + MRT`; an enter exactly at
///   `reference + MRT` checks in. A line check-in in a zone with check-out never checks out, so
///   its own time is the reference.
/// - **Gates**, in this order, the first failing one naming the `reason`: `zoneDisabled` (the
///   schedule at the candidate's time), `checkedIn`, `mrt`, `timeWindow`, `speed`, `bearing`,
///   `travelDirection`, `travelPath`, `percentageCrossed`. Check-outs pass no gate.
/// - **Travel direction** applies to line crossings only: a crossing in the other direction than
///   the zone's `travelDirection` (relative to the line's digitised direction) is suppressed.
/// - **Time windows**: the candidate's time must fall in at least one window (local days and
///   hours in the window's time zone, daylight saving time included; a window past midnight
///   belongs to the day it starts on).
/// - **Speed and bearing** use the fix that produced the candidate (the later fix for interpolated
///   events): its speed (m/s) and course (degrees clockwise from north). When the fix has none,
///   the speed and the course of travel implied by the previous fix given to the machine and this
///   one are used (geodesic distance over elapsed time, and the forward azimuth at this fix);
///   without a previous fix (or with no time or no distance between them) the condition fails.
///   The bearing arc runs clockwise from `from` to `to`, both included.
/// - **Progress conditions** count every enter or crossing of the zone's fences since the zone's
///   last check-in, whatever the other gates said (a check-in resets them):
///   - *Percentage crossed*: the zone's fences, lines and beacons entered or crossed since the
///     last check-in (within the last `window` seconds when given, counting each fence's latest
///     enter) must be at least `percent` % of them, the current candidate included. The
///     check-in is attributed to the fence whose candidate satisfied it; it checks out only when
///     that was not a line crossing (seed 002's warning about zones mixing fences and lines).
///   - *Travel path*: the listed fences must be entered in order. Entering the next fence of the
///     path advances; entering the fence last matched again changes nothing; entering the first
///     fence of the path restarts the path from it; entering any other fence of the path out of
///     order restarts the path from nothing; fences of the zone not on the path do not affect
///     it. The condition holds at an enter of the path's last fence that completes the path (or
///     re-enters it once completed), so check-ins are always attributed to the last path fence.
/// - **Beacons** need nothing special here: the engine enters a beacon within its check-in
///   proximity and exits it only beyond its full range (SPEC §3; seed 002), so check-in and
///   check-out follow.
public struct CheckInMachine: Sendable {
    /// The zones: the declared ones in the order given, then, in fence order, one default zone
    /// (``Fences/Zone/defaultZone``) for each fence without a zone and one shared by the fences
    /// naming ``Fences/Zone/defaultZoneID``, unless a zone with that id was declared. Several
    /// zones may therefore have the id `default`.
    public let zones: [Zone]

    /// What the machine needs to know of a fence.
    struct FenceEntry: Sendable {
        var id: String
        /// The fence's zone, an index into ``zones``.
        var zone: Int
        /// The fence's position among its zone's fences.
        var slot: Int
    }

    let fenceEntries: [FenceEntry]
    /// Fence indices of each zone, in file order.
    let zoneFences: [[Int]]
    /// Each zone's travel path as fence indices.
    let travelPaths: [[Int]]
    var states: [ZoneState]
    /// The last fix given, for speeds and courses implied by two fixes.
    var previousFix: CheckInFix?

    /// Builds the machine for `fences` and the scenario's `zones`, checking that they fit.
    ///
    /// A fence joins the zone its `zone` property names. A fence without one checks in on its
    /// own: it is the only fence of a zone with the default rules (check-out on, no re-trigger
    /// time; SPEC §3), so a check-in elsewhere never suppresses it. This is what makes a scenario
    /// of Places POIs alone reproduce seed 001's tables, where POI B is entered while the device
    /// is inside POI A. Fences naming ``Fences/Zone/defaultZoneID`` share one such zone; when a
    /// zone with that id is declared, the fences without a zone join it too (the way to have
    /// them check in as one zone).
    ///
    /// - Parameters:
    ///   - fences: the fence set whose indices the geotrigger events use.
    ///   - zones: the declared zones.
    /// - Throws: ``Support/FencesimError`` (`badData`) located at the first problem, with every
    ///   other problem in `related`: a fence naming an undeclared zone (at the fence), a duplicate
    ///   zone id, a negative or non-finite re-trigger time, a schedule out of time order, a
    ///   percentage outside (0, 100] or a non-positive percentage window, a travel path naming a
    ///   fence that is not in the zone (at the zone).
    /// - Complexity: O(fences + zones + path length × zone size).
    public init(fences: FenceSet, zones declared: [Zone]) throws(FencesimError) {
        var problems: [Diagnostic] = []
        func problem(_ message: String, at location: SourceLocation) {
            problems.append(Diagnostic(.error, message, at: location, kind: "zone"))
        }
        var zones: [Zone] = []
        var slotByID: [String: Int] = [:]
        for zone in declared {
            if let first = slotByID[zone.id] {
                problem("duplicate zone id \"\(zone.id)\" (first declared at \(zones[first].location))", at: zone.location)
                continue
            }
            let mrt = zone.minimumRetriggerSeconds
            if !mrt.isFinite || mrt < 0 {
                problem("zone \"\(zone.id)\": minimumRetriggerTime must be a non-negative number of seconds, not \(mrt)", at: zone.location)
            }
            for (a, b) in zip(zone.schedule, zone.schedule.dropFirst()) where b.at <= a.at {
                problem("zone \"\(zone.id)\": schedule entries must be in time order: \(b.at) is not after \(a.at)", at: zone.location)
            }
            if let p = zone.conditions.percentageCrossed {
                if !(p.percent > 0 && p.percent <= 100) {
                    problem("zone \"\(zone.id)\": percentageCrossed needs percent in (0, 100], not \(p.percent)", at: zone.location)
                }
                if let w = p.windowSeconds, !(w > 0 && w.isFinite) {
                    problem(
                        "zone \"\(zone.id)\": percentageCrossed window must be a positive number of seconds, not \(w)", at: zone.location)
                }
            }
            slotByID[zone.id] = zones.count
            zones.append(zone)
        }

        var entries: [FenceEntry] = []
        var members: [[Int]] = zones.map { _ in [] }
        entries.reserveCapacity(fences.fences.count)
        let defaultIsDeclared = slotByID[Zone.defaultZoneID] != nil
        for (j, fence) in fences.fences.enumerated() {
            let id = fence.zone ?? Zone.defaultZoneID
            var slot = slotByID[id]
            if fence.zone == nil && !defaultIsDeclared {
                // A fence of its own: the default rules, and a check-in at it never holds back
                // another fence's (seed 001's tables enter POI B while inside POI A).
                slot = zones.count
                zones.append(Zone.defaultZone)
                members.append([])
            } else if slot == nil, id == Zone.defaultZoneID {
                slot = zones.count
                slotByID[id] = zones.count
                zones.append(Zone.defaultZone)
                members.append([])
            }
            guard let z = slot else {
                problem("fence \"\(fence.id)\" belongs to zone \"\(id)\", which is not declared", at: fence.location)
                entries.append(FenceEntry(id: fence.id, zone: -1, slot: -1))
                continue
            }
            entries.append(FenceEntry(id: fence.id, zone: z, slot: members[z].count))
            members[z].append(j)
        }

        var paths: [[Int]] = []
        for (z, zone) in zones.enumerated() {
            var path: [Int] = []
            for id in zone.conditions.travelPath {
                if let j = members[z].first(where: { fences.fences[$0].id == id }) {
                    path.append(j)
                } else {
                    problem("zone \"\(zone.id)\": travelPath names fence \"\(id)\", which is not a fence of the zone", at: zone.location)
                }
            }
            paths.append(path)
        }

        if let first = problems.first {
            throw FencesimError(.badData, first.message, at: first.location, related: Array(problems.dropFirst()))
        }
        self.zones = zones
        fenceEntries = entries
        zoneFences = members
        travelPaths = paths
        states = members.map { ZoneState(fenceCount: $0.count) }
    }

    /// Processes the geotrigger events of one fix and appends the check-in events they cause.
    ///
    /// Call it once for every fix the engine was given, in trace order, with the events
    /// ``Geotriggers/GeotriggerEngine/process(_:into:)`` appended for that fix (all of them,
    /// notified or not; an empty list when there were none), so that speeds and courses can be
    /// derived from consecutive fixes. A fix earlier than the previous one (which the engine skips)
    /// is not used for them.
    ///
    /// - Parameters:
    ///   - events: the engine's events for `fix`, in the engine's order.
    ///   - fix: the fix they came from.
    ///   - output: receives `checkin`, `checkout` and `suppressed` events in time order (at one
    ///     instant, in the order the triggers were taken; see the type's documentation).
    /// - Complexity: O(k log k + k × z) for k events, z the size of the largest zone touched.
    public mutating func process(_ events: [GeotriggerEvent], at fix: CheckInFix, into output: inout [CheckInEvent]) {
        for trigger in CheckInMachine.triggers(events) {
            precondition(
                fenceEntries.indices.contains(trigger.event.fence),
                "geotrigger event for fence \(trigger.event.fence), which the machine does not know")
            if trigger.enters {
                checkIn(trigger, fix: fix, into: &output)
            } else {
                checkOut(trigger, into: &output)
            }
        }
        if previousFix.map({ fix.time >= $0.time }) ?? true {
            previousFix = fix
        }
    }

    /// The check-ins still waiting for their check-out (at the end of a trace: the device never
    /// left), in zone order.
    public var openCheckIns: [CheckInEvent] {
        states.compactMap(\.open)
    }

    /// Whether a zone with id `id` (any of them, for `default`) has a check-in awaiting its
    /// check-out.
    public func isCheckedIn(zone id: String) -> Bool {
        zones.indices.contains { zones[$0].id == id && states[$0].open != nil }
    }

    /// An enter or an exit as the machine takes it.
    struct Trigger {
        var enters: Bool
        var time: Timestamp
        var event: GeotriggerEvent
        /// Order at one instant: exits (0), enters (1), exits of zero-length visits (2).
        var rank: Int
    }

    /// The enters and exits of one fix's events, in the order they are taken.
    static func triggers(_ events: [GeotriggerEvent]) -> [Trigger] {
        var list: [Trigger] = []
        for e in events {
            switch e.kind {
            case .enter, .cross:
                list.append(Trigger(enters: true, time: e.time, event: e, rank: 1))
            case .exit:
                list.append(Trigger(enters: false, time: e.time, event: e, rank: 0))
            case .passthrough:
                let enterTime = e.enterTime ?? e.time
                let exitTime = max(e.exitTime ?? enterTime, enterTime)
                list.append(Trigger(enters: true, time: enterTime, event: e, rank: 1))
                list.append(Trigger(enters: false, time: exitTime, event: e, rank: 0))
            case .dwell, .suppressed:
                continue
            }
        }
        guard list.count > 1 else { return list }
        for k in list.indices where !list[k].enters {
            let exit = list[k]
            if list[..<k].contains(where: { $0.enters && $0.event.fence == exit.event.fence && $0.time == exit.time }) {
                list[k].rank = 2
            }
        }
        return list.enumerated().sorted { a, b in
            if a.element.time != b.element.time { return a.element.time < b.element.time }
            if a.element.rank != b.element.rank { return a.element.rank < b.element.rank }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Closes the zone's check-in when `trigger` exits the fence it was made at.
    mutating func checkOut(_ trigger: Trigger, into output: inout [CheckInEvent]) {
        let f = trigger.event.fence
        let z = fenceEntries[f].zone
        // A fence replaced while the device stayed inside exits as its new version (the same id).
        guard let open = states[z].open, open.fence == f || fenceEntries[open.fence].id == fenceEntries[f].id else { return }
        let zone = zones[z]
        output.append(
            CheckInEvent(
                kind: .checkout, time: trigger.time, zoneID: zone.id, zoneName: zone.name, customData: zone.customData, fence: f,
                fenceID: fenceEntries[f].id, checkInTime: open.time, dwellSeconds: trigger.time.seconds(since: open.time),
                dwellMinutes: CheckInMachine.wholeMinutes(from: open.time, to: trigger.time), interpolated: trigger.event.interpolated,
                trigger: trigger.event))
        states[z].open = nil
        states[z].reference = trigger.time
        states[z].referenceIsCheckOut = true
    }

    /// Makes `trigger` a check-in, or a suppressed event naming the first gate that blocks it.
    mutating func checkIn(_ trigger: Trigger, fix: CheckInFix, into output: inout [CheckInEvent]) {
        let f = trigger.event.fence
        let entry = fenceEntries[f]
        let z = entry.zone
        let zone = zones[z]
        states[z].record(slot: entry.slot, fence: f, time: trigger.time, path: travelPaths[z])
        let crossed = crossedFences(zone: z, at: trigger.time)
        let isCrossing = trigger.event.kind == .cross
        var event = CheckInEvent(
            kind: .suppressed, time: trigger.time, zoneID: zone.id, zoneName: zone.name, customData: zone.customData, fence: f,
            fenceID: entry.id, interpolated: trigger.event.interpolated, direction: trigger.event.direction, crossedFences: crossed,
            trigger: trigger.event)
        if let (reason, detail) = blockingGate(trigger, zone: z, fix: fix) {
            event.reason = reason
            event.detail = detail
            output.append(event)
            return
        }
        let willCheckOut = zone.checkOut && !isCrossing
        event.kind = .checkin
        event.willCheckOut = willCheckOut
        output.append(event)
        states[z].resetProgress()
        if willCheckOut {
            states[z].open = event
        } else {
            states[z].reference = trigger.time
            states[z].referenceIsCheckOut = false
        }
    }

    /// Whole minutes from `start` to `end`, rounded down, from whole nanoseconds (no rounding
    /// error at 60 s); 0 when `end` is not after `start`.
    static func wholeMinutes(from start: Timestamp, to end: Timestamp) -> Int {
        var seconds = end.seconds - start.seconds
        if end.nanoseconds < start.nanoseconds { seconds -= 1 }
        return seconds > 0 ? Int(seconds / 60) : 0
    }
}
