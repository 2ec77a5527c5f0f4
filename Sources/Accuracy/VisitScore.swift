import Support

/// How one truth visit fared (SPEC §6.3).
public struct VisitScore: Sendable {
    /// Why a truth visit was missed.
    public enum MissReason: String, Sendable {
        /// The fence fell between two fixes; the engine reported a `passthrough` instead.
        case gap
        /// The enter was lost to operating-system signal loss (`degrade.entryLoss`).
        case entryLoss
        /// No notification overlaps the visit.
        case undetected
    }

    public var trace: String
    /// The zone of the fence (`default` for fences without one).
    public var zone: String
    public var truth: TruthVisit
    /// The detected visit matched to it (the earliest overlapping one not matched before).
    public var match: DetectedVisit?
    /// The exit of the last detected visit that belongs to this truth visit (the match or a
    /// flap), `nil` when that visit is still open at the end of the trace.
    public var detectedExit: Timestamp?
    /// Detected enter − true entry, seconds.
    public var enterLatency: Double?
    /// Last detected exit − true exit, seconds (both must exist).
    public var exitLatency: Double?
    /// Detected duration (matched enter to last detected exit) − true duration, seconds.
    public var dwellError: Double?
    /// Extra detected visits overlapping this one (enter/exit pairs inside it).
    public var flaps: Int
    /// Detected exits while the device was inside, followed by a re-entry inside this visit or
    /// by the end of the trace with the device still inside.
    public var falseExits: Int
    /// The speed band of the true entry.
    public var speedBand: String
    public var missReason: MissReason?

    /// Whether a detected visit matched it. (A `switch` on the case: `match != nil` copied the
    /// matched visit, retaining its fence id, at every one of the summary's five reads a visit.)
    public var detected: Bool {
        switch match {
        case .none: false
        case .some: true
        }
    }

    /// The truth visit ended before the trace did but the detection never closed.
    public var exitMissed: Bool { detected && truth.exit != nil && detectedExit == nil }
}
