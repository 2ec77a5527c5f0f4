import Fences
import Geotriggers

/// Whether the device is inside each fence as what sees a fence once reads it (check-ins, Places,
/// scoring), when several geotriggers watch one fence: inside from the first of its geotriggers'
/// enters to the last of their exits (see `docs/geotriggers.md`, "One fence, several
/// geotriggers").
///
/// Check-ins and Places model the place, not a notification stream: a store watched by a wide
/// "approach" geotrigger and a tight "arrival" one is one visit of the store, not two
/// overlapping visits with an exit while the device is still in it.
struct FenceMembership {
    /// By fence of the watched set: the fence's index among the distinct fences
    /// (``Fences/FenceWatchers/shared``).
    let shared: [Int32]
    /// By distinct fence: its id's place among the ids. Membership is by id, so that a fence
    /// replaced while the device stays inside (a version of the same id, whose exit follows the
    /// first version's enter) is one stay, as check-ins read it.
    let group: [Int32]
    /// By id: how many of its geotriggers have the device inside.
    private var inside: [Int32]
    /// By id: whether a `dwell` has passed since the device entered it.
    private var dwelled: [Bool]

    init(_ fences: FenceSet) {
        let watchers =
            fences.watchers
            ?? FenceWatchers(
                names: [], geotrigger: [], shared: Array(0..<Int32(fences.fences.count)),
                sharedCount: fences.fences.count)
        shared = watchers.shared
        var ids: [String: Int32] = [:]
        group = fences.fences[..<watchers.sharedCount].map { fence in
            if let g = ids[fence.id] { return g }
            ids[fence.id] = Int32(ids.count)
            return Int32(ids.count - 1)
        }
        inside = Array(repeating: 0, count: ids.count)
        dwelled = Array(repeating: false, count: ids.count)
    }

    /// The events of one fix (the engine's, in its order) that the distinct fences see, into
    /// `out`, each renumbered to its distinct fence:
    /// - an `enter` when no other geotrigger of its fence has the device inside, an `exit` when
    ///   it was the last that had;
    /// - a fence's first `dwell` of a stay;
    /// - a `passthrough` while no geotrigger of its fence has the device inside, and a `cross`,
    ///   once per fence and fix;
    /// - a `suppressed` finding of the fence's first geotrigger only.
    ///
    /// - Complexity: O(events × events of the fix that pass).
    mutating func take(_ buffer: [GeotriggerEvent], into out: inout [GeotriggerEvent]) {
        out.removeAll(keepingCapacity: true)
        for k in buffer.indices {
            let f = Int(shared[buffer[k].fence])
            let id = Int(group[f])
            switch buffer[k].kind {
            case .enter:
                inside[id] += 1
                guard inside[id] == 1 else { continue }
            case .exit:
                guard inside[id] > 0 else { continue }
                inside[id] -= 1
                guard inside[id] == 0 else { continue }
                dwelled[id] = false
            case .dwell:
                guard !dwelled[id] else { continue }
                dwelled[id] = true
            case .passthrough, .cross:
                let kind = buffer[k].kind
                guard kind == .cross || inside[id] == 0, !out.contains(where: { group[$0.fence] == id && $0.kind == kind }) else {
                    continue
                }
            case .suppressed:
                guard buffer[k].fence == f else { continue }
            }
            var event = buffer[k]
            event.fence = f
            out.append(event)
        }
    }
}
