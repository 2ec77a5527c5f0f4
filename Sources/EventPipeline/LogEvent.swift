import Geotriggers
import Support

/// One line of the event log (SPEC §6.6): `time`, `seq`, `trace`, `type`, then the type's fields
/// in the fixed order of ``fieldOrder``.
public struct LogEvent: Sendable {
    /// The event types of SPEC §6.6.
    public enum EventType: String, Sendable, CaseIterable {
        case enter, exit, dwell, cross, passthrough, checkin, checkout, suppressed
        case placesEntry = "places.entry"
        case placesExit = "places.exit"
        case placesExpired = "places.expired"
        /// A nearby lookup at an app launch (fencesim's addition to SPEC §6.6: the SDKs dispatch
        /// no region events for it, but it replaces the entered set).
        case placesLookup = "places.lookup"
        /// An app launch or termination of the scenario's `sessions` (fencesim's addition).
        case session
        case rule, warning
        /// A stretch of time inside a fence (``Geotriggers/GeotriggerSettings/Level/intervals``).
        case inside
        /// What an operating-system profile did with a transition it decided (fencesim's
        /// addition, only with a profile): delivered to the app (late), delivered again, or
        /// dropped with a reason.
        case delivered, duplicate, dropped
    }

    public var time: Timestamp
    /// Position in the whole log, assigned when the traces' logs are merged.
    public var seq: Int
    public var trace: String
    public var type: EventType
    /// Type-specific fields; written in ``fieldOrder`` order, unknown keys after them in the
    /// order given.
    public var fields: [(String, JSONValue)]
    /// Where it happened, for GeoJSON output.
    public var longitude: Double?
    public var latitude: Double?

    public init(
        time: Timestamp, seq: Int = 0, trace: String, type: EventType, fields: [(String, JSONValue)] = [],
        longitude: Double? = nil, latitude: Double? = nil
    ) {
        self.time = time
        self.seq = seq
        self.trace = trace
        self.type = type
        self.fields = fields
        self.longitude = longitude
        self.latitude = latitude
    }

    /// The order of type-specific keys in every output format (SPEC §6.6).
    ///
    /// SPEC's keys, with fencesim's additions where they belong: the zone's `zoneName` and
    /// `customData` after `zone`; `trigger` (the kind of event behind a derived one) before its
    /// `fix`; `checkInTime` before the dwell; `crossedFences` after `willCheckOut`; `background`
    /// (a signal the operating system woke the app for) after `poi`; Places' `validUntil`,
    /// `cleared`, and a lookup's `nearby`, `monitored`, `entered`, `joined` and `left` after `lastExited`;
    /// a session's `action` and `nearbyLookup` first.
    public static let fieldOrder = [
        "action", "nearbyLookup", "fence", "zone", "zoneName", "customData", "trigger", "fix", "fixTime", "feed",
        "feedRadius", "distance", "accuracy", "interpolated", "direction", "enterTime", "exitTime", "checkInTime",
        "dwellSeconds", "dwellMinutes", "willCheckOut", "crossedFences", "reason", "poi", "background", "current",
        "lastEntered", "lastExited", "validUntil", "cleared", "nearby", "monitored", "entered", "joined", "left", "consequence",
        "message",
    ]

    /// A key of ``fieldOrder``, by its place there: how producers that know their keys name them
    /// (``LogFieldSink``), so that a renderer finds a field's column without looking its key up.
    public enum Key: Int, CaseIterable, Sendable {
        case action, nearbyLookup, fence, zone, zoneName, customData, trigger, fix, fixTime, feed
        case feedRadius, distance, accuracy, interpolated, direction, enterTime, exitTime, checkInTime
        case dwellSeconds, dwellMinutes, willCheckOut, crossedFences, reason, poi, background, current
        case lastEntered, lastExited, validUntil, cleared, nearby, monitored, entered, joined, left, consequence
        case message

        /// The key as the log writes it.
        public var name: String { LogEvent.fieldOrder[rawValue] }
    }

    /// The place of `key` in ``fieldOrder``, `nil` for keys outside it.
    @inline(__always)
    public static func rank(of key: String) -> Int? {
        fieldRank[key]
    }

    private static let fieldRank = Dictionary(uniqueKeysWithValues: fieldOrder.enumerated().map { ($1, $0) })

    /// The fields sorted into ``fieldOrder`` (stable for keys outside it).
    public var orderedFields: [(String, JSONValue)] {
        fields.enumerated().sorted { a, b in
            let ra = LogEvent.rank(of: a.element.0) ?? LogEvent.fieldOrder.count
            let rb = LogEvent.rank(of: b.element.0) ?? LogEvent.fieldOrder.count
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
    }

    /// The value of a field, if present.
    public func field(_ key: String) -> JSONValue? {
        fields.first(where: { $0.0 == key })?.1
    }

    /// Whether a map draws the event: a notification (enter, exit, passthrough) or a notification
    /// lost to signal loss, with a place.
    public var isDrawn: Bool {
        guard longitude != nil, latitude != nil else { return false }
        switch type {
        case .enter, .exit, .passthrough: return true
        case .suppressed:
            guard case .string(let reason)? = field("reason") else { return false }
            return reason == SignalLoss.exitReason || reason == SignalLoss.entryReason
        default: return false
        }
    }
}

extension JSONValue {
    /// A metric quantity rounded to the millimetre, so that logs are short and stable.
    public static func meters(_ value: Double) -> JSONValue {
        .double(LogEvent.millimetres(value))
    }
}

extension LogEvent {
    /// A metric quantity rounded to the millimetre, as the log writes it (``JSONValue/meters(_:)``).
    @inline(__always)
    static func millimetres(_ value: Double) -> Double {
        GeotriggerEvent.millimetres(value)
    }
}
