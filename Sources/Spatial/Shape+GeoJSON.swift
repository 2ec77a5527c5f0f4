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

/// Reads GeoJSON geometry objects with located errors.
struct GeoJSONGeometryReader {
    let source: SourceText

    func fail(_ message: String, _ offset: Int) -> FencesimError {
        FencesimError(.badData, message, at: source.location(ofOffset: offset))
    }

    func geometry(_ node: JSONNode) throws(FencesimError) -> Shape {
        guard node.members != nil else {
            throw fail("a geometry must be an object, found \(node.value.typeDescription)", node.offset)
        }
        guard let typeNode = node.member("type") else {
            throw fail("geometry has no \"type\"", node.offset)
        }
        guard let type = typeNode.string else {
            throw fail("geometry \"type\" must be a string", typeNode.offset)
        }
        if type == "GeometryCollection" {
            guard let list = node.member("geometries"), let items = list.elements else {
                throw fail("GeometryCollection needs a \"geometries\" array", node.offset)
            }
            var shapes: [Shape] = []
            for item in items { shapes.append(try geometry(item)) }
            return .collection(shapes)
        }
        guard let coordinates = node.member("coordinates") else {
            throw fail("\(type) has no \"coordinates\"", node.offset)
        }
        switch type {
        case "Point": return .point(try position(coordinates))
        case "MultiPoint": return .multiPoint(try positions(coordinates))
        case "LineString": return .lineString(try lineString(coordinates))
        case "MultiLineString": return .multiLineString(try array(coordinates, "MultiLineString").map { n throws(FencesimError) in try lineString(n) })
        case "Polygon": return .polygon(try polygon(coordinates))
        case "MultiPolygon": return .multiPolygon(try array(coordinates, "MultiPolygon").map { n throws(FencesimError) in try polygon(n) })
        default:
            throw fail("unknown geometry type \"\(type)\" (expected Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon or GeometryCollection)", typeNode.offset)
        }
    }

    func array(_ node: JSONNode, _ what: String) throws(FencesimError) -> [JSONNode] {
        guard let items = node.elements else {
            throw fail("\(what) coordinates must be an array, found \(node.value.typeDescription)", node.offset)
        }
        return items
    }

    func position(_ node: JSONNode) throws(FencesimError) -> XY {
        guard let items = node.elements else {
            throw fail("a position must be an array of numbers, found \(node.value.typeDescription)", node.offset)
        }
        guard items.count >= 2 else {
            throw fail("a position needs at least two numbers (longitude, latitude), found \(items.count)", node.offset)
        }
        guard items.count <= 4 else {
            throw fail("a position has at most four numbers, found \(items.count)", node.offset)
        }
        var values: [Double] = []
        for item in items {
            guard let v = item.number else {
                throw fail("a coordinate must be a number, found \(item.value.typeDescription)", item.offset)
            }
            values.append(v)
        }
        return XY(values[0], values[1])
    }

    func positions(_ node: JSONNode) throws(FencesimError) -> [XY] {
        var out: [XY] = []
        for item in try array(node, "position list") { out.append(try position(item)) }
        return out
    }

    func lineString(_ node: JSONNode) throws(FencesimError) -> [XY] {
        let points = try positions(node)
        guard points.count >= 2 else {
            throw fail("a LineString needs at least two positions, found \(points.count)", node.offset)
        }
        return points
    }

    func polygon(_ node: JSONNode) throws(FencesimError) -> [[XY]] {
        var rings: [[XY]] = []
        let items = try array(node, "Polygon")
        guard !items.isEmpty else {
            throw fail("a Polygon needs at least one ring", node.offset)
        }
        for (k, ringNode) in items.enumerated() {
            let ring = try positions(ringNode)
            let name = k == 0 ? "exterior ring" : "hole \(k)"
            guard ring.count >= 4 else {
                throw fail("polygon \(name) has \(ring.count) positions; a closed ring needs at least 4 (RFC 7946 §3.1.6)", ringNode.offset)
            }
            guard ring.first == ring.last else {
                throw fail("polygon \(name) is not closed: its last position differs from its first (RFC 7946 §3.1.6)", ringNode.offset)
            }
            rings.append(ring)
        }
        return rings
    }
}
