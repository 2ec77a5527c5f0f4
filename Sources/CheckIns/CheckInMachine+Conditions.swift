import Fences
import Geotriggers
import Spatial
import Support

extension CheckInMachine {
    /// The first gate that blocks a check-in by `trigger` in zone `z`, with a sentence saying why,
    /// or `nil` when it checks in (order and definitions: see ``CheckInMachine``).
    func blockingGate(_ trigger: Trigger, zone z: Int, fix: CheckInFix) -> (CheckInEvent.Reason, String)? {
        let zone = zones[z]
        let state = states[z]
        let time = trigger.time
        if !zone.isEnabled(at: time) {
            return (.zoneDisabled, "zone \"\(zone.id)\" is disabled by its schedule at \(time)")
        }
        if let open = state.open {
            return (
                .checkedIn,
                "zone \"\(zone.id)\" is checked in at fence \"\(open.fenceID)\" since \(open.time) and checks out when the device leaves that fence"
            )
        }
        let mrt = zone.minimumRetriggerSeconds
        if mrt > 0, let reference = state.reference {
            let until = reference.adding(seconds: mrt)
            if time < until {
                return (
                    .mrt,
                    "minimum re-trigger time of \(decimalText(mrt)) s since the last \(state.referenceIsCheckOut ? "check-out" : "check-in") at \(reference) runs until \(until)"
                )
            }
        }
        let conditions = zone.conditions
        if !conditions.timeWindows.isEmpty, !conditions.timeWindows.contains(where: { $0.contains(time) }) {
            return (.timeWindow, "\(time) is outside the zone's time windows")
        }
        if let range = conditions.speed {
            guard let (speed, source) = speed(of: fix) else {
                return (.speed, "fix \(fix.index) has no speed and none can be derived from an earlier fix")
            }
            if !range.contains(speed) {
                return (.speed, "speed \(decimalText(speed)) m/s (\(source)) is outside \(describe(range)) m/s")
            }
        }
        if let arc = conditions.bearing {
            guard let (course, source) = course(of: fix) else {
                return (.bearing, "fix \(fix.index) has no course and none can be derived from an earlier fix")
            }
            if !arc.contains(course) {
                return (
                    .bearing,
                    "course \(decimalText(course))° (\(source)) is outside the arc \(decimalText(arc.from))°–\(decimalText(arc.to))° clockwise"
                )
            }
        }
        if let wanted = conditions.travelDirection, trigger.event.kind == .cross, let direction = trigger.event.direction,
            direction.rawValue != wanted.rawValue
        {
            return (.travelDirection, "line crossed \(direction.rawValue), the zone checks in only \(wanted.rawValue)")
        }
        let path = travelPaths[z]
        if !path.isEmpty, !(state.pathProgress == path.count && path.last == trigger.event.fence) {
            let names = path.map { "\"\(fenceEntries[$0].id)\"" }.joined(separator: " → ")
            let next = state.pathProgress < path.count ? "; next: \"\(fenceEntries[path[state.pathProgress]].id)\"" : ""
            return (.travelPath, "travel path \(names): \(state.pathProgress) of \(path.count) entered in order\(next)")
        }
        if let percentage = conditions.percentageCrossed {
            let total = zoneFences[z].count
            let entered = state.enteredSlots(at: time, window: percentage.windowSeconds).count
            if Double(entered) * 100 < percentage.percent * Double(total) {
                let within = percentage.windowSeconds.map { " within \(decimalText($0)) s" } ?? ""
                return (
                    .percentageCrossed,
                    "\(entered) of \(total) fences (\(decimalText(Double(entered) * 100 / Double(max(total, 1)))) %) entered or crossed since the last check-in\(within); \(decimalText(percentage.percent)) % needed"
                )
            }
        }
        return nil
    }

    /// The fence ids that count toward zone `z`'s travel path (the path fences entered in order)
    /// or, without a path, toward its percentage crossed, in the order they were entered.
    func crossedFences(zone z: Int, at time: Timestamp) -> [String] {
        let path = travelPaths[z]
        let state = states[z]
        if !path.isEmpty {
            return path.prefix(state.pathProgress).map { fenceEntries[$0].id }
        }
        if let percentage = zones[z].conditions.percentageCrossed {
            return state.enteredSlots(at: time, window: percentage.windowSeconds).map { fenceEntries[zoneFences[z][$0]].id }
        }
        return []
    }

    /// The fix's speed, or the speed implied by the previous fix, with where it came from.
    func speed(of fix: CheckInFix) -> (Double, String)? {
        if let v = fix.speedMetersPerSecond, v.isFinite { return (v, "fix \(fix.index)") }
        guard let previous = previousFix, let inverse = geodesic(from: previous, to: fix) else { return nil }
        let span = fix.time.seconds(since: previous.time)
        guard span > 0 else { return nil }
        return (inverse.distanceMeters / span, "derived from fixes \(previous.index) and \(fix.index)")
    }

    /// The fix's course, or the course of travel from the previous fix, with where it came from.
    func course(of fix: CheckInFix) -> (Double, String)? {
        if let c = fix.courseDegrees, c.isFinite { return (c, "fix \(fix.index)") }
        guard let previous = previousFix, let inverse = geodesic(from: previous, to: fix), inverse.distanceMeters > 0 else { return nil }
        let course = (inverse.finalAzimuth + 360).truncatingRemainder(dividingBy: 360)
        return (course, "derived from fixes \(previous.index) and \(fix.index)")
    }

    private func geodesic(from a: CheckInFix, to b: CheckInFix) -> Geodesic.Inverse? {
        guard a.index != b.index || a.time != b.time else { return nil }
        return Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }

    private func describe(_ range: ZoneConditions.Range) -> String {
        "[\(range.minimum.map(decimalText) ?? "−∞"), \(range.maximum.map(decimalText) ?? "∞")]"
    }
}

/// A number for messages: at most two decimals, no trailing zeros.
func decimalText(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
    let text = "\(rounded)"
    return text.contains("e") ? "\(value)" : text
}
