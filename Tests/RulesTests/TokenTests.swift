import Rules
import Support
import Testing

/// Keys and `{%…%}` token rendering (research §2.2, §2.5).
@Suite struct TokenTests {
    /// Renders `template` as the `url` detail of a `url` consequence that always fires.
    static func render(
        _ template: String, data: String? = #"{"k": "v"}"#, platform: RulesPlatform = .ios,
        context: RulesContext = RulesContext(), time: Timestamp = Fixture.epoch, seed: UInt64 = 7
    ) throws -> String {
        let detail = JSONWriter.string(.orderedObject([("url", .string(template))]))
        let text =
            #"{"version": 1, "rules": [{"condition": {"type": "group", "definition": {"logic": "and", "conditions": [{"type": "matcher", "definition": {"key": "~type", "matcher": "ex", "values": []}}]}}, "consequences": [{"id": "u", "type": "url", "detail": \#(detail)}]}]}"#
        let rules = try Fixture.rules(text, platform: platform)
        let event = RuleEvent(
            type: "com.adobe.eventType.places", source: "com.adobe.eventSource.responseContent",
            data: data.map(Fixture.json), time: time)
        let outcome = Fixture.evaluate(rules, event, context, seed: seed)
        return try #require(outcome.consequences.first?.detail.get("url")?.asString)
    }

    @Test func plainKeysAndSpecialKeys() throws {
        #expect(try Self.render("{%k%}") == "v")
        #expect(try Self.render("a={%~type%}&b={%~source%}") == "a=com.adobe.eventType.places&b=com.adobe.eventSource.responseContent")
        #expect(try Self.render("{%missing.key%}|") == "|")
        #expect(try Self.render("[{%%ECID DATA ELEMENT%%}]") == "[]", "rules_1.json: the token is \"%ECID DATA ELEMENT%\", missing")
        #expect(try Self.render("open {%k") == "open {%k", "an unterminated token is text")
        #expect(try Self.render("{%a.1.b%}", data: #"{"a": [{"b": 1}, {"b": 2}]}"#) == "2", "array indices")
    }

    @Test func urlenc() throws {
        #expect(try Self.render("a={%urlenc(k)%}", data: #"{"k": "x y"}"#) == "a=x%20y", "testUrlenc")
        #expect(try Self.render("a={%urlenc1(k)%}", data: #"{"k": "x y"}"#) == "a=x y", "testUrlenc_invalidFnName")
        #expect(try Self.render("{%urlenc(k)%}", data: #"{"k": "a&b=c/d~e_f.g-h"}"#) == "a%26b%3Dc%2Fd~e_f.g-h")
        // iOS keeps Unicode letters (CharacterSet.alphanumerics); Android encodes UTF-8.
        #expect(try Self.render("{%urlenc(k)%}", data: #"{"k": "网 x"}"#, platform: .ios) == "网%20x")
        #expect(try Self.render("{%urlenc(k)%}", data: #"{"k": "网 x"}"#, platform: .android) == "%E7%BD%91%20x")
        #expect(try Self.render("{%urlenc(k)%}", data: #"{"k": 5}"#) == "5", "urlenc leaves non-strings")
    }

    @Test func transforms() throws {
        #expect(try Self.render("{%int(k)%}", data: #"{"k": 2.9}"#) == "2")
        #expect(try Self.render("{%int(k)%}", data: #"{"k": "3.5"}"#) == "3.5", "a failed transform returns the value")
        #expect(try Self.render("{%double(k)%}", data: #"{"k": 5}"#, platform: .ios) == "5.0")
        #expect(try Self.render("{%double(k)%}", data: #"{"k": 5}"#, platform: .android) == "5.0")
        #expect(try Self.render("{%string(k)%}", data: #"{"k": true}"#) == "true")
        #expect(try Self.render("{%bool(k)%}", data: #"{"k": "TRUE"}"#) == "true")
        #expect(try Self.render("{%bool(k)%}", data: #"{"k": 1}"#) == "true")
        // A missing key goes into a transform as "" on iOS and as null on Android.
        #expect(try Self.render("[{%bool(nope)%}]", platform: .ios) == "[false]")
        #expect(try Self.render("[{%bool(nope)%}]", platform: .android) == "[]")
        #expect(try Self.render("{%string(k)%}", data: #"{"k": 1e20}"#, platform: .ios) == "1e+20")
        #expect(try Self.render("{%string(k)%}", data: #"{"k": 1e20}"#, platform: .android) == "1.0E20")
        #expect(try Self.render("{%k%}", data: #"{"k": 0.0001}"#, platform: .android) == "1.0E-4")
        #expect(try Self.render("{%k%}", data: #"{"k": 1234567.5}"#, platform: .android) == "1234567.5")
        #expect(try Self.render("{%k%}", data: #"{"k": 12345678.5}"#, platform: .android) == "1.23456785E7")
        #expect(try Self.render("{%urlenc(int(k))%}", data: #"{"k": 5}"#) == "", "one level of functions only")
    }

    @Test func everyRenderedTokenIsAStringAndRenderingRecurses() throws {
        let text =
            #"{"version": 1, "rules": [{"condition": {"type": "matcher", "definition": {"key": "n", "matcher": "ex"}}, "consequences": [{"id": "c", "type": "pb", "detail": {"n": "{%n%}", "list": ["{%n%}", {"deep": "{%s%}"}, 4, null], "keep": 7}}]}]}"#
        let rules = try Fixture.rules(text)
        let event = RuleEvent(type: "t", source: "s", data: Fixture.json(#"{"n": 2, "s": "x"}"#), time: Fixture.epoch)
        let detail = try #require(Fixture.evaluate(rules, event).consequences.first?.detail)
        #expect(detail.text == #"{"n":"2","list":["2",{"deep":"x"},4,null],"keep":7}"#)
    }

    @Test func sharedStateKeys() throws {
        var context = RulesContext()
        context.sharedStates["com.adobe.module.places"] = Fixture.json(
            #"{"currentpoi": {"regionid": "p1", "regionname": "Cityview Plaza", "weight": 20}, "nearbypois": [{"regionid": "p1"}, {"regionid": "p2"}]}"#
        )
        #expect(try Self.render("{%~state.com.adobe.module.places/currentpoi.regionname%}", context: context) == "Cityview Plaza")
        #expect(try Self.render("{%~state.com.adobe.module.places/nearbypois.1.regionid%}", context: context) == "p2")
        #expect(try Self.render("[{%~state.com.adobe.module.places/currentpoi%}]", context: context) == "[]", "a non-leaf key is missing")
        #expect(try Self.render("[{%~state.com.adobe.module.lifecycle/x%}]", context: context) == "[]", "an absent extension")
        // A data key containing "/": iOS keeps everything after the first slash, Android the
        // second part only.
        context.sharedStates["ext"] = Fixture.json(#"{"a/b": "slashed", "a": "plain"}"#)
        #expect(try Self.render("{%~state.ext/a/b%}", platform: .ios, context: context) == "slashed")
        #expect(try Self.render("{%~state.ext/a/b%}", platform: .android, context: context) == "plain")
    }

    @Test func clientSideProfileIsReadableThroughState() throws {
        var profile = ClientSideProfile()
        let write = FiredConsequence(
            ruleIndex: 0, id: "w", type: "csp", detail: Fixture.json(#"{"operation": "write", "key": "seen", "value": "yes"}"#),
            effect: .ruleEvent)
        #expect(profile.apply(write) == nil)
        var context = RulesContext()
        context.sharedStates[ClientSideProfile.extensionName] = profile.sharedState
        #expect(try Self.render("{%~state.com.adobe.module.userProfile/userprofiledata.seen%}", context: context) == "yes")
        let delete = FiredConsequence(
            ruleIndex: 0, id: "d", type: "csp", detail: Fixture.json(#"{"operation": "delete", "key": "seen"}"#),
            effect: .ruleEvent)
        #expect(profile.apply(delete) == nil)
        #expect(profile.sharedState.text == #"{"userprofiledata":{}}"#)
        let bad = FiredConsequence(
            ruleIndex: 0, id: "b", type: "csp", detail: Fixture.json(#"{"operation": "increment"}"#), effect: .ruleEvent)
        #expect(profile.apply(bad)?.severity == .warning)
    }

    @Test func cachebustIsDeterministicWithASeed() throws {
        let a = try Self.render("{%~cachebust%}", seed: 42)
        let b = try Self.render("{%~cachebust%}", seed: 42)
        let c = try Self.render("{%~cachebust%}", seed: 43)
        #expect(a == b)
        #expect(a != c)
        let value = try #require(Int(a))
        #expect((1..<100_000_000).contains(value))
        // Each occurrence draws anew, in order.
        let two = try Self.render("{%~cachebust%}-{%~cachebust%}", seed: 42)
        #expect(two.hasPrefix(a + "-"))
        #expect(two != a + "-" + a)
    }

    @Test func timeKeysComeFromTheEventTime() throws {
        let time = Timestamp(seconds: 1_700_000_000, nanoseconds: 123_987_000)
        #expect(try Self.render("{%~timestampu%}", platform: .ios, time: time) == "1700000000")
        #expect(try Self.render("{%~timestampu%}", platform: .android, time: time) == "1700000000")
        #expect(try Self.render("{%~timestampp%}", time: time) == "2023-11-14T22:13:20.123Z", "milliseconds truncated")
        #expect(try Self.render("{%~timestampz%}", time: time) == "2023-11-14T22:13:20Z")
        var pacific = RulesContext()
        pacific.utcOffsetSeconds = -8 * 3600
        #expect(try Self.render("{%~timestampz%}", context: pacific, time: time) == "2023-11-14T14:13:20-0800")
    }

    @Test func sdkVersionAllURLAndAllJSON() throws {
        var context = RulesContext()
        context.sdkVersion = "5.11.0-flutter"
        #expect(try Self.render("{%~sdkver%}", context: context) == "5.11.0-flutter")
        let data = #"{"a": "x y", "b": {"c": 1, "d": [1, 2]}, "e": true}"#
        #expect(try Self.render("{%~all_url%}", data: data) == "a=x%20y&b.c=1&b.d=1,2&e=true")
        #expect(try Self.render("{%~all_json%}", data: data) == #"{"a":"x y","b":{"c":1,"d":[1,2]},"e":true}"#)
        #expect(try Self.render("[{%~all_url%}][{%~all_json%}]", data: nil) == "[][]")
    }
}
