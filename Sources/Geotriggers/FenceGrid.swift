import Spatial
import Support

/// A uniform grid over fence envelopes in the metric frame: the candidate fences for a query box
/// are those registered in the cells the box covers.
///
/// Chosen over an STRtree for the hot path because a point query is one array lookup and the
/// candidates come back without a callback or an allocation (SPEC §8). Fences that would cover
/// more than ``maximumCellsPerFence`` cells (country-sized areas) are kept in a short list checked
/// on every query instead.
///
/// Public so that ground truth finds the fences near a path with the engine's index.
public struct FenceGrid: Sendable {
    static let maximumCellsPerFence = 1024
    static let maximumCells = 1 << 22

    let originX: Double
    let originY: Double
    let cellSize: Double
    let columns: Int
    let rows: Int
    /// CSR layout: the fences of cell `c` are `items[starts[c]..<starts[c + 1]]`.
    let starts: [Int32]
    let items: [Int32]
    /// Fences checked on every query.
    let large: [Int32]

    public init(envelopes: [BoundingBox?]) {
        var extent: BoundingBox?
        var sizes: [Double] = []
        for case let e? in envelopes {
            if extent == nil { extent = e } else { extent?.include(e) }
            sizes.append(max(e.width, e.height))
        }
        guard let extent else {
            originX = 0; originY = 0; cellSize = 1; columns = 1; rows = 1
            starts = [0, 0]; items = []; large = []
            return
        }
        // The median without sorting (a sort was a fifth of this init on 400,000 fences).
        let median = Selection.element(atSortedIndex: sizes.count / 2, in: &sizes)
        var cell = min(max(median / 2, 25), 5000)
        // Keep the grid within memory bounds for sparse, wide fence sets.
        while (extent.width / cell + 1) * (extent.height / cell + 1) > Double(FenceGrid.maximumCells) {
            cell *= 2
        }
        originX = extent.minX
        originY = extent.minY
        cellSize = cell
        columns = Int(extent.width / cell) + 1
        rows = Int(extent.height / cell) + 1

        // Counted, then filled, through plain pointers: every fence touches its cells twice, and
        // the arrays' uniqueness and bounds checks at each touch cost a sixth of this init (73 →
        // 61 M instructions for the large workload's 100,000 fences).
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        var largeList: [Int32] = []
        var ranges: [SIMD4<Int32>] = Array(repeating: SIMD4(repeating: -1), count: envelopes.count)
        // Plain values for the closures (`self` is not whole yet).
        let (gridColumns, gridRows, x0, y0) = (columns, rows, extent.minX, extent.minY)
        counts.withUnsafeMutableBufferPointer { counts in
            ranges.withUnsafeMutableBufferPointer { ranges in
                for (j, e) in envelopes.enumerated() {
                    guard let e else { continue }
                    let (c0, c1, r0, r1) = FenceGrid.cellRange(
                        e, originX: x0, originY: y0, cellSize: cell, columns: gridColumns, rows: gridRows)
                    if (c1 - c0 + 1) * (r1 - r0 + 1) > FenceGrid.maximumCellsPerFence {
                        largeList.append(Int32(j))
                        continue
                    }
                    ranges[j] = SIMD4(Int32(c0), Int32(c1), Int32(r0), Int32(r1))
                    for r in r0...r1 {
                        for c in c0...c1 { counts[r * gridColumns + c + 1] += 1 }
                    }
                }
                for k in 1..<counts.count { counts[k] += counts[k - 1] }
            }
        }
        var fill = counts
        let itemsOut = [Int32](unsafeUninitializedCapacity: Int(counts[counts.count - 1])) { items, count in
            fill.withUnsafeMutableBufferPointer { fill in
                for (j, range) in ranges.enumerated() where range[0] >= 0 {
                    for r in Int(range[2])...Int(range[3]) {
                        for c in Int(range[0])...Int(range[1]) {
                            let cellIndex = r * gridColumns + c
                            (items.baseAddress! + Int(fill[cellIndex])).initialize(to: Int32(j))
                            fill[cellIndex] += 1
                        }
                    }
                }
            }
            count = items.count
        }
        starts = counts
        items = itemsOut
        large = largeList
    }

    /// The cells an envelope is registered in (first and last column, first and last row),
    /// clamped to the grid.
    func cellRange(_ e: BoundingBox) -> (c0: Int, c1: Int, r0: Int, r1: Int) {
        FenceGrid.cellRange(e, originX: originX, originY: originY, cellSize: cellSize, columns: columns, rows: rows)
    }

    /// The cells a box covers (first and last column, first and last row); `nil` when it misses
    /// the grid. The one cell arithmetic of a query, here and in ``FenceIndex``'s table.
    @inline(__always)
    static func cells(
        _ box: BoundingBox, originX: Double, originY: Double, cellSize: Double,
        columns: Int, rows: Int
    ) -> (c0: Int, c1: Int, r0: Int, r1: Int)? {
        let fx0 = (box.minX - originX) / cellSize
        let fx1 = (box.maxX - originX) / cellSize
        let fy0 = (box.minY - originY) / cellSize
        let fy1 = (box.maxY - originY) / cellSize
        guard fx1 >= 0, fy1 >= 0, fx0 < Double(columns), fy0 < Double(rows) else { return nil }
        return (index(fx0, below: columns), index(fx1, below: columns), index(fy0, below: rows), index(fy1, below: rows))
    }

    static func cellRange(
        _ e: BoundingBox, originX: Double, originY: Double, cellSize cell: Double,
        columns: Int, rows: Int
    ) -> (c0: Int, c1: Int, r0: Int, r1: Int) {
        (
            index((e.minX - originX) / cell, below: columns), index((e.maxX - originX) / cell, below: columns),
            index((e.minY - originY) / cell, below: rows), index((e.maxY - originY) / cell, below: rows)
        )
    }

    /// The cell of `f` cell sizes from the origin, clamped to `0..<count` (``Spatial/GridCells``).
    @inline(__always)
    static func index(_ f: Double, below count: Int) -> Int {
        GridCells.index(f, below: count)
    }

    /// Calls `body` once for each fence whose envelope may meet `box`. `stamp` and `marks`
    /// deduplicate fences registered in several cells: a fence is reported when
    /// `marks[fence] != stamp`, after which its mark is set to `stamp`.
    @inline(__always)
    public func forEachCandidate(in box: BoundingBox, stamp: UInt32, marks: UnsafeMutablePointer<UInt32>, _ body: (Int) -> Void) {
        for j in large where marks[Int(j)] != stamp {
            marks[Int(j)] = stamp
            body(Int(j))
        }
        guard
            let (c0, c1, r0, r1) = FenceGrid.cells(
                box, originX: originX, originY: originY, cellSize: cellSize, columns: columns, rows: rows)
        else { return }
        items.withUnsafeBufferPointer { itemsBuffer in
            starts.withUnsafeBufferPointer { startsBuffer in
                for r in r0...r1 {
                    for c in c0...c1 {
                        let cell = r * columns + c
                        for k in Int(startsBuffer[cell])..<Int(startsBuffer[cell + 1]) {
                            let j = Int(itemsBuffer[k])
                            if marks[j] != stamp {
                                marks[j] = stamp
                                body(j)
                            }
                        }
                    }
                }
            }
        }
    }
}
