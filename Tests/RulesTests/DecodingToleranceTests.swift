import Rules
import Support
import Testing

/// What each platform does with malformed pieces (research §2.1), and that fencesim reports
/// every dropped piece as a located warning.
@Suite struct DecodingToleranceTests {
    static let good = Fixture.matcher("k", "eq", #"["v"]"#)

    static func group(_ logic: String, _ conditions: [String]) -> String {
        #"{"type": "group", "definition": {"logic": "\#(logic)", "conditions": [\#(conditions.joined(separator: ", "))]}}"#
    }

    static let event = RuleEvent(type: "t", source: "s", data: Fixture.json(#"{"k": "v"}"#), time: Fixture.epoch)

    /// An unknown matcher: docs error; iOS drops it (and the rule, when nothing is left);
    /// Android fails the file for a single value, evaluates an `or` of nothing (false) for
    /// several values; a group keeps going without it on both.
    @Test func unknownMatcher() throws {
        let alone = Fixture.oneRule(Fixture.matcher("k", "eqq", #"["v"]"#))
        let docs = #expect(throws: FencesimError.self) { try Fixture.rules(alone, platform: .docs) }
        #expect(docs?.description.hasPrefix("rules.json:1:") == true)
        #expect(docs?.message.contains("unknown matcher \"eqq\"") == true)

        let ios = try Fixture.rules(alone, platform: .ios)
        #expect(ios.rules.isEmpty)
        #expect(
            ios.warnings.map(\.message).contains {
                $0.contains("unknown matcher \"eqq\"") && $0.contains("dropped, as the iOS SDK drops it")
            })
        #expect(ios.warnings.map(\.message).contains { $0.contains("rule 1 dropped") })

        let android = #expect(throws: FencesimError.self) { try Fixture.rules(alone, platform: .android) }
        #expect(android?.message.contains("the Android SDK refuses the whole file") == true)

        let several = Fixture.oneRule(Fixture.matcher("k", "eqq", #"["v", "w"]"#))
        let androidSeveral = try Fixture.rules(several, platform: .android)
        #expect(androidSeveral.rules.count == 1)
        #expect(Fixture.evaluate(androidSeveral, Self.event).matchedRules.isEmpty)

        let inGroup = Fixture.oneRule(Self.group("and", [Fixture.matcher("k", "eqq", #"["v"]"#), Self.good]))
        for platform in [RulesPlatform.ios, .android] {
            let set = try Fixture.rules(inGroup, platform: platform)
            #expect(set.warnings.count == 1, "\(platform)")
            #expect(Fixture.evaluate(set, Self.event).matchedRules == [0], "\(platform)")
        }
    }

    /// A group whose every condition was dropped: iOS drops it; Android keeps an empty `and`,
    /// which is true (LogicalExpression skips null operands), and an empty `or`, false.
    @Test func groupOfDroppedConditions() throws {
        let dropped = Fixture.matcher("k", "nope", #"["v"]"#)
        let andRule = Fixture.oneRule(Self.group("and", [Self.group("and", [dropped]), Self.good]))
        let orRule = Fixture.oneRule(Self.group("and", [Self.group("or", [dropped]), Self.good]))
        let iosAnd = try Fixture.rules(andRule, platform: .ios)
        #expect(Fixture.evaluate(iosAnd, Self.event).matchedRules == [0], "iOS drops the inner group; the outer and holds")
        #expect(iosAnd.warnings.contains { $0.message.contains("group dropped") })
        let androidAnd = try Fixture.rules(andRule, platform: .android)
        #expect(Fixture.evaluate(androidAnd, Self.event).matchedRules == [0])
        #expect(androidAnd.warnings.contains { $0.message.contains("evaluates the empty and to true") })
        let androidOr = try Fixture.rules(orRule, platform: .android)
        #expect(Fixture.evaluate(androidOr, Self.event).matchedRules.isEmpty, "an empty or is false on Android")
        let iosOr = try Fixture.rules(orRule, platform: .ios)
        #expect(Fixture.evaluate(iosOr, Self.event).matchedRules == [0], "iOS drops the empty or entirely")
    }

    /// Logic strings: iOS is case-sensitive and evaluates anything but and/or to false; Android
    /// lower-cases, and drops unknown logic.
    @Test func logicStrings() throws {
        let upper = Fixture.oneRule(Self.group("AND", [Self.good]))
        let ios = try Fixture.rules(upper, platform: .ios)
        #expect(ios.rules.count == 1)
        #expect(ios.warnings.first?.message.contains("evaluates this group to false") == true)
        #expect(Fixture.evaluate(ios, Self.event).matchedRules.isEmpty)
        let android = try Fixture.rules(upper, platform: .android)
        #expect(Fixture.evaluate(android, Self.event).matchedRules == [0])
        #expect(throws: FencesimError.self) { try Fixture.rules(upper, platform: .docs) }
        #expect(throws: FencesimError.self) { try Fixture.rules(Fixture.oneRule(Self.group("xor", [Self.good])), platform: .android) }
    }

    /// A consequence without id, type or object detail: iOS drops the consequence, Android
    /// refuses the file, docs is an error.
    @Test(arguments: [#"{"type": "pb", "detail": {}}"#, #"{"id": "x", "detail": {}}"#, #"{"id": "x", "type": "pb", "detail": "text"}"#])
    func malformedConsequence(_ consequence: String) throws {
        let text =
            #"{"version": 1, "rules": [{"condition": \#(Self.good), "consequences": [\#(consequence), {"id": "ok", "type": "url", "detail": {"url": "u"}}]}]}"#
        let ios = try Fixture.rules(text, platform: .ios)
        #expect(ios.rules.first?.consequences.map(\.id) == ["ok"])
        #expect(ios.warnings.count == 1)
        #expect(ios.warnings.first?.message.contains("consequence dropped, as the iOS SDK drops it") == true)
        #expect(ios.warnings.first?.location?.line == 1)
        #expect(throws: FencesimError.self) { try Fixture.rules(text, platform: .android) }
        #expect(throws: FencesimError.self) { try Fixture.rules(text, platform: .docs) }
    }

    /// Null and object values: iOS drops the value; Android keeps a value that never matches
    /// (ex/nx aside); docs refuses.
    @Test func unusableValues() throws {
        let text = Fixture.oneRule(Fixture.matcher("k", "eq", #"[null, "v"]"#))
        let ios = try Fixture.rules(text, platform: .ios)
        #expect(Fixture.evaluate(ios, Self.event).matchedRules == [0])
        #expect(ios.warnings.first?.message.contains("value dropped") == true)
        let android = try Fixture.rules(text, platform: .android)
        #expect(Fixture.evaluate(android, Self.event).matchedRules == [0], "the string value still matches")
        #expect(android.warnings.first?.message.contains("never matches on Android") == true)
        #expect(throws: FencesimError.self) { try Fixture.rules(text, platform: .docs) }
        let onlyNull = try Fixture.rules(Fixture.oneRule(Fixture.matcher("k", "eq", "[null]")), platform: .ios)
        #expect(onlyNull.rules.isEmpty, "iOS drops a matcher without a usable value")
    }

    /// The root and rule structure fails the file on every platform.
    @Test(arguments: [
        (#"{"version": 1}"#, "missing \"rules\""),
        (#"{"version": 1, "rules": {}}"#, "\"rules\" must be an array"),
        (#"{"version": 1, "rules": [{"consequences": []}]}"#, "rule 1 has no \"condition\""),
        (
            #"{"version": 1, "rules": [{"condition": {"type": "group"}, "consequences": []}]}"#,
            "group condition has no \"definition\" object"
        ),
        (
            #"{"version": 1, "rules": [{"condition": {"type": "regex", "definition": {}}, "consequences": []}]}"#,
            "unknown condition type \"regex\""
        ),
        (#"{"version": "1", "rules": []}"#, "\"version\" must be an integer"),
    ])
    func structuralErrors(_ text: String, _ message: String) throws {
        for platform in RulesPlatform.allCases where !(platform == .android && message.contains("version")) {
            let error = #expect(throws: FencesimError.self, "\(platform)") { try Fixture.rules(text, platform: platform) }
            #expect(error?.code == .badData)
            #expect(error?.message.contains(message) == true, "\(platform): \(error?.description ?? "")")
            #expect(error?.location?.line == 1 && error?.location?.column != nil)
        }
    }

    /// Every problem of a file is listed, the first as the error and the others as related.
    @Test func allProblemsAreListed() throws {
        let text = """
            {"version": 1, "rules": [
              {"condition": {"type": "matcher", "definition": {"key": "a", "matcher": "gt", "values": ["1"]}}, "consequences": []},
              {"condition": {"type": "matcher", "definition": {"key": "b", "matcher": "zz", "values": [1]}}, "consequences": []}
            ]}
            """
        let error = #expect(throws: FencesimError.self) { try Fixture.rules(text, platform: .docs) }
        #expect(error?.location?.line == 2)
        #expect(error?.related.count == 1)
        #expect(error?.related.first?.location?.line == 3)
        #expect(error?.fullDescription.contains("rules.json:3:") == true)
    }

    /// Docs mode: what the documentation leaves undefined is refused; `ex` without values is fine.
    @Test func docsModeRefusesUndocumentedMatchers() throws {
        #expect(throws: FencesimError.self) { try Fixture.rules(Fixture.oneRule(Fixture.matcher("k", "eq", "[]")), platform: .docs) }
        #expect(throws: FencesimError.self) { try Fixture.rules(Fixture.oneRule(Fixture.matcher("k", "co", "[3]")), platform: .docs) }
        #expect(throws: FencesimError.self) { try Fixture.rules(Fixture.oneRule(Fixture.matcher("k", "lt", "[true]")), platform: .docs) }
        let fine = try Fixture.rules(Fixture.oneRule(Fixture.matcher("k", "ex", "[]")), platform: .docs)
        #expect(fine.rules.count == 1 && fine.warnings.isEmpty)
        let unknownType = try Fixture.rules(
            #"{"version": 1, "rules": [{"condition": \#(Self.good), "consequences": [{"id": "x", "type": "custom", "detail": {}}]}]}"#)
        #expect(unknownType.warnings.first?.message.contains("undocumented type \"custom\"") == true)
    }

    @Test func emptyFileIsLocated() throws {
        let error = #expect(throws: FencesimError.self) { try Fixture.rules("  \n") }
        #expect(error?.description == "rules.json:1:1: error: empty file: expected a rules.json object with \"version\" and \"rules\"")
    }
}
