import Spatial
import Support

/// A Bluedot zone (SPEC §3): the check-in/check-out rules shared by the fences whose `zone`
/// property names it.
public struct Zone: Sendable {
    public var id: String
    public var name: String?
    /// Whether check-ins in this zone are followed by a check-out when the device leaves the fence.
    public var checkOut: Bool
    /// Seconds after the zone's reference time (last check-out when `checkOut`, else last
    /// check-in) during which a new check-in is suppressed with reason `mrt`.
    public var minimumRetriggerSeconds: Double
    /// Custom data carried by the zone's check-in and check-out events.
    public var customData: JSONValue?
    /// Enable/disable instants in time order; the zone is enabled before the first.
    public var schedule: [ScheduleEntry]
    public var conditions: ZoneConditions
    /// Where the zone is declared (for messages).
    public var location: SourceLocation

    /// One instant of a zone's enable/disable schedule.
    public struct ScheduleEntry: Hashable, Sendable {
        public var at: Timestamp
        public var enabled: Bool

        public init(at: Timestamp, enabled: Bool) {
            self.at = at
            self.enabled = enabled
        }
    }

    public init(
        id: String, name: String? = nil, checkOut: Bool = true, minimumRetriggerSeconds: Double = 0, customData: JSONValue? = nil,
        schedule: [ScheduleEntry] = [], conditions: ZoneConditions = ZoneConditions(), location: SourceLocation = SourceLocation(file: "")
    ) {
        self.id = id
        self.name = name
        self.checkOut = checkOut
        self.minimumRetriggerSeconds = minimumRetriggerSeconds
        self.customData = customData
        self.schedule = schedule
        self.conditions = conditions
        self.location = location
    }

    /// The zone fences without a `zone` property belong to: check-out on, no re-trigger time.
    public static let defaultZoneID = "default"
    public static var defaultZone: Zone { Zone(id: defaultZoneID, name: "Default") }

    /// Whether the zone is enabled at `time` under its schedule.
    public func isEnabled(at time: Timestamp) -> Bool {
        var enabled = true
        for entry in schedule where entry.at <= time { enabled = entry.enabled }
        return enabled
    }
}

/// Conditions that gate a zone's check-ins (Bluedot zone conditions; SPEC §3). Every condition is
/// optional; a check-in blocked by one is suppressed with the condition as its reason.
public struct ZoneConditions: Sendable {
    /// Days and hours when check-ins may happen.
    public struct TimeWindow: Hashable, Sendable {
        /// Days of the week, 0 = Sunday ... 6 = Saturday (all days when empty).
        public var days: Set<Int>
        /// Minutes after local midnight: `from` inclusive, `to` exclusive; a window with
        /// `to <= from` runs past midnight and belongs to the day it starts on.
        public var fromMinute: Int
        public var toMinute: Int
        /// `UTC`, a fixed offset (`+02:00`), or an IANA zone (`Europe/Zurich`, daylight saving
        /// time included).
        public var timeZone: String

        public init(days: Set<Int>, fromMinute: Int, toMinute: Int, timeZone: String = "UTC") {
            self.days = days
            self.fromMinute = fromMinute
            self.toMinute = toMinute
            self.timeZone = timeZone
        }
    }

    /// A closed range of values; either end may be open.
    public struct Range: Hashable, Sendable {
        public var minimum: Double?
        public var maximum: Double?

        public init(minimum: Double? = nil, maximum: Double? = nil) {
            self.minimum = minimum
            self.maximum = maximum
        }

        public func contains(_ value: Double) -> Bool {
            (minimum.map { value >= $0 } ?? true) && (maximum.map { value <= $0 } ?? true)
        }
    }

    /// An arc of bearings, degrees clockwise from north, from `from` to `to` going clockwise.
    public struct BearingRange: Hashable, Sendable {
        public var from: Double
        public var to: Double

        public init(from: Double, to: Double) {
            self.from = from
            self.to = to
        }

        public func contains(_ bearing: Double) -> Bool {
            let b = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
            let f = (from.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
            let t = (to.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
            return f <= t ? (b >= f && b <= t) : (b >= f || b <= t)
        }
    }

    /// Check in when at least `percent` % of the zone's fences and lines have been entered or
    /// crossed since the zone's last check-in, within `windowSeconds` when given.
    public struct PercentageCrossed: Hashable, Sendable {
        public var percent: Double
        public var windowSeconds: Double?

        public init(percent: Double, windowSeconds: Double? = nil) {
            self.percent = percent
            self.windowSeconds = windowSeconds
        }
    }

    /// For line fences (GEOLINE): the crossing direction that checks in, relative to the line's
    /// digitised direction.
    public enum TravelDirection: String, Hashable, Sendable, CaseIterable {
        case leftToRight = "left-to-right"
        case rightToLeft = "right-to-left"
    }

    public var timeWindows: [TimeWindow]
    /// Line crossings check in only in this direction (fence enters are not affected).
    public var travelDirection: TravelDirection?
    /// Speed in m/s.
    public var speed: Range?
    public var bearing: BearingRange?
    public var percentageCrossed: PercentageCrossed?
    /// Fence ids to be entered in this order.
    public var travelPath: [String]

    public init(
        timeWindows: [TimeWindow] = [], speed: Range? = nil, bearing: BearingRange? = nil,
        percentageCrossed: PercentageCrossed? = nil, travelPath: [String] = [], travelDirection: TravelDirection? = nil
    ) {
        self.timeWindows = timeWindows
        self.travelDirection = travelDirection
        self.speed = speed
        self.bearing = bearing
        self.percentageCrossed = percentageCrossed
        self.travelPath = travelPath
    }

    /// Whether no condition is set.
    public var isEmpty: Bool {
        timeWindows.isEmpty && speed == nil && bearing == nil && percentageCrossed == nil && travelPath.isEmpty && travelDirection == nil
    }
}
