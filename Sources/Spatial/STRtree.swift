import CGEOS

/// A GEOS STRtree over item envelopes: finds which items' boxes meet a query box. Items are
/// identified by their index in insertion order.
///
/// - Important: Not thread-safe. GEOS builds the tree on the first query; after that no item can
///   be inserted.
public final class STRtree {
    private let context: GEOSContext
    /// The tree we own (freed with GEOSSTRtree_destroy_r; it does not own the items).
    private let pointer: OpaquePointer
    private var built = false

    /// The number of items inserted.
    public private(set) var count = 0

    /// Creates an empty tree; `nodeCapacity` is the fan-out (GEOS default 10).
    public init(context: GEOSContext, nodeCapacity: Int = 10) throws(SpatialError) {
        // NULL on exception.
        guard let tree = GEOSSTRtree_create_r(context.handle, max(2, nodeCapacity)) else {
            throw context.error("GEOSSTRtree_create_r")
        }
        self.context = context
        self.pointer = tree
    }

    deinit {
        GEOSSTRtree_destroy_r(context.handle, pointer)
    }

    /// Adds an item with the given box; returns its index.
    ///
    /// - Precondition: no query has been made yet.
    @discardableResult
    public func insert(_ box: BoundingBox) throws(SpatialError) -> Int {
        precondition(!built, "STRtree items must all be inserted before the first query")
        // The rectangle is only needed for the call: GEOS ≥ 3.10 (TemplateSTRtree) copies the
        // envelope into the tree and keeps nothing of the geometry (checked under valgrind with
        // 3.11.1: freeing it right after the insert leaves no invalid read at query time).
        // Keeping the rectangles alive, as an earlier version did, cost a GEOS polygon per item.
        let envelope = try STRtree.rectangle(box, context)
        let index = count
        context.clearError()
        // Items are 1-based indices disguised as pointers: GEOS never dereferences them. The
        // function returns nothing; an exception shows only through the error handler.
        GEOSSTRtree_insert_r(context.handle, pointer, envelope.pointer, UnsafeMutableRawPointer(bitPattern: index + 1))
        if context.lastError != nil { throw context.error("GEOSSTRtree_insert_r") }
        count += 1
        return index
    }

    /// The indices of every item whose box meets `box` (boundary contact included), in
    /// increasing order.
    public func query(_ box: BoundingBox) throws(SpatialError) -> [Int] {
        var found: [Int] = []
        try query(box, into: &found)
        return found
    }

    /// Replaces `results` with the indices of every item whose box meets `box` (boundary contact
    /// included), in increasing order; reuse one array to avoid allocating the result per query.
    ///
    /// - Complexity: O(log n + k log k) for k results, plus one GEOS probe geometry made and
    ///   freed per call (GEOS 3.11 has no query by envelope in its C API).
    public func query(_ box: BoundingBox, into results: inout [Int]) throws(SpatialError) {
        results.removeAll(keepingCapacity: true)
        guard count > 0 else { return }
        built = true
        let probe = try STRtree.rectangle(box, context)
        context.clearError()
        withUnsafeMutablePointer(to: &results) { out in
            // Returns nothing; the callback gets each item whose envelope intersects the probe's.
            GEOSSTRtree_query_r(
                context.handle, pointer, probe.pointer,
                { item, userdata in
                    guard let userdata, let item else { return }
                    let results = userdata.assumingMemoryBound(to: [Int].self)
                    results.pointee.append(Int(bitPattern: item) - 1)
                }, out)
        }
        if context.lastError != nil { throw context.error("GEOSSTRtree_query_r") }
        results.sort()
    }

    static func rectangle(_ box: BoundingBox, _ context: GEOSContext) throws(SpatialError) -> Geometry {
        // Also false for NaN, which GEOS would otherwise take silently.
        guard box.minX <= box.maxX, box.minY <= box.maxY else {
            throw SpatialError(function: "STRtree", message: "bounding box \(box) is inverted or not a number")
        }
        if box.minX == box.maxX && box.minY == box.maxY {
            return try Geometry(point: XY(box.minX, box.minY), context: context)
        }
        // Degenerate boxes (a horizontal or vertical line) become lines; GEOS rectangles need area.
        if box.minX == box.maxX || box.minY == box.maxY {
            return try Geometry(.lineString([XY(box.minX, box.minY), XY(box.maxX, box.maxY)]), context: context)
        }
        return try Geometry.wrap(
            GEOSGeom_createRectangle_r(context.handle, box.minX, box.minY, box.maxX, box.maxY),
            context, "GEOSGeom_createRectangle_r")
    }
}
