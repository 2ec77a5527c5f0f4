import Geotriggers
import Scenarios
import Support

extension TracePipeline {
    /// Why a stretch inside ended at the trace's last fix rather than at a change of state.
    static let traceEndedInside = "the trace ended inside"

    /// Takes one of the engine's changes of state (``Geotriggers/GeotriggerEngine/takeLevelChanges(_:)``),
    /// in the order made: a change in opens the fence's stretch inside, a change out closes it
    /// and logs its `inside` line, at its end.
    mutating func level(_ change: LevelChange) {
        let id = levelKey(change.fence)
        if change.inside {
            if insideSince[id] == nil { insideSince[id] = change }
            return
        }
        guard let start = insideSince.removeValue(forKey: id) else { return }
        log.append(insideLine(from: start, to: change, reason: nil))
    }

    /// Notes the fix just processed: a stretch still open when the trace ends ends there.
    mutating func levelFix(_ sample: Sample) {
        lastFix = LevelChange(
            fence: -1, time: sample.time, inside: false, fixIndex: sample.index, interpolated: false,
            longitude: sample.longitude, latitude: sample.latitude)
    }

    /// Ends every open stretch at the trace's last fix, in the order they began (by fence id
    /// at the same instant, then by geotrigger in the scenario's order).
    mutating func finishLevels() {
        guard let end = lastFix, !insideSince.isEmpty else { return }
        let open = insideSince.values.sorted { a, b in
            if a.time != b.time { return a.time < b.time }
            let (ida, idb) = (labels[a.fence].id, labels[b.fence].id)
            if ida != idb { return ida < idb }
            // Equal ids: one fence's stretches of several geotriggers, in the scenario's order.
            if let watchers = fences.watchers, watchers.geotrigger[a.fence] != watchers.geotrigger[b.fence] {
                return watchers.geotrigger[a.fence] < watchers.geotrigger[b.fence]
            }
            return a.fence < b.fence
        }
        insideSince.removeAll()
        for start in open {
            var at = end
            at.fence = start.fence
            log.append(insideLine(from: start, to: at, reason: TracePipeline.traceEndedInside))
        }
    }

    /// The `inside` line of a stretch from `start` to `end`.
    func insideLine(from start: LevelChange, to end: LevelChange, reason: String?) -> LogEvent {
        let label = labels[start.fence]
        var fields: [(String, JSONValue)] = [("fence", .string(label.id))]
        if let zone = label.zone { fields.append(("zone", .string(zone))) }
        fields.append(("fix", .int(Int64(end.fixIndex))))
        if start.interpolated || end.interpolated { fields.append(("interpolated", .bool(true))) }
        fields.append(("enterTime", .string(start.time.description)))
        fields.append(("exitTime", .string(end.time.description)))
        if let reason { fields.append(("reason", .string(reason))) }
        if let watchers = fences.watchers { fields.append((Scenario.geotriggerKey, .string(watchers.name(of: start.fence)))) }
        return LogEvent(time: end.time, trace: trace, type: .inside, fields: fields, longitude: end.longitude, latitude: end.latitude)
    }
}
