import Support

/// The truth visits of one fence in entry order, answering the questions of ``Scoring`` (which
/// visits a detected visit overlaps, which of them is not matched yet, which one a detected exit
/// falls in) in O(log visits) each instead of a look at every visit.
///
/// Visits may overlap one another (labelled visits are taken as written), so the answers do not
/// assume that exits come in entry order: a prefix maximum of the ends answers "the first visit
/// ending at or after", and a maximum tree over the ends of the visits not matched yet answers
/// "the first unmatched one" (written here: a binary search and a segment tree of a few lines
/// are all this needs).
struct TruthTimeline {
    /// Where a visit ends: a time, or never (open at the end of the trace). `matched` sorts
    /// below every end and stands for a visit taken out of the unmatched tree.
    enum End: Comparable {
        case matched
        case at(Timestamp)
        case open
    }

    /// Entries, non-decreasing.
    let enters: [Timestamp]
    /// Each visit's end.
    let ends: [End]
    /// `reach[k]`: the latest end among visits `0...k` (non-decreasing).
    let reach: [End]
    /// Leaves from ``leafBase`` on: the ends of unmatched visits (`matched` otherwise, and for
    /// padding); each inner node holds the larger of its two children.
    private var tree: [End]
    private let leafBase: Int

    /// - Parameter visits: one fence's truth visits, ordered by entry.
    init<Visits: Collection<TruthVisit>>(_ visits: Visits) {
        enters = visits.map(\.enter)
        ends = visits.map { $0.exit.map(End.at) ?? .open }
        var reach: [End] = []
        reach.reserveCapacity(ends.count)
        for end in ends { reach.append(max(reach.last ?? .matched, end)) }
        self.reach = reach
        var base = 1
        while base < ends.count { base *= 2 }
        leafBase = base
        tree = Array(repeating: .matched, count: 2 * base)
        for (k, end) in ends.enumerated() { tree[base + k] = end }
        for node in stride(from: base - 1, through: 1, by: -1) { tree[node] = max(tree[2 * node], tree[2 * node + 1]) }
    }

    var count: Int { enters.count }

    /// How many visits begin at or before `time` (all when `time` is `nil`, an open end): the
    /// visits a detected visit ending then can overlap are the first this many.
    func entered(by time: Timestamp?) -> Int {
        guard let time else { return enters.count }
        var lo = 0
        var hi = enters.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if enters[mid] <= time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The first visit among the first `limit` whose end is at or after `time`.
    func first(endingAtOrAfter time: Timestamp, among limit: Int) -> Int? {
        first(among: limit) { $0 >= .at(time) }
    }

    /// The first visit among the first `limit` whose end is after `time`.
    func first(endingAfter time: Timestamp, among limit: Int) -> Int? {
        first(among: limit) { $0 > .at(time) }
    }

    /// The first visit among the first `limit` whose end passes `test`, a test that holds from
    /// some end on (a bound), searched in ``reach``.
    private func first(among limit: Int, _ test: (End) -> Bool) -> Int? {
        var lo = 0
        var hi = reach.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if test(reach[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo < limit ? lo : nil
    }

    /// The first visit not matched yet among the first `limit` whose end is at or after `time`.
    func firstUnmatched(endingAtOrAfter time: Timestamp, among limit: Int) -> Int? {
        let bound = End.at(time)
        guard limit > 0, tree[1] >= bound else { return nil }
        // Descend to the leftmost leaf at or above the bound; the maxima say which side has one.
        var node = 1
        while node < leafBase {
            node = tree[2 * node] >= bound ? 2 * node : 2 * node + 1
        }
        let k = node - leafBase
        if k < limit { return k }
        // The leftmost qualifying visit is past the limit: so is every other.
        return nil
    }

    /// Takes visit `k` out of the unmatched ones.
    mutating func markMatched(_ k: Int) {
        var node = leafBase + k
        tree[node] = .matched
        node /= 2
        while node >= 1 {
            tree[node] = max(tree[2 * node], tree[2 * node + 1])
            node /= 2
        }
    }
}

/// Times of one fence's notifications that explain a missed truth visit (passthrough reports as
/// intervals, lost enters as instants), asking "does any fall in this visit" in O(log n).
struct MissEvidence {
    /// Intervals sorted by start, with the latest end among the first `k + 1` of them.
    private var starts: [Timestamp] = []
    private var reach: [Timestamp] = []

    init(intervals: [(Timestamp, Timestamp)]) {
        let sorted = intervals.sorted { $0.0 < $1.0 }
        starts = sorted.map(\.0)
        for (_, end) in sorted { reach.append(max(reach.last ?? end, end)) }
    }

    init(instants: [Timestamp]) {
        self.init(intervals: instants.map { ($0, $0) })
    }

    /// Whether an interval `(a, b)` has `b >= enter` and `a <= exit` (every `a` when `exit` is
    /// `nil`).
    func meets(enter: Timestamp, exit: Timestamp?) -> Bool {
        var count = starts.count
        if let exit {
            var lo = 0
            var hi = starts.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if starts[mid] <= exit { lo = mid + 1 } else { hi = mid }
            }
            count = lo
        }
        return count > 0 && reach[count - 1] >= enter
    }
}
