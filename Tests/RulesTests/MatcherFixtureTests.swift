import Rules
import Support
import Testing

/// The matcher fixtures of aepsdk-core-ios give the outcomes of Adobe's functional tests
/// (`RulesEngineFunctionalTests.swift`: the default Lifecycle event, a simulated
/// `com.adobe.module.lifecycle` shared state, and the number of consequence events dispatched),
/// on both platforms where they agree and on each where they differ (research §2.3, §3).
@Suite(.enabled(if: AdobeFixtures.isAvailable, AdobeFixtures.skipMessage))
struct MatcherFixtureTests {
    /// One case of a functional test: a fixture, a lifecycle shared state, and how many
    /// consequences fire on iOS and on Android.
    struct Case: Sendable, CustomTestStringConvertible {
        var fixture: String
        var state: String?
        var ios: Int
        var android: Int
        var testDescription: String { "\(fixture) with \(state ?? "no lifecycle state")" }

        init(_ fixture: String, _ state: String?, fires: Int) {
            self.init(fixture, state, ios: fires, android: fires)
        }

        init(_ fixture: String, _ state: String?, ios: Int, android: Int) {
            self.fixture = fixture
            self.state = state
            self.ios = ios
            self.android = android
        }
    }

    static let cases: [Case] = [
        // testGroupLogicalOperators
        Case("rules_testGroupLogicalOperators", nil, fires: 0),
        Case("rules_testGroupLogicalOperators", #"{"lifecyclecontextdata": {"carriername": "AT&T"}}"#, fires: 1),
        // testMatcherNe
        Case("rules_testMatcherNe", #"{"lifecyclecontextdata": {"carriername": "AT&T"}}"#, fires: 0),
        Case("rules_testMatcherNe", #"{"lifecyclecontextdata": {"carriername": "Verizon"}}"#, fires: 1),
        // testMatcherNx: a pending shared state reads as missing
        Case("rules_testMatcherNx", #"{"lifecyclecontextdata": {"carriername": "AT&T"}}"#, fires: 0),
        Case("rules_testMatcherNx", nil, fires: 1),
        // testMatcherGt, Ge, Lt, Le
        Case("rules_testMatcherGt", #"{"lifecyclecontextdata": {"launches": 2}}"#, fires: 0),
        Case("rules_testMatcherGt", #"{"lifecyclecontextdata": {"launches": 3}}"#, fires: 1),
        Case("rules_testMatcherGe", #"{"lifecyclecontextdata": {"launches": 1}}"#, fires: 0),
        Case("rules_testMatcherGe", #"{"lifecyclecontextdata": {"launches": 2}}"#, fires: 1),
        Case("rules_testMatcherLt", #"{"lifecyclecontextdata": {"launches": 2}}"#, fires: 0),
        Case("rules_testMatcherLt", #"{"lifecyclecontextdata": {"launches": 1}}"#, fires: 1),
        Case("rules_testMatcherLe", #"{"lifecyclecontextdata": {"launches": 3}}"#, fires: 0),
        Case("rules_testMatcherLe", #"{"lifecyclecontextdata": {"launches": 2}}"#, fires: 1),
        // testMatcherCo, Nc (value "AT")
        Case("rules_testMatcherCo", #"{"lifecyclecontextdata": {"carriername": "Verizon"}}"#, fires: 0),
        Case("rules_testMatcherCo", #"{"lifecyclecontextdata": {"carriername": "AT&"}}"#, fires: 1),
        Case("rules_testMatcherNc", #"{"lifecyclecontextdata": {"carriername": "AT&"}}"#, fires: 0),
        Case("rules_testMatcherNc", #"{"lifecyclecontextdata": {"carriername": "Verizon"}}"#, fires: 1),
        // Multiple values of ne/nc are AND-ed (research §2.3, §4 item 1)
        Case("rules_testMatcherNe_multipleValues", #"{"lifecyclecontextdata": {"carriername": "Verizon"}}"#, fires: 0),
        Case("rules_testMatcherNe_multipleValues", #"{"lifecyclecontextdata": {"carriername": "cricket"}}"#, fires: 0),
        Case("rules_testMatcherNe_multipleValues", #"{"lifecyclecontextdata": {"carriername": "T-Mobile"}}"#, fires: 1),
        Case("rules_testMatcherNc_multipleValues", #"{"lifecyclecontextdata": {"carriername": "Sprint PCS"}}"#, fires: 0),
        Case("rules_testMatcherNc_multipleValues", #"{"lifecyclecontextdata": {"carriername": "T-Mobile"}}"#, fires: 1),
        // testMatcherWithDifferentTypesOfParameters: launches 3 gt "2" — 0 on iOS, 1 on Android (§3)
        Case("rules_testMatcherWithDifferentTypesOfParameters", #"{"lifecyclecontextdata": {"launches": 3}}"#, ios: 0, android: 1),
    ]

    @Test(arguments: cases)
    func matcherFixture(_ c: Case) throws {
        for (platform, expected) in [(RulesPlatform.ios, c.ios), (.android, c.android)] {
            let rules = try AdobeFixtures.load(c.fixture, platform: platform)
            let outcome = Fixture.evaluate(rules, Fixture.lifecycleEvent(), Fixture.lifecycle(c.state))
            #expect(Fixture.fired(outcome) == expected, "\(c.fixture) on \(platform)")
            if expected == 1 {
                #expect(outcome.consequences.first?.type == "pb")
                #expect(outcome.consequences.first?.consequenceEvent?.type == "com.adobe.eventType.rulesEngine")
                #expect(outcome.consequences.first?.consequenceEvent?.source == "com.adobe.eventSource.responseContent")
            }
        }
    }

    /// testTransform: 13 AND-ed coercion checks over a string, a boolean, an int and a double.
    @Test(arguments: [RulesPlatform.ios, .android, .docs])
    func transform(_ platform: RulesPlatform) throws {
        let rules = try AdobeFixtures.load("rules_testTransform", platform: platform)
        let event = Fixture.lifecycleEvent(
            data: #"{"lifecyclecontextdata": {"numberString": "3", "booleanValue": true, "intValue": 5, "doubleValue": 10.3}}"#)
        let outcome = Fixture.evaluate(rules, event)
        #expect(Fixture.fired(outcome) == 1)
        #expect(outcome.consequences.first?.type == "url")
    }

    /// testMatcherGtForIntTypes: `~timestampu gt 1622098800` on a Lifecycle event, with the
    /// simulated time in place of the clock.
    @Test(arguments: [RulesPlatform.ios, .android])
    func timestampGreaterThan(_ platform: RulesPlatform) throws {
        let rules = try AdobeFixtures.load("rules_testMatcherGt_2_types", platform: platform)
        let after = Fixture.evaluate(rules, Fixture.lifecycleEvent(time: Timestamp(seconds: 1_622_098_801)))
        let before = Fixture.evaluate(rules, Fixture.lifecycleEvent(time: Timestamp(seconds: 1_622_098_800)))
        #expect(Fixture.fired(after) == 1)
        #expect(Fixture.fired(before) == 0)
    }

    /// `~timestampu` between 2023 and 2050 (rules_testTimestampu). In 2040 it still matches on
    /// iOS (64-bit Int), but not on Android: `~timestampu` is a string there and `int()` parses
    /// it into 32 bits, which fails after 2038 (research §2.2, §4 item 7).
    @Test func timestampuAfter2038DivergesOnAndroid() throws {
        let in2026 = Timestamp(seconds: 1_780_000_000)
        let in2040 = Timestamp(seconds: 2_208_988_800)
        for platform in [RulesPlatform.ios, .android] {
            let rules = try AdobeFixtures.load("rules_testTimestampu", platform: platform)
            #expect(Fixture.fired(Fixture.evaluate(rules, Fixture.lifecycleEvent(time: in2026))) == 1, "\(platform)")
        }
        let ios = try AdobeFixtures.load("rules_testTimestampu", platform: .ios)
        let android = try AdobeFixtures.load("rules_testTimestampu", platform: .android)
        #expect(Fixture.fired(Fixture.evaluate(ios, Fixture.lifecycleEvent(time: in2040))) == 1)
        #expect(Fixture.fired(Fixture.evaluate(android, Fixture.lifecycleEvent(time: in2040))) == 0)
    }

    /// rules_testArrayFlatteningNotation: `items.1 eq "b"` reads an array element.
    @Test(arguments: [RulesPlatform.ios, .android, .docs])
    func arrayIndexKeys(_ platform: RulesPlatform) throws {
        let rules = try AdobeFixtures.load("rules_testArrayFlatteningNotation", platform: platform)
        let event = RuleEvent(type: "t", source: "s", data: Fixture.json(#"{"items": ["a", "b", "c"]}"#), time: Fixture.epoch)
        let outcome = Fixture.evaluate(rules, event)
        #expect(outcome.event.data?.text == #"{"items":["a","b","c"],"matchedItem":"b"}"#)
        let other = RuleEvent(type: "t", source: "s", data: Fixture.json(#"{"items": ["a", "c"]}"#), time: Fixture.epoch)
        #expect(Fixture.evaluate(rules, other).matchedRules.isEmpty)
    }
}
