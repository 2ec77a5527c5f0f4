import Foundation
import Rules
import Support
import Testing

/// `explain`: why each rule did or did not match, with the resolved key values.
@Suite struct ExplainTests {
    static let text = """
        {"version": 1, "rules": [
          {"condition": {"type": "group", "definition": {"logic": "and", "conditions": [
            {"type": "matcher", "definition": {"key": "~type", "matcher": "eq", "values": ["com.adobe.eventType.places"]}},
            {"type": "matcher", "definition": {"key": "regioneventtype", "matcher": "eq", "values": ["entry"]}},
            {"type": "matcher", "definition": {"key": "~state.com.adobe.module.places/currentpoi.weight", "matcher": "lt", "values": [50]}}
          ]}}, "consequences": [{"id": "welcome", "type": "pb", "detail": {"templateurl": "https://x/{%urlenc(triggeringregion.regionname)%}"}}]},
          {"condition": {"type": "matcher", "definition": {"key": "launches", "matcher": "gt", "values": [2]}},
           "consequences": [{"id": "never", "type": "pb", "detail": {}}]}
        ]}
        """

    static let event = RuleEvent(
        type: "com.adobe.eventType.places", source: "com.adobe.eventSource.responseContent",
        data: Fixture.json(#"{"regioneventtype": "entry", "triggeringregion": {"regionname": "Cityview Plaza"}, "launches": "3.5"}"#),
        time: Fixture.epoch)

    @Test func explainsMatchesAndFailures() throws {
        let rules = try Fixture.rules(Self.text, platform: .ios)
        var context = RulesContext()
        context.sharedStates["com.adobe.module.places"] = Fixture.json(#"{"currentpoi": {"weight": 20}}"#)
        let outcome = Fixture.evaluate(rules, Self.event, context, explain: true)
        #expect(outcome.matchedRules == [0])
        #expect(
            outcome.consequences.map(\.jsonLine) == [#"{"id":"welcome","type":"pb","detail":{"templateurl":"https://x/Cityview%20Plaza"}}"#]
        )
        let first = try #require(outcome.explanation.first)
        #expect(first.matched)
        #expect(first.location?.description == "rules.json:2:3")
        #expect(first.condition.children.count == 3)
        let weight = first.condition.children[2]
        #expect(weight.resolved == "20 (int)")
        #expect(weight.reason == "int() = 20; 20 lt 50 is true")

        let second = try #require(outcome.explanation.last)
        #expect(!second.matched)
        #expect(second.condition.resolved == #""3.5" (string)"#)
        #expect(second.condition.reason == #"int() gives "3.5" (string), not an integer"#)
        #expect(
            second.lines == [
                "rule 2 (rules.json:7:3): no match",
                #"  launches gt [2]: false — "3.5" (string); int() gives "3.5" (string), not an integer"#,
            ])
    }

    /// A failed `and` names the failing condition and counts the ones not evaluated.
    @Test func shortCircuitIsReported() throws {
        let rules = try Fixture.rules(Self.text, platform: .android)
        var event = Self.event
        event.type = "com.adobe.eventType.edge"
        let outcome = Fixture.evaluate(rules, event, explain: true)
        let lines = try #require(outcome.explanation.first).lines
        #expect(
            lines == [
                "rule 1 (rules.json:2:3): no match",
                "  and: false",
                #"    ~type eq ["com.adobe.eventType.places"]: false — "com.adobe.eventType.edge" (string); string() = "com.adobe.eventType.edge"; "com.adobe.eventType.edge" eq "com.adobe.eventType.places" is false"#,
                "    (2 more not evaluated: the result was already decided)",
            ])
        let missing = Fixture.evaluate(rules, Self.event, explain: true).explanation[0].condition.children[2]
        #expect(missing.resolved == "missing")
        #expect(missing.reason.contains("invalid operand on Android"))
    }

    @Test func noExplanationUnlessAsked() throws {
        let rules = try Fixture.rules(Self.text)
        #expect(Fixture.evaluate(rules, Self.event).explanation.isEmpty)
    }

    /// The same seed gives the same outcome, byte for byte.
    @Test func evaluationIsDeterministic() throws {
        let text = Fixture.oneRule(Fixture.matcher("~cachebust", "ex", "[]")).replacingOccurrences(
            of: #""detail": {"templateurl": "https://example.com"}"#,
            with: #""detail": {"u": "{%~cachebust%}"}"#)
        let rules = try Fixture.rules(text)
        let a = Fixture.evaluate(rules, Self.event, seed: 99).consequences.map(\.jsonLine)
        let b = Fixture.evaluate(rules, Self.event, seed: 99).consequences.map(\.jsonLine)
        #expect(a == b)
        #expect(a.count == 1)
    }
}
