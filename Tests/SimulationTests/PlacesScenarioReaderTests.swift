import Foundation
import Support
import Testing

@testable import Scenarios

/// `places:` and `sessions:` of a scenario: typed, with located errors.
@Suite struct PlacesScenarioReaderTests {
    let reader = ScenarioReaderTests()
    let head = "traces: [traces/a.csv]\nfences: fences.geojson\n"

    @Test func readsPlacesAndSessions() throws {
        let (_, path) = try reader.scenario(
            head + """
                places: {signals: geotrigger, membershipTTL: 90.5, expiry: strict, lastPOIExpiry: never, platform: android, regionBudget: 3}
                sessions:
                  - {launch: "2026-01-01T09:00:00Z", terminate: "2026-01-01T09:30:00Z", nearbyLookup: true}
                  - {launch: "2026-01-01T09:30:00Z"}
                """)
        let s = try ScenarioReader.read(path: path)
        let places = try #require(s.places)
        #expect(places.signals == .geotrigger)
        #expect(places.configuration.membershipTTL == 90.5)
        #expect(places.configuration.expiry == .strict)
        #expect(places.configuration.lastPOIExpiry == .never)
        #expect(places.configuration.platform == .android)
        #expect(places.configuration.regionBudget == 3)
        #expect(s.sessions.count == 2)
        #expect(s.sessions[0].terminate?.description == "2026-01-01T09:30:00.000Z")
        #expect(s.sessions[0].nearbyLookup && !s.sessions[1].nearbyLookup)
        #expect(s.sessions.map(\.location.line) == [5, 6])
        #expect(s.notYetSimulated.isEmpty)
    }

    @Test func sessionsAloneTurnPlacesOn() throws {
        let (_, path) = try reader.scenario(head + "sessions: [{launch: \"2026-01-01T09:00:00Z\"}]\n")
        let s = try ScenarioReader.read(path: path)
        #expect(s.places?.signals == .checkins)
        #expect(s.places?.configuration.membershipTTL == 3600)
        #expect(s.places?.configuration.lastPOIExpiry == .ttl)
        let (_, none) = try reader.scenario(head)
        #expect(try ScenarioReader.read(path: none).places == nil)
    }

    @Test func badPlacesValuesAreLocated() throws {
        try reader.expectError(
            head + "places: {signals: gps}\n", line: 3, column: 19, "signals must be one of checkins, geotrigger, found \"gps\"")
        try reader.expectError(head + "places:\n  membershipTTL: -5\n", line: 4, column: 18, "membershipTTL must not be negative")
        try reader.expectError(head + "places:\n  membershipTTL: hour\n", line: 4, "membershipTTL must be a number of seconds")
        try reader.expectError(head + "places: {expiry: eager}\n", line: 3, "expiry must be one of lazy, strict")
        try reader.expectError(
            head + "places: {lastPOIExpiry: forever}\n", line: 3, "lastPOIExpiry must be one of ttl, never, found \"forever\"")
        try reader.expectError(head + "places: {platform: windows}\n", line: 3, "platform must be one of docs, ios, android")
        try reader.expectError(head + "places: {regionBudget: 2.5}\n", line: 3, "regionBudget must be a whole number of POIs")
        try reader.expectError(head + "places: {regionBudget: 0}\n", line: 3, "regionBudget must be a whole number of POIs, 1 or more")
    }

    @Test func badSessionsAreLocated() throws {
        try reader.expectError(
            head + "sessions:\n  - {launch: \"2026-01-01T10:00:00Z\"}\n  - {launch: \"2026-01-01T09:00:00Z\"}\n",
            line: 5, "sessions must be in time order")
        try reader.expectError(
            head + "sessions:\n  - {launch: \"2026-01-01T10:00:00Z\", terminate: \"2026-01-01T09:00:00Z\"}\n",
            line: 4, "terminate 2026-01-01T09:00:00.000Z is not after the session's launch")
        try reader.expectError(
            head
                + "sessions:\n  - {launch: \"2026-01-01T09:00:00Z\", terminate: \"2026-01-01T10:00:00Z\"}\n  - {launch: \"2026-01-01T09:30:00Z\"}\n",
            line: 5, "sessions must not overlap")
        try reader.expectError(head + "sessions:\n  - {launch: yesterday}\n", line: 4, "launch: \"yesterday\" is not an ISO-8601 time")
        try reader.expectError(head + "sessions:\n  - {terminate: \"2026-01-01T09:00:00Z\"}\n", line: 4, "a session needs \"launch\"")
        try reader.expectError(
            head + "sessions:\n  - {launch: \"2026-01-01T09:00:00Z\", lookup: true}\n", line: 4, "unknown session key \"lookup\"")
        try reader.expectError(
            head + "sessions:\n  - {launch: \"2026-01-01T09:00:00Z\", nearbyLookup: yes}\n", line: 4, "nearbyLookup must be true or false")
        try reader.expectError(head + "sessions: {launch: \"2026-01-01T09:00:00Z\"}\n", line: 3, "sessions must be a list")
    }
}
