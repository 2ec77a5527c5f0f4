import Places
import Support
import Testing

/// The scenario tables of the Places behaviour reference
/// (seeds/001_a6d637dfe9c1ccc7.txt, "Scenario: Non-intersecting points" and "Scenario:
/// Intersecting points"), replayed step by step on every platform: the SDKs agree with the
/// documentation on these.
@Suite struct SeedScenarioTests {
    struct Step: Sendable, CustomTestStringConvertible {
        var type: PlacesRegionEventType
        var poi: String
        var current: String?
        var lastEntered: String?
        var lastExited: String?
        var testDescription: String { "\(type.rawValue) \(poi)" }
    }

    /// seeds/001, "Scenario: Non-intersecting points": Enter A, Exit A, Enter B.
    static let nonIntersecting: [Step] = [
        Step(type: .entry, poi: "A", current: "A", lastEntered: "A", lastExited: nil),
        Step(type: .exit, poi: "A", current: nil, lastEntered: "A", lastExited: "A"),
        Step(type: .entry, poi: "B", current: "B", lastEntered: "B", lastExited: "A"),
    ]

    /// seeds/001, "Scenario: Intersecting points": Enter A, Enter B, Exit A; POI A's library
    /// ranks higher ("POI A remains the Current POI due to its higher library ranking").
    static let intersecting: [Step] = [
        Step(type: .entry, poi: "A", current: "A", lastEntered: "A", lastExited: nil),
        Step(type: .entry, poi: "B", current: "A", lastEntered: "B", lastExited: nil),
        Step(type: .exit, poi: "A", current: "B", lastEntered: "B", lastExited: "A"),
    ]

    func replay(_ steps: [Step], pois: [String: POI], platform: PlacesPlatform) {
        var state = Fixture.state(platform)
        for (k, step) in steps.enumerated() {
            let result = state.processRegionEvent(step.type, poi: pois[step.poi]!, at: Fixture.at(Double(k) * 60))
            #expect(result.isProcessed, "\(step)")
            #expect(result.current == step.current, "step \(k + 1): \(step)")
            #expect(result.lastEntered == step.lastEntered, "step \(k + 1): \(step)")
            #expect(result.lastExited == step.lastExited, "step \(k + 1): \(step)")
            #expect(state.currentID == step.current && state.lastEnteredID == step.lastEntered && state.lastExitedID == step.lastExited)
        }
    }

    @Test("non-intersecting POIs", arguments: PlacesPlatform.allCases)
    func nonIntersectingScenario(platform: PlacesPlatform) {
        // Two circles 2 km apart, same library rank.
        let a = Fixture.poi("A", rank: 1, radius: 100, latitude: 37.33)
        let b = Fixture.poi("B", rank: 1, radius: 100, latitude: 37.35)
        replay(Self.nonIntersecting, pois: ["A": a, "B": b], platform: platform)
    }

    @Test("intersecting POIs, A's library ranked higher", arguments: PlacesPlatform.allCases)
    func intersectingScenario(platform: PlacesPlatform) {
        // Overlapping circles; B is even smaller, so only the rank can keep A current.
        let a = Fixture.poi("A", rank: 1, radius: 200)
        let b = Fixture.poi("B", rank: 2, radius: 50, latitude: 37.3305)
        replay(Self.intersecting, pois: ["A": a, "B": b], platform: platform)
    }

    @Test("each processed signal dispatches the response and the Edge event", arguments: PlacesPlatform.allCases)
    func dispatchedEvents(platform: PlacesPlatform) {
        var state = Fixture.state(platform)
        let a = Fixture.poi("A", metadata: ["city": "San Jose", "brand": "Adobe"])
        let entry = state.processRegionEvent(.entry, poi: a, at: Fixture.t0)
        #expect(entry.events.map(\.name) == ["responseprocessregionevent", "Location Tracking Event"])
        #expect(entry.events.map(\.type) == [PlacesEvent.placesType, PlacesEvent.edgeType])
        #expect(entry.events.map(\.source) == [PlacesEvent.responseContentSource, PlacesEvent.requestContentSource])
        #expect(entry.events[1].mask == ["xdm.eventType", "xdm.placeContext.POIinteraction.poiDetail.poiID"])
        #expect(
            Fixture.json(entry.edgeEventData)
                == #"{"xdm":{"eventType":"location.entry","placeContext":{"POIinteraction":{"poiDetail":{"poiID":"A","name":"POI A","metadata":{"list":[{"key":"brand","value":"Adobe"},{"key":"city","value":"San Jose"}]}}}}}}"#
        )
        let exit = state.processRegionEvent(.exit, poi: a, at: Fixture.at(10))
        #expect(Fixture.json(exit.edgeEventData).contains(#""eventType":"location.exit""#))
        #expect(Fixture.json(exit.responseEventData).contains(#""regioneventtype":"exit""#))
    }
}
