import Geotriggers
import Support

/// The fix a batch of geotrigger events came from, as zone conditions need it.
///
/// Speed and bearing conditions look at the fix that produced the enter or crossing (for an
/// interpolated event, the later fix of its segment). When the fix carries no speed or course,
/// ``CheckInMachine`` derives them from the previous fix it was given (see
/// ``CheckInMachine/process(_:at:into:)``).
public struct CheckInFix: Sendable {
    /// 0-based index of the fix in its trace (the geotrigger events' `fixIndex`).
    public var index: Int
    /// When the fix was taken.
    public var time: Timestamp
    /// WGS84 latitude, degrees.
    public var latitude: Double
    /// WGS84 longitude, degrees.
    public var longitude: Double
    /// Speed over ground in m/s, when the fix has one.
    public var speedMetersPerSecond: Double?
    /// Course over ground in degrees clockwise from north, when the fix has one.
    public var courseDegrees: Double?

    /// Creates a fix from its fields.
    public init(
        index: Int, time: Timestamp, latitude: Double, longitude: Double, speedMetersPerSecond: Double? = nil,
        courseDegrees: Double? = nil
    ) {
        self.index = index
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees
    }

    /// The fix of an engine sample.
    public init(_ sample: Sample) {
        self.init(
            index: sample.index, time: sample.time, latitude: sample.latitude, longitude: sample.longitude,
            speedMetersPerSecond: sample.speed, courseDegrees: sample.course)
    }
}
