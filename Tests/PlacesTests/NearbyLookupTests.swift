import Places
import Spatial
import Support
import Testing

/// Nearby lookups (research §1.4) and the region budget.
@Suite struct NearbyLookupTests {
    /// Five POIs north of a device at (37.33, -121.89), 50 m, 150 m, ... apart.
    static func catalog() -> (POICatalog, [POI]) {
        var pois: [POI] = []
        for k in 0..<5 {
            let p = Geodesic.wgs84.direct(latitude: 37.33, longitude: -121.89, azimuth: 0, distanceMeters: 50 + 100 * Double(k))
            pois.append(
                POI(
                    id: "p\(k)", name: "P\(k)", latitude: p.latitude, longitude: p.longitude,
                    radiusMeters: k < 2 ? 200 : 60, library: "lib", rank: 10))
        }
        return (POICatalog(pois: pois), pois)
    }

    @Test("replaces the nearby list and the entered set without region or Edge events", arguments: PlacesPlatform.allCases)
    func replacesWithoutEvents(platform: PlacesPlatform) {
        let (catalog, pois) = Self.catalog()
        var state = Fixture.state(platform)
        // Entered by signal: p4, which the lookup will not find the device in.
        _ = state.processRegionEvent(.entry, poi: pois[4], at: Fixture.t0)
        let r = state.nearbyLookup(at: Fixture.at(10), latitude: 37.33, longitude: -121.89, count: 3, in: catalog)
        #expect(r.response.userWithin.map(\.id) == ["p0", "p1"])
        #expect(r.response.pois.map(\.id) == ["p2"])
        #expect(state.nearby.map(\.id) == ["p0", "p1", "p2"])
        #expect(state.enteredIDs == ["p0", "p1"])
        #expect(r.joined == ["p0", "p1"] && r.left == ["p4"])
        #expect(r.events.allSatisfy { $0.type == PlacesEvent.placesType && $0.name == "responsegetnearbyplaces" })
        #expect(r.lastEntered == "p0")
        #expect(state.lastKnownLocation == PlacesLocation(latitude: 37.33, longitude: -121.89))
    }

    @Test("an empty answer clears nearby and entered but keeps Last Entered and Last Exited")
    func emptyAnswer() {
        let (_, pois) = Self.catalog()
        var state = Fixture.state(.docs)
        _ = state.processRegionEvent(.entry, poi: pois[0], at: Fixture.t0)
        _ = state.processRegionEvent(.exit, poi: pois[1], at: Fixture.at(1))
        let r = state.applyNearbyResponse(PlacesQueryResponse(userWithin: [], pois: []), at: Fixture.at(2), latitude: 0, longitude: 0)
        #expect(state.nearby.isEmpty && state.entered.isEmpty)
        #expect(r.current == nil && r.lastEntered == "p0" && r.lastExited == "p1")
    }

    @Test("nearest N by geodesic distance, ties broken by id; within means distance ≤ radius")
    func nearestAndWithin() {
        // Two POIs at the same centre tie on distance: the smaller id comes first.
        let twin1 = POI(id: "b-twin", name: "b", latitude: 37.331, longitude: -121.89, radiusMeters: 10)
        let twin2 = POI(id: "a-twin", name: "a", latitude: 37.331, longitude: -121.89, radiusMeters: 10)
        let far = POI(id: "0-far", name: "f", latitude: 37.34, longitude: -121.89, radiusMeters: 10)
        let catalog = POICatalog(pois: [twin1, far, twin2])
        #expect(catalog.query(latitude: 37.33, longitude: -121.89, limit: 2).all.map(\.id) == ["a-twin", "b-twin"])
        #expect(catalog.query(latitude: 37.33, longitude: -121.89, limit: 0).isEmpty)
        // A radius equal to the distance counts as within (boundary inside).
        let d = POICatalog.distance(latitude: 37.33, longitude: -121.89, to: far)
        let edge = POI(id: "edge", name: "e", latitude: far.latitude, longitude: far.longitude, radiusMeters: d)
        let justOut = POI(id: "out", name: "o", latitude: far.latitude, longitude: far.longitude, radiusMeters: d.nextDown)
        let r = POICatalog(pois: [edge, justOut]).query(latitude: 37.33, longitude: -121.89, limit: 5)
        #expect(r.userWithin.map(\.id) == ["edge"] && r.pois.map(\.id) == ["out"])
    }

    @Test("region budget: only the nearest N of the last lookup are monitored; others are ignored")
    func regionBudget() {
        let (catalog, pois) = Self.catalog()
        var state = Fixture.state(.docs, budget: 2)
        // Before any lookup nothing is monitored.
        #expect(!state.isMonitored("p0"))
        #expect(state.processRegionEvent(.entry, poi: pois[0], at: Fixture.t0).disposition == .ignored(.notMonitored))
        _ = state.nearbyLookup(at: Fixture.at(1), latitude: 37.33, longitude: -121.89, count: 5, in: catalog)
        #expect(state.monitoredIDs == ["p0", "p1"])
        #expect(state.isMonitored("p1") && !state.isMonitored("p2") && !state.isMonitored("unknown"))
        let before = state
        let r = state.processRegionEvent(.entry, poi: pois[3], at: Fixture.at(2))
        #expect(r.disposition == .ignored(.notMonitored) && r.events.isEmpty && r.sharedState == nil)
        #expect(state == before)
        #expect(state.processRegionEvent(.exit, poi: pois[1], at: Fixture.at(3)).isProcessed)
        // Moving the device and looking up again moves the budget.
        _ = state.nearbyLookup(at: Fixture.at(4), latitude: pois[4].latitude, longitude: pois[4].longitude, count: 5, in: catalog)
        #expect(state.monitoredIDs == ["p4", "p3"])
        // Without a budget every POI is monitored.
        #expect(Fixture.state(.docs).isMonitored("anything"))
    }

    @Test("signals by id: ids outside the nearby list and entered set are stale and ignored")
    func byID() {
        let (catalog, _) = Self.catalog()
        var state = Fixture.state(.ios)
        #expect(state.processRegionEvent(.entry, poiID: "p0", at: Fixture.t0).disposition == .ignored(.unknownRegion))
        _ = state.nearbyLookup(at: Fixture.at(1), latitude: 37.33, longitude: -121.89, count: 3, in: catalog)
        let r = state.processRegionEvent(.exit, poiID: "p1", at: Fixture.at(2))
        #expect(r.isProcessed && r.lastExited == "p1")
        #expect(state.processRegionEvent(.entry, poiID: "p4", at: Fixture.at(3)).disposition == .ignored(.unknownRegion))
    }

    @Test("the lookup count: the region budget when emulated, else the SDK default limit")
    func lookupCount() {
        #expect(PlacesConfiguration(platform: .ios).nearbyLookupCount == 10)
        #expect(PlacesConfiguration(platform: .android).nearbyLookupCount == 20)
        #expect(PlacesConfiguration(platform: .docs).nearbyLookupCount == 20)
        #expect(PlacesConfiguration(platform: .ios, regionBudget: 4).nearbyLookupCount == 4)
    }

    @Test("reset (Places.clear()) wipes the nearby list and entered set too")
    func reset() {
        let (catalog, _) = Self.catalog()
        var state = Fixture.state(.android, budget: 3)
        _ = state.nearbyLookup(at: Fixture.t0, latitude: 37.33, longitude: -121.89, count: 5, in: catalog)
        state.reset()
        #expect(state == Fixture.state(.android, budget: 3))
        #expect(Fixture.json(state.sharedState()) == #"{"authstatus":"always","validuntil":0}"#)
    }
}
