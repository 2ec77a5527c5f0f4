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
        case rule, warning
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

    public init(time: Timestamp, seq: Int = 0, trace: String, type: EventType, fields: [(String, JSONValue)] = [],
                longitude: Double? = nil, latitude: Double? = nil) {
        self.time = time
        self.seq = seq
        self.trace = trace
        self.type = type
        self.fields = fields
        self.longitude = longitude
        self.latitude = latitude
    }

    /// The order of type-specific keys in every output format (SPEC §6.6).
    public static let fieldOrder = [
        "fence", "zone", "fix", "fixTime", "feed", "feedRadius", "distance", "accuracy", "interpolated", "direction",
        "enterTime", "exitTime", "dwellSeconds", "dwellMinutes", "willCheckOut", "reason", "poi", "current",
        "lastEntered", "lastExited", "consequence", "message",
    ]

    /// The fields sorted into ``fieldOrder`` (stable for keys outside it).
    public var orderedFields: [(String, JSONValue)] {
        let rank = Dictionary(uniqueKeysWithValues: LogEvent.fieldOrder.enumerated().map { ($1, $0) })
        return fields.enumerated().sorted { a, b in
            let ra = rank[a.element.0] ?? LogEvent.fieldOrder.count
            let rb = rank[b.element.0] ?? LogEvent.fieldOrder.count
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
    }

    /// The value of a field, if present.
    public func field(_ key: String) -> JSONValue? {
        fields.first(where: { $0.0 == key })?.1
    }

    /// The whole event as a JSON object in log order.
    public var json: JSONValue {
        .orderedObject([("time", .string(time.description)), ("seq", .int(Int64(seq))), ("trace", .string(trace)),
                        ("type", .string(type.rawValue))] + orderedFields)
    }
}

extension JSONValue {
    /// A metric quantity rounded to the millimetre, so that logs are short and stable.
    public static func meters(_ value: Double) -> JSONValue {
        .double((value * 1000).rounded() / 1000)
    }
}
