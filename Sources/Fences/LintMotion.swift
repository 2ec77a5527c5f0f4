/// How far a device moves between two fixes: the gap a fence can fall into (SPEC §6.4).
///
/// ArcGIS evaluates geotriggers per delivered location only, so a fence narrower than
/// `speed × interval` can lie wholly between two fixes and never be entered ("at 30 m/s and 1 s
/// updates a 10 m fence can fall in the gap"). `fencesim lint` takes one motion from `--speed`
/// and `--interval`, or one per trace from `--traces`.
public struct LintMotion: Hashable, Sendable {
    /// Speed over ground, metres per second.
    public var speedMetersPerSecond: Double
    /// Time between two fixes, seconds.
    public var intervalSeconds: Double
    /// Where the motion comes from, for messages: `--speed/--interval`, or a trace's label.
    public var source: String

    public init(speedMetersPerSecond: Double, intervalSeconds: Double, source: String) {
        self.speedMetersPerSecond = speedMetersPerSecond
        self.intervalSeconds = intervalSeconds
        self.source = source
    }

    /// `speed × interval`: the distance travelled between two fixes, in metres.
    public var gapMeters: Double { speedMetersPerSecond * intervalSeconds }
}
