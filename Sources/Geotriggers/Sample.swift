import Spatial
import Support

/// One fix as the engine sees it: a time, a position in the metric frame, and the fix's fields.
///
/// The engine is sans-I/O (h11, SwiftNIO state machines): the caller reads and projects fixes and
/// feeds samples in order; the engine returns events.
public struct Sample: Sendable {
    /// 0-based index of the fix in its trace (the data row).
    public var index: Int
    public var time: Timestamp
    /// Position in the metric frame, metres.
    public var position: XY
    /// WGS84 position, for event output.
    public var longitude: Double
    public var latitude: Double
    /// Horizontal accuracy, metres.
    public var accuracy: Double
    public var speed: Double?
    public var course: Double?
    public var altitude: Double?
    public var hdop: Double?
    public var satellites: Int?
    /// The source segment holding the fix (GPX `trkseg`): no movement joins two fixes of
    /// different segments, as none joins two fixes further apart than `maxGap`.
    public var segment: Int

    public init(
        index: Int, time: Timestamp, position: XY, longitude: Double, latitude: Double, accuracy: Double,
        speed: Double? = nil, course: Double? = nil, altitude: Double? = nil, hdop: Double? = nil, satellites: Int? = nil,
        segment: Int = 0
    ) {
        self.index = index
        self.time = time
        self.position = position
        self.longitude = longitude
        self.latitude = latitude
        self.accuracy = accuracy
        self.speed = speed
        self.course = course
        self.altitude = altitude
        self.hdop = hdop
        self.satellites = satellites
        self.segment = segment
    }

    /// Whether the device is taken to have moved in a straight line from `previous` to this
    /// sample: both of one segment, no more than `maxGap` seconds apart.
    @inline(__always)
    public func continues(_ previous: Sample, maxGap: Double) -> Bool {
        segment == previous.segment && time.seconds(since: previous.time) <= maxGap
    }
}
