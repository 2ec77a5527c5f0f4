import Support

/// What a trace reader saw: counts, drops, warnings, time span and extent of a trace.
///
/// Counts follow the definitions of the shared data MANIFEST: a *point* is a track or route
/// point (GPX waypoints only when a file has neither), a CSV/PLT data row, or an NMEA fix after
/// RMC/GGA merging. Points that fail validation are dropped (lenient) or refused (strict);
/// records that are not points (invalid NMEA fixes, bad sentences) are counted in ``skipped``.
public struct TraceStatistics: Sendable, Hashable {
    /// A longitude/latitude extent in degrees.
    public struct BoundingBox: Sendable, Hashable, CustomStringConvertible {
        /// Smallest longitude.
        public var west: Double
        /// Smallest latitude.
        public var south: Double
        /// Largest longitude.
        public var east: Double
        /// Largest latitude.
        public var north: Double

        /// Creates a box from its edges.
        public init(west: Double, south: Double, east: Double, north: Double) {
            self.west = west
            self.south = south
            self.east = east
            self.north = north
        }

        /// The box grown to hold a point.
        public mutating func include(latitude: Double, longitude: Double) {
            west = min(west, longitude)
            east = max(east, longitude)
            south = min(south, latitude)
            north = max(north, latitude)
        }

        /// Whether every edge is within `tolerance` degrees of `other`'s.
        public func isClose(to other: BoundingBox, tolerance: Double) -> Bool {
            abs(west - other.west) <= tolerance && abs(south - other.south) <= tolerance
                && abs(east - other.east) <= tolerance && abs(north - other.north) <= tolerance
        }

        /// `west,south,east,north`.
        public var description: String { "\(west),\(south),\(east),\(north)" }
    }

    /// The format read.
    public var format: TraceFormat
    /// A human name of the dialect, e.g. `GPX 1.1`, `CSV ';' trackintel`, `NMEA 0183`.
    public var dialect: String
    /// GPX `trk` elements.
    public var tracks = 0
    /// GPX `trkseg` elements, or CSV groups (segments of a CSV with a trajectory column).
    public var segments = 0
    /// GPX `rte` elements.
    public var routes = 0
    /// GPX `wpt` elements (they are points only in a file without track and route points).
    public var waypoints = 0
    /// Points in the source (MANIFEST `points`), accepted or not.
    public var pointsRead = 0
    /// Points that carry a valid time (MANIFEST `points_with_time`).
    public var pointsWithTime = 0
    /// Consecutive pairs of timed points, in file order, whose time steps backwards
    /// (MANIFEST `time_backsteps`); counted on the raw points, before any drop.
    public var timeBacksteps = 0
    /// Consecutive pairs of timed points with equal times, on the raw points.
    public var duplicateTimes = 0
    /// Fixes delivered to the caller.
    public var fixesAccepted = 0
    /// Accepted fixes without a time.
    public var fixesWithoutTime = 0
    /// Points dropped, by the kind of their first problem (`invalid-coordinate`, `bad-time`,
    /// `time-backwards`, `duplicate-time`, ...). In strict mode these are the refused points.
    public var dropped: [String: Int] = [:]
    /// Source records that are not points, by reason (`invalid-fix` for NMEA `V`/quality 0,
    /// `bad-checksum`, `bad-time`, `unpaired-gga`, ...).
    public var skipped: [String: Int] = [:]
    /// Accepted fixes by the rule that gave their accuracy.
    public var accuracySources: [AccuracySource: Int] = [:]
    /// Exact warning counts by kind (`implausible-jump`, `accuracy-not-positive`, and in lenient
    /// mode every drop kind).
    public var warningCounts: [String: Int] = [:]
    /// The first warnings, at most ``storedWarningLimit`` of them, in file order.
    public var warnings: [Diagnostic] = []
    /// CSV times read without a zone (no `Z` or offset, no UTC offset column): UTC, or the zone
    /// of ``TraceReadOptions/timeZone``.
    public var zonelessTimes = 0
    /// The median reported speed, in m/s, over the pairs of consecutive timed fixes sampled for
    /// ``speedsLookLikeKilometersPerHour`` (`nil` when fewer than 10 pairs report a speed).
    public var medianReportedSpeed: Double?
    /// The median speed the same pairs imply by their positions and times, in m/s.
    public var medianImpliedSpeed: Double?
    /// Whether the reported speeds look like km/h read as m/s: a median above 15 m/s that is
    /// 2.5 to 5 times the median implied by the fixes' positions and times (km/h ÷ 3.6).
    public var speedsLookLikeKilometersPerHour: Bool {
        guard let reported = medianReportedSpeed, let implied = medianImpliedSpeed, reported > 15, implied > 0 else { return false }
        let ratio = reported / implied
        return ratio >= 2.5 && ratio <= 5
    }
    /// The earliest and latest time of the accepted fixes.
    public var timeSpan: ClosedRange<Timestamp>?
    /// The extent of the accepted fixes.
    public var boundingBox: BoundingBox?
    /// The earliest and latest time over every point read (MANIFEST `time_start`/`time_end`).
    public var pointsTimeSpan: ClosedRange<Timestamp>?
    /// The extent of every point read with valid coordinates (MANIFEST `bbox`).
    public var pointsBoundingBox: BoundingBox?

    /// How many warnings are kept in ``warnings``; counts stay exact beyond it.
    public static let storedWarningLimit = 1000

    /// Empty statistics for a trace of `format`.
    public init(format: TraceFormat, dialect: String) {
        self.format = format
        self.dialect = dialect
    }

    /// Total points dropped, whatever the kind.
    public var droppedCount: Int { dropped.values.reduce(0, +) }

    /// Total warnings, whatever the kind.
    public var warningCount: Int { warningCounts.values.reduce(0, +) }
}
