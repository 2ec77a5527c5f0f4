/// The cell arithmetic of the uniform grids over a plane (the engine's fence grid, the edge grid
/// of ``NarrowestWall``): the one place a coordinate becomes a cell.
public enum GridCells {
    /// The cell of a coordinate `f` cell sizes from the grid's origin: its whole part, clamped to
    /// `0..<count` before it is converted (a coordinate far beyond the grid, such as a disc of
    /// huge accuracy, is beyond what `Int` holds; not a number counts as 0).
    @inlinable @inline(__always)
    public static func index(_ f: Double, below count: Int) -> Int {
        f > 0 ? (f < Double(count - 1) ? Int(f) : count - 1) : 0
    }

    /// The cells from `lo` to `hi` along one axis of a grid of `count` cells of `size` from
    /// `origin`, clamped to the grid.
    @inlinable @inline(__always)
    public static func range(_ lo: Double, _ hi: Double, origin: Double, size: Double, count: Int) -> ClosedRange<Int> {
        let first = index((lo - origin) / size, below: count)
        return first...max(first, index((hi - origin) / size, below: count))
    }
}
