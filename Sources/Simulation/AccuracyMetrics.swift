/// The aggregate numbers of SPEC §6.3 over a group of truth visits and detections (one fence,
/// zone, trace, speed band, or everything).
///
/// Recall = detected truth visits / truth visits. Precision = matched detected visits /
/// (matched + false detections); flaps are counted apart (they are real visits, detected more
/// than once) and do not lower precision. F1 = 2PR / (P + R). Latency percentiles are exact,
/// by the nearest-rank method (the ⌈q·n⌉-th smallest value). False exits per hour divide by the
/// true path's duration of the traces in the group (every trace for a fence or zone).
public struct AccuracyMetrics: Sendable {
    /// Nearest-rank percentiles of a set of values, seconds.
    public struct Percentiles: Sendable, Hashable {
        public var count: Int
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var mean: Double

        /// The percentiles of `values`, or `nil` when there are none.
        public init?(_ values: [Double]) {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            func rank(_ q: Double) -> Double {
                let k = Int((q * Double(sorted.count)).rounded(.up)) - 1
                return sorted[min(sorted.count - 1, max(0, k))]
            }
            count = sorted.count
            p50 = rank(0.5)
            p90 = rank(0.9)
            p99 = rank(0.99)
            mean = sorted.reduce(0, +) / Double(sorted.count)
        }
    }

    public var truthVisits = 0
    /// Truth visits with a matched detection.
    public var detected = 0
    /// Truth visits without one.
    public var missed = 0
    /// Misses because the fence fell between two fixes (`passthrough`).
    public var missedInGap = 0
    /// Detected visits that overlap no truth visit (`nil` where it has no meaning: speed bands).
    public var falseDetections: Int?
    public var flaps = 0
    public var falseExits = 0
    /// Matched truth visits that ended while their detection never closed.
    public var exitsMissed = 0
    /// Hours of true path the group covers (`nil` where it has no meaning: speed bands).
    public var hours: Double?
    public var enterLatencies: [Double] = []
    public var exitLatencies: [Double] = []
    public var dwellErrors: [Double] = []

    /// An empty group; `countsDetections` false for groups by speed band, where false detections
    /// (which have no true crossing) cannot be placed.
    public init(countsDetections: Bool = true, hours: Double? = nil) {
        falseDetections = countsDetections ? 0 : nil
        self.hours = hours
    }

    /// Adds a truth visit's outcome.
    public mutating func add(_ visit: VisitScore) {
        truthVisits += 1
        if visit.detected { detected += 1 } else { missed += 1 }
        if visit.missReason == .gap { missedInGap += 1 }
        flaps += visit.flaps
        falseExits += visit.falseExits
        if visit.exitMissed { exitsMissed += 1 }
        if let v = visit.enterLatency { enterLatencies.append(v) }
        if let v = visit.exitLatency { exitLatencies.append(v) }
        if let v = visit.dwellError { dwellErrors.append(v) }
    }

    /// Adds a false detection.
    public mutating func addFalseDetection() {
        if let n = falseDetections { falseDetections = n + 1 }
    }

    public var recall: Double? { truthVisits > 0 ? Double(detected) / Double(truthVisits) : nil }

    public var precision: Double? {
        guard let f = falseDetections, detected + f > 0 else { return nil }
        return Double(detected) / Double(detected + f)
    }

    public var f1: Double? {
        guard let r = recall, let p = precision else { return nil }
        return r + p > 0 ? 2 * p * r / (p + r) : 0
    }

    public var enterLatency: Percentiles? { Percentiles(enterLatencies) }
    public var exitLatency: Percentiles? { Percentiles(exitLatencies) }
    public var dwellError: Percentiles? { Percentiles(dwellErrors) }

    public var falseExitsPerHour: Double? {
        guard let hours, hours > 0 else { return nil }
        return Double(falseExits) / hours
    }
}
