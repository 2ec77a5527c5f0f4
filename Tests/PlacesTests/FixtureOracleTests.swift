import Places
import Support
import Testing

/// The Adobe Places SDK test assets (`../shared/fixtures/adobe/aepsdk-places-*`, Apache-2.0) as
/// oracles: query-service responses read as each SDK reads them, and the state transitions the
/// SDK tests assert on them.
@Suite(.enabled(if: AdobeFixtures.isAvailable, "needs ../shared/fixtures/adobe (Adobe Places test assets); skipped when absent"))
struct FixtureOracleTests {
    static let android = "aepsdk-places-android"
    static let ios = "aepsdk-places-ios"

    func decode(_ repo: String, _ name: String, _ platform: PlacesPlatform) throws -> PlacesQueryResponse {
        try PlacesQueryResponse.decode(try AdobeFixtures.source(repo, name), platform: platform).response
    }

    @Test("validQuery.json: Cityview Plaza within, nine nearby; entering Meridian makes it current by radius")
    func validQuery() throws {
        let response = try decode(Self.android, "code__places__src__androidTest__resources__validQuery.json", .android)
        #expect(response.userWithin.map(\.name) == ["Cityview Plaza"])
        #expect(response.pois.count == 9)
        let cityview = try #require(response.userWithin.first)
        #expect(cityview.rank == 20 && cityview.radiusMeters == 82 && cityview.library == "Restaurants")
        #expect(cityview.metadata["brand"] == "Starbucks" && cityview.metadata.count == 6)
        let meridian = try #require(response.pois.first { $0.name == "Meridian & SanCarlos" })
        #expect(meridian.rank == 20 && meridian.radiusMeters == 78)

        for platform in PlacesPlatform.allCases {
            var state = Fixture.state(platform)
            let lookup = state.applyNearbyResponse(response, at: Fixture.t0, latitude: 37.3325958, longitude: -121.8910217)
            #expect(lookup.current == cityview.id && lookup.lastEntered == cityview.id, "\(platform)")
            #expect(state.nearby.count == 10 && state.enteredIDs == [cityview.id], "\(platform)")
            // PlacesStateTests.java test_regionEntryEvent: Meridian (w20 r78) beats Cityview
            // (w20 r82) on radius.
            let entry = state.processRegionEvent(.entry, poiID: meridian.id, at: Fixture.at(60))
            #expect(entry.isProcessed && entry.current == meridian.id && entry.lastEntered == meridian.id, "\(platform)")
            let exit = state.processRegionEvent(.exit, poiID: meridian.id, at: Fixture.at(120))
            #expect(exit.current == cityview.id && exit.lastExited == meridian.id, "\(platform)")
        }
    }

    @Test("the simulated query service agrees with validQuery.json on who contains the device")
    func catalogAgrees() throws {
        let response = try decode(Self.android, "code__places__src__androidTest__resources__validQuery.json", .android)
        let catalog = POICatalog(pois: response.all)
        let simulated = catalog.query(latitude: 37.3325958, longitude: -121.8910217, limit: 10)
        #expect(simulated.userWithin.map(\.id) == response.userWithin.map(\.id))
        #expect(Set(simulated.pois.map(\.id)) == Set(response.pois.map(\.id)))
    }

    @Test("iOS assets: two userWithin POIs, the lower weight is current; the first is Last Entered")
    func iosTwoWithin() throws {
        for platform in PlacesPlatform.allCases {
            let response = try decode(Self.ios, "AEPPlaces__Tests__Assets__twoPoiUserWithin.json", platform)
            #expect(response.userWithin.map(\.id) == ["1234", "2345"] && response.pois.isEmpty)
            #expect(response.userWithin.map(\.rank) == [25, 30])
            var state = Fixture.state(platform)
            let r = state.applyNearbyResponse(response, at: Fixture.t0, latitude: 12.34, longitude: 23.45)
            #expect(r.current == "1234" && r.lastEntered == "1234", "\(platform)")
        }
    }

    @Test("iOS assets: one within and one nearby; nearby only; none")
    func iosMixed() throws {
        let mixed = try decode(Self.ios, "AEPPlaces__Tests__Assets__onePoiUserWithinOneNearby.json", .ios)
        #expect(mixed.userWithin.map(\.id) == ["1234"] && mixed.pois.map(\.id) == ["2345"])
        #expect(mixed.pois.first?.metadata == ["key2": "value2"] && mixed.pois.first?.userIsWithin == false)
        var state = Fixture.state(.ios)
        _ = state.applyNearbyResponse(mixed, at: Fixture.t0, latitude: 12.34, longitude: 23.45)
        #expect(state.enteredIDs == ["1234"] && state.nearby.count == 2)

        let nearbyOnly = try decode(Self.ios, "AEPPlaces__Tests__Assets__twoPoiNearby.json", .ios)
        let r = state.applyNearbyResponse(nearbyOnly, at: Fixture.at(1), latitude: 12.34, longitude: 23.45)
        #expect(r.current == nil && r.lastEntered == "1234" && r.left == ["1234"])
        #expect(try decode(Self.ios, "AEPPlaces__Tests__Assets__noUserWithinPoiInJson.json", .ios).userWithin.isEmpty)
        #expect(try decode(Self.ios, "AEPPlaces__Tests__Assets__noNearbyPoiInJson.json", .ios).pois.isEmpty)
    }

    @Test("malformed responses: bad JSON and a missing places object are located errors")
    func malformed() throws {
        for (repo, name) in [
            (Self.ios, "AEPPlaces__Tests__Assets__badJson.json"), (Self.ios, "AEPPlaces__Tests__Assets__noPlaces.json"),
            (Self.android, "code__places__src__androidTest__resources__invalid.json"),
        ] {
            let source = try AdobeFixtures.source(repo, name)
            #expect(throws: FencesimError.self, "\(name)") {
                _ = try PlacesQueryResponse.decode(source, platform: .android)
            }
            do {
                _ = try PlacesQueryResponse.decode(source, platform: .ios)
            } catch {
                #expect(error.code == .badData && error.location?.file == name && error.location?.line == 1)
            }
        }
    }

    @Test("Android assets with wrong value types or keys read as empty lists")
    func androidInvalidValues() throws {
        let badPOIs = try decode(Self.android, "code__places__src__androidTest__resources__invalidPOIsValue.json", .android)
        #expect(badPOIs.userWithin.map(\.id) == ["poiIdentifier1"] && badPOIs.pois.isEmpty)
        let badWithin = try decode(Self.android, "code__places__src__androidTest__resources__invalidUserWithinValue.json", .android)
        #expect(badWithin.userWithin.isEmpty && badWithin.pois.map(\.id) == ["poiIdentifier2"])
        #expect(try decode(Self.android, "code__places__src__androidTest__resources__invalidkeys.json", .android).isEmpty)
        #expect(try decode(Self.android, "code__places__src__androidTest__resources__noPOIResponse.json", .android).isEmpty)
        let t2 = try decode(Self.android, "code__places__src__androidTest__resources__response_t-2_c-1.json", .android)
        #expect(t2.userWithin.count == 1 && t2.pois.count == 1)
    }
}
