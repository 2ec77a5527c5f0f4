import Support

/// One true visit of a fence (SPEC §6.1, §6.3): from a true entry to the next true exit.
public struct TruthVisit: Sendable, Hashable {
    /// Index of the fence in its file.
    public var fence: Int
    /// The fence's id.
    public var fenceID: String
    /// The true entry: the interpolated instant the path crosses into the fence, or the first
    /// fix's time when the path starts inside.
    public var enter: Timestamp
    /// The true exit, or `nil` when the path ends inside the fence.
    public var exit: Timestamp?
    /// The path starts inside the fence (there is no entry crossing).
    public var startsInside: Bool
    /// Speed along the true path at the entry, m/s (the straight segment's geodesic length over
    /// its duration), which gives the visit its speed band; `nil` for labelled visits.
    public var enterSpeed: Double?
    /// Where the path crosses in (WGS84), when known: where the report's map marks a miss.
    public var enterLongitude: Double?
    public var enterLatitude: Double?

    public init(
        fence: Int, fenceID: String, enter: Timestamp, exit: Timestamp?, startsInside: Bool = false, enterSpeed: Double? = nil,
        enterLongitude: Double? = nil, enterLatitude: Double? = nil
    ) {
        self.fence = fence
        self.fenceID = fenceID
        self.enter = enter
        self.exit = exit
        self.startsInside = startsInside
        self.enterSpeed = enterSpeed
        self.enterLongitude = enterLongitude
        self.enterLatitude = enterLatitude
    }

    /// Seconds from entry to exit, when the visit is closed.
    public var durationSeconds: Double? { exit.map { $0.seconds(since: enter) } }

    /// Total order: time of entry, then fence id (not file order, which may be shuffled).
    public static func ordered(_ a: TruthVisit, _ b: TruthVisit) -> Bool {
        a.enter != b.enter ? a.enter < b.enter : a.fenceID < b.fenceID
    }
}
