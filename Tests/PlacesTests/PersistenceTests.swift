import Places
import Support
import Testing

/// `--state FILE` persistence: round trips and located errors for corrupt states.
@Suite struct PersistenceTests {
    /// A state with every part filled: nearby list, entered set, all three POIs, location.
    static func busyState(_ platform: PlacesPlatform = .docs) -> PlacesState {
        var state = Fixture.state(platform, ttl: 1800)
        let a = Fixture.poi("A", rank: 1, radius: 82.5, metadata: ["city": "San José", "quote": "say \"hi\"\n"])
        let b = Fixture.poi("B", rank: 2, radius: 50, latitude: 37.3301234567891)
        let c = Fixture.poi("C", rank: 3, radius: 20, latitude: 37.331)
        _ = state.applyNearbyResponse(
            PlacesQueryResponse(userWithin: [a], pois: [b, c]), at: Fixture.t0.adding(nanoseconds: 7),
            latitude: 37.33, longitude: -121.89)
        _ = state.processRegionEvent(.entry, poi: b, at: Fixture.at(10.123456789))
        _ = state.processRegionEvent(.exit, poi: c, at: Fixture.at(20))
        return state
    }

    @Test("encode → decode gives an equal state and byte-identical text", arguments: PlacesPlatform.allCases)
    func roundTrip(platform: PlacesPlatform) throws {
        let state = Self.busyState(platform)
        let text = state.encoded()
        let decoded = try PlacesState.decode(SourceText(file: "state.json", bytes: Array(text.utf8)), configuration: state.configuration)
        #expect(decoded == state)
        #expect(decoded.encoded() == text)
        #expect(text.hasPrefix(#"{"format":"fencesim-places-state","version":1,"nearby":["#))
        #expect(text.hasSuffix("}\n"))
        // The decoded state carries on exactly like the original.
        var x = state, y = decoded
        let c = Fixture.poi("C", rank: 3, radius: 20, latitude: 37.331)
        #expect(
            Fixture.json(x.processRegionEvent(.entry, poi: c, at: Fixture.at(30)).sharedState)
                == Fixture.json(y.processRegionEvent(.entry, poi: c, at: Fixture.at(30)).sharedState))
        #expect(x == y)
    }

    @Test("an empty state round-trips")
    func emptyRoundTrip() throws {
        let state = PlacesState()
        let decoded = try PlacesState.decode(
            SourceText(file: "s", bytes: Array(state.encoded().utf8)), configuration: PlacesConfiguration())
        #expect(decoded == state)
    }

    func decodeError(_ text: String) -> FencesimError? {
        do {
            _ = try PlacesState.decode(SourceText(file: "state.json", bytes: Array(text.utf8)), configuration: PlacesConfiguration())
            return nil
        } catch {
            return error
        }
    }

    @Test("bad JSON is a located bad-data error")
    func badJSON() {
        let error = decodeError("{\"format\": \"fencesim-places-state\",\n  \"version\": 1,,\n}")
        #expect(error?.code == .badData)
        #expect(error?.location == SourceLocation(file: "state.json", line: 2, column: 16))
    }

    @Test("a wrong version is located at the version value")
    func wrongVersion() {
        let text = Self.busyState().encoded().replacingOccurrences(of: #""version":1"#, with: "\n\"version\":2")
        let error = decodeError(text)
        #expect(error?.code == .badData)
        #expect(error?.message.contains("version 2") == true)
        #expect(error?.location == SourceLocation(file: "state.json", line: 2, column: 11))
    }

    @Test("another format is refused before anything else")
    func wrongFormat() {
        let error = decodeError(#"{"type":"FeatureCollection","features":[]}"#)
        #expect(error?.code == .badData)
        #expect(error?.location?.line == 1)
    }

    @Test("missing, unknown and mistyped keys are located errors")
    func missingKeys() {
        let full = Self.busyState().encoded()
        // Missing top-level key: located at the object.
        let missing = decodeError(full.replacingOccurrences(of: #","nextSequence":"#, with: #","nextSequenceX":"#))
        #expect(missing?.message.contains("unknown key \"nextSequenceX\"") == true)
        let noCurrent = decodeError(full.replacingOccurrences(of: #""current":"#, with: #""currentX":"#))
        #expect(noCurrent?.code == .badData)
        // Missing POI key: located at the POI object inside the file.
        let noRank = full.replacingOccurrences(of: #","rank":2,"#, with: ",")
        let error = decodeError(noRank)
        #expect(error?.message.contains("missing key \"rank\"") == true)
        let offset = noRank.utf8.count - noRank[noRank.range(of: #"{"id":"B""#)!.lowerBound...].utf8.count
        #expect(error?.location == SourceLocation(file: "state.json", line: 1, column: offset + 1))
        // Mistyped.
        let mistyped = decodeError(full.replacingOccurrences(of: #""userIsWithin":true"#, with: #""userIsWithin":"yes""#))
        #expect(mistyped?.message.contains("\"userIsWithin\" must be true or false") == true)
        let badTime = decodeError(full.replacingOccurrences(of: #""validUntil":"2026-"#, with: #""validUntil":"2026/13-"#))
        #expect(badTime?.message.contains("validUntil") == true)
        // Empty file.
        #expect(decodeError("")?.code == .badData)
    }

    @Test("an entered set naming a POI twice is refused")
    func duplicateEntered() {
        var state = PlacesState()
        _ = state.processRegionEvent(.entry, poi: Fixture.poi("A"), at: Fixture.t0)
        let text = state.encoded()
        let entry = text[text.range(of: #""entered":["#)!.upperBound...]
        let first = String(entry[..<entry.range(of: "}],\"current\"")!.lowerBound]) + "}"
        let doubled = text.replacingOccurrences(of: #""entered":["# + first, with: #""entered":["# + first + "," + first)
        #expect(decodeError(doubled)?.message.contains("entered twice") == true)
    }
}
