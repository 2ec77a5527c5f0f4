import Fences
import Places
import Spatial
import Support
import Testing

/// POIs from fences and the query-service field rules.
@Suite struct POIFenceTests {
    static let location = SourceLocation(file: "fences.geojson", line: 3, column: 5)

    static func circle(_ id: String, radius: Double = 82, library: String? = "Restaurants", rank: Int? = 20, metadata: JSONValue? = nil)
        -> Fence
    {
        Fence(
            index: 0, id: id, name: "Cityview \(id)", kind: .circle(radiusMeters: radius),
            shape: .point(XY(longitude: -121.8910217, latitude: 37.3325958)), library: library, rank: rank,
            metadata: metadata, location: location)
    }

    @Test("a circle fence becomes a POI with its Places properties")
    func circle() throws {
        let metadata: JSONValue = .object([
            "brand": .string("Starbucks"), "floors": .int(3), "score": .double(4.5), "open": .bool(true),
            "nested": .object(["a": .int(1)]), "none": .null,
        ])
        let poi = try POI(fence: Self.circle("c1", metadata: metadata))
        #expect(poi.id == "c1" && poi.name == "Cityview c1" && poi.latitude == 37.3325958 && poi.longitude == -121.8910217)
        #expect(poi.radiusMeters == 82 && poi.library == "Restaurants" && poi.rank == 20 && !poi.userIsWithin)
        #expect(poi.metadata == ["brand": "Starbucks", "floors": "3", "score": "4.5", "open": "true"])
        let defaults = try POI(fence: Self.circle("c2", library: nil, rank: nil))
        #expect(defaults.library == "" && defaults.rank == POI.defaultRank)
    }

    @Test("a polygon is not a POI: a located error for one fence, a finding in a catalog")
    func polygon() {
        let square: Shape = .polygon([[XY(0, 0), XY(1, 0), XY(1, 1), XY(0, 0)]])
        let area = Fence(index: 1, id: "zone", kind: .area, shape: square, library: "lib", location: Self.location)
        #expect {
            _ = try POI(fence: area)
        } throws: { error in
            guard let error = error as? FencesimError else { return false }
            return error.code == .badData && error.location == Self.location && error.message.contains("not a circle")
        }
        let plain = Fence(index: 2, id: "plain", kind: .area, shape: square, location: Self.location)
        let catalog = POICatalog(fences: [Self.circle("c1", metadata: .object(["x": .list([])])), area, plain])
        #expect(catalog.pois.map(\.id) == ["c1"])
        #expect(catalog.findings.map(\.kind) == ["places-metadata-dropped", "places-not-a-circle"])
        #expect(catalog.findings.allSatisfy { $0.severity == .warning && $0.location == Self.location })
        #expect(catalog.poi(id: "c1")?.rank == 20 && catalog.poi(id: "zone") == nil)
    }

    @Test("iOS and Android read missing query-service fields differently")
    func wireDefaults() throws {
        let body =
            #"{"places":{"pois":[{"p":["id1",null,"1.5","2.5",null,null,null]},{"p":["id2","n","999","2",10,"l",1]},{"p":["short"]}]}}"#
        let source = SourceText(file: "r.json", bytes: Array(body.utf8))
        let ios = try PlacesQueryResponse.decode(source, platform: .ios)
        #expect(ios.response.pois.map(\.id) == ["id1", "id2"])
        #expect(ios.response.pois[0].name == "" && ios.response.pois[0].radiusMeters == 0 && ios.response.pois[0].rank == 0)
        #expect(ios.warnings.count == 1)
        let android = try PlacesQueryResponse.decode(source, platform: .android)
        #expect(android.response.pois.map(\.id) == ["id1"])
        #expect(
            android.response.pois[0].name == "unnamed" && android.response.pois[0].radiusMeters == 100
                && android.response.pois[0].rank == 1000)
        #expect(android.warnings.count == 2)
    }
}
