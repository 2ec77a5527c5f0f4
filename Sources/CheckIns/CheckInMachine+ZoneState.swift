import Support

extension CheckInMachine {
    /// What the machine remembers of one zone.
    struct ZoneState: Sendable {
        /// The check-in awaiting its check-out, if any.
        var open: CheckInEvent?
        /// The minimum re-trigger time's reference: the end of the zone's last check-in.
        var reference: Timestamp?
        /// Whether ``reference`` is a check-out (else a check-in), for messages.
        var referenceIsCheckOut = false
        /// Per fence of the zone (by slot): its latest enter or crossing since the zone's last
        /// check-in (percentage crossed).
        var lastEntered: [Timestamp?]
        /// Order of those enters, for `crossedFences`: a counter per slot.
        var enterSequence: [Int]
        var sequence = 0
        /// How many fences of the travel path have been entered in order.
        var pathProgress = 0

        init(fenceCount: Int) {
            lastEntered = Array(repeating: nil, count: fenceCount)
            enterSequence = Array(repeating: 0, count: fenceCount)
        }

        /// Records an enter or crossing of fence `fence` (at `slot` in its zone) for the progress
        /// conditions.
        mutating func record(slot: Int, fence: Int, time: Timestamp, path: [Int]) {
            lastEntered[slot] = time
            sequence += 1
            enterSequence[slot] = sequence
            guard !path.isEmpty else { return }
            if pathProgress < path.count, path[pathProgress] == fence {
                pathProgress += 1
            } else if pathProgress > 0, path[pathProgress - 1] == fence {
                // The fence last matched, again (GPS jitter at its boundary): no change.
            } else if path[0] == fence {
                pathProgress = 1
            } else if path.contains(fence) {
                pathProgress = 0
            }
        }

        /// Forgets progress toward the progress conditions (at a check-in).
        mutating func resetProgress() {
            for k in lastEntered.indices { lastEntered[k] = nil }
            pathProgress = 0
        }

        /// Slots of the fences entered or crossed since the last check-in, within `window` seconds
        /// before `time` when given, in the order of their latest enter.
        func enteredSlots(at time: Timestamp, window: Double?) -> [Int] {
            lastEntered.indices.filter { k in
                guard let t = lastEntered[k] else { return false }
                guard let window else { return true }
                return time.seconds(since: t) <= window
            }.sorted { enterSequence[$0] < enterSequence[$1] }
        }
    }
}
