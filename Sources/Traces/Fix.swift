import Support

/// One position report of a trace: where the device was, when, and how sure it was.
///
/// Produced by the trace readers; the engine consumes fixes in file order. Every value is in SI
/// units or degrees, and ``line`` points back at the source for messages.
public struct Fix: Sendable, Hashable {
    /// When the fix was taken (UTC), or `nil` for sources without time (routes, waypoints,
    /// GGA-only NMEA); the engine refuses untimed fixes.
    public var time: Timestamp?
    /// WGS84 latitude in degrees, in [-90, 90].
    public var latitude: Double
    /// WGS84 longitude in degrees, in [-180, 180].
    public var longitude: Double
    /// Horizontal accuracy in metres (always positive; see ``accuracySource``).
    public var accuracyMeters: Double
    /// Which rule of the accuracy policy produced ``accuracyMeters``.
    public var accuracySource: AccuracySource
    /// Speed over ground in metres per second, when the source gives it.
    public var speedMetersPerSecond: Double?
    /// Course over ground in degrees clockwise from true north, when the source gives it.
    public var courseDegrees: Double?
    /// Altitude in metres, when the source gives it.
    public var altitudeMeters: Double?
    /// Horizontal dilution of precision, when the source gives it.
    public var hdop: Double?
    /// Satellites used for the fix, when the source gives it.
    public var satellites: Int?
    /// The 1-based line of the source where the fix starts.
    public var line: Int
    /// The 0-based index of the source segment (GPX `trkseg` or route, CSV group) holding the fix.
    public var segment: Int

    /// Creates a fix; accuracy defaults to 10 m from the ``AccuracySource/default`` rule.
    public init(
        time: Timestamp?, latitude: Double, longitude: Double,
        accuracyMeters: Double = 10, accuracySource: AccuracySource = .default,
        speedMetersPerSecond: Double? = nil, courseDegrees: Double? = nil, altitudeMeters: Double? = nil,
        hdop: Double? = nil, satellites: Int? = nil, line: Int = 0, segment: Int = 0
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
        self.accuracySource = accuracySource
        self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees
        self.altitudeMeters = altitudeMeters
        self.hdop = hdop
        self.satellites = satellites
        self.line = line
        self.segment = segment
    }
}
