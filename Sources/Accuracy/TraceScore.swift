import Support

/// The scoring of one trace (SPEC §6.3): every truth visit, every false detection.
public struct TraceScore: Sendable {
    /// A detected visit that overlaps no truth visit of its fence.
    public struct FalseDetection: Sendable {
        public var trace: String
        public var zone: String
        public var visit: DetectedVisit
    }

    /// The trace's name.
    public var trace: String
    /// The true path's duration (first to last clean fix), seconds: the exposure for false exits
    /// per hour.
    public var durationSeconds: Double
    /// Per truth visit, in time order.
    public var visits: [VisitScore]
    public var falseDetections: [FalseDetection]
    /// Every detected visit, in time order.
    public var detections: [DetectedVisit]
    /// `passthrough` reports (fences that fell between two fixes).
    public var passthroughs: Int
    /// Notifications lost to signal loss.
    public var lostEnters: Int
    public var lostExits: Int
    /// Exits of fences with no open detected visit (after a lost enter).
    public var orphanExits: Int

    public init(
        trace: String, durationSeconds: Double, visits: [VisitScore] = [], falseDetections: [FalseDetection] = [],
        detections: [DetectedVisit] = [], passthroughs: Int = 0, lostEnters: Int = 0, lostExits: Int = 0, orphanExits: Int = 0
    ) {
        self.trace = trace
        self.durationSeconds = durationSeconds
        self.visits = visits
        self.falseDetections = falseDetections
        self.detections = detections
        self.passthroughs = passthroughs
        self.lostEnters = lostEnters
        self.lostExits = lostExits
        self.orphanExits = orphanExits
    }
}
