import Support

extension Shape {
    /// Reads a GeoJSON geometry object (RFC 7946 §3.1).
    ///
    /// Checks the structure and reports each problem at its line and column: positions must be
    /// arrays of two or three numbers, a LineString needs two positions, a polygon ring four
    /// positions with the last equal to the first (RFC 7946 §3.1.6). Coordinates are taken as
    /// they are (no range check here: the caller knows the coordinate reference system).
    ///
    /// - Throws: ``FencesimError`` `.badData` located in `source`.
    public init(geoJSON node: JSONNode, source: SourceText) throws(FencesimError) {
        let reader = GeoJSONGeometryReader(source: source)
        self = try reader.geometry(node)
    }

    /// The GeoJSON geometry object for this shape, positions as `[x, y]`.
    public var geoJSON: JSONValue {
        func position(_ p: XY) -> JSONValue { .list([.double(p.x), .double(p.y)]) }
        func line(_ ps: [XY]) -> JSONValue { .list(ps.map(position)) }
        func rings(_ rs: [[XY]]) -> JSONValue { .list(rs.map(line)) }
        switch self {
        case .point(let p): return .object(["type": .string("Point"), "coordinates": position(p)])
        case .multiPoint(let ps): return .object(["type": .string("MultiPoint"), "coordinates": line(ps)])
        case .lineString(let ps): return .object(["type": .string("LineString"), "coordinates": line(ps)])
        case .multiLineString(let ls): return .object(["type": .string("MultiLineString"), "coordinates": rings(ls)])
        case .polygon(let rs): return .object(["type": .string("Polygon"), "coordinates": rings(rs)])
        case .multiPolygon(let ps): return .object(["type": .string("MultiPolygon"), "coordinates": .list(ps.map(rings))])
        case .collection(let shapes):
            return .object(["type": .string("GeometryCollection"), "geometries": .list(shapes.map(\.geoJSON))])
        }
    }
}

/// Reads GeoJSON geometry objects held in ``Support/JSONNode``s, with located errors.
struct GeoJSONGeometryReader {
    let source: SourceText

    func geometry(_ node: JSONNode) throws(FencesimError) -> Shape {
        switch shape(node) {
        case .success(let shape): return shape
        case .failure(let problem):
            throw FencesimError(.badData, problem.message, at: source.location(ofOffset: problem.offset))
        }
    }

    func shape(_ node: JSONNode) -> Result<Shape, GeoJSONCoordinates.Problem> {
        guard node.members != nil else {
            return .failure(
                GeoJSONCoordinates.Problem(
                    message: "a geometry must be an object, found \(node.value.typeDescription)", offset: node.offset))
        }
        var type: (String, Int)?
        var typeProblem: GeoJSONCoordinates.Problem?
        if let t = node.member("type") {
            if let s = t.string {
                type = (s, t.offset)
            } else {
                typeProblem = GeoJSONCoordinates.Problem(message: "geometry \"type\" must be a string", offset: t.offset)
            }
        }
        var problem: GeoJSONCoordinates.Problem?
        let coordinates = node.member("coordinates").map { GeoJSONCoordinates(node: $0, problem: &problem) }
        var geometries: [Result<Shape, GeoJSONCoordinates.Problem>]?
        var geometriesOffset = node.offset
        if let g = node.member("geometries") {
            geometriesOffset = g.offset
            if let items = g.elements {
                geometries = items.map(shape)
            } else {
                problem = problem ?? GeoJSONCoordinates.Problem(message: "\"geometries\" must be an array", offset: g.offset)
            }
        }
        return Shape.assemble(
            type: type, typeProblem: typeProblem, coordinates: coordinates, geometries: geometries,
            geometriesOffset: geometriesOffset, problem: problem, offset: node.offset)
    }
}
