/// What the feed (the fix's point, or its accuracy disc of radius `a`) says of one fence under a
/// relationship (SPEC §2): whether it meets the condition to enter and the condition to stay
/// inside, and how far each condition is from changing: the metres the point must move, or the
/// disc grow or shrink, before the answer can flip (lower bounds; 0 when it is on the edge).
///
/// The one place where relationship × feed is decided: the engine's every path (a fence tested
/// when the device could have reached its boundary, a fence tested at every fix, a visit hidden
/// between fixes) asks it, with the distances its geometry measured. The boundary counts as
/// inside.
public struct FenceDecision: Hashable, Sendable {
    public var enter: Bool
    public var stay: Bool
    public var enterClearance: Double
    public var stayClearance: Double

    /// A disc fence (a circle, or a beacon with its check-in and full-range radii): `distance` from
    /// the device to the centre, entered within `enterRadius`, stayed in within `stayRadius`.
    @inline(__always)
    public static func disc(
        _ relationship: GeotriggerSettings.Relationship, distance d: Double, enterRadius r: Double,
        stayRadius rx: Double, accuracy a: Double
    ) -> FenceDecision {
        switch relationship {
        case .intersects:
            return FenceDecision(enter: d <= r + a, stay: d <= rx + a, enterClearance: abs(d - (r + a)), stayClearance: abs(d - (rx + a)))
        case .contains:
            return FenceDecision(enter: d + a <= r, stay: d + a <= rx, enterClearance: abs(d + a - r), stayClearance: abs(d + a - rx))
        case .containsIntersects:
            return FenceDecision(enter: d + a <= r, stay: d <= rx + a, enterClearance: abs(d + a - r), stayClearance: abs(d - (rx + a)))
        }
    }

    /// An area fence: whether the device is `inside` it (boundary included) and its distance to
    /// the boundary, known to within `error` metres (the clearances are less that).
    ///
    /// Contained means inside with the boundary at least `a` away; at exactly `a` the disc
    /// touches the boundary from inside, which counts as contained.
    @inline(__always)
    public static func area(
        _ relationship: GeotriggerSettings.Relationship, inside: Bool, boundaryDistance d: Double,
        accuracy a: Double, error: Double = 0
    ) -> FenceDecision {
        let near = d <= a
        let hit = inside || near
        let contained = inside && (!near || a == 0 || d >= a)
        let signed = inside ? -d : d
        switch relationship {
        case .intersects:
            let clearance = abs(signed - a) - error
            return FenceDecision(enter: hit, stay: hit, enterClearance: clearance, stayClearance: clearance)
        case .contains:
            let clearance = abs(signed + a) - error
            return FenceDecision(enter: contained, stay: contained, enterClearance: clearance, stayClearance: clearance)
        case .containsIntersects:
            return FenceDecision(
                enter: contained, stay: hit, enterClearance: abs(signed + a) - error, stayClearance: abs(signed - a) - error)
        }
    }

    /// The decision for a device `dx`, `dy` beyond an area's envelope (0 within its extent) when
    /// it is farther than the disc from the envelope on either axis, by more than
    /// ``envelopeMargin``: outside, whatever the relationship (the envelope is no farther than
    /// the area); `nil` when the area itself must be measured. The margin sends a disc that just
    /// touches the area to the exact distance, whichever way the subtraction rounds.
    @inline(__always)
    public static func beyondEnvelope(dx: Double, dy: Double, accuracy a: Double) -> FenceDecision? {
        guard dx > a + envelopeMargin || dy > a + envelopeMargin else { return nil }
        let clearance = (dx * dx + dy * dy).squareRoot() - abs(a)
        return FenceDecision(enter: false, stay: false, enterClearance: clearance, stayClearance: clearance)
    }

    /// A nanometre: far above the rounding of coordinates in a metric frame, far below any fence.
    public static let envelopeMargin = 1e-9

    /// Neither condition can hold (a line, an emptied fence).
    public static let never = FenceDecision(enter: false, stay: false, enterClearance: .infinity, stayClearance: .infinity)

    /// The condition that decides a fence's next state: staying when it is `inside`, else entering.
    @inline(__always)
    public func holds(inside: Bool) -> Bool { inside ? stay : enter }

    /// How far that condition is from changing.
    @inline(__always)
    public func clearance(inside: Bool) -> Double { inside ? stayClearance : enterClearance }
}
