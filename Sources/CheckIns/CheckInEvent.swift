import Geotriggers
import Support

/// A check-in, a check-out, or a check-in that a zone's rules blocked (SPEC §3), with the
/// geotrigger event behind it.
///
/// Carries what the event log needs (SPEC §6.6): the zone (`zone` = ``zoneID``, with its name and
/// custom data), the fence, the time, `willCheckOut`, `dwellSeconds`, `dwellMinutes` and `reason`.
public struct CheckInEvent: Sendable {
    /// What happened.
    public enum Kind: String, Sendable, CaseIterable {
        /// The device checked in to a zone at a fence (Bluedot `didCheckIntoFence`).
        case checkin
        /// The device left the fence it checked in at (Bluedot `didCheckOutFromFence`).
        case checkout
        /// An enter or crossing that did not become a check-in; ``reason`` says why.
        case suppressed
    }

    /// Why an enter or crossing did not become a check-in; the raw value is the log's `reason`.
    public enum Reason: String, Sendable, CaseIterable {
        /// The zone's schedule disables it at the time of the enter.
        case zoneDisabled
        /// The zone is already checked in (at another fence) and has not checked out yet.
        case checkedIn
        /// The zone's minimum re-trigger time has not passed since its reference time.
        case mrt
        /// The time of the enter is in none of the zone's time windows.
        case timeWindow
        /// The fix's speed is outside the zone's speed range, or unknown.
        case speed
        /// The fix's course is outside the zone's bearing arc, or unknown.
        case bearing
        /// A line was crossed in the other direction than the zone's travel direction.
        case travelDirection
        /// Too few of the zone's fences were entered or crossed since its last check-in.
        case percentageCrossed
        /// The zone's travel path has not been completed in order by this enter.
        case travelPath
    }

    /// Check-in, check-out or suppressed.
    public var kind: Kind
    /// When it happened: the enter, crossing or exit time of the geotrigger event (interpolated
    /// for crossings and hidden visits).
    public var time: Timestamp
    /// The zone's id (the log's `zone`).
    public var zoneID: String
    /// The zone's name, if it has one.
    public var zoneName: String?
    /// The zone's custom data, carried by check-ins and check-outs.
    public var customData: JSONValue?
    /// Index of the fence in its file (the geotrigger event's `fence`).
    public var fence: Int
    /// The fence's id (the log's `fence`).
    public var fenceID: String
    /// For check-ins: whether a check-out will follow (Bluedot `willCheckOut`): true in zones with
    /// check-out, except for check-ins from line fences. `nil` for other kinds.
    public var willCheckOut: Bool?
    /// For check-outs: the time of the check-in it closes.
    public var checkInTime: Timestamp?
    /// For check-outs: exactly `time` − ``checkInTime``, in seconds.
    public var dwellSeconds: Double?
    /// For check-outs: the dwell in whole minutes, rounded down (computed from whole nanoseconds,
    /// so 59.999 s is 0 and 60 s is 1).
    public var dwellMinutes: Int?
    /// For suppressed events: why.
    public var reason: Reason?
    /// A sentence for people (the log's `message`): the values behind a suppression.
    public var detail: String?
    /// True when the time is interpolated between fixes (crossings, hidden visits).
    public var interpolated: Bool
    /// For line fences: which way the line was crossed.
    public var direction: GeotriggerEvent.Direction?
    /// For zones with a travel path or percentage-crossed condition: the fence ids that count
    /// toward it at this event, in the order they were entered (Bluedot's webhook `crossedFences`).
    public var crossedFences: [String]
    /// The geotrigger event behind this one (provenance: fix, feed, distance, accuracy). For
    /// events derived from a `passthrough`, the passthrough itself.
    public var trigger: GeotriggerEvent

    /// Creates an event; ``CheckInMachine`` makes these, tests and tools may too.
    public init(
        kind: Kind, time: Timestamp, zoneID: String, zoneName: String? = nil, customData: JSONValue? = nil, fence: Int,
        fenceID: String, willCheckOut: Bool? = nil, checkInTime: Timestamp? = nil, dwellSeconds: Double? = nil,
        dwellMinutes: Int? = nil, reason: Reason? = nil, detail: String? = nil, interpolated: Bool = false,
        direction: GeotriggerEvent.Direction? = nil, crossedFences: [String] = [], trigger: GeotriggerEvent
    ) {
        self.kind = kind
        self.time = time
        self.zoneID = zoneID
        self.zoneName = zoneName
        self.customData = customData
        self.fence = fence
        self.fenceID = fenceID
        self.willCheckOut = willCheckOut
        self.checkInTime = checkInTime
        self.dwellSeconds = dwellSeconds
        self.dwellMinutes = dwellMinutes
        self.reason = reason
        self.detail = detail
        self.interpolated = interpolated
        self.direction = direction
        self.crossedFences = crossedFences
        self.trigger = trigger
    }

    /// Index of the fix behind the event (the later fix for interpolated events).
    public var fixIndex: Int { trigger.fixIndex }

    /// Where the geotrigger event behind this one happened (WGS84). For a check-out derived from
    /// a `passthrough`, the passthrough's entry point: the engine does not report its exit point.
    public var longitude: Double { trigger.longitude }
    /// Latitude of ``longitude``'s point.
    public var latitude: Double { trigger.latitude }
}
