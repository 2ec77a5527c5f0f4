import Rules
import Support
import Testing

/// `historical` conditions over the simulated event history (research §2.4).
@Suite struct HistoryTests {
    static func rule(_ definition: String) -> String {
        Fixture.oneRule(#"{"type": "historical", "definition": \#(definition)}"#)
    }

    static func at(_ milliseconds: Int64) -> Timestamp {
        Timestamp(seconds: milliseconds / 1000, nanoseconds: (milliseconds % 1000) * 1_000_000)
    }

    static let entry = RuleEvent(
        type: "com.adobe.eventType.places", source: "com.adobe.eventSource.responseContent",
        data: Fixture.json("{}"), time: Timestamp(seconds: 1_800_000_000))

    static func history(_ events: [(Int64, String)], mask: [String]? = nil) -> RulesContext {
        RulesContext(history: events.map { RuleHistoryEvent(time: at($0.0), data: Fixture.json($0.1), mask: mask) })
    }

    /// rules_testHistory: `any` over one description in [123456789, 234567890] ms, eq 1.
    @Test(.enabled(if: AdobeFixtures.isAvailable, AdobeFixtures.skipMessage))
    func anyWithWindow() throws {
        let rules = try AdobeFixtures.load("rules_testHistory", platform: .ios)
        let inside = Self.history([(200_000_000, #"{"key": "value", "key2": 3}"#)])
        let outside = Self.history([(300_000_000, #"{"key": "value", "key2": 3}"#)])
        let different = Self.history([(200_000_000, #"{"key": "value", "key2": 4}"#)])
        let twice = Self.history([(200_000_000, #"{"key": "value", "key2": 3}"#), (200_000_001, #"{"key2": 3, "key": "value"}"#)])
        #expect(Fixture.evaluate(rules, Self.entry, inside).matchedRules == [0])
        #expect(Fixture.evaluate(rules, Self.entry, outside).matchedRules.isEmpty)
        #expect(Fixture.evaluate(rules, Self.entry, different).matchedRules.isEmpty)
        #expect(Fixture.evaluate(rules, Self.entry, twice).matchedRules.isEmpty, "a count of 2 is not eq 1")
        #expect(Fixture.evaluate(rules, Self.entry, RulesContext()).matchedRules.isEmpty, "no history")
    }

    /// On Android `from`/`to` that fit in 32 bits are read as 0, no bound (research §2.4), so the
    /// event outside the window counts there.
    @Test(.enabled(if: AdobeFixtures.isAvailable, AdobeFixtures.skipMessage))
    func androidIgnoresSmallBounds() throws {
        let android = try AdobeFixtures.load("rules_testHistory", platform: .android)
        #expect(android.warnings.filter { $0.message.contains("fits in 32 bits") }.count == 2)
        let outside = Self.history([(300_000_000, #"{"key": "value", "key2": 3}"#)])
        #expect(Fixture.evaluate(android, Self.entry, outside).matchedRules == [0])
    }

    /// rules_testHistoryMostRecent: mostRecent eq 1 holds when eventB is the newer.
    @Test(.enabled(if: AdobeFixtures.isAvailable, AdobeFixtures.skipMessage))
    func mostRecent() throws {
        let rules = try AdobeFixtures.load("rules_testHistoryMostRecent", platform: .ios)
        let bNewer = Self.history([(1000, #"{"key": "eventA"}"#), (2000, #"{"key": "eventB"}"#)])
        let aNewer = Self.history([(3000, #"{"key": "eventA"}"#), (2000, #"{"key": "eventB"}"#)])
        #expect(Fixture.evaluate(rules, Self.entry, bNewer).matchedRules == [0])
        #expect(Fixture.evaluate(rules, Self.entry, aNewer).matchedRules.isEmpty)
        let trace = Fixture.evaluate(rules, Self.entry, RulesContext(), explain: true).explanation.first
        #expect(trace?.condition.resolved == "mostRecent = -1", "none occurred")
    }

    @Test func ordered() throws {
        let rules = try Fixture.rules(Self.rule(#"{"events": [{"a": 1}, {"b": 1}], "searchType": "ordered", "matcher": "eq", "value": 1}"#))
        #expect(Fixture.evaluate(rules, Self.entry, Self.history([(1000, #"{"a": 1}"#), (2000, #"{"b": 1}"#)])).matchedRules == [0])
        #expect(Fixture.evaluate(rules, Self.entry, Self.history([(2000, #"{"a": 1}"#), (1000, #"{"b": 1}"#)])).matchedRules.isEmpty)
        #expect(
            Fixture.evaluate(rules, Self.entry, Self.history([(1000, #"{"b": 1}"#), (2000, #"{"a": 1}"#), (3000, #"{"b": 1}"#)]))
                .matchedRules == [0])
        #expect(Fixture.evaluate(rules, Self.entry, Self.history([(1000, #"{"a": 1}"#)])).matchedRules.isEmpty)
    }

    /// Events after the triggering event are not in its past; `to` defaults to the event time.
    @Test func futureEventsDoNotCount() throws {
        let rules = try Fixture.rules(Self.rule(#"{"events": [{"a": 1}], "matcher": "ge", "value": 1}"#))
        let future = RulesContext(history: [RuleHistoryEvent(time: Timestamp(seconds: 1_900_000_000), data: Fixture.json(#"{"a": 1}"#))])
        #expect(Fixture.evaluate(rules, Self.entry, future).matchedRules.isEmpty)
    }

    /// A Places visit counter: the masked Edge event of research §1.7, counted per POI.
    @Test func maskedPlacesEntriesCountPerPOI() throws {
        let rules = try Fixture.rules(
            Self.rule(
                #"""
                {"events": [{"xdm.eventType": "location.entry", "xdm.placeContext.POIinteraction.poiDetail.poiID": "p1"}],
                 "searchType": "any", "matcher": "ge", "value": 2, "from": 1700000000000}
                """#))
        let mask = ["xdm.eventType", "xdm.placeContext.POIinteraction.poiDetail.poiID"]
        func visit(_ poi: String, _ seconds: Int64) -> RuleHistoryEvent {
            RuleHistoryEvent(
                time: Timestamp(seconds: seconds),
                data: Fixture.json(
                    #"{"xdm": {"eventType": "location.entry", "placeContext": {"POIinteraction": {"poiDetail": {"poiID": "\#(poi)", "name": "N"}}}}}"#
                ),
                mask: mask)
        }
        let once = RulesContext(history: [visit("p1", 1_750_000_000), visit("p2", 1_750_000_100)])
        let twice = RulesContext(history: [visit("p1", 1_750_000_000), visit("p1", 1_760_000_000)])
        let old = RulesContext(history: [visit("p1", 1_600_000_000), visit("p1", 1_760_000_000)])
        #expect(Fixture.evaluate(rules, Self.entry, once).matchedRules.isEmpty)
        #expect(Fixture.evaluate(rules, Self.entry, twice).matchedRules == [0])
        #expect(Fixture.evaluate(rules, Self.entry, old).matchedRules.isEmpty, "before from")
        // Without the mask, the name is hashed too and the description no longer equals the event.
        let unmasked = RulesContext(history: twice.history.map { RuleHistoryEvent(time: $0.time, data: $0.data) })
        #expect(Fixture.evaluate(rules, Self.entry, unmasked).matchedRules.isEmpty)
    }
}
