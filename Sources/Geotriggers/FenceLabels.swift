import Fences

/// Each fence's id and zone, all a log line reads of its fence, in a compact table laid out by
/// slot (``FenceIndex/slotFence``): the fences an engine tests together, and so the fences of
/// consecutive events, have their labels in a few nearby cache lines, where reading them from
/// the 232-byte ``Fences/Fence`` records missed the cache at nearly every event (three quarters
/// of the event log's own per-event time in perf).
///
/// Built once per ``FenceIndex`` (``FenceIndex/labels``) and shared by every worker.
public struct FenceLabels: Sendable {
    struct Label: Sendable {
        let id: String
        let zone: String?
    }

    /// By fence: its slot.
    private let fenceSlot: [Int32]
    /// By slot: the fence's label.
    private let labels: [Label]

    /// The labels of `fences`, laid out by `slotFence` (whose inverse is `fenceSlot`).
    init(_ fences: [Fence], slotFence: [Int32], fenceSlot: [Int32]) {
        precondition(slotFence.count == fences.count && fenceSlot.count == fences.count, "one slot per fence")
        self.fenceSlot = fenceSlot
        // Read in place: a copy of a fence retains a dozen references.
        labels = fences.withUnsafeBufferPointer { fences in
            slotFence.map { j in Label(id: fences[Int(j)].id, zone: fences[Int(j)].zone) }
        }
    }

    /// The number of fences.
    public var count: Int { fenceSlot.count }

    /// Fence `fence`'s id and zone (its `id` and `zone` in the fence set).
    @inline(__always)
    public subscript(fence: Int) -> (id: String, zone: String?) {
        let label = labels[Int(fenceSlot[fence])]
        return (label.id, label.zone)
    }
}
