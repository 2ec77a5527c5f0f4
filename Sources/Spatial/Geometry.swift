import CGEOS

/// A GEOS geometry owned by Swift: the only owner of its `GEOSGeometry*`, freed in `deinit` with
/// the context that created it.
///
/// - Important: Not thread-safe; it belongs to its ``GEOSContext``'s thread (see there).
public final class Geometry {
    /// The context that created the pointer and must free it.
    public let context: GEOSContext
    /// The owned pointer.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`, which `context` created.
    init(owning pointer: OpaquePointer, context: GEOSContext) {
        self.pointer = pointer
        self.context = context
    }

    deinit {
        GEOSGeom_destroy_r(context.handle, pointer)
    }

    /// Takes ownership of a pointer a GEOS call just returned (a new object the caller must
    /// free), or throws the context's error when it is NULL.
    static func wrap(_ pointer: OpaquePointer?, _ context: GEOSContext, _ function: String) throws(SpatialError) -> Geometry {
        guard let pointer else { throw context.error(function) }
        return Geometry(owning: pointer, context: context)
    }

    /// The OGC type name (`Point`, `Polygon`, ...).
    public var typeName: String {
        // Returns NULL on exception, else a string we free with GEOSFree_r.
        guard let cString = GEOSGeomType_r(context.handle, pointer) else {
            context.clearError()
            return "Unknown"
        }
        defer { GEOSFree_r(context.handle, cString) }
        return String(cString: cString)
    }

    /// Whether the geometry has no points.
    public var isEmpty: Bool {
        // GEOSisEmpty_r returns 2 on exception (impossible for a geometry GEOS built), 1 on true,
        // 0 on false.
        GEOSisEmpty_r(context.handle, pointer) == 1
    }

    /// The envelope, or `nil` for an empty geometry.
    public var boundingBox: BoundingBox? {
        guard !isEmpty else { return nil }
        var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
        // Each getter returns 0 on exception, 1 on success.
        guard GEOSGeom_getXMin_r(context.handle, pointer, &minX) == 1,
            GEOSGeom_getYMin_r(context.handle, pointer, &minY) == 1,
            GEOSGeom_getXMax_r(context.handle, pointer, &maxX) == 1,
            GEOSGeom_getYMax_r(context.handle, pointer, &maxY) == 1
        else { return nil }
        return BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// A deep copy in the same context.
    public func copy() throws(SpatialError) -> Geometry {
        try Geometry.wrap(GEOSGeom_clone_r(context.handle, pointer), context, "GEOSGeom_clone_r")
    }
}
