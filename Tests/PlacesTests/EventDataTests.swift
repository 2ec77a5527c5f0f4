import Places
import Support
import Testing

/// The data of the dispatched events and of the shared state (research §1.7, §1.8).
@Suite struct EventDataTests {
    let a = Fixture.poi("A", rank: 20, radius: 82, metadata: ["brand": "Starbucks"])

    @Test("docs: triggeringregion and the response keys in fixed order")
    func docsResponse() {
        var state = Fixture.state(.docs)
        let entry = state.processRegionEvent(.entry, poi: a, at: Fixture.t0)
        #expect(
            Fixture.json(entry.responseEventData)
                == #"{"triggeringregion":{"regionid":"A","regionname":"POI A","latitude":37.33,"longitude":-121.89,"radius":82,"weight":20,"libraryid":"lib","useriswithin":true,"regionmetadata":{"brand":"Starbucks"}},"regioneventtype":"entry"}"#
        )
        let exit = state.processRegionEvent(.exit, poi: a, at: Fixture.at(1))
        #expect(Fixture.json(exit.responseEventData).contains(#""useriswithin":false"#))
    }

    @Test("android: useriswithin follows the signal and a millisecond timestamp is added")
    func androidResponse() {
        var state = Fixture.state(.android)
        let entry = state.processRegionEvent(.entry, poi: a, at: Fixture.t0.adding(nanoseconds: 123_456_789))
        let text = Fixture.json(entry.responseEventData)
        #expect(text.contains(#""useriswithin":true"#))
        #expect(text.hasSuffix(#""regioneventtype":"entry","timestamp":1767225600123}"#))
        let exit = state.processRegionEvent(.exit, poi: a, at: Fixture.at(1))
        #expect(Fixture.json(exit.responseEventData).contains(#""useriswithin":false"#))
    }

    @Test("ios: useriswithin is whatever the last nearby query said")
    func iosStaleFlag() {
        var state = Fixture.state(.ios)
        // Never looked up: the catalog copy says false, for the entry too.
        let entry = state.processRegionEvent(.entry, poi: a, at: Fixture.t0)
        #expect(Fixture.json(entry.responseEventData).contains(#""useriswithin":false"#))
        // After a lookup that found the device inside A, the exit still reports true
        // (PlacesTests.swift testHandleProcessRegionEventRequestExit asserts true for both).
        _ = state.applyNearbyResponse(
            PlacesQueryResponse(userWithin: [a], pois: []), at: Fixture.at(10), latitude: 37.33, longitude: -121.89)
        let exit = state.processRegionEvent(.exit, poi: a, at: Fixture.at(20))
        #expect(Fixture.json(exit.responseEventData).contains(#""useriswithin":true"#))
        #expect(Fixture.json(exit.sharedState).contains(#""lastexitedpoi":{"regionid":"A""#))
    }

    @Test("shared state: fixed key order, nil POIs omitted, validuntil per platform")
    func sharedStateShape() {
        var docs = Fixture.state(.docs)
        #expect(Fixture.json(docs.sharedState()) == #"{"authstatus":"always","validuntil":0}"#)
        let r = docs.processRegionEvent(.entry, poi: a, at: Fixture.at(0.25))
        let text = Fixture.json(r.sharedState)
        #expect(text.hasPrefix(#"{"currentpoi":{"regionid":"A""#))
        #expect(text.contains(#""lastenteredpoi":{"regionid":"A""#))
        #expect(!text.contains("lastexitedpoi") && !text.contains("nearbypois") && !text.contains("userwithinpois"))
        #expect(text.hasSuffix(#""authstatus":"always","validuntil":1767229200.25}"#))

        var android = Fixture.state(.android)
        let ra = android.processRegionEvent(.entry, poi: a, at: Fixture.at(0.75))
        #expect(Fixture.json(ra.sharedState).hasSuffix(#""validuntil":1767229200}"#))
        guard case .object(let members)? = ra.sharedState, case .int = members.last?.node.value else {
            Issue.record("android validuntil must be a long")
            return
        }
        var ios = Fixture.state(.ios)
        let ri = ios.processRegionEvent(.entry, poi: a, at: Fixture.at(0.5))
        #expect(Fixture.json(ri.sharedState).hasSuffix(#""validuntil":1767229201}"#))
    }

    @Test("nearby lookup publishes nearbypois first and dispatches responsegetnearbyplaces")
    func nearbyShape() {
        var state = Fixture.state(.docs)
        let b = Fixture.poi("B", rank: 20, radius: 50, latitude: 37.34)
        let r = state.applyNearbyResponse(
            PlacesQueryResponse(userWithin: [a], pois: [b]), at: Fixture.t0, latitude: 37.33, longitude: -121.89)
        #expect(Fixture.json(r.sharedState).hasPrefix(#"{"nearbypois":[{"regionid":"A","#))
        #expect(r.events.map(\.name) == ["responsegetnearbyplaces"])
        #expect(Fixture.json(r.events[0].data).hasSuffix(#""status":0}"#))
        #expect(Fixture.json(state.userWithinResponseData).hasPrefix(#"{"userwithinpois":[{"regionid":"A""#))
    }

    @Test("nearbypois: response order for docs and Android, the emulated dictionary order on iOS")
    func nearbyOrder() {
        let pois = (0..<6).map { Fixture.poi("n\($0)", latitude: 37.33 + Double($0) * 0.001) }
        let response = PlacesQueryResponse(userWithin: [], pois: pois)
        func order(_ platform: PlacesPlatform, seed: UInt64 = 0) -> [String] {
            var state = Fixture.state(platform, seed: seed)
            let published = state.applyNearbyResponse(response, at: Fixture.t0, latitude: 37.33, longitude: -121.89).sharedState
            guard case .object(let members) = published, case .array(let list)? = members.first?.node.value else { return [] }
            return list.compactMap { node in
                guard case .object(let m) = node.value, case .string(let id)? = m.first?.node.value else { return nil }
                return id
            }
        }
        #expect(order(.docs) == pois.map(\.id))
        #expect(order(.android) == pois.map(\.id))
        let iosOrders = Set((UInt64(0)..<8).map { order(.ios, seed: $0) })
        #expect(iosOrders.allSatisfy { $0.sorted() == pois.map(\.id) })
        #expect(iosOrders.count > 1)
        #expect(order(.ios, seed: 3) == order(.ios, seed: 3))
    }
}
