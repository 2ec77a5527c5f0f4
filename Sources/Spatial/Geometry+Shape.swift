import CGEOS

extension Geometry {
    /// Builds a GEOS geometry from plain coordinates.
    ///
    /// Construction checks only what GEOS needs to build the object: a ring must be closed, a
    /// line must not have exactly one position, a polygon with an empty shell cannot have holes.
    /// Everything else (rings of fewer than four positions, self-intersections, holes outside the
    /// shell) is accepted here, as GEOS 3.11 accepts it, and reported by ``validity()``.
    ///
    /// - Throws: ``SpatialError`` with GEOS's message, e.g. for a ring that is not closed
    ///   (`GEOSGeom_createLinearRing_r: IllegalArgumentException: Points of LinearRing do not form
    ///   a closed linestring`).
    public convenience init(_ shape: Shape, context: GEOSContext) throws(SpatialError) {
        let pointer = try Geometry.make(shape, context)
        self.init(owning: pointer, context: context)
    }

    /// A point geometry at `xy`.
    public convenience init(point xy: XY, context: GEOSContext) throws(SpatialError) {
        guard let p = GEOSGeom_createPointFromXY_r(context.handle, xy.x, xy.y) else {
            throw context.error("GEOSGeom_createPointFromXY_r")
        }
        self.init(owning: p, context: context)
    }

    /// A new coordinate sequence holding `points`; the caller owns it until a factory takes it
    /// (every factory used here takes it even when it fails).
    static func sequence(_ points: [XY], _ context: GEOSContext) throws(SpatialError) -> OpaquePointer {
        var buffer = [Double]()
        buffer.reserveCapacity(points.count * 2)
        for p in points {
            buffer.append(p.x)
            buffer.append(p.y)
        }
        let seq = buffer.withUnsafeBufferPointer {
            GEOSCoordSeq_copyFromBuffer_r(context.handle, $0.baseAddress, UInt32(points.count), 0, 0)
        }
        guard let seq else { throw context.error("GEOSCoordSeq_copyFromBuffer_r") }
        return seq
    }

    static func ring(_ points: [XY], _ context: GEOSContext) throws(SpatialError) -> OpaquePointer {
        let seq = try sequence(points, context)
        // Ownership of `seq` passes to GEOS whatever the outcome: on success the ring owns it; on
        // failure (NULL) GEOS has already freed it (it wraps the pointer in a unique_ptr before
        // constructing; checked under valgrind with GEOS 3.11.1).
        guard let ring = GEOSGeom_createLinearRing_r(context.handle, seq) else {
            throw context.error("GEOSGeom_createLinearRing_r")
        }
        return ring
    }

    static func polygon(_ rings: [[XY]], _ context: GEOSContext) throws(SpatialError) -> OpaquePointer {
        guard let shellPoints = rings.first else {
            guard let empty = GEOSGeom_createEmptyPolygon_r(context.handle) else {
                throw context.error("GEOSGeom_createEmptyPolygon_r")
            }
            return empty
        }
        let shell = try ring(shellPoints, context)
        var holes: [OpaquePointer?] = []
        do throws(SpatialError) {
            for hole in rings.dropFirst() { holes.append(try ring(hole, context)) }
        } catch {
            GEOSGeom_destroy_r(context.handle, shell)
            for h in holes { if let h { GEOSGeom_destroy_r(context.handle, h) } }
            throw error
        }
        // Ownership of `shell` and every hole passes to GEOS whatever the outcome: on success the
        // polygon owns them; on failure (NULL, e.g. "shell is empty but holes are not") GEOS has
        // already freed them (GEOS#1111; checked under valgrind with GEOS 3.11.1). They must not
        // be destroyed here.
        let poly = holes.withUnsafeMutableBufferPointer {
            GEOSGeom_createPolygon_r(context.handle, shell, $0.baseAddress, UInt32($0.count))
        }
        guard let poly else { throw context.error("GEOSGeom_createPolygon_r") }
        return poly
    }

    static func collection(_ type: GEOSGeomTypes, _ parts: [OpaquePointer?], _ context: GEOSContext) throws(SpatialError) -> OpaquePointer {
        var parts = parts
        // Ownership of every part passes to GEOS whatever the outcome: GEOS moves them into
        // unique_ptrs before building, so on failure (NULL) it has already freed them and
        // destroying them here would be a double free (checked under valgrind with GEOS 3.11.1).
        // The array itself stays ours.
        let geom = parts.withUnsafeMutableBufferPointer {
            GEOSGeom_createCollection_r(context.handle, Int32(type.rawValue), $0.baseAddress, UInt32($0.count))
        }
        guard let geom else { throw context.error("GEOSGeom_createCollection_r") }
        return geom
    }

    static func make(_ shape: Shape, _ context: GEOSContext) throws(SpatialError) -> OpaquePointer {
        switch shape {
        case .point(let p):
            guard let g = GEOSGeom_createPointFromXY_r(context.handle, p.x, p.y) else {
                throw context.error("GEOSGeom_createPointFromXY_r")
            }
            return g
        case .lineString(let points):
            let seq = try sequence(points, context)
            // As for rings, `seq` belongs to GEOS from here on, even when this fails (a line of
            // exactly one position).
            guard let g = GEOSGeom_createLineString_r(context.handle, seq) else {
                throw context.error("GEOSGeom_createLineString_r")
            }
            return g
        case .polygon(let rings):
            return try polygon(rings, context)
        case .multiPoint(let points):
            return try collection(GEOS_MULTIPOINT, try parts(points.map { .point($0) }, context), context)
        case .multiLineString(let lines):
            return try collection(GEOS_MULTILINESTRING, try parts(lines.map { .lineString($0) }, context), context)
        case .multiPolygon(let polygons):
            return try collection(GEOS_MULTIPOLYGON, try parts(polygons.map { .polygon($0) }, context), context)
        case .collection(let shapes):
            return try collection(GEOS_GEOMETRYCOLLECTION, try parts(shapes, context), context)
        }
    }

    private static func parts(_ shapes: [Shape], _ context: GEOSContext) throws(SpatialError) -> [OpaquePointer?] {
        var made: [OpaquePointer?] = []
        made.reserveCapacity(shapes.count)
        do throws(SpatialError) {
            for s in shapes { made.append(try make(s, context)) }
        } catch {
            for m in made { if let m { GEOSGeom_destroy_r(context.handle, m) } }
            throw error
        }
        return made
    }

    /// The geometry as plain coordinates (Z and M dropped).
    ///
    /// ``Shape`` has no empty point: an empty point reads as an empty `.multiPoint`, and empty
    /// parts of a multi-geometry are left out.
    public var shape: Shape {
        get throws(SpatialError) { try Geometry.shape(of: pointer, context) }
    }

    static func points(of seq: OpaquePointer?, _ context: GEOSContext) throws(SpatialError) -> [XY] {
        guard let seq else { throw context.error("GEOSGeom_getCoordSeq_r") }
        var size: UInt32 = 0
        // Returns 0 on exception, 1 otherwise; the sequence belongs to its geometry.
        guard GEOSCoordSeq_getSize_r(context.handle, seq, &size) != 0 else {
            throw context.error("GEOSCoordSeq_getSize_r")
        }
        guard size > 0 else { return [] }
        var buffer = [Double](repeating: 0, count: Int(size) * 2)
        let ok = buffer.withUnsafeMutableBufferPointer {
            GEOSCoordSeq_copyToBuffer_r(context.handle, seq, $0.baseAddress, 0, 0)
        }
        // Returns 0 on exception, 1 otherwise.
        guard ok != 0 else { throw context.error("GEOSCoordSeq_copyToBuffer_r") }
        return (0..<Int(size)).map { XY(buffer[2 * $0], buffer[2 * $0 + 1]) }
    }

    static func shape(of g: OpaquePointer, _ context: GEOSContext) throws(SpatialError) -> Shape {
        let h = context.handle
        // Returns -1 on exception.
        let type = GEOSGeomTypeId_r(h, g)
        guard type >= 0 else { throw context.error("GEOSGeomTypeId_r") }
        // Sub-geometries returned by the getters below belong to `g`; they are never freed here.
        switch type {
        case Int32(GEOS_POINT.rawValue):
            if GEOSisEmpty_r(h, g) == 1 { return .multiPoint([]) }
            var x = 0.0, y = 0.0
            guard GEOSGeomGetX_r(h, g, &x) == 1, GEOSGeomGetY_r(h, g, &y) == 1 else { throw context.error("GEOSGeomGetX_r") }
            return .point(XY(x, y))
        case Int32(GEOS_LINESTRING.rawValue), Int32(GEOS_LINEARRING.rawValue):
            return .lineString(try points(of: GEOSGeom_getCoordSeq_r(h, g), context))
        case Int32(GEOS_POLYGON.rawValue):
            return .polygon(try rings(of: g, context))
        case Int32(GEOS_MULTIPOINT.rawValue), Int32(GEOS_MULTILINESTRING.rawValue),
            Int32(GEOS_MULTIPOLYGON.rawValue), Int32(GEOS_GEOMETRYCOLLECTION.rawValue):
            let n = GEOSGetNumGeometries_r(h, g)
            guard n >= 0 else { throw context.error("GEOSGetNumGeometries_r") }
            var parts: [Shape] = []
            for i in 0..<n {
                guard let part = GEOSGetGeometryN_r(h, g, i) else { throw context.error("GEOSGetGeometryN_r") }
                parts.append(try shape(of: part, context))
            }
            switch type {
            case Int32(GEOS_MULTIPOINT.rawValue):
                return .multiPoint(parts.compactMap { if case .point(let p) = $0 { p } else { nil } })
            case Int32(GEOS_MULTILINESTRING.rawValue):
                return .multiLineString(parts.compactMap { if case .lineString(let l) = $0 { l } else { nil } })
            case Int32(GEOS_MULTIPOLYGON.rawValue):
                return .multiPolygon(parts.compactMap { if case .polygon(let r) = $0 { r } else { nil } })
            default:
                return .collection(parts)
            }
        default:
            throw SpatialError(function: "GEOSGeomTypeId_r", message: "unsupported geometry type \(type)")
        }
    }

    private static func rings(of polygon: OpaquePointer, _ context: GEOSContext) throws(SpatialError) -> [[XY]] {
        let h = context.handle
        if GEOSisEmpty_r(h, polygon) == 1 { return [] }
        guard let shell = GEOSGetExteriorRing_r(h, polygon) else { throw context.error("GEOSGetExteriorRing_r") }
        var rings = [try points(of: GEOSGeom_getCoordSeq_r(h, shell), context)]
        let holes = GEOSGetNumInteriorRings_r(h, polygon)
        guard holes >= 0 else { throw context.error("GEOSGetNumInteriorRings_r") }
        for i in 0..<holes {
            guard let hole = GEOSGetInteriorRingN_r(h, polygon, i) else { throw context.error("GEOSGetInteriorRingN_r") }
            rings.append(try points(of: GEOSGeom_getCoordSeq_r(h, hole), context))
        }
        return rings
    }
}
