import Dispatch
import Foundation
import Fences
import Spatial
import Support
import Traces

extension GroundTruth {
    /// Fixes a stretch of the path has at least, when it is cut into stretches for several
    /// threads (shorter paths are not worth another thread's start).
    public static let fixesPerStretch = 100_000

    /// The true visits along `fixes` (see ``visits(along:)``), the path cut into as many stretches
    /// as there are `truths` (fewer for a short path), walked at once on as many threads, each
    /// with its own GEOS context and frame: the same visits as one walk of the whole path.
    ///
    /// A path is cut only at a fix clear of every fence's boundary (by more than ``clearance``),
    /// where a walk's state is the side of the fix; a stretch after the first starts inside the
    /// fences that contain its first fix, and their visits, begun in an earlier stretch, are
    /// joined to their ends. Where no such fix is found near a cut, the stretches are fewer.
    ///
    /// - Parameter truths: ground truths of the same fences in the same frame, one per thread.
    /// - Parameter fixesPerStretch: the fewest fixes a stretch has (tests cut short paths).
    public static func visits(along fixes: [Fix], using truths: [GroundTruth],
                              fixesPerStretch: Int = GroundTruth.fixesPerStretch) throws(FencesimError) -> [TruthVisit] {
        precondition(!truths.isEmpty, "no ground truth to walk with")
        let path = fixes.allSatisfy { $0.time != nil } ? fixes : fixes.filter { $0.time != nil }
        guard !path.isEmpty else { return [] }
        let cuts = truths[0].cuts(path, stretches: min(truths.count, max(1, path.count / max(1, fixesPerStretch))))
        final class Results: @unchecked Sendable {
            var stretches: [Result<Stretch, SpatialError>]
            init(_ count: Int) { stretches = Array(repeating: .success(Stretch()), count: count) }
        }
        let results = Results(cuts.count - 1)
        struct Walk: @unchecked Sendable {
            let path: [Fix]
            let cuts: [Int]
            let truths: [GroundTruth]
        }
        let walk = Walk(path: path, cuts: cuts, truths: truths)
        let body: @Sendable (Int) -> Void = { k in
            // Each stretch with its own truth: written by its thread alone, read after all join.
            do throws(SpatialError) {
                results.stretches[k] = .success(try walk.truths[k].walk(walk.path, from: walk.cuts[k], to: walk.cuts[k + 1]))
            } catch {
                results.stretches[k] = .failure(error)
            }
        }
        // Threads of their own, not the dispatch pool's: a report walks the truth beside a
        // replay that already holds a pool thread, and a pool as wide as the cores would run
        // the stretches one after the other.
        let joined = DispatchGroup()
        for k in 1..<(cuts.count - 1) {
            joined.enter()
            let thread = Thread {
                body(k)
                joined.leave()
            }
            thread.start()
        }
        body(0)
        joined.wait()
        var stretches: [Stretch] = []
        for result in results.stretches {
            switch result {
            case .success(let stretch): stretches.append(stretch)
            case .failure(let error): throw FencesimError(.badData, "ground truth: \(error.message)", cause: error)
            }
        }
        if let joined = join(stretches) { return joined }
        // Not one walk's visits (which a cut clear of every boundary rules out): walk the
        // whole path on this thread rather than give anything else.
        do throws(SpatialError) {
            return join([try truths[0].walk(path, from: 0, to: path.count - 1)]) ?? []
        } catch {
            throw FencesimError(.badData, "ground truth: \(error.message)", cause: error)
        }
    }

    /// The visits of consecutive stretches, those open across a cut joined, ordered by entry
    /// time, then fence; `nil` when a stretch starts inside other fences than the stretches
    /// before it left open.
    static func join(_ stretches: [Stretch]) -> [TruthVisit]? {
        var done = stretches.first?.done ?? []
        var carried = stretches.first?.open ?? [:]
        for stretch in stretches.dropFirst() {
            // A cut is clear of every boundary: the fences a stretch starts inside are those
            // whose visits the stretches before it left open.
            guard Set(carried.keys) == stretch.inherited else { return nil }
            for (j, end) in stretch.inheritedEnds {
                guard var visit = carried.removeValue(forKey: j), let exit = end.exit else { continue }
                visit.exit = exit
                visit.exitSpeed = end.exitSpeed
                visit.exitLongitude = end.exitLongitude
                visit.exitLatitude = end.exitLatitude
                // A path touching the boundary at one instant is not a visit.
                if exit > visit.enter { done.append(visit) }
            }
            done += stretch.done
            for (j, visit) in stretch.open where !stretch.inherited.contains(j) || stretch.inheritedEnds[j] != nil {
                carried[j] = visit
            }
        }
        done += carried.values
        // File order breaks ties between fences sharing an id (`open` has no order of its own).
        return done.sorted { a, b in TruthVisit.ordered(a, b) || (!TruthVisit.ordered(b, a) && a.fence < b.fence) }
    }

    /// What the walk of one stretch of the path found.
    struct Stretch {
        /// Visits begun and ended in the stretch.
        var done: [TruthVisit] = []
        /// Visits open at its end, by fence: begun in it, or inherited and not yet ended.
        var open: [Int: TruthVisit] = [:]
        /// The fences inside at its first fix (after the path's first stretch): visits begun
        /// before it.
        var inherited: Set<Int> = []
        /// The ends of inherited visits (only their exit members count), by fence.
        var inheritedEnds: [Int: TruthVisit] = [:]
    }

    /// Indices of `path` that cut it into at most `stretches` stretches of about equal length:
    /// `0`, the cuts, `path.count - 1`. A cut is a fix clear of every region's boundary by more
    /// than ``clearance``, with time passing before and after it; one is looked for among a
    /// thousand fixes from each even split.
    func cuts(_ path: [Fix], stretches: Int) -> [Int] {
        var cuts = [0]
        let last = path.count - 1
        var found: [Int] = []
        let regions = layout.regions
        for s in 1..<max(1, stretches) {
            let target = last * s / stretches
            for c in target..<min(last, target + 1000) where c > cuts[cuts.count - 1] {
                guard let t0 = path[c - 1].time, let t = path[c].time, let t1 = path[c + 1].time, t0 < t, t < t1 else { continue }
                let p = frame.forward(XY(longitude: path[c].longitude, latitude: path[c].latitude))
                guard (try? self.candidates(BoundingBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y), into: &found)) != nil else { continue }
                let clear = found.allSatisfy { j in
                    guard let region = regions[j] else { return true }
                    return side(region, p).map { $0.distance > GroundTruth.clearance } ?? false
                }
                if clear {
                    cuts.append(c)
                    break
                }
            }
        }
        cuts.append(max(last, 0))
        return cuts
    }
}

/// A worker's ground truths: its own, and others made when first needed, so that a long path is
/// walked in stretches on several threads (``GroundTruth/visits(along:using:)``). Each truth
/// owns a GEOS context and a PROJ frame; the team is one worker's, not shared.
public final class GroundTruthTeam {
    public private(set) var members: [GroundTruth]
    /// At most this many stretches (threads) for one path.
    public let size: Int

    /// A team of `first` and up to `size - 1` more truths of the same fences and frame.
    public init(_ first: GroundTruth, size: Int) {
        members = [first]
        self.size = max(1, size)
    }

    /// The true visits along `fixes` (see ``GroundTruth/visits(along:)``), in as many stretches
    /// as the path is long enough for, up to ``size``.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` when GEOS fails, or when another truth
    ///   cannot be made.
    public func visits(along fixes: [Fix]) throws(FencesimError) -> [TruthVisit] {
        let wanted = min(size, max(1, fixes.count / GroundTruth.fixesPerStretch))
        while members.count < wanted {
            members.append(try GroundTruth(sharing: members[0]))
        }
        return try GroundTruth.visits(along: fixes, using: Array(members.prefix(wanted)))
    }
}
