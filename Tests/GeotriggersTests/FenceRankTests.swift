import Fences
import Support
import Testing

@testable import Geotriggers

/// Events of one instant are ordered by fence id (`FenceIndex.ranksByID`); one id watched by
/// several geotriggers, by the geotrigger's place in the scenario, whatever the set's order.
@Suite struct FenceRankTests {
    static func fences(_ ids: [String]) throws -> [Fence] {
        let features = ids.indices.map { k in
            #"{"type": "Feature", "properties": {"radius": 20}, "geometry": {"type": "Point", "coordinates": [\#(10 + Double(k) * 0.001), 59.0]}}"#
        }
        let text = #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",") + "]}"
        // Read with distinct ids, then given the ids wanted (a file may not repeat one).
        var fences = try FenceReader.parse(
            SourceText(file: "f.geojson", bytes: Array(text.utf8)), options: FenceReadOptions(idProperty: "@index")
        ).fences
        for k in fences.indices { fences[k].id = ids[k] }
        return fences
    }

    @Test func equalIdsFollowTheirGeotriggersThenTheSet() throws {
        // x watched by geotriggers 2, 0 and 1 (in the set's order), then a by geotrigger 0.
        let fences = try Self.fences(["x", "x", "x", "a"])
        #expect(FenceIndex.ranksByID(fences, geotrigger: [2, 0, 1, 0]) == [3, 1, 2, 0])
        // Without geotriggers (versions of one fence): the set's order.
        #expect(FenceIndex.ranksByID(fences) == [1, 2, 3, 0])
    }
}
