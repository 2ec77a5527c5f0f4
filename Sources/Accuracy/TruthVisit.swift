import Spatial
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
    /// its duration, to its rounding at 0.1 m/s: see ``GroundTruth``'s `speed`), which gives the
    /// visit its speed band; `nil` for labelled visits.
    public var enterSpeed: Double?
    /// Where the path crosses in, when known: where the report's map marks a miss.
    public var enterPlace: Place?

    /// Where a path crossed into a fence.
    public enum Place: Sendable, Hashable {
        /// WGS84 longitude and latitude, degrees.
        case geographic(longitude: Double, latitude: Double)
        /// The point in the metric frame of the ground truth that found it, not yet projected
        /// back: a report projects only the places its map may mark, its misses
        /// (``GroundTruth/placeEntry(_:)``). A long drive has hundreds of thousands of entries,
        /// and projecting each back was a tenth of the truth's walk.
        case frame(XY)
    }

    /// The entry's longitude, once its place is geographic.
    public var enterLongitude: Double? {
        if case .geographic(let longitude, _)? = enterPlace { return longitude }
        return nil
    }

    /// The entry's latitude, once its place is geographic.
    public var enterLatitude: Double? {
        if case .geographic(_, let latitude)? = enterPlace { return latitude }
        return nil
    }

    public init(
        fence: Int, fenceID: String, enter: Timestamp, exit: Timestamp?, startsInside: Bool = false, enterSpeed: Double? = nil,
        enterLongitude: Double? = nil, enterLatitude: Double? = nil
    ) {
        var place: Place?
        if let enterLongitude, let enterLatitude { place = .geographic(longitude: enterLongitude, latitude: enterLatitude) }
        self.init(
            fence: fence, fenceID: fenceID, enter: enter, exit: exit, startsInside: startsInside, enterSpeed: enterSpeed,
            enterPlace: place)
    }

    public init(
        fence: Int, fenceID: String, enter: Timestamp, exit: Timestamp?, startsInside: Bool = false, enterSpeed: Double? = nil,
        enterPlace: Place?
    ) {
        self.fence = fence
        self.fenceID = fenceID
        self.enter = enter
        self.exit = exit
        self.startsInside = startsInside
        self.enterSpeed = enterSpeed
        self.enterPlace = enterPlace
    }

    /// Seconds from entry to exit, when the visit is closed.
    public var durationSeconds: Double? { exit.map { $0.seconds(since: enter) } }

    /// Total order: time of entry, then fence id (not file order, which may be shuffled).
    public static func ordered(_ a: TruthVisit, _ b: TruthVisit) -> Bool {
        a.enter != b.enter ? a.enter < b.enter : a.fenceID < b.fenceID
    }

    /// Puts `visits` in order of entry time, then fence id, then fence (``ordered(_:_:)``, file
    /// order breaking ties between fences sharing an id; a fence has one visit entered at an
    /// instant, so the order is total).
    static func sortInReportOrder(_ visits: inout [TruthVisit]) {
        visits.sortInEntryOrder { v, i, j in v[i].fence < v[j].fence }
    }
}

extension TruthVisit: EnteredVisit {}

/// A visit as a report orders it: by its entry time, then its fence's id.
protocol EnteredVisit {
    var enter: Timestamp { get }
    var fenceID: String { get }
}

extension Array where Element: EnteredVisit {
    /// Sorts the visits by entry time, then fence id, then `tie` (asked with the visits and two
    /// of their positions before the sort). Their positions are sorted, then each visit moved
    /// once into its place, following the permutation's cycles in place: sorting the visits
    /// themselves moved and copied each about twenty times on a long drive, and gathering them
    /// into a second array faulted in a fresh copy of them all (tens of megabytes).
    mutating func sortInEntryOrder(tie: (UnsafeBufferPointer<Element>, Int, Int) -> Bool) {
        var order = withUnsafeBufferPointer { v in
            v.indices.sorted { i, j in
                if v[i].enter != v[j].enter { return v[i].enter < v[j].enter }
                if v[i].fenceID != v[j].fenceID { return v[i].fenceID < v[j].fenceID }
                return tie(v, i, j)
            }
        }
        Array.permute(&self, by: &order)
    }

    /// A copy holding exactly these elements, in a block of their size.
    func compacted() -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            withUnsafeBufferPointer { source in _ = buffer.initialize(fromContentsOf: source) }
            initialized = count
        }
    }

    /// Rearranges `values` so that position `k` holds what was at `order[k]` (`order` a
    /// permutation of the positions, left as the identity): each cycle of the permutation is
    /// followed from its first position, moving a value at a time (a swap moves, it does not
    /// copy or retain).
    static func permute(_ values: inout [Element], by order: inout [Int]) {
        precondition(order.count == values.count, "a position for every value")
        values.withUnsafeMutableBufferPointer { v in
            for start in order.indices where order[start] != start {
                // Position `j` holds the cycle's first value; it takes what belongs there and
                // hands the first value on, until the cycle closes.
                var j = start
                while true {
                    let k = order[j]
                    order[j] = j
                    if k == start { break }
                    v.swapAt(j, k)
                    j = k
                }
            }
        }
    }
}
