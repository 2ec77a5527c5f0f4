import Fences
import Support

/// Fences that exist only part of the time (``Fences/FenceValidity``): `validFrom`, `validUntil`,
/// a schedule, and the versions a fence-changes file adds, removes or replaces (versions of one
/// fence share its id; a replacement's validity starts where the replaced version's ends).
///
/// Such a fence is never scheduled (``FenceIndex/isScheduled``): it is tested at every fix its
/// query reaches, like a fence with a filter, and skipped while it does not exist. The instants
/// at which fences appear or disappear between the previous fix and the current one are applied
/// first, in time order, then by fence id, at the device's last known position (the previous
/// fix), as ArcGIS re-evaluates a fence moved while it monitors:
/// - a fence that appears with the device inside enters (reason `added`) per its initial
///   trigger (`initialTrigger: none`: inside, silently);
/// - one that disappears with the device inside exits (reason `removed`);
/// - a replaced fence the device is no longer inside exits (reason `replaced`); one the device
///   is now inside enters (reason `replaced`, per its initial trigger); one it stays inside
///   keeps its state (its entry time, its dwell).
///
/// A fence whose filter rejected the previous fix is not tested at the change (it appears
/// outside, or a replacement keeps its state) but at its next fix. A visit hidden between two
/// fixes, or a line crossed, counts only when the fence existed at the first of them.
extension GeotriggerEngine {
    /// One appearance or disappearance of a fence version between two fixes.
    struct ValidityChange {
        var time: Timestamp
        var fenceRank: Int32
        var fence: Int
        var exists: Bool
    }

    /// The fences with a validity, and whether each fence exists from the start of a trace.
    static func validityFences(_ fenceSet: FenceSet) -> [Int32] {
        fenceSet.fences.indices.compactMap { fenceSet.fences[$0].hasValidity ? Int32($0) : nil }
    }

    /// Of `fences`, those with a schedule, and the `validFrom` and `validUntil` of the others,
    /// in time order (then by fence).
    static func validityTimeline(_ fenceSet: FenceSet, _ fences: [Int32]) -> (
        schedules: [Int32], boundaries: [(time: Timestamp, fence: Int32)]
    ) {
        var schedules: [Int32] = []
        var boundaries: [(time: Timestamp, fence: Int32)] = []
        for j in fences {
            guard let validity = fenceSet.fences[Int(j)].validity else { continue }
            if !validity.schedule.isEmpty {
                schedules.append(j)
                continue
            }
            if let from = validity.from { boundaries.append((from, j)) }
            if let until = validity.until { boundaries.append((until, j)) }
        }
        boundaries.sort { a, b in a.time != b.time ? a.time < b.time : a.fence < b.fence }
        return (schedules, boundaries)
    }

    /// Takes each fence's existence at the trace's first fix (no events: the first fix is each
    /// fence's first test).
    func startValidity(at sample: Sample) {
        boundaryCursor = validityBoundaries.firstIndex { $0.time > sample.time } ?? validityBoundaries.count
        for j in validityFences {
            let j = Int(j)
            exists[j] = fences.fenceSet.fences[j].validity?.contains(sample.time) ?? true
            existsSince[j] = sample.time
        }
    }

    /// Applies the appearances and disappearances after `previous` and up to `sample`, in time
    /// order, then by fence id, disappearances first; a version that disappears as another of
    /// the same id appears is replaced by it.
    func applyValidityChanges(from previous: Sample, to sample: Sample) {
        // The fences that may change: those with a schedule, and those with a boundary passed.
        var candidates = scheduleFences
        while boundaryCursor < validityBoundaries.count, validityBoundaries[boundaryCursor].time <= sample.time {
            candidates.append(validityBoundaries[boundaryCursor].fence)
            boundaryCursor += 1
        }
        guard !candidates.isEmpty else { return }
        candidates.sort()
        var changes: [ValidityChange] = []
        let rank = idRank
        for (k, j) in candidates.enumerated() where k == 0 || candidates[k - 1] != j {
            let j = Int(j)
            guard let validity = fences.fenceSet.fences[j].validity else { continue }
            for change in validity.changes(after: previous.time, through: sample.time) {
                changes.append(ValidityChange(time: change.time, fenceRank: rank[j], fence: j, exists: change.exists))
            }
        }
        guard !changes.isEmpty else { return }
        changes.sort { a, b in
            if a.time != b.time { return a.time < b.time }
            if a.exists != b.exists { return !a.exists }
            if a.fenceRank != b.fenceRank { return a.fenceRank < b.fenceRank }
            return a.fence < b.fence
        }
        measuredFence = -1
        var start = 0
        while start < changes.count {
            var end = start
            while end < changes.count, changes[end].time == changes[start].time { end += 1 }
            let instant = changes[start..<end]
            var replacements = Set<Int>()
            for change in instant where !change.exists {
                let id = fences.fenceSet.fences[change.fence].id
                // A version replaces the one of its own geotrigger (when several watch the fence).
                let watcher = fences.fenceSet.watchers?.geotrigger[change.fence]
                if let next = instant.first(where: {
                    $0.exists && !replacements.contains($0.fence) && fences.fenceSet.fences[$0.fence].id == id
                        && fences.fenceSet.watchers?.geotrigger[$0.fence] == watcher
                }) {
                    replacements.insert(next.fence)
                    replace(change.fence, with: next.fence, at: change.time, previous)
                } else {
                    disappear(change.fence, at: change.time, previous)
                }
            }
            for change in instant where change.exists && !replacements.contains(change.fence) {
                appear(change.fence, at: change.time, previous, reason: "added")
            }
            start = end
        }
    }

    /// Fence `j` stops existing at `time`: an exit (reason `removed`) if the device was inside.
    func disappear(_ j: Int, at time: Timestamp, _ last: Sample) {
        exists[j] = false
        let ordinal = Int(scannedOrdinal[j])
        if states[ordinal].inside { exitNow(j, at: time, last, reason: "removed") }
        states[ordinal] = FenceState()
    }

    /// Fence `j` exists from `time`: tested at the last fix, as a first test.
    func appear(_ j: Int, at time: Timestamp, _ last: Sample, reason: String) {
        exists[j] = true
        existsSince[j] = time
        let profile = profiles[j]
        guard !profile.isLine, filterPass[profile.filterID] else { return }
        let a = profile.accuracyFeed ? last.accuracy : 0
        let (enter, _) = conditions(j, last.position, a, profile.relationship, sampleIndex: last.index)
        guard enter else { return }
        var state = FenceState()
        state.inside = true
        state.enteredAt = time
        if profile.level {
            levelChanges.append(
                LevelChange(
                    fence: j, time: time, inside: true, fixIndex: last.index, interpolated: false,
                    longitude: last.longitude, latitude: last.latitude))
        }
        if profile.initialNone {
            state.dwellDone = profile.dwell == nil
        } else {
            emit(.enter, j, last, time: time, reason: reason)
        }
        states[Int(scannedOrdinal[j])] = state
        active.append(fenceSlot[j])
    }

    /// Version `old` is replaced by version `new` at `time`.
    func replace(_ old: Int, with new: Int, at time: Timestamp, _ last: Sample) {
        let oldOrdinal = Int(scannedOrdinal[old])
        let before = states[oldOrdinal]
        exists[old] = false
        states[oldOrdinal] = FenceState()
        guard before.inside else {
            appear(new, at: time, last, reason: "replaced")
            return
        }
        exists[new] = true
        existsSince[new] = time
        let profile = profiles[new]
        var stays = true
        if profile.isLine {
            stays = false
        } else if filterPass[profile.filterID] {
            let a = profile.accuracyFeed ? last.accuracy : 0
            stays = conditions(new, last.position, a, profile.relationship, sampleIndex: last.index).1
        }
        guard stays else {
            exitNow(old, at: time, last, reason: "replaced")
            return
        }
        // No change of state: a level stretch (kept by fence id) goes on.
        var state = before
        state.pending = nil
        states[Int(scannedOrdinal[new])] = state
        active.append(fenceSlot[new])
    }

    /// An exit of fence `j` at `time`, made at the last fix, with `reason`.
    func exitNow(_ j: Int, at time: Timestamp, _ last: Sample, reason: String) {
        if profiles[j].level {
            levelChanges.append(
                LevelChange(
                    fence: j, time: time, inside: false, fixIndex: last.index, interpolated: false,
                    longitude: last.longitude, latitude: last.latitude))
        }
        emit(.exit, j, last, time: time, reason: reason)
    }

    /// Whether fence `j` existed at `time` and has since (the start of a segment that may hide a
    /// visit or cross a line).
    @inline(__always)
    func existed(_ j: Int, since time: Timestamp) -> Bool {
        !profiles[j].hasValidity || existsSince[j] <= time
    }
}
