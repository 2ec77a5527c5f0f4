import Support

/// A fence's state going in or out, kept for the `inside` lines of a fence whose settings ask
/// for ``GeotriggerSettings/Level/intervals``: every change of state, notified or not (a first
/// fix inside with `initialTrigger: none` included), and the two ends of a visit the engine
/// reports between two fixes.
public struct LevelChange: Sendable, Hashable {
    /// The fence's index in its set.
    public var fence: Int
    public var time: Timestamp
    /// In (true) or out.
    public var inside: Bool
    /// The fix that made the change (the later fix, for one between fixes).
    public var fixIndex: Int
    /// At a time between two fixes.
    public var interpolated: Bool
    /// Where (WGS84): the fix, or the point between fixes.
    public var longitude: Double
    public var latitude: Double

    public init(fence: Int, time: Timestamp, inside: Bool, fixIndex: Int, interpolated: Bool, longitude: Double, latitude: Double) {
        self.fence = fence
        self.time = time
        self.inside = inside
        self.fixIndex = fixIndex
        self.interpolated = interpolated
        self.longitude = longitude
        self.latitude = latitude
    }
}
