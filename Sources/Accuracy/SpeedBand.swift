/// A range of speeds at the true crossing, for recall by speed (SPEC §6.3).
///
/// The speed of a truth visit is the true path's speed where it crosses into the fence (the
/// geodesic length of the segment over its duration), rounded to 0.1 m/s, so that a drive
/// synthesised at exactly 30 m/s falls in `30+` whatever the rounding of its positions.
public struct SpeedBand: Sendable, Hashable {
    /// The label in reports: `0-5`, `5-15`, `15-30`, `30+` (m/s), or `unknown`.
    public var label: String
    /// Lower bound, m/s, included.
    public var lower: Double
    /// Upper bound, m/s, excluded; `nil` for the last band.
    public var upper: Double?

    public init(label: String, lower: Double, upper: Double?) {
        self.label = label
        self.lower = lower
        self.upper = upper
    }

    /// Walking, cycling and slow traffic, town driving, roads and highways: 0–5, 5–15, 15–30,
    /// 30+ m/s.
    public static let standard = [
        SpeedBand(label: "0-5", lower: 0, upper: 5), SpeedBand(label: "5-15", lower: 5, upper: 15),
        SpeedBand(label: "15-30", lower: 15, upper: 30), SpeedBand(label: "30+", lower: 30, upper: nil),
    ]

    /// The band of visits whose speed is unknown (labelled visits).
    public static let unknownLabel = "unknown"

    /// The label of the band of `speed` among `bands` (``unknownLabel`` for `nil`).
    public static func label(for speed: Double?, in bands: [SpeedBand] = standard) -> String {
        guard let speed, speed.isFinite else { return unknownLabel }
        let rounded = (speed * 10).rounded() / 10
        for band in bands where rounded >= band.lower && (band.upper.map { rounded < $0 } ?? true) {
            return band.label
        }
        return unknownLabel
    }
}
