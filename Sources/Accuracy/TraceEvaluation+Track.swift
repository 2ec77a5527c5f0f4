import Support
import Traces

extension TraceEvaluation {
    /// A track for drawing, thinned as its fixes come: every `stride`-th fix is kept, the stride
    /// doubling whenever more than `limit` would be, and the last fix always; so at most
    /// `limit` + 1 points, evenly spaced in fix count, whatever the trace's length, and never
    /// the trace held whole.
    public struct ThinnedTrack: Sendable {
        /// The most points kept before the last.
        public let limit: Int
        /// Fixes seen.
        public private(set) var count = 0
        private var stride = 1
        private var kept: [TrackPoint] = []
        private var last: TrackPoint?

        public init(limit: Int) {
            self.limit = max(1, limit)
        }

        /// The track of `fixes` (seconds from `start`; none without a start).
        public init(_ fixes: [Fix], start: Timestamp?, limit: Int) {
            self.init(limit: limit)
            guard let start else { return }
            for fix in fixes { add(fix, start: start) }
        }

        /// Takes the next fix, its time in seconds from `start`.
        public mutating func add(_ fix: Fix, start: Timestamp) {
            let point = Evaluator.point(fix, start)
            if count % stride == 0 {
                kept.append(point)
                if kept.count > limit {
                    // Every other point kept: those at multiples of the doubled stride.
                    var k = 0
                    for i in Swift.stride(from: 0, to: kept.count, by: 2) {
                        kept[k] = kept[i]
                        k += 1
                    }
                    kept.removeLast(kept.count - k)
                    stride *= 2
                }
            }
            last = point
            count += 1
        }

        /// The points: every `stride`-th fix, and the last.
        public var points: [TrackPoint] {
            guard let last, (count - 1) % stride != 0 else { return kept }
            return kept + [last]
        }
    }
}
