/// An explicit assignment of CSV columns to fix fields, with units and the time format.
///
/// Fields it names override header detection; fields it leaves out are still detected from the
/// header when there is one. Build it in code or parse it from command-line text with
/// ``init(parsing:source:)`` (`--columns "lat=Y,lon=X,time=t,speed=SPEED:kmh"`).
public struct CSVColumnMapping: Sendable, Hashable {
    /// A fix field a column can feed.
    public enum Field: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case latitude = "lat"
        case longitude = "lon"
        /// A date-time (ISO-8601 or epoch), or a time of day when ``date`` is also mapped.
        case time
        /// A calendar date, combined with a time of day in ``time``.
        case date
        /// Offset of local time from UTC (`+02:00`) when times are local (Garmin G1000 `UTCOfst`).
        case utcOffset = "utcoffset"
        case accuracy
        case hdop
        case speed
        case course
        case altitude
        case satellites
        /// A trajectory or segment identifier: a change of value starts a new segment.
        case segment
        /// A device or trajectory identifier: each value is a trace of its own (`FILE#ID`).
        case trace
        /// A column holding `N`/`S` for the latitude.
        case latitudeHemisphere = "ns"
        /// A column holding `E`/`W` for the longitude.
        case longitudeHemisphere = "ew"

        /// The field's name in mapping text (`lat`, `lon`, `time`, ...).
        public var description: String { rawValue }
    }

    /// A column, by header name (matched case-insensitively, whitespace trimmed) or 1-based index.
    public enum Column: Sendable, Hashable, CustomStringConvertible {
        case name(String)
        case index(Int)

        /// `'name'` or `#index`, for messages.
        public var description: String {
            switch self {
            case .name(let name): "'\(name)'"
            case .index(let index): "#\(index)"
            }
        }
    }

    /// The unit of a speed column.
    public enum SpeedUnit: String, Sendable, Hashable, CaseIterable {
        case metersPerSecond = "m/s"
        case kilometersPerHour = "km/h"
        case knots = "kn"
        case milesPerHour = "mph"

        /// Metres per second in one of this unit.
        public var metersPerSecond: Double {
            switch self {
            case .metersPerSecond: 1
            case .kilometersPerHour: 1 / 3.6
            case .knots: 1852.0 / 3600.0
            case .milesPerHour: 0.44704
            }
        }

        /// `value` in this unit converted to metres per second (km/h ÷ 3.6, knots × 1852 ÷ 3600,
        /// mph × 0.44704), rounded once per operation as written.
        public func metersPerSecond(_ value: Double) -> Double {
            switch self {
            case .metersPerSecond: value
            case .kilometersPerHour: value / 3.6
            case .knots: value * 1852 / 3600
            case .milesPerHour: value * 0.44704
            }
        }
    }

    /// The unit of an altitude column.
    public enum AltitudeUnit: String, Sendable, Hashable, CaseIterable {
        case meters = "m"
        case feet = "ft"

        /// Metres in one of this unit.
        public var meters: Double {
            switch self {
            case .meters: 1
            case .feet: 0.3048
            }
        }
    }

    /// How the time column is written.
    ///
    /// Without a format, a time column is read as ISO-8601 when it looks like a date, and as an
    /// epoch number otherwise, with the unit chosen by magnitude (``epoch``).
    public enum TimeFormat: String, Sendable, Hashable, CaseIterable {
        /// `2026-01-01T00:00:00.000Z`, `2019-01-25 20:00:16.178999901` (no zone = UTC).
        case iso8601
        /// An epoch number whose unit is chosen by magnitude: below 1e11 seconds, below 1e14
        /// milliseconds, below 1e17 microseconds, otherwise nanoseconds.
        case epoch
        case epochSeconds = "epoch-s"
        case epochMilliseconds = "epoch-ms"
        case epochMicroseconds = "epoch-us"
        case epochNanoseconds = "epoch-ns"
    }

    /// The columns assigned to fields.
    public var columns: [Field: Column]
    /// The unit of the speed column; `nil` uses the header, the values' suffixes, or m/s.
    public var speedUnit: SpeedUnit?
    /// The unit of the altitude column; `nil` uses the header, the values' suffixes, or metres.
    public var altitudeUnit: AltitudeUnit?
    /// How times are written; `nil` detects per value.
    public var timeFormat: TimeFormat?
    /// Whether the first line is a header; `nil` decides from the content (a first line whose
    /// latitude field is a number is data).
    public var hasHeader: Bool?

    /// Creates a mapping; everything left out is detected.
    public init(
        columns: [Field: Column] = [:], speedUnit: SpeedUnit? = nil, altitudeUnit: AltitudeUnit? = nil,
        timeFormat: TimeFormat? = nil, hasHeader: Bool? = nil
    ) {
        self.columns = columns
        self.speedUnit = speedUnit
        self.altitudeUnit = altitudeUnit
        self.timeFormat = timeFormat
        self.hasHeader = hasHeader
    }
}
