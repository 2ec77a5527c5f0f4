import Foundation
import Rules
import Support
import Testing

/// Every rules fixture of aepsdk-core-ios loads, or fails, as each platform would.
///
/// The expectations are derived from research §3 and §2.1, not from running fencesim: the iOS
/// functional tests load every one of these files with `JSONRulesParser.parse` and fail when it
/// returns nil (`RulesEngineFunctionalTests.resetRulesEngine`), so all load on iOS; the Android
/// twins under `rules_module_tests` load with the Android parser; the rule and consequence counts
/// are those written in the files. In docs mode, the one fixture the documentation leaves
/// undefined — `gt` with the string value `"2"`, the cross-platform divergence fixture of §3 —
/// is refused.
@Suite(.enabled(if: AdobeFixtures.isAvailable, AdobeFixtures.skipMessage))
struct FixtureLoadingTests {
    /// What loading a fixture should give.
    enum Expected: Sendable, CustomTestStringConvertible {
        /// Loads with this many rules and consequences of these types.
        case loads(rules: Int, consequences: Int, types: [String])
        /// Loads on iOS and Android; refused in docs mode with a message containing the reason.
        case undocumented(rules: Int, reason: String)

        var testDescription: String {
            switch self {
            case .loads(let rules, _, _): "loads \(rules) rules"
            case .undocumented(_, let reason): "docs refuses: \(reason)"
            }
        }
    }

    static let iosFixtures: [(String, Expected)] = [
        ("RulesEngineHistoricalTests__consequence_rules_testDataContentEmpty", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testDataContentMissing", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testDataContentNull", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testDataOperationEmpty", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testDataOperationInvalid", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testDataOperationMissing", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testDataOperationNull", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testSchemaDataEmpty", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testSchemaDataMissing", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testSchemaDataNull", .loads(rules: 1, consequences: 1, types: ["schema"])),
        (
            "RulesEngineHistoricalTests__consequence_rules_testSchemaEventHistoryInsert",
            .loads(rules: 1, consequences: 1, types: ["schema"])
        ),
        (
            "RulesEngineHistoricalTests__consequence_rules_testSchemaEventHistoryInsertIfNotExists",
            .loads(rules: 1, consequences: 1, types: ["schema"])
        ),
        (
            "RulesEngineHistoricalTests__consequence_rules_testSchemaEventHistoryInsert_withTokens",
            .loads(rules: 1, consequences: 1, types: ["schema"])
        ),
        ("RulesEngineHistoricalTests__consequence_rules_testSchemaIdEmpty", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testSchemaIdMissing", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testSchemaIdNull", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testSchemaInAppDetailSchema", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testSchemaSchemaEmpty", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testSchemaSchemaMissing", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("RulesEngineHistoricalTests__consequence_rules_testSchemaSchemaNull", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("rules_1", .loads(rules: 2, consequences: 2, types: ["add", "url"])),
        ("rules_reevaluable", .loads(rules: 1, consequences: 1, types: ["schema"])),
        ("rules_testArrayFlatteningNotation", .loads(rules: 1, consequences: 1, types: ["add"])),
        ("rules_testAttachData", .loads(rules: 1, consequences: 1, types: ["add"])),
        ("rules_testAttachDataArray", .loads(rules: 1, consequences: 1, types: ["add"])),
        ("rules_testAttachData_invalidJson", .loads(rules: 1, consequences: 1, types: ["add"])),
        ("rules_testDispatchEventChain", .loads(rules: 3, consequences: 3, types: ["dispatch"])),
        ("rules_testDispatchEventCopy", .loads(rules: 1, consequences: 1, types: ["dispatch"])),
        ("rules_testDispatchEventInvalidAction", .loads(rules: 1, consequences: 1, types: ["dispatch"])),
        ("rules_testDispatchEventNewData", .loads(rules: 1, consequences: 1, types: ["dispatch"])),
        ("rules_testDispatchEventNewNoData", .loads(rules: 1, consequences: 1, types: ["dispatch"])),
        ("rules_testDispatchEventNoAction", .loads(rules: 1, consequences: 1, types: ["dispatch"])),
        ("rules_testDispatchEventNoSource", .loads(rules: 1, consequences: 1, types: ["dispatch"])),
        ("rules_testDispatchEventNoType", .loads(rules: 1, consequences: 1, types: ["dispatch"])),
        ("rules_testGroupLogicalOperators", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testHistory", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testHistoryMostRecent", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherCo", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherGe", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherGt", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherGt_2_types", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherLe", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherLt", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherNc", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherNc_multipleValues", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherNe", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherNe_multipleValues", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("rules_testMatcherNx", .loads(rules: 1, consequences: 1, types: ["pb"])),
        (
            "rules_testMatcherWithDifferentTypesOfParameters",
            .undocumented(rules: 1, reason: "gt compares numbers, but its value \"2\" is a string")
        ),
        ("rules_testModifyData", .loads(rules: 1, consequences: 1, types: ["mod"])),
        ("rules_testModifyData_invalidJson", .loads(rules: 1, consequences: 1, types: ["mod"])),
        ("rules_testTimestampu", .loads(rules: 1, consequences: 1, types: ["url"])),
        ("rules_testTransform", .loads(rules: 1, consequences: 1, types: ["url"])),
        ("rules_testUrlenc", .loads(rules: 1, consequences: 1, types: ["url"])),
        ("rules_testUrlenc_invalidFnName", .loads(rules: 1, consequences: 1, types: ["url"])),
        ("AEPIntegrationTests__resources__rules_attach", .loads(rules: 1, consequences: 1, types: ["add"])),
        ("AEPIntegrationTests__resources__rules_dispatch_consequence", .loads(rules: 4, consequences: 4, types: ["dispatch"])),
        ("AEPIntegrationTests__resources__rules_lifecycle", .loads(rules: 1, consequences: 1, types: ["pb"])),
        ("AEPIntegrationTests__resources__rules_pii", .loads(rules: 1, consequences: 1, types: ["pii"])),
        ("AEPIntegrationTests__resources__rules_signal", .loads(rules: 2, consequences: 2, types: ["pb"])),
    ]

    @Test(arguments: iosFixtures)
    func iosFixtureLoadsOnEveryPlatform(_ name: String, _ expected: Expected) throws {
        for platform in [RulesPlatform.ios, .android, .docs] {
            switch expected {
            case .loads(let rules, let consequences, let types):
                let set = try AdobeFixtures.load(name, platform: platform)
                #expect(set.rules.count == rules, "\(name) on \(platform)")
                #expect(set.consequenceCount == consequences, "\(name) on \(platform)")
                #expect(set.consequenceTypeCounts.map(\.type) == types, "\(name) on \(platform)")
                #expect(set.version == 1)
            case .undocumented(let rules, let reason):
                if platform == .docs {
                    let error = #expect(throws: FencesimError.self) { try AdobeFixtures.load(name, platform: .docs) }
                    #expect(error?.code == .badData)
                    #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
                    #expect(error?.location?.line != nil && error?.location?.column != nil)
                } else {
                    #expect(try AdobeFixtures.load(name, platform: platform).rules.count == rules)
                }
            }
        }
    }

    /// The set of files in the fixture folder is the set in the table, so a new fixture cannot
    /// go untested.
    @Test func tableCoversEveryIOSFixture() throws {
        let folder = try #require(AdobeFixtures.directory).appendingPathComponent("aepsdk-core-ios")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        let named = Set(Self.iosFixtures.map { AdobeFixtures.ios($0.0).split(separator: "/").last.map(String.init) ?? "" })
        #expect(Set(files) == named)
    }

    /// What happens to an Android parser edge-case fixture on each platform (research §2.1:
    /// an unknown condition type fails the file on both; iOS requires an integer version, Android
    /// reads a missing one as "0"; non-JSON and a top-level array fail everywhere; extra keys
    /// are ignored, with a warning in fencesim).
    enum Outcome: Sendable, Equatable {
        case loads(Int)
        case loadsWithWarning(Int, String)
        case fails(String)
    }

    static let androidParserFixtures: [(String, [RulesPlatform: Outcome])] = [
        (
            "rules_json_unknown_condition_type__rules",
            [
                .docs: .fails("unknown condition type \"unknownType\""),
                .ios: .fails(
                    "unknown condition type \"unknownType\" (expected group, matcher or historical) (the iOS SDK refuses the whole file)"),
                .android: .fails("(the Android SDK refuses the whole file)"),
            ]
        ),
        (
            "rules_missing_version__rules",
            [
                .docs: .fails("missing \"version\""),
                .ios: .fails("missing \"version\""),
                .android: .loadsWithWarning(2, "no \"version\": Android reads version 0"),
            ]
        ),
        (
            "rules_nonJson__rules",
            [.docs: .fails("expected a JSON value"), .ios: .fails("expected a JSON value"), .android: .fails("expected a JSON value")]
        ),
        (
            "rules_unit_test4_noaction__rules",
            [
                .docs: .fails("expected a JSON object"), .ios: .fails("expected a JSON object"), .android: .fails("expected a JSON object"),
            ]
        ),
        (
            "rules_json_extra_keys__rules",
            [
                .docs: .loadsWithWarning(1, "unknown member \"extra_awesome_qualifer_key\""),
                .ios: .loadsWithWarning(1, "unknown member \"extra_awesome_qualifer_key\""),
                .android: .loadsWithWarning(1, "unknown member \"extra_awesome_qualifer_key\""),
            ]
        ),
        (
            "rules_json_unknown_condition_key__rules",
            [
                .docs: .loadsWithWarning(2, "unknown member \"unknownkey\""),
                .ios: .loadsWithWarning(2, "unknown member \"unknownkey\""),
                .android: .loadsWithWarning(2, "unknown member \"unknownkey\""),
            ]
        ),
        ("rules_empty__rules", [.docs: .loads(0), .ios: .loads(0), .android: .loads(0)]),
        ("rules_happy_big__rules", [.docs: .loads(1051), .ios: .loads(1051), .android: .loads(1051)]),
        ("rules_happy_wnotexists__rules", [.docs: .loads(785), .ios: .loads(785), .android: .loads(785)]),
        ("rules_unsupported_version__rules", [.docs: .loads(2), .ios: .loads(2), .android: .loads(2)]),
        ("rules_unsupported_version_less_than_min__rules", [.docs: .loads(2), .ios: .loads(2), .android: .loads(2)]),
    ]

    @Test(arguments: androidParserFixtures)
    func androidParserFixture(_ name: String, _ outcomes: [RulesPlatform: Outcome]) throws {
        for (platform, expected) in outcomes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let path = AdobeFixtures.android(name)
            switch expected {
            case .loads(let count):
                let set = try RulesLoader.load(path: path, platform: platform)
                #expect(set.rules.count == count, "\(name) on \(platform)")
                #expect(set.warnings.isEmpty, "\(set.warnings)")
            case .loadsWithWarning(let count, let text):
                let set = try RulesLoader.load(path: path, platform: platform)
                #expect(set.rules.count == count, "\(name) on \(platform)")
                #expect(set.warnings.contains { $0.message.contains(text) && $0.location?.line != nil }, "\(set.warnings)")
            case .fails(let text):
                let error = #expect(throws: FencesimError.self, "\(name) on \(platform)") {
                    try RulesLoader.load(path: path, platform: platform)
                }
                #expect(error?.code == .badData)
                #expect(error?.message.contains(text) == true, "\(name) on \(platform): \(error?.description ?? "")")
                #expect(error?.location?.line != nil)
            }
        }
    }
}
