/// A geometry as plain coordinates: the `Sendable` value that fences and reports hold and that
/// each worker turns into a GEOS ``Geometry`` in its own context.
///
/// Rings are closed (first position equals last), as in GeoJSON and GEOS.
public enum Shape: Hashable, Sendable {
    case point(XY)
    case multiPoint([XY])
    case lineString([XY])
    case multiLineString([[XY]])
    /// Exterior ring first, then holes.
    case polygon([[XY]])
    case multiPolygon([[[XY]]])
    case collection([Shape])

    /// The GeoJSON / OGC type name.
    public var typeName: String {
        switch self {
        case .point: "Point"
        case .multiPoint: "MultiPoint"
        case .lineString: "LineString"
        case .multiLineString: "MultiLineString"
        case .polygon: "Polygon"
        case .multiPolygon: "MultiPolygon"
        case .collection: "GeometryCollection"
        }
    }

    /// Every position, in order.
    public var positions: [XY] {
        switch self {
        case .point(let p): [p]
        case .multiPoint(let ps), .lineString(let ps): ps
        case .multiLineString(let ls), .polygon(let ls): ls.flatMap { $0 }
        case .multiPolygon(let polys): polys.flatMap { $0.flatMap { $0 } }
        case .collection(let shapes): shapes.flatMap(\.positions)
        }
    }

    /// The first position, in order, for which `predicate` is true (without building the array
    /// of ``positions``: readers check every fence's positions).
    public func firstPosition(where predicate: (XY) -> Bool) -> XY? {
        func first(_ ps: [XY]) -> XY? { ps.first(where: predicate) }
        switch self {
        case .point(let p): return predicate(p) ? p : nil
        case .multiPoint(let ps), .lineString(let ps): return first(ps)
        case .multiLineString(let ls), .polygon(let ls):
            for l in ls { if let p = first(l) { return p } }
            return nil
        case .multiPolygon(let polys):
            for rings in polys { for r in rings { if let p = first(r) { return p } } }
            return nil
        case .collection(let shapes):
            for shape in shapes { if let p = shape.firstPosition(where: predicate) { return p } }
            return nil
        }
    }

    /// The bounding box of every position, or `nil` when empty.
    public var boundingBox: BoundingBox? {
        var box: BoundingBox?
        // Every position is visited: the predicate never holds.
        _ = firstPosition { p in
            if box == nil { box = BoundingBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y) } else { box?.include(p) }
            return false
        }
        return box
    }

    /// The same shape with every position transformed.
    public func mapPositions(_ transform: (XY) throws -> XY) rethrows -> Shape {
        switch self {
        case .point(let p): .point(try transform(p))
        case .multiPoint(let ps): .multiPoint(try ps.map(transform))
        case .lineString(let ps): .lineString(try ps.map(transform))
        case .multiLineString(let ls): .multiLineString(try ls.map { try $0.map(transform) })
        case .polygon(let rings): .polygon(try rings.map { try $0.map(transform) })
        case .multiPolygon(let polys): .multiPolygon(try polys.map { try $0.map { try $0.map(transform) } })
        case .collection(let shapes): .collection(try shapes.map { try $0.mapPositions(transform) })
        }
    }
}
