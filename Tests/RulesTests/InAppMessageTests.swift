import Foundation
import Rules
import Support
import Testing

/// Seed 004, "Consequence object definition": in-app messages are first-one-wins. Of the `iam`
/// consequences one event fires, the first in rule order is shown and the others are not; every
/// other consequence still runs.
@Suite struct InAppMessageTests {
    static let rules = """
        {"version": 1, "rules": [
          {"condition": {"type": "matcher", "definition": {"key": "k", "matcher": "eq", "values": ["a"]}},
           "consequences": [{"id": "ping", "type": "pb", "detail": {"templateurl": "https://example.com"}},
                            {"id": "first", "type": "iam", "detail": {"html": "first.html"}}]},
          {"condition": {"type": "matcher", "definition": {"key": "k", "matcher": "ex", "values": []}},
           "consequences": [{"id": "second", "type": "iam", "detail": {"html": "second.html"}},
                            {"id": "third", "type": "iam", "detail": {"html": "third.html"}}]}
        ]}
        """

    @Test(arguments: [RulesPlatform.docs, .ios, .android])
    func firstMessageWins(_ platform: RulesPlatform) throws {
        let rules = try Fixture.rules(Self.rules, platform: platform)
        let both = Fixture.evaluate(rules, RuleEvent(type: "t", source: "s", data: Fixture.json(#"{"k": "a"}"#), time: Fixture.epoch))
        #expect(both.consequences.map(\.id) == ["ping", "first", "second", "third"])
        #expect(both.consequences.map(\.isShownMessage) == [nil, true, false, false])
        #expect(both.shownMessage?.id == "first")
        // Every message is still a rule consequence event: the mark says only what the app shows.
        #expect(both.consequences.allSatisfy { $0.consequenceEvent != nil })
        #expect(both.consequences[1].jsonLine == #"{"id":"first","type":"iam","detail":{"html":"first.html"},"shown":true}"#)
        #expect(both.consequences[0].jsonLine == #"{"id":"ping","type":"pb","detail":{"templateurl":"https://example.com"}}"#)
        #expect(both.displayNote(for: both.consequences[0]) == nil)
        #expect(both.displayNote(for: both.consequences[1])?.hasPrefix("shown: the first of the 3 in-app messages") == true)
        #expect(
            both.displayNote(for: both.consequences[2])
                == #"not shown: in-app messages are first-one-wins, and "first" of rule 1 is shown for this event"#)

        // When the first rule does not match, the second rule's first message is shown.
        let second = Fixture.evaluate(rules, RuleEvent(type: "t", source: "s", data: Fixture.json(#"{"k": "b"}"#), time: Fixture.epoch))
        #expect(second.consequences.map(\.isShownMessage) == [true, false])
        #expect(second.shownMessage?.id == "second")
    }

    @Test func aLoneMessageIsShownWithoutANote() throws {
        let rules = try Fixture.rules(
            Fixture.oneRule(Fixture.matcher("k", "ex", "[]")).replacingOccurrences(of: #""type": "pb""#, with: #""type": "iam""#))
        let outcome = Fixture.evaluate(rules, RuleEvent(type: "t", source: "s", data: Fixture.json(#"{"k": 1}"#), time: Fixture.epoch))
        #expect(outcome.consequences.map(\.isShownMessage) == [true])
        #expect(outcome.displayNote(for: outcome.consequences[0]) == nil)
    }
}
