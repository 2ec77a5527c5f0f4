import Fences
import Spatial
import Support
import Traces

extension GroundTruth {
    /// Fixes a stretch of the path has at most when it is walked a stretch at a time.
    public static let fixesPerStretch = 65_536

    /// The true visits along a path given a fix at a time (``push(_:)``), walked a stretch at a
    /// time: the path is never held whole, so the truth of a long drive needs the memory of one
    /// stretch. Each stretch starts with the visits the one before it left open, and the two
    /// share their boundary fix, so the visits are those of one walk of the whole path.
    ///
    /// A ground truth walks one path at a time; a path walk uses it alone while it lasts.
    public struct PathWalk {
        let truth: GroundTruth
        let stretchFixes: Int
        /// Timed fixes not walked yet, after the last one walked (the stretch's first).
        private var stretch: [Fix] = []
        /// Their positions in the truth's frame.
        private var points: [XY] = []
        /// Visits ended so far (then every visit, put in order in place at the end).
        private var done: [TruthVisit] = []
        /// Visits open at the last fix walked (`nil` before the first stretch).
        private var open: [Int: TruthVisit]?

        /// - Parameter stretchFixes: the most fixes walked at once (tests walk short stretches).
        public init(_ truth: GroundTruth, stretchFixes: Int = GroundTruth.fixesPerStretch) {
            self.truth = truth
            self.stretchFixes = max(2, stretchFixes)
        }

        /// Takes the path's next fix (timed fixes in time order; untimed ones are skipped), with
        /// its position in the truth's frame when the caller has projected it already (the same
        /// bits: a ``TraceStream`` projects through the same frame definition).
        ///
        /// - Throws: ``Support/FencesimError`` `.badData` when GEOS fails on a segment.
        public mutating func push(_ fix: Fix, at point: XY? = nil) throws(FencesimError) {
            guard fix.time != nil else { return }
            if stretch.isEmpty {
                stretch.reserveCapacity(min(stretchFixes, 4096))
                points.reserveCapacity(min(stretchFixes, 4096))
            } else if stretch.count == stretch.capacity, stretch.count < stretchFixes {
                // A path longer than a few thousand fixes: room for a whole stretch at once (10 MB
                // of fixes), where doubling from 4,096 copied the fixes four times on the walk's
                // thread, a long drive's report's critical path.
                stretch.reserveCapacity(stretchFixes)
                points.reserveCapacity(stretchFixes)
            }
            stretch.append(fix)
            points.append(point ?? truth.frame.forward(XY(longitude: fix.longitude, latitude: fix.latitude)))
            if stretch.count >= stretchFixes { try walkStretch() }
        }

        /// The visits of the whole path, ordered by entry time, then fence (file order breaks
        /// ties between fences sharing an id); visits still open at the last fix have no exit.
        public mutating func finish() throws(FencesimError) -> [TruthVisit] {
            // After the first stretch, the last fix walked is the stretch's first: more to walk
            // only when another came.
            if stretch.count > (open == nil ? 0 : 1) { try walkStretch() }
            var visits = done
            done = []
            visits += (open ?? [:]).values
            open = nil
            stretch = []
            points = []
            TruthVisit.sortInReportOrder(&visits)
            return visits
        }

        private mutating func walkStretch() throws(FencesimError) {
            let walked: Stretch
            do throws(SpatialError) {
                walked = try truth.walk(stretch, points: points, carrying: open)
            } catch {
                throw FencesimError(.badData, "ground truth: \(error.message)", cause: error)
            }
            if stretch.count >= stretchFixes, done.capacity < GroundTruth.visitsReserved {
                // A long path (a full stretch): room at once for as many visits as fill a block
                // the allocator maps alone (``GroundTruth/visitsReserved``). The list then grows
                // in pages faulted in as they are written and returned when it is freed, where
                // growing from a few visits by doubling wrote every visit again at each step and
                // left the smaller copies in the walking thread's heap, which nothing reused.
                done.reserveCapacity(GroundTruth.visitsReserved)
            }
            done += walked.done
            open = walked.open
            let last = stretch[stretch.count - 1]
            let lastPoint = points[points.count - 1]
            stretch.removeAll(keepingCapacity: true)
            points.removeAll(keepingCapacity: true)
            stretch.append(last)
            points.append(lastPoint)
        }
    }

    /// Visits a path walk makes room for once it has walked a full stretch (a long path): 128 MB
    /// of them (1.4 million), a block the allocator maps alone
    /// (``Support/Allocator/keepFreedMemory()`` maps alone every block from 32 MB; glibc's
    /// default far smaller ones too), so that the pages left unwritten cost nothing. (At 32 MB
    /// the large workload's 360,000 visits outgrew the room by 3 %, and the list was copied into
    /// fresh memory once more: 8,000 page faults on the truth's thread.)
    static let visitsReserved = (128 << 20) / MemoryLayout<TruthVisit>.stride + 1

    /// What the walk of one stretch of the path found.
    struct Stretch {
        /// Visits ended in the stretch.
        var done: [TruthVisit] = []
        /// Visits open at its end, by fence.
        var open: [Int: TruthVisit] = [:]
    }
}
