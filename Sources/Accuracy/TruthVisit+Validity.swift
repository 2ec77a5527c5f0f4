import Fences
import Support

extension TruthVisit {
    /// The parts of `visits` during which their fence exists (``Fences/FenceValidity``): a visit
    /// to a fence that appears while the path is inside it begins at the appearance, one to a
    /// fence that disappears ends at the removal, and a fence that comes and goes makes a visit
    /// of each stretch. Visits to fences without a validity are unchanged, and so is the order
    /// (``ordered(_:_:)``).
    ///
    /// - Parameter end: the path's last instant, where a visit still open ends.
    static func existing(_ visits: [TruthVisit], fences: FenceSet, end: Timestamp?) -> [TruthVisit] {
        guard fences.fences.contains(where: { $0.hasValidity }) else { return visits }
        var out: [TruthVisit] = []
        var clipped = false
        for v in visits {
            guard let validity = fences.fences[v.fence].validity else {
                out.append(v)
                continue
            }
            var start: Timestamp? = validity.contains(v.enter) ? v.enter : nil
            for change in validity.changes(after: v.enter, through: v.exit ?? end ?? v.enter) {
                if change.exists {
                    start = change.time
                } else if let s = start {
                    out.append(v.part(from: s, to: change.time))
                    start = nil
                }
            }
            if let s = start { out.append(v.part(from: s, to: v.exit)) }
            clipped = clipped || out.last != v
        }
        return clipped ? out.sorted(by: ordered) : out
    }

    /// The part of this visit from `start` to `end`: what is known of its entry and exit kept
    /// where they are its own.
    func part(from start: Timestamp, to end: Timestamp?) -> TruthVisit {
        var p = self
        if start != enter {
            p.enter = start
            p.startsInside = false
            p.enterSpeed = nil
            p.enterPlace = nil
        }
        if end != exit { p.exit = end }
        return p
    }
}
