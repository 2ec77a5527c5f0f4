extension Scoring.Reader {
    /// Whether an event of a named geotrigger is scored: a fence several geotriggers watch is
    /// visited from the first of their enters to the last of their exits (as check-ins and
    /// Places see it, ``FenceMembership``), so that a report scores each fence once against its
    /// truth rather than one visit per geotrigger. Lost enters and exits are scored as they come.
    mutating func watched(_ kind: Scoring.Event.Kind, _ fence: Int32) -> Bool {
        let inside = watchedInside[fence, default: 0]
        switch kind {
        case .enter:
            watchedInside[fence] = inside + 1
            return inside == 0
        case .exit:
            guard inside > 0 else { return true }
            watchedInside[fence] = inside - 1
            return inside == 1
        case .passthrough:
            return inside == 0
        case .lostEnter, .lostExit:
            return true
        }
    }
}
