extension XY {
    /// Where the line through `p` and `q` is at `radius` from `center`: the fractions `t` along
    /// `p → q` (the point `p + t·(q − p)`), nearer `p` first, or `nil` when the line misses the
    /// circle (or `p == q`). A tangent line gives one fraction twice.
    ///
    /// The one solution of the segment–circle equation, shared by the engine (visits hidden
    /// between fixes) and ground truth (where a path crosses a circle's boundary), which then
    /// apply their own rule to a tangent line: the engine counts touching the boundary as a
    /// visit (the boundary is inside), ground truth counts a crossing only where the side
    /// changes. The pair of roots is the numerically stable one: the root away from zero by the
    /// quadratic formula without cancellation, the other from the product of the roots.
    @inlinable
    public static func lineCircleFractions(_ p: XY, _ q: XY, center c: XY, radius r: Double) -> (near: Double, far: Double)? {
        let dx = q.x - p.x
        let dy = q.y - p.y
        let fx = p.x - c.x
        let fy = p.y - c.y
        let qa = dx * dx + dy * dy
        let qb = 2 * (fx * dx + fy * dy)
        let qc = fx * fx + fy * fy - r * r
        let discriminant = qb * qb - 4 * qa * qc
        guard qa > 0, discriminant >= 0 else { return nil }
        if discriminant == 0 {
            let t = -qb / (2 * qa)
            return (t, t)
        }
        let root = discriminant.squareRoot()
        let half = -0.5 * (qb + (qb >= 0 ? root : -root))
        let t0 = half / qa
        let t1 = qc / half
        return t0 <= t1 ? (t0, t1) : (t1, t0)
    }
}
