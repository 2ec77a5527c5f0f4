import Support

extension PlacesQueryResponse {
    /// Reads a query-service response body as the given platform's SDK would.
    ///
    /// Each item is `{"p":[id,name,"lat","lon",radius,libraryId,weight],"x":{metadata}}`; items
    /// whose `p` is not an array of exactly 7 elements are dropped on both platforms. A missing
    /// or non-array `userWithin`/`pois` reads as empty (Android `optJSONArray`). Field defaults
    /// follow `PI/PointOfInterest.swift init(jsonObject:)` for `.ios` (name "", radius 0,
    /// weight 0, lat/lon 999.999 when unreadable) and `PA/PlacesQueryService.java
    /// createPlacesPOIFromJson` for `.android` and `.docs` (name "unnamed", radius 100, weight
    /// 1000, POIs with an unreadable or out-of-range latitude/longitude dropped).
    ///
    /// - Parameters:
    ///   - source: the response body and its file name.
    ///   - platform: whose parsing rules to apply.
    /// - Returns: the response and one warning per dropped item.
    /// - Throws: `FencesimError(.badData)`, located, when the body is not JSON or has no `places`
    ///   object (both SDKs report the query as failed then).
    public static func decode(_ source: SourceText, platform: PlacesPlatform) throws(FencesimError) -> (
        response: PlacesQueryResponse, warnings: [Diagnostic]
    ) {
        let root = try JSONParser.parse(source)
        guard let places = root.member("places"), places.members != nil else {
            throw FencesimError(.badData, "Places query response has no \"places\" object", at: source.location(ofOffset: root.offset))
        }
        var warnings: [Diagnostic] = []
        func read(_ key: String) -> [POI] {
            guard let items = places.member(key)?.elements else { return [] }
            var out: [POI] = []
            for item in items {
                switch poi(from: item, platform: platform) {
                case .success(let p): out.append(p)
                case .failure(let reason):
                    warnings.append(
                        Diagnostic(
                            .warning, "\(key) item dropped: \(reason.message)", at: source.location(ofOffset: item.offset),
                            kind: "places-poi-dropped"))
                }
            }
            return out
        }
        let within = read("userWithin")
        let nearby = read("pois")
        return (PlacesQueryResponse(userWithin: within, pois: nearby), warnings)
    }

    struct DropReason: Error {
        var message: String
    }

    static func poi(from item: JSONNode, platform: PlacesPlatform) -> Result<POI, DropReason> {
        guard let fields = item.member("p")?.elements else {
            return .failure(DropReason(message: "no \"p\" array"))
        }
        guard fields.count == 7 else {
            return .failure(DropReason(message: "\"p\" has \(fields.count) elements, not 7"))
        }
        var metadata: [String: String] = [:]
        if let x = item.member("x") { metadata = POI.metadataStrings(from: x.value).values }
        switch platform {
        case .ios:
            // `as? String ?? ""`, `Double(... as? String ?? "") ?? 999.999`, `as? Int ?? 0`.
            let latitude = fields[2].string.flatMap { Double($0) } ?? 999.999
            let longitude = fields[3].string.flatMap { Double($0) } ?? 999.999
            return .success(
                POI(
                    id: fields[0].string ?? "", name: fields[1].string ?? "", latitude: latitude, longitude: longitude,
                    radiusMeters: Double(integer(fields[4]) ?? 0), library: fields[5].string ?? "",
                    rank: integer(fields[6]) ?? 0, metadata: metadata))
        case .android, .docs:
            guard let id = text(fields[0]) else { return .failure(DropReason(message: "no identifier")) }
            guard let latText = text(fields[2]), let lonText = text(fields[3]),
                let latitude = Double(latText), let longitude = Double(lonText),
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else {
                return .failure(DropReason(message: "POI \"\(id)\" has an invalid latitude/longitude"))
            }
            return .success(
                POI(
                    id: id, name: text(fields[1]) ?? "unnamed", latitude: latitude, longitude: longitude,
                    radiusMeters: Double(integer(fields[4]) ?? 100), library: text(fields[5]) ?? "",
                    rank: integer(fields[6]) ?? 1000, metadata: metadata))
        }
    }

    /// org.json `optString`: any non-null scalar as text.
    private static func text(_ node: JSONNode) -> String? {
        switch node.value {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): JSONWriter.number(d)
        case .bool(let b): b ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// A JSON integer (or a whole double) as `Int`.
    private static func integer(_ node: JSONNode) -> Int? {
        switch node.value {
        case .int(let i): Int(exactly: i)
        case .double(let d): d == d.rounded() && abs(d) < 9e15 ? Int(d) : nil
        default: nil
        }
    }
}
