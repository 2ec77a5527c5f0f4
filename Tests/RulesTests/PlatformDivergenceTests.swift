import Rules
import Support
import Testing

/// The matcher semantics of research §2.3, row by row of its iOS/Android table, in every mode.
@Suite struct PlatformDivergenceTests {
    /// One row: event data, a matcher, and the result on iOS, Android and in docs mode.
    struct Row: Sendable, CustomTestStringConvertible {
        var situation: String
        var data: String
        var key: String
        var matcher: String
        var values: String
        var ios: Bool
        var android: Bool
        /// `nil` when docs mode refuses the matcher at load time (undocumented).
        var docs: Bool?
        var testDescription: String { situation }
    }

    static let rows: [Row] = [
        Row(
            situation: "eq on strings ignores case", data: #"{"k": "AT&T"}"#, key: "k", matcher: "eq", values: #"["at&t"]"#,
            ios: true, android: true, docs: true),
        Row(
            situation: "ne on strings ignores case", data: #"{"k": "AT&T"}"#, key: "k", matcher: "ne", values: #"["at&t"]"#,
            ios: false, android: false, docs: false),
        Row(
            situation: "launches=3 gt \"2\" (string value)", data: #"{"launches": 3}"#, key: "launches", matcher: "gt", values: #"["2"]"#,
            ios: false, android: true, docs: nil),
        Row(
            situation: "missing key, ne \"foo\"", data: #"{"other": 1}"#, key: "k", matcher: "ne", values: #"["foo"]"#,
            ios: true, android: false, docs: false),
        Row(
            situation: "missing key, nc \"x\"", data: #"{"other": 1}"#, key: "k", matcher: "nc", values: #"["x"]"#,
            ios: true, android: false, docs: false),
        Row(
            situation: "missing key, eq \"\"", data: #"{"other": 1}"#, key: "k", matcher: "eq", values: #"[""]"#,
            ios: true, android: false, docs: false),
        Row(
            situation: "missing key, eq false", data: #"{"other": 1}"#, key: "k", matcher: "eq", values: "[false]",
            ios: true, android: false, docs: false),
        Row(
            situation: "missing key, gt 1", data: #"{"other": 1}"#, key: "k", matcher: "gt", values: "[1]",
            ios: false, android: false, docs: false),
        Row(
            situation: "missing key, ne 5", data: #"{"other": 1}"#, key: "k", matcher: "ne", values: "[5]",
            ios: false, android: false, docs: false),
        Row(
            situation: "data 2.9 eq 2 (int value truncates)", data: #"{"k": 2.9}"#, key: "k", matcher: "eq", values: "[2]",
            ios: true, android: true, docs: true),
        Row(
            situation: "data 2.9 gt 2", data: #"{"k": 2.9}"#, key: "k", matcher: "gt", values: "[2]",
            ios: false, android: false, docs: false),
        Row(
            situation: "data \"3.5\" gt 3 (int() fails on \"3.5\")", data: #"{"k": "3.5"}"#, key: "k", matcher: "gt", values: "[3]",
            ios: false, android: false, docs: false),
        Row(
            situation: "data \"3.5\" gt 3.0", data: #"{"k": "3.5"}"#, key: "k", matcher: "gt", values: "[3.0]",
            ios: true, android: true, docs: true),
        Row(
            situation: "data 3 co 3 (number value)", data: #"{"k": 3}"#, key: "k", matcher: "co", values: "[3]",
            ios: false, android: false, docs: nil),
        Row(
            situation: "data 3 nc 3 (number value)", data: #"{"k": 3}"#, key: "k", matcher: "nc", values: "[3]",
            ios: false, android: true, docs: nil),
        Row(
            situation: "long 3e9 gt 2 (Android int() wraps)", data: #"{"k": 3000000000}"#, key: "k", matcher: "gt", values: "[2]",
            ios: true, android: false, docs: true),
        Row(
            situation: "sw folds Unicode on iOS, ASCII only on Android", data: #"{"k": "Straße Café"}"#, key: "k", matcher: "sw",
            values: #"["STRAßE CAFÉ"]"#, ios: true, android: false, docs: true),
        Row(
            situation: "sw ASCII case folding", data: #"{"k": "Cityview Plaza"}"#, key: "k", matcher: "sw", values: #"["CITY"]"#,
            ios: true, android: true, docs: true),
        Row(
            situation: "ew", data: #"{"k": "Cityview Plaza"}"#, key: "k", matcher: "ew", values: #"["plaza"]"#,
            ios: true, android: true, docs: true),
        Row(
            situation: "values [] with eq on a missing key (iOS compares with \"\")", data: #"{"other": 1}"#, key: "k", matcher: "eq",
            values: "[]", ios: true, android: false, docs: nil),
        Row(
            situation: "values [] with gt", data: #"{"k": 5}"#, key: "k", matcher: "gt", values: "[]", ios: false, android: false, docs: nil
        ),
        Row(
            situation: "ex without values", data: #"{"k": 5}"#, key: "k", matcher: "ex", values: "[]", ios: true, android: true, docs: true),
        Row(
            situation: "nx on an object key (only leaves survive flattening)", data: #"{"k": {"a": 1}}"#, key: "k", matcher: "nx",
            values: "[]", ios: true, android: true, docs: true),
        Row(
            situation: "eq values are OR-ed", data: #"{"k": "b"}"#, key: "k", matcher: "eq", values: #"["a", "b"]"#,
            ios: true, android: true, docs: true),
        // Seed 004 compares the values "using OR"; the SDKs AND ne and nc since June 2025
        // (aepsdk-core-ios PR #1147, aepsdk-core-android f2b5ee1c).
        Row(
            situation: "ne values: OR-ed in docs, AND-ed by the SDKs", data: #"{"k": "b"}"#, key: "k", matcher: "ne",
            values: #"["a", "b"]"#,
            ios: false, android: false, docs: true),
        Row(
            situation: "nc values: OR-ed in docs, AND-ed by the SDKs", data: #"{"k": "Sprint PCS"}"#, key: "k", matcher: "nc",
            values: #"["sprint", "AT"]"#, ios: false, android: false, docs: true),
        Row(
            situation: "ne with none of its values: true everywhere", data: #"{"k": "c"}"#, key: "k", matcher: "ne", values: #"["a", "b"]"#,
            ios: true, android: true, docs: true),
        Row(
            situation: "nc with every value contained: false everywhere", data: #"{"k": "Sprint AT&T"}"#, key: "k", matcher: "nc",
            values: #"["sprint", "AT"]"#, ios: false, android: false, docs: false),
        Row(
            situation: "bool value: bool(\"TRUE\")", data: #"{"k": "TRUE"}"#, key: "k", matcher: "eq", values: "[true]",
            ios: true, android: true, docs: true),
        Row(
            situation: "bool value: bool(1.0)", data: #"{"k": 1.0}"#, key: "k", matcher: "eq", values: "[true]",
            ios: true, android: true, docs: true),
        Row(
            situation: "string() of a double on Android is Java's", data: #"{"k": 1e20}"#, key: "k", matcher: "eq", values: #"["1.0E20"]"#,
            ios: false, android: true, docs: false),
        Row(
            situation: "string() of a double on iOS is Swift's", data: #"{"k": 1e20}"#, key: "k", matcher: "eq", values: #"["1e+20"]"#,
            ios: true, android: false, docs: true),
        Row(
            situation: "a long rule value compares the raw key numerically on Android", data: #"{"k": "4070908799"}"#, key: "k",
            matcher: "lt", values: "[4070908800]", ios: true, android: true, docs: true),
        Row(
            situation: "a string beyond 32 bits with a 32-bit int value: int() fails on Android", data: #"{"k": "4070908799"}"#, key: "k",
            matcher: "gt", values: "[5]", ios: true, android: false, docs: true),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let text = Fixture.oneRule(Fixture.matcher(row.key, row.matcher, row.values))
        let event = RuleEvent(type: "t", source: "s", data: Fixture.json(row.data), time: Fixture.epoch)
        for (platform, expected) in [(RulesPlatform.ios, row.ios), (.android, row.android)] {
            let rules = try Fixture.rules(text, platform: platform)
            let outcome = Fixture.evaluate(rules, event, explain: true)
            #expect((outcome.matchedRules == [0]) == expected, "\(row.situation) on \(platform): \(outcome.explanation.flatMap(\.lines))")
        }
        if let docs = row.docs {
            let rules = try Fixture.rules(text, platform: .docs)
            #expect((Fixture.evaluate(rules, event).matchedRules == [0]) == docs, "\(row.situation) in docs mode")
        } else {
            #expect(throws: FencesimError.self, "\(row.situation) is undocumented") { try Fixture.rules(text, platform: .docs) }
        }
    }

    /// A multi-valued `ne`/`nc` loads in docs mode with a warning at its matcher saying it is
    /// OR-ed there and AND-ed by the SDKs; one value, or another matcher, says nothing.
    @Test func multiValuedNegativeMatchersWarnInDocsMode() throws {
        let two = try Fixture.rules(Fixture.oneRule(Fixture.matcher("k", "ne", #"["a", "b"]"#)), platform: .docs)
        #expect(two.warnings.count == 1)
        #expect(two.warnings.first?.message.contains("OR-ed as the documentation says") == true)
        #expect(two.warnings.first?.message.contains("--rules-platform ios or android") == true)
        for (matcher, values) in [("ne", #"["a"]"#), ("eq", #"["a", "b"]"#)] {
            #expect(try Fixture.rules(Fixture.oneRule(Fixture.matcher("k", matcher, values)), platform: .docs).warnings.isEmpty)
        }
        #expect(try Fixture.rules(Fixture.oneRule(Fixture.matcher("k", "nc", #"["a", "b"]"#)), platform: .ios).warnings.isEmpty)
    }

    /// An event without data reads every plain key as "" on both SDKs, so `ex` holds for any
    /// key (research §2.2).
    @Test(arguments: [RulesPlatform.ios, .android, .docs])
    func eventWithoutDataReadsEveryKeyAsEmpty(_ platform: RulesPlatform) throws {
        let rules = try Fixture.rules(Fixture.oneRule(Fixture.matcher("anything.at.all", "ex", "[]")), platform: platform)
        let event = RuleEvent(type: "t", source: "s", data: nil, time: Fixture.epoch)
        #expect(Fixture.evaluate(rules, event).matchedRules == [0])
        let withData = RuleEvent(type: "t", source: "s", data: Fixture.json("{}"), time: Fixture.epoch)
        #expect(Fixture.evaluate(rules, withData).matchedRules.isEmpty)
    }
}
