import Support

/// A visit as the notifications tell it (SPEC §6.3): from an `enter` of a fence to the next
/// `exit` of that fence, open when the trace ends first.
public struct DetectedVisit: Sendable, Hashable {
    /// Index of the fence in its file.
    public var fence: Int
    public var fenceID: String
    public var enter: Timestamp
    /// `nil`: no exit before the end of the trace.
    public var exit: Timestamp?
    /// The enter was interpolated between two fixes (`gapPolicy: interpolate`).
    public var interpolated: Bool
    /// Further enters of the fence while this visit was open (ignored, counted).
    public var duplicateEnters: Int

    public init(fence: Int, fenceID: String, enter: Timestamp, exit: Timestamp? = nil, interpolated: Bool = false, duplicateEnters: Int = 0)
    {
        self.fence = fence
        self.fenceID = fenceID
        self.enter = enter
        self.exit = exit
        self.interpolated = interpolated
        self.duplicateEnters = duplicateEnters
    }

    /// Whether this visit and `truth` overlap in time (ends included; an open end is infinite).
    public func overlaps(_ truth: TruthVisit) -> Bool {
        if let e = truth.exit, enter > e { return false }
        if let x = exit, truth.enter > x { return false }
        return true
    }
}

extension DetectedVisit: EnteredVisit {}
