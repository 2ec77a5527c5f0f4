import Fences
import Rules
import Support

/// fencesim's own events as the rules engine sees them (SPEC §5): every notified geotrigger
/// event (`enter`, `exit`, `dwell`, `cross`, `passthrough`) and every check-in and check-out is
/// dispatched as an event of type `com.fencesim.eventType.geotrigger`.
///
/// **Source**: `com.adobe.eventSource.responseContent`, for every kind. The event plays the role
/// the Places region response plays for Places (a module reporting a signal it processed, research
/// §1.7), so a rule is written the same way: `~type` and `~source` pick the event, a data key
/// (`type` here, `regioneventtype` there) picks the kind.
///
/// **Data** (keys in this order; absent keys are left out):
/// ```json
/// {"type": "checkin",                          // enter exit dwell cross passthrough checkin checkout
///  "trace": "../traces/places-apart.csv",      // the trace's label, as the scenario wrote it
///  "time": "2026-01-01T09:00:45.000Z",         // the log time (ISO-8601 UTC, milliseconds)
///  "timestamp": 1767258045000,                 // the same, in milliseconds since the epoch
///  "fence": {"id": "A-apart", "name": "POI A", "kind": "circle", "zone": "apart",
///            "properties": {…}},               // the feature's GeoJSON properties as written
///  "zone": {"id": "apart", "name": "Non-intersecting POIs", "customData": {…}},
///  "latitude": 47.39, "longitude": 8.5093,     // where the event happened
///  "fix": {"index": 9, "time": "…", "accuracy": 5, "distance": -4.247,
///          "feed": "point", "feedRadius": 5},  // provenance: the fix behind the event
///  "trigger": "enter",                         // check-in/out: the geotrigger event behind it
///  "interpolated": true, "direction": "left-to-right", "enterTime": "…", "exitTime": "…",
///  "checkInTime": "…", "dwellSeconds": 65, "dwellMinutes": 1, "willCheckOut": true,
///  "crossedFences": […], "reason": "…", "message": "…"}
/// ```
/// Everything comes from the event's log line (SPEC §6.6), so a rule reads what the log shows;
/// the zone's name and custom data come from the scenario's zone declaration when the line has
/// none (geotrigger events).
///
/// **History**: fencesim records these events in the simulated event history with the mask
/// ``historyMask`` (`type`, `fence.id`), as the SDK records masked events (research §1.7 item 2),
/// so that a `historical` condition such as `{"type": "checkin", "fence.id": "A-apart"}` counts
/// check-ins at a fence.
public enum GeotriggerRuleEvent {
    /// `com.fencesim.eventType.geotrigger`.
    public static let type = "com.fencesim.eventType.geotrigger"
    /// `com.adobe.eventSource.responseContent`.
    public static let source = "com.adobe.eventSource.responseContent"
    /// The keys the event history records.
    public static let historyMask = ["type", "fence.id"]
    /// The log types dispatched as geotrigger events; suppressed events are not dispatched (nothing
    /// happened on the device).
    public static let kinds: Set<LogEvent.EventType> = [.enter, .exit, .dwell, .cross, .passthrough, .checkin, .checkout]

    /// Log fields that go into `fence`, `zone` and `fix` rather than at the top level.
    private static let grouped: Set<String> = [
        "fence", "zone", "zoneName", "customData", "fix", "fixTime", "accuracy", "distance", "feed", "feedRadius",
    ]

    /// The event name (not readable by rules; shown in the log's `trigger`).
    public static func name(of kind: LogEvent.EventType) -> String {
        "Geotrigger \(kind.rawValue)"
    }

    /// The rules event for a log line, or `nil` when its type is not dispatched.
    ///
    /// - Parameters:
    ///   - log: the line of an engine event, check-in or check-out.
    ///   - fence: the fence the line names.
    ///   - zone: the scenario's declaration of the zone the line names, if any.
    static func make(_ log: LogEvent, fence: Fence?, zone: Zone?) -> RuleEvent? {
        guard kinds.contains(log.type) else { return nil }
        var data: [(String, JSONValue)] = [
            ("type", .string(log.type.rawValue)),
            ("trace", .string(log.trace)),
            ("time", .string(log.time.description)),
            ("timestamp", .int(log.time.seconds &* 1000 &+ Int64(log.time.nanoseconds / 1_000_000))),
        ]
        if let id = log.field("fence") {
            var object: [(String, JSONValue)] = [("id", id)]
            if let fence {
                if let name = fence.name { object.append(("name", .string(name))) }
                object.append(("kind", .string(fence.kind.name)))
                if let zone = fence.zone { object.append(("zone", .string(zone))) }
                object.append(("properties", .object(fence.properties)))
            }
            data.append(("fence", .orderedObject(object)))
        }
        if let id = log.field("zone") {
            var object: [(String, JSONValue)] = [("id", id)]
            if let name = log.field("zoneName") ?? zone?.name.map({ .string($0) }) { object.append(("name", name)) }
            if let custom = log.field("customData") ?? zone?.customData { object.append(("customData", custom)) }
            data.append(("zone", .orderedObject(object)))
        }
        if let latitude = log.latitude, let longitude = log.longitude {
            data.append(("latitude", .double(latitude)))
            data.append(("longitude", .double(longitude)))
        }
        if let index = log.field("fix") {
            var fix: [(String, JSONValue)] = [("index", index), ("time", log.field("fixTime") ?? .string(log.time.description))]
            for key in ["accuracy", "distance", "feed", "feedRadius"] {
                if let value = log.field(key) { fix.append((key, value)) }
            }
            data.append(("fix", .orderedObject(fix)))
        }
        for (key, value) in log.fields where !grouped.contains(key) {
            data.append((key, value))
        }
        return RuleEvent(name: name(of: log.type), type: type, source: source, data: .orderedObject(data), time: log.time)
    }
}
