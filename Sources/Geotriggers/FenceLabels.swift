import Fences
import Support

/// Each fence's id and zone, all a log line reads of its fence, in a compact table by fence
/// (32 bytes a fence): reading them from the 232-byte ``Fences/Fence`` records missed the cache
/// at nearly every event (three quarters of the event log's own per-event time in perf), and a
/// table of 100,000 fences stays in the last-level cache. (Laid out by slot, with the slot looked
/// up first, it missed twice.)
///
/// Built once per ``FenceIndex`` (``FenceIndex/labels``) and shared by every worker; a ground
/// truth's layout has one of its own fence set.
public struct FenceLabels: Sendable {
    @usableFromInline
    struct Label: Sendable {
        @usableFromInline let id: String
        @usableFromInline let zone: String?
    }

    /// By fence: its label.
    @usableFromInline let labels: [Label]

    /// The labels of `fences`.
    package init(_ fences: [Fence]) {
        // Read in place: a copy of a fence retains a dozen references.
        labels = fences.withUnsafeBufferPointer { fences in
            fences.indices.map { j in Label(id: fences[j].id, zone: fences[j].zone) }
        }
    }

    /// The number of fences.
    public var count: Int { labels.count }

    /// Asks the processor to fetch fence `fence`'s label into the cache, ahead of reading it:
    /// the engine does when it makes an event, so that the label is at hand when the event's
    /// line is rendered (waiting for it was a fortieth of an event-log replay's CPU in perf).
    @inline(__always)
    public func prefetch(_ fence: Int) {
        Prefetch.read(labels, fence)
    }

    /// Fence `fence`'s id and zone (its `id` and `zone` in the fence set).
    @inlinable
    public subscript(fence: Int) -> (id: String, zone: String?) {
        let label = labels[fence]
        return (label.id, label.zone)
    }
}
