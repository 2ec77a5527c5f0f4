import CGEOS

extension Geometry {
    /// Interprets a GEOS predicate result: 1 true, 0 false, 2 exception.
    @inline(__always)
    func predicate(_ result: CChar, _ function: String) throws(SpatialError) -> Bool {
        switch result {
        case 1: return true
        case 0: return false
        default: throw context.error(function)
        }
    }

    /// Whether the geometries share any point (boundary included). See `GEOSIntersects_r`.
    public func intersects(_ other: Geometry) throws(SpatialError) -> Bool {
        precondition(other.context === context, "geometries from different GEOS contexts")
        return try predicate(GEOSIntersects_r(context.handle, pointer, other.pointer), "GEOSIntersects_r")
    }

    /// Whether `other` lies in this geometry and at least one interior point is shared.
    /// See `GEOSContains_r`.
    public func contains(_ other: Geometry) throws(SpatialError) -> Bool {
        precondition(other.context === context, "geometries from different GEOS contexts")
        return try predicate(GEOSContains_r(context.handle, pointer, other.pointer), "GEOSContains_r")
    }

    /// Whether no point of `other` lies outside this geometry (boundary counts as inside).
    /// See `GEOSCovers_r`.
    public func covers(_ other: Geometry) throws(SpatialError) -> Bool {
        precondition(other.context === context, "geometries from different GEOS contexts")
        return try predicate(GEOSCovers_r(context.handle, pointer, other.pointer), "GEOSCovers_r")
    }

    /// Cartesian distance to `other` (0 when they intersect). See `GEOSDistance_r`.
    public func distance(to other: Geometry) throws(SpatialError) -> Double {
        precondition(other.context === context, "geometries from different GEOS contexts")
        var d = 0.0
        // Returns 0 on exception, 1 otherwise.
        guard GEOSDistance_r(context.handle, pointer, other.pointer, &d) == 1 else { throw context.error("GEOSDistance_r") }
        return d
    }

    /// Area in squared frame units.
    public func area() throws(SpatialError) -> Double {
        var a = 0.0
        guard GEOSArea_r(context.handle, pointer, &a) == 1 else { throw context.error("GEOSArea_r") }
        return a
    }

    /// Length (perimeter for polygons) in frame units.
    public func length() throws(SpatialError) -> Double {
        var l = 0.0
        guard GEOSLength_r(context.handle, pointer, &l) == 1 else { throw context.error("GEOSLength_r") }
        return l
    }

    /// The boundary (rings of a polygon, end points of a line). See `GEOSBoundary_r`.
    public func boundary() throws(SpatialError) -> Geometry {
        try Geometry.wrap(GEOSBoundary_r(context.handle, pointer), context, "GEOSBoundary_r")
    }

    /// The point set shared with `other`. See `GEOSIntersection_r`.
    public func intersection(_ other: Geometry) throws(SpatialError) -> Geometry {
        precondition(other.context === context, "geometries from different GEOS contexts")
        return try Geometry.wrap(GEOSIntersection_r(context.handle, pointer, other.pointer), context, "GEOSIntersection_r")
    }

    /// The geometry grown (or, for a negative distance, shrunk) by `distance` frame units.
    ///
    /// Buffers must be computed in a metric frame, never in degrees. Round joins and caps with
    /// `quadrantSegments` segments per quarter circle. A polygon shrunk past its width becomes
    /// empty. See `GEOSBufferWithParams_r`.
    public func buffer(_ distance: Double, quadrantSegments: Int = 16) throws(SpatialError) -> Geometry {
        guard let params = GEOSBufferParams_create_r(context.handle) else { throw context.error("GEOSBufferParams_create_r") }
        defer { GEOSBufferParams_destroy_r(context.handle, params) }
        GEOSBufferParams_setQuadrantSegments_r(context.handle, params, Int32(quadrantSegments))
        return try Geometry.wrap(GEOSBufferWithParams_r(context.handle, pointer, params, distance), context, "GEOSBufferWithParams_r")
    }

    /// The width of the narrowest strip that holds the geometry (GEOS minimum width, the
    /// "minimum diameter" of the convex hull): how far a fix can jump across it. See
    /// `GEOSMinimumWidth_r`.
    public func minimumWidth() throws(SpatialError) -> Double {
        try minimumWidthSegment().width
    }

    /// The minimum width (``minimumWidth()``) and the segment across the hull that measures it
    /// (both ends the same point for a one-point input).
    public func minimumWidthSegment() throws(SpatialError) -> (width: Double, from: XY, to: XY) {
        // A new LineString (or a Point for a one-point input) we own; NULL on exception.
        let line = try Geometry.wrap(GEOSMinimumWidth_r(context.handle, pointer), context, "GEOSMinimumWidth_r")
        let positions = try line.shape.positions
        let from = positions.first ?? XY(0, 0)
        return (try line.length(), from, positions.last ?? from)
    }

    /// The result of an OGC validity check.
    public struct Validity: Hashable, Sendable {
        public var isValid: Bool
        /// GEOS's reason, e.g. "Self-intersection" or "Too few points in geometry component".
        public var reason: String?
        /// Where the problem is, in the geometry's coordinates.
        public var location: XY?

        public init(isValid: Bool, reason: String?, location: XY?) {
            self.isValid = isValid
            self.reason = reason
            self.location = location
        }
    }

    /// Whether the geometry is valid in the OGC sense. When it is not, GEOS explains why
    /// through the context's notice handler ("Self-intersection at or near point 1 1"); the text
    /// is in ``GEOSContext/notices``. ``validity()`` gives the same answer as a value.
    ///
    /// See `GEOSisValid_r`.
    public var isValid: Bool {
        get throws(SpatialError) {
            // Returns 1 valid, 0 invalid (with a notice), 2 on exception.
            try predicate(GEOSisValid_r(context.handle, pointer), "GEOSisValid_r")
        }
    }

    /// Checks OGC validity and returns GEOS's reason and location when invalid.
    /// See `GEOSisValidDetail_r`.
    public func validity() throws(SpatialError) -> Validity {
        var reason: UnsafeMutablePointer<CChar>?
        var location: OpaquePointer?
        // Returns 1 when valid, 0 when invalid, 2 on exception; `reason` and `location` are
        // ours to free when set.
        // Flags 0: a self-touching ring forming a hole is invalid (strict OGC).
        let result = GEOSisValidDetail_r(context.handle, pointer, 0, &reason, &location)
        defer {
            if let reason { GEOSFree_r(context.handle, reason) }
            if let location { GEOSGeom_destroy_r(context.handle, location) }
        }
        switch result {
        case 1:
            return Validity(isValid: true, reason: nil, location: nil)
        case 0:
            var point: XY?
            if let location {
                var x = 0.0, y = 0.0
                if GEOSGeomGetX_r(context.handle, location, &x) == 1, GEOSGeomGetY_r(context.handle, location, &y) == 1 {
                    point = XY(x, y)
                }
            }
            return Validity(isValid: false, reason: reason.map { String(cString: $0) }, location: point)
        default:
            throw context.error("GEOSisValidDetail_r")
        }
    }

    /// A valid geometry covering the same points, keeping collapsed parts as lower-dimension
    /// pieces ("linework" method, the GEOS 3.11 default). A repaired polygon may therefore come
    /// back as a collection holding lines or points as well. See `GEOSMakeValid_r`.
    public func makeValid() throws(SpatialError) -> Geometry {
        try Geometry.wrap(GEOSMakeValid_r(context.handle, pointer), context, "GEOSMakeValid_r")
    }

    /// Normalised form (rings oriented and started canonically), for stable comparisons.
    public func normalized() throws(SpatialError) -> Geometry {
        let copy = try self.copy()
        // Returns -1 on exception, 0 otherwise.
        guard GEOSNormalize_r(context.handle, copy.pointer) == 0 else { throw context.error("GEOSNormalize_r") }
        return copy
    }

    /// Exact (coordinate-by-coordinate) equality. See `GEOSEqualsExact_r` with tolerance 0.
    public func isExactlyEqual(to other: Geometry) throws(SpatialError) -> Bool {
        precondition(other.context === context, "geometries from different GEOS contexts")
        return try predicate(GEOSEqualsExact_r(context.handle, pointer, other.pointer, 0), "GEOSEqualsExact_r")
    }

    /// Topological equality within `tolerance`: each geometry lies within `tolerance` of the
    /// other (Hausdorff distance). A named tolerance comparison, not `==`.
    public func isApproximatelyEqual(to other: Geometry, tolerance: Double) throws(SpatialError) -> Bool {
        precondition(other.context === context, "geometries from different GEOS contexts")
        var d = 0.0
        guard GEOSHausdorffDistance_r(context.handle, pointer, other.pointer, &d) == 1 else {
            throw context.error("GEOSHausdorffDistance_r")
        }
        return d <= tolerance
    }
}
