import Support

/// The `coordinates` of a GeoJSON geometry as read, before its `type` says how to interpret them
/// (members may come in any order): positions, lists of positions, or deeper lists, each with the
/// byte offset where it starts.
///
/// Not `indirect`: a deeper list holds its children in an array already, and an indirect enum
/// boxed every value (an allocation and a release for each circle's position and each ring).
public enum GeoJSONCoordinates: Sendable {
    case position(XY, offset: Int)
    case positions([XY], offset: Int)
    case list([GeoJSONCoordinates], offset: Int)
    case empty(offset: Int)

    var offset: Int {
        switch self {
        case .position(_, let o), .positions(_, let o), .list(_, let o), .empty(let o): o
        }
    }

    /// A structural problem (as opposed to a JSON syntax error) with its byte offset.
    public struct Problem: Error, Sendable {
        public var message: String
        public var offset: Int

        public init(message: String, offset: Int) {
            self.message = message
            self.offset = offset
        }
    }

    /// Reads coordinates from a streaming cursor standing at the `[`.
    ///
    /// JSON syntax errors are thrown; a structural problem (a string where a number belongs, a
    /// position of one number) is recorded in `problem` (the first one only) and reading goes on
    /// to the end of the value, so the caller can report it and continue with the next feature.
    public static func read(_ c: inout JSONCursor, problem: inout Problem?) throws(JSONCursor.Failure) -> GeoJSONCoordinates {
        let offset = c.position
        // Most lists are a ring's or a line's positions: read straight into one array. Anything
        // else (deeper lists, a problem, a syntax error) is read again from the start below.
        let start = c
        if let points = positionList(&c) { return .positions(points, offset: offset) }
        c = start
        // A single position (a circle's centre), the same way.
        if let (x, y) = c.readNumberPair() { return .position(XY(x, y), offset: offset) }
        guard c.peek() == UInt8(ascii: "[") else {
            let found = try c.parseValue()
            if problem == nil {
                problem = Problem(message: "coordinates must be an array, found \(found.value.typeDescription)", offset: offset)
            }
            return .empty(offset: offset)
        }
        try c.beginArray()
        var first = true
        guard try c.nextElement(&first) else { return .empty(offset: offset) }
        let head = c.peek()
        if head == UInt8(ascii: "-") || (head >= 48 && head <= 57) || head == UInt8(ascii: "N") || head == UInt8(ascii: "I") {
            // A position: two to four numbers, of which the first two are kept. They are counted,
            // not collected in an array: that cost an allocation per vertex.
            var x = 0.0, y = 0.0
            var count = 0
            repeat {
                let at = c.position
                let next = c.peek()
                if next == UInt8(ascii: "-") || (next >= 48 && next <= 57) || next == UInt8(ascii: "N") || next == UInt8(ascii: "I") {
                    let value = try c.parseNumber()
                    if count == 0 { x = value } else if count == 1 { y = value }
                    count += 1
                } else {
                    let found = try c.parseValue()
                    if problem == nil {
                        problem = Problem(message: "a coordinate must be a number, found \(found.value.typeDescription)", offset: at)
                    }
                }
            } while try c.nextElement(&first)
            if problem == nil {
                if count < 2 {
                    problem = Problem(
                        message: "a position needs at least two numbers (longitude, latitude), found \(count)", offset: offset)
                } else if count > 4 {
                    problem = Problem(message: "a position has at most four numbers, found \(count)", offset: offset)
                }
            }
            return .position(XY(x, y), offset: offset)
        }
        var children: [GeoJSONCoordinates] = []
        repeat {
            let at = c.position
            if c.peek() == UInt8(ascii: "[") {
                children.append(try read(&c, problem: &problem))
            } else {
                let found = try c.parseValue()
                if problem == nil {
                    problem = Problem(message: "a position must be an array of numbers, found \(found.value.typeDescription)", offset: at)
                }
            }
        } while try c.nextElement(&first)
        var points: [XY] = []
        points.reserveCapacity(children.count)
        for child in children {
            guard case .position(let p, _) = child else { return .list(children, offset: offset) }
            points.append(p)
        }
        return .positions(points, offset: offset)
    }

    /// A non-empty list of positions of two to four numbers each, of which the first two are
    /// kept, read in one pass (``Support/JSONCursor/readNumberPairs(_:)``); `nil` (the cursor left
    /// anywhere) for anything else, which the caller reads again the general way.
    static func positionList(_ c: inout JSONCursor) -> [XY]? {
        var points: [XY] = []
        points.reserveCapacity(16)
        return c.readNumberPairs({ x, y in points.append(XY(x, y)) }) ? points : nil
    }

    /// Converts coordinates already parsed into a ``Support/JSONNode``.
    public init(node: JSONNode, problem: inout Problem?) {
        guard let items = node.elements else {
            if problem == nil {
                problem = Problem(message: "coordinates must be an array, found \(node.value.typeDescription)", offset: node.offset)
            }
            self = .empty(offset: node.offset)
            return
        }
        guard let firstItem = items.first else {
            self = .empty(offset: node.offset)
            return
        }
        if firstItem.number != nil {
            var values: [Double] = []
            for item in items {
                if let v = item.number {
                    values.append(v)
                } else if problem == nil {
                    problem = Problem(message: "a coordinate must be a number, found \(item.value.typeDescription)", offset: item.offset)
                }
            }
            if problem == nil {
                if values.count < 2 {
                    problem = Problem(
                        message: "a position needs at least two numbers (longitude, latitude), found \(values.count)", offset: node.offset)
                } else if values.count > 4 {
                    problem = Problem(message: "a position has at most four numbers, found \(values.count)", offset: node.offset)
                }
            }
            self = .position(XY(values.count > 0 ? values[0] : 0, values.count > 1 ? values[1] : 0), offset: node.offset)
            return
        }
        var children: [GeoJSONCoordinates] = []
        for item in items {
            if item.elements != nil {
                children.append(GeoJSONCoordinates(node: item, problem: &problem))
            } else if problem == nil {
                problem = Problem(
                    message: "a position must be an array of numbers, found \(item.value.typeDescription)", offset: item.offset)
            }
        }
        var points: [XY] = []
        for child in children {
            guard case .position(let p, _) = child else {
                self = .list(children, offset: node.offset)
                return
            }
            points.append(p)
        }
        self = .positions(points, offset: node.offset)
    }

    // MARK: Interpretation by geometry type

    func positionList(_ what: String) throws(Problem) -> [XY] {
        switch self {
        case .positions(let ps, _): return ps
        case .empty: return []
        case .position(_, let o): throw Problem(message: "\(what) must be an array of positions, found a single position", offset: o)
        case .list(_, let o): throw Problem(message: "\(what) must be an array of positions, found deeper nesting", offset: o)
        }
    }

    func children(_ what: String) throws(Problem) -> [GeoJSONCoordinates] {
        switch self {
        case .list(let items, _): return items
        case .empty: return []
        case .positions(let ps, let o):
            if ps.isEmpty { return [] }
            throw Problem(message: "\(what) must be an array of arrays of positions, found positions", offset: o)
        case .position(_, let o):
            throw Problem(message: "\(what) must be an array of arrays of positions, found a single position", offset: o)
        }
    }

    func lineString() throws(Problem) -> [XY] {
        let points = try positionList("LineString coordinates")
        guard points.count >= 2 else {
            throw Problem(message: "a LineString needs at least two positions, found \(points.count)", offset: offset)
        }
        return points
    }

    func polygon() throws(Problem) -> [[XY]] {
        let rings = try children("Polygon coordinates")
        guard !rings.isEmpty else { throw Problem(message: "a Polygon needs at least one ring", offset: offset) }
        var out: [[XY]] = []
        for (k, ringCoordinates) in rings.enumerated() {
            let ring = try ringCoordinates.positionList("a polygon ring")
            let name = k == 0 ? "exterior ring" : "hole \(k)"
            guard ring.count >= 4 else {
                throw Problem(
                    message: "polygon \(name) has \(ring.count) positions; a closed ring needs at least 4 (RFC 7946 §3.1.6)",
                    offset: ringCoordinates.offset)
            }
            guard ring.first == ring.last else {
                throw Problem(
                    message: "polygon \(name) is not closed: its last position differs from its first (RFC 7946 §3.1.6)",
                    offset: ringCoordinates.offset)
            }
            out.append(ring)
        }
        return out
    }

    /// The shape of a geometry of GeoJSON type `type` with these coordinates.
    ///
    /// - Throws: ``Problem`` for a structure the type does not allow.
    public func shape(type: String, typeOffset: Int) throws(Problem) -> Shape {
        switch type {
        case "Point":
            guard case .position(let p, _) = self else {
                throw Problem(message: "Point coordinates must be one position", offset: offset)
            }
            return .point(p)
        case "MultiPoint": return .multiPoint(try positionList("MultiPoint coordinates"))
        case "LineString": return .lineString(try lineString())
        case "MultiLineString":
            var lines: [[XY]] = []
            for c in try children("MultiLineString coordinates") { lines.append(try c.lineString()) }
            return .multiLineString(lines)
        case "Polygon": return .polygon(try polygon())
        case "MultiPolygon":
            var polygons: [[[XY]]] = []
            for c in try children("MultiPolygon coordinates") { polygons.append(try c.polygon()) }
            return .multiPolygon(polygons)
        default:
            throw Problem(
                message:
                    "unknown geometry type \"\(type)\" (expected Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon or GeometryCollection)",
                offset: typeOffset)
        }
    }
}

extension Shape {
    /// Reads a GeoJSON geometry object from a streaming cursor standing at its `{`.
    ///
    /// JSON syntax errors are thrown; structural problems come back as a failed result (the
    /// whole geometry is consumed either way), so a reader can report them and go on.
    public static func readGeoJSON(_ c: inout JSONCursor) throws(JSONCursor.Failure) -> Result<Shape, GeoJSONCoordinates.Problem> {
        let offset = c.position
        guard c.peek() == UInt8(ascii: "{") else {
            let found = try c.parseValue()
            return .failure(
                GeoJSONCoordinates.Problem(message: "a geometry must be an object, found \(found.value.typeDescription)", offset: offset))
        }
        try c.beginObject()
        var first = true
        var type: (String, Int)?
        var typeProblem: GeoJSONCoordinates.Problem?
        var coordinates: GeoJSONCoordinates?
        var geometries: [Result<Shape, GeoJSONCoordinates.Problem>]?
        var geometriesOffset = offset
        var problem: GeoJSONCoordinates.Problem?
        var keys = JSONKeys()
        while let (key, keyOffset) = try c.nextMember(&first) {
            try keys.insert(key, at: keyOffset)
            switch key {
            case "type":
                let at = c.position
                let value = try c.parseValue()
                if let s = value.string {
                    type = (s, at)
                } else {
                    typeProblem = GeoJSONCoordinates.Problem(message: "geometry \"type\" must be a string", offset: at)
                }
            case "coordinates":
                coordinates = try GeoJSONCoordinates.read(&c, problem: &problem)
            case "geometries":
                geometriesOffset = c.position
                if c.peek() == UInt8(ascii: "[") {
                    try c.beginArray()
                    var firstElement = true
                    var list: [Result<Shape, GeoJSONCoordinates.Problem>] = []
                    while try c.nextElement(&firstElement) { list.append(try readGeoJSON(&c)) }
                    geometries = list
                } else {
                    _ = try c.parseValue()
                    geometries = nil
                    problem = problem ?? GeoJSONCoordinates.Problem(message: "\"geometries\" must be an array", offset: geometriesOffset)
                }
            default:
                try c.skipValue()
            }
        }
        return Shape.assemble(
            type: type, typeProblem: typeProblem, coordinates: coordinates, geometries: geometries,
            geometriesOffset: geometriesOffset, problem: problem, offset: offset)
    }

    static func assemble(
        type: (String, Int)?, typeProblem: GeoJSONCoordinates.Problem?, coordinates: GeoJSONCoordinates?,
        geometries: [Result<Shape, GeoJSONCoordinates.Problem>]?, geometriesOffset: Int,
        problem: GeoJSONCoordinates.Problem?, offset: Int
    ) -> Result<Shape, GeoJSONCoordinates.Problem> {
        if let typeProblem { return .failure(typeProblem) }
        guard let (typeName, typeOffset) = type else {
            return .failure(GeoJSONCoordinates.Problem(message: "geometry has no \"type\"", offset: offset))
        }
        if typeName == "GeometryCollection" {
            guard let geometries else {
                return .failure(
                    problem ?? GeoJSONCoordinates.Problem(message: "GeometryCollection needs a \"geometries\" array", offset: offset))
            }
            var shapes: [Shape] = []
            for g in geometries {
                switch g {
                case .success(let s): shapes.append(s)
                case .failure(let p): return .failure(p)
                }
            }
            return .success(.collection(shapes))
        }
        if let problem { return .failure(problem) }
        guard let coordinates else {
            return .failure(GeoJSONCoordinates.Problem(message: "\(typeName) has no \"coordinates\"", offset: offset))
        }
        do throws(GeoJSONCoordinates.Problem) {
            return .success(try coordinates.shape(type: typeName, typeOffset: typeOffset))
        } catch {
            return .failure(error)
        }
    }
}
