import Fences
import Support
import Testing

@testable import Geotriggers

/// A where-clause selects fences by their properties (`FenceSet.selecting`), reading names as
/// `FilterExpression.value(of:in:)` does.
@Suite struct FenceWhereTests {
    static let text = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"id": "a", "zone": "north", "brand": "acme", "floor": 3, "address": {"city": "Oslo"}, "radius": 20},
           "geometry": {"type": "Point", "coordinates": [10.0, 59.0]}},
          {"type": "Feature", "properties": {"id": "b", "brand": "acme", "floor": 1, "name": "Annex", "radius": 20},
           "geometry": {"type": "Point", "coordinates": [10.001, 59.0]}},
          {"type": "Feature", "properties": {"ref": 7, "brand": "other", "address.city": "Bergen", "radius": 20},
           "geometry": {"type": "Point", "coordinates": [10.002, 59.0]}}
        ]}
        """

    static func fences() throws -> FenceSet {
        try FenceReader.parse(SourceText(file: "stores.geojson", bytes: Array(text.utf8)), options: FenceReadOptions(idProperty: "@index"))
    }

    func selected(_ clause: String) throws -> [Int] {
        try Self.fences().selecting(FilterExpression(clause, over: .fences)).fences.map(\.index)
    }

    @Test func selectsByPropertiesInFileOrder() throws {
        #expect(try selected("brand = 'acme' and floor >= 2") == [0])
        #expect(try selected("brand = 'acme'") == [0, 1])
        #expect(try selected("floor is null") == [2])
    }

    @Test func objectMembersAndDottedKeys() throws {
        #expect(try selected("address.city = 'Oslo'") == [0])
        // A property named with a dot is that property.
        #expect(try selected("address.city = 'Bergen'") == [2])
        // An object is present, and equal to nothing.
        #expect(try selected("address is null") == [1, 2])
        #expect(try selected("address is not null") == [0])
        #expect(try selected("address != 'x' or address = 'x'") == [])
    }

    @Test func idZoneAndNameAsFencesimReadThem() throws {
        // Ids from --id-property @index: the feature's number, where no property is named id.
        #expect(try selected("ref = 7") == [2])
        // A property named id first; else the id fencesim gave the fence.
        #expect(try selected("id in ('a', '2')") == [0, 2])
        #expect(try selected("zone = 'north'") == [0])
        #expect(try selected("name = 'Annex'") == [1])
        #expect(try selected("zone is null") == [1, 2])
    }

    @Test func selectingNoneWarns() throws {
        let set = try Self.fences().selecting(FilterExpression("brand = 'none'", over: .fences))
        #expect(set.fences.isEmpty)
        #expect(set.warnings.contains { $0.kind == "where-selects-none" && $0.message.contains("none of the 3 fences") })
    }
}
