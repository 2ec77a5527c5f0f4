import Fences
import Spatial
import Support
import Traces

/// The motion a trace shows, for `fencesim lint --traces` (SPEC §6.4): how fast it moves and how
/// often it reports, as the 90th percentiles of its steps.
///
/// A step joins two consecutive timed fixes of one segment; steps longer than the maximum gap
/// (the engine starts a new segment there and infers no crossing across it) and steps of zero
/// duration are left out. Each step has an interval (seconds) and an implied speed (geodesic
/// distance over the interval; reported speeds are not used because many sources have none).
/// The motion is the 90th percentile speed times the 90th percentile interval, each by the
/// nearest-rank method, so that one trace's motion does not depend on a few outliers and is
/// exactly reproducible.
public enum TraceMotion {
    /// The percentile of step speeds and intervals taken.
    public static let percentile = 0.9

    /// One step between consecutive fixes.
    public struct Step: Hashable, Sendable {
        public var seconds: Double
        public var meters: Double

        public init(seconds: Double, meters: Double) {
            self.seconds = seconds
            self.meters = meters
        }
    }

    /// Reads `input` and measures its motion.
    ///
    /// - Parameters:
    ///   - maxGapSeconds: steps longer than this are left out (the engine's `maxGap`).
    /// - Throws: ``Support/FencesimError``: the reader's errors (66 missing, 65 bad data), and
    ///   `.badData` when the trace has no step to measure (fewer than two timed fixes in a segment).
    /// - Complexity: O(n log n) for n fixes; memory O(n).
    public static func measure(
        _ input: TraceInput, options: TraceReadOptions = TraceReadOptions(),
        maxGapSeconds: Double = 120
    ) throws(FencesimError) -> LintMotion {
        var steps: [Step] = []
        var previous: Fix?
        _ = try TraceReader.read(path: input.path, options: input.readOptions(options)) { (fix: Fix) throws(FencesimError) in
            guard let time = fix.time else { return }
            defer { previous = fix }
            guard let last = previous, let lastTime = last.time, last.segment == fix.segment else { return }
            let seconds = time.seconds(since: lastTime)
            guard seconds > 0, seconds <= maxGapSeconds else { return }
            let meters = Geodesic.wgs84.distance(
                latitude1: last.latitude, longitude1: last.longitude,
                latitude2: fix.latitude, longitude2: fix.longitude)
            steps.append(Step(seconds: seconds, meters: meters))
        }
        guard let motion = motion(of: steps, source: "p90 of trace \(input.label)") else {
            throw FencesimError(
                .badData,
                "trace \(input.label) has no two consecutive timed fixes within \(JSONWriter.number(maxGapSeconds)) s of each other, so its speed and interval cannot be measured",
                at: SourceLocation(file: input.path))
        }
        return motion
    }

    /// The motion of `steps`: the ``percentile`` speed times the ``percentile`` interval; `nil`
    /// without steps.
    public static func motion(of steps: [Step], source: String) -> LintMotion? {
        guard !steps.isEmpty else { return nil }
        let speeds = steps.map { $0.meters / $0.seconds }.sorted()
        let intervals = steps.map(\.seconds).sorted()
        return LintMotion(speedMetersPerSecond: nearestRank(speeds), intervalSeconds: nearestRank(intervals), source: source)
    }

    /// The ``percentile`` of sorted, non-empty `values` by the nearest-rank method.
    static func nearestRank(_ values: [Double]) -> Double {
        let rank = Int((percentile * Double(values.count)).rounded(.up))
        return values[min(values.count, max(1, rank)) - 1]
    }
}
