import Rules
import Support
import Testing

/// `add`, `mod`, `dispatch` and `schema` consequences, with the outcomes of Adobe's functional
/// tests (`RulesEngineFunctionalTests.swift`, `RulesEngineHistoricalTests.swift`; research §2.5).
@Suite(.enabled(if: AdobeFixtures.isAvailable, AdobeFixtures.skipMessage))
struct ConsequenceTests {
    static let platforms: [RulesPlatform] = [.ios, .android, .docs]
    static let launch = RuleEvent(
        name: "Application Launch", type: "com.adobe.eventType.lifecycle",
        source: "com.adobe.eventSource.applicationLaunch", data: Fixture.json(#"{"xdm": "test data"}"#),
        time: Fixture.epoch)

    // MARK: add / mod

    /// testAttachData: the data is attached without a dispatched event; the missing `launches`
    /// renders as "".
    @Test(arguments: platforms)
    func attachData(_ platform: RulesPlatform) throws {
        let rules = try AdobeFixtures.load("rules_testAttachData", platform: platform)
        let outcome = Fixture.evaluate(
            rules, Fixture.lifecycleEvent(), Fixture.lifecycle(#"{"lifecyclecontextdata": {"carriername": "AT&T"}}"#))
        #expect(outcome.dispatchedEvents.isEmpty)
        #expect(outcome.consequences.map(\.effect.name) == ["attachedData"])
        #expect(outcome.consequences.first?.consequenceEvent == nil)
        #expect(
            outcome.event.data?.text
                == #"{"lifecyclecontextdata":{"launchevent":"LaunchEvent"},"attached_data":{"key1":"value1","launches":""}}"#)
    }

    /// testAttachData_invalidJson: a detail without `eventdata` does nothing, with a warning.
    @Test(arguments: platforms)
    func attachDataWithoutEventData(_ platform: RulesPlatform) throws {
        let rules = try AdobeFixtures.load("rules_testAttachData_invalidJson", platform: platform)
        let event = Fixture.lifecycleEvent()
        let outcome = Fixture.evaluate(rules, event, Fixture.lifecycle(#"{"lifecyclecontextdata": {"carriername": "AT&T"}}"#))
        #expect(outcome.event.data?.text == event.data?.text)
        #expect(outcome.consequences.first?.isApplied == false)
        #expect(outcome.warnings.first?.message.contains("no eventdata") == true)
        #expect(outcome.warnings.first?.location?.line != nil)
    }

    /// The array attach fixture renders tokens inside arrays and nested objects, keeps nulls in
    /// arrays, and does not overwrite.
    @Test func attachDataArray() throws {
        let rules = try AdobeFixtures.load("rules_testAttachDataArray", platform: .ios)
        let state = #"{"lifecyclecontextdata": {"carriername": "AT&T", "osversion": "17.1"}}"#
        let outcome = Fixture.evaluate(rules, Fixture.lifecycleEvent(), Fixture.lifecycle(state))
        #expect(
            outcome.event.data?.get("attached_data_array")?.text
                == #"["AT&T","testStringTopLevel",{"testDictKey":"testVal","osversionNested":"17.1"},["17.1","testStringInsideNestedArray",null],null]"#
        )
    }

    /// testModifyData: `launchevent: null` deletes the key, `launches` becomes "2".
    @Test(arguments: platforms)
    func modifyData(_ platform: RulesPlatform) throws {
        let rules = try AdobeFixtures.load("rules_testModifyData", platform: platform)
        let outcome = Fixture.evaluate(
            rules, Fixture.lifecycleEvent(), Fixture.lifecycle(#"{"lifecyclecontextdata": {"carriername": "AT&T", "launches": 2}}"#))
        #expect(outcome.dispatchedEvents.isEmpty)
        #expect(outcome.event.data?.text == #"{"lifecyclecontextdata":{"launches":"2"}}"#)
        let invalid = try AdobeFixtures.load("rules_testModifyData_invalidJson", platform: platform)
        let unchanged = Fixture.evaluate(
            invalid, Fixture.lifecycleEvent(), Fixture.lifecycle(#"{"lifecyclecontextdata": {"launches": 2}}"#))
        #expect(unchanged.event.data?.text == #"{"lifecyclecontextdata":{"launchevent":"LaunchEvent"}}"#)
    }

    /// The merge rules of `EventDataMerger`: add never overwrites, mod does, arrays concatenate,
    /// `[*]` reaches every element, and both need data on the event.
    @Test func mergeRules() throws {
        func run(_ type: String, _ eventData: String?, _ attach: String) throws -> RulesOutcome {
            let text =
                #"{"version": 1, "rules": [{"condition": {"type": "matcher", "definition": {"key": "~type", "matcher": "ex"}}, "consequences": [{"id": "m", "type": "\#(type)", "detail": {"eventdata": \#(attach)}}]}]}"#
            let event = RuleEvent(type: "t", source: "s", data: eventData.map(Fixture.json), time: Fixture.epoch)
            return Fixture.evaluate(try Fixture.rules(text), event)
        }
        let data = #"{"a": 1, "list": [1], "obj": {"x": 1}, "items": [{"id": 1}, {"id": 2}, 3]}"#
        let attach = #"{"a": 2, "b": 3, "list": [2], "obj": {"x": 2, "y": 2}, "items[*]": {"tag": "t", "id": 9}, "gone": null}"#
        #expect(
            try run("add", data, attach).event.data?.text
                == #"{"a":1,"list":[1,2],"obj":{"x":1,"y":2},"items":[{"id":1,"tag":"t"},{"id":2,"tag":"t"},3],"b":3}"#)
        #expect(
            try run("mod", data, attach).event.data?.text
                == #"{"a":2,"list":[1,2],"obj":{"x":2,"y":2},"items":[{"id":9,"tag":"t"},{"id":9,"tag":"t"},3],"b":3}"#)
        let noData = try run("add", nil, attach)
        #expect(noData.event.data == nil)
        #expect(noData.warnings.first?.message.contains("the event has no data") == true)
    }

    // MARK: dispatch

    /// testDispatchEvent_copy and _copyNoEventData.
    @Test(arguments: platforms)
    func dispatchCopy(_ platform: RulesPlatform) throws {
        let rules = try AdobeFixtures.load("rules_testDispatchEventCopy", platform: platform)
        let outcome = Fixture.evaluate(rules, Self.launch)
        #expect(outcome.dispatchedEvents.count == 1)
        let dispatched = try #require(outcome.dispatchedEvents.first)
        #expect(dispatched.name == "Dispatch Consequence Result")
        #expect(dispatched.type == "com.adobe.eventType.edge")
        #expect(dispatched.source == "com.adobe.eventSource.requestContent")
        #expect(dispatched.data?.text == #"{"xdm":"test data"}"#)
        #expect(dispatched.chainDepth == 1)
        #expect(outcome.event.data?.text == Self.launch.data?.text, "the original event is unchanged")
        var noData = Self.launch
        noData.data = nil
        #expect(Fixture.evaluate(rules, noData).dispatchedEvents.first.map { $0.data == nil } == true)
    }

    /// testDispatchEvent_newData and _newNoData.
    @Test(arguments: platforms)
    func dispatchNew(_ platform: RulesPlatform) throws {
        let rules = try AdobeFixtures.load("rules_testDispatchEventNewData", platform: platform)
        let outcome = Fixture.evaluate(rules, Self.launch, Fixture.lifecycle(#"{"lifecyclecontextdata": {"launches": 2}}"#))
        #expect(outcome.dispatchedEvents.first?.data?.text == #"{"key":"value","key.subkey":"subvalue","launches":"2"}"#)
        let noData = try AdobeFixtures.load("rules_testDispatchEventNewNoData", platform: platform)
        let empty = Fixture.evaluate(noData, Self.launch)
        #expect(empty.dispatchedEvents.count == 1)
        #expect(empty.dispatchedEvents.first.map { $0.data == nil } == true)
    }

    /// testDispatchEvent_invalidAction, _noAction, _noType, _noSource: nothing is dispatched.
    @Test(arguments: [
        "rules_testDispatchEventInvalidAction", "rules_testDispatchEventNoAction",
        "rules_testDispatchEventNoType", "rules_testDispatchEventNoSource",
    ])
    func dispatchInvalid(_ fixture: String) throws {
        for platform in Self.platforms {
            let outcome = Fixture.evaluate(try AdobeFixtures.load(fixture, platform: platform), Self.launch)
            #expect(outcome.dispatchedEvents.isEmpty, "\(fixture) on \(platform)")
            #expect(outcome.consequences.first?.isApplied == false)
            #expect(outcome.warnings.count == 1)
            #expect(outcome.event.data?.text == Self.launch.data?.text)
        }
    }

    /// testDispatchEvent_chainedDispatchEvents and _processedEventMatchesMultipleDispatchConsequences:
    /// a dispatched event cannot dispatch again (MAX_CHAINED_CONSEQUENCE_COUNT = 1), but the
    /// original event dispatches every time it is processed.
    @Test(arguments: platforms)
    func oneLevelOfChaining(_ platform: RulesPlatform) throws {
        let rules = try AdobeFixtures.load("rules_testDispatchEventChain", platform: platform)
        let edge = RuleEvent(
            name: "Edge Request", type: "com.adobe.eventType.edge", source: "com.adobe.eventSource.requestContent",
            data: Fixture.json(#"{"xdm": "test data"}"#), time: Fixture.epoch)
        let first = Fixture.evaluate(rules, edge)
        #expect(first.dispatchedEvents.count == 1)
        let dispatched = try #require(first.dispatchedEvents.first)
        let second = Fixture.evaluate(rules, dispatched)
        #expect(second.matchedRules == [0], "the dispatched edge event matches rule 1 again")
        #expect(second.dispatchedEvents.isEmpty, "but cannot dispatch")
        #expect(second.warnings.first?.message.contains("MAX_CHAINED_CONSEQUENCE_COUNT") == true)
        #expect(Fixture.evaluate(rules, edge).dispatchedEvents.count == 1, "reprocessing the original dispatches again")

        var both = edge
        both.data = Fixture.json(#"{"dispatch": "yes"}"#)
        let outcome = Fixture.evaluate(rules, both)
        #expect(outcome.dispatchedEvents.count == 2)
        for event in outcome.dispatchedEvents {
            #expect(Fixture.evaluate(rules, event).dispatchedEvents.isEmpty)
        }
        // The engine's chain helper evaluates each dispatched event once, and stops there.
        var rng = SplitMix64(seed: 1)
        let chain = RulesEngine(ruleSet: rules).evaluateWithDispatchedEvents(both, context: RulesContext(), rng: &rng)
        #expect(chain.count == 3)
        #expect(chain.dropFirst().allSatisfy { $0.dispatchedEvents.isEmpty })
    }

    // MARK: schema (event history operations)

    static let trackEvent = RuleEvent(
        name: "Test Event", type: "com.adobe.eventType.generic.track",
        source: "com.adobe.eventSource.requestContent", data: nil, time: Fixture.epoch)

    /// The validation matrix of RulesEngineHistoricalTests: which schema consequences record and
    /// dispatch (`true`) and which do nothing (`false`).
    static let schemaMatrix: [(String, Bool)] = [
        ("testSchemaIdEmpty", true),
        ("testSchemaEventHistoryInsert", true),
        ("testSchemaEventHistoryInsert_withTokens", true),
        ("testDataContentEmpty", false),
        ("testDataContentMissing", false),
        ("testDataContentNull", false),
        ("testDataOperationEmpty", false),
        ("testDataOperationInvalid", false),
        ("testDataOperationMissing", false),
        ("testDataOperationNull", false),
        ("testSchemaDataEmpty", false),
        ("testSchemaDataMissing", false),
        ("testSchemaDataNull", false),
        ("testSchemaIdMissing", false),
        ("testSchemaIdNull", false),
        ("testSchemaSchemaEmpty", false),
        ("testSchemaSchemaMissing", false),
        ("testSchemaSchemaNull", false),
    ]

    @Test(arguments: schemaMatrix)
    func schemaValidation(_ name: String, _ records: Bool) throws {
        for platform in Self.platforms {
            let rules = try AdobeFixtures.load("RulesEngineHistoricalTests__consequence_rules_\(name)", platform: platform)
            let outcome = Fixture.evaluate(rules, Self.trackEvent)
            #expect(outcome.historyRecords.count == (records ? 1 : 0), "\(name) on \(platform)")
            #expect(Fixture.fired(outcome) == (records ? 1 : 0), "\(name) on \(platform)")
            if !records { #expect(outcome.warnings.count == 1) }
        }
    }

    /// The recorded event is the content, with tokens rendered; the dispatched consequence event
    /// is `Dispatch Consequence Result` on rulesEngine/responseContent with that data.
    @Test func schemaInsertRecordsTheContent() throws {
        let rules = try AdobeFixtures.load(
            "RulesEngineHistoricalTests__consequence_rules_testSchemaEventHistoryInsert_withTokens", platform: .ios)
        let outcome = Fixture.evaluate(rules, Self.trackEvent)
        let record = try #require(outcome.historyRecords.first)
        #expect(
            record.data.text
                == #"{"key1":"value1","tokenKey_type":"com.adobe.eventType.generic.track","tokenKey_source":"com.adobe.eventSource.requestContent"}"#
        )
        #expect(record.time == Fixture.epoch)
        let event = try #require(outcome.consequences.first?.consequenceEvent)
        #expect(event.name == "Dispatch Consequence Result")
        #expect(event.type == "com.adobe.eventType.rulesEngine")
        #expect(event.source == "com.adobe.eventSource.responseContent")
        #expect(event.data?.text == record.data.text)

        let full = try AdobeFixtures.load("RulesEngineHistoricalTests__consequence_rules_testSchemaEventHistoryInsert", platform: .ios)
        #expect(
            Fixture.evaluate(full, Self.trackEvent).historyRecords.first?.data.text
                == #"{"stringKey":"stringValue","numberKey":123,"booleanKey":true,"arrayKey":["value1",2,false],"objectKey":{"nestedKey1":"nestedValue1","nestedKey2":456,"nestedKey3":false},"nullKey":null}"#
        )
    }

    /// insertIfNotExists records only when no equal event is in the history.
    @Test func schemaInsertIfNotExists() throws {
        let rules = try AdobeFixtures.load(
            "RulesEngineHistoricalTests__consequence_rules_testSchemaEventHistoryInsertIfNotExists", platform: .ios)
        let first = Fixture.evaluate(rules, Self.trackEvent)
        #expect(first.historyRecords.count == 1)
        var context = RulesContext()
        context.history = first.historyRecords
        let second = Fixture.evaluate(rules, Self.trackEvent, context)
        #expect(second.historyRecords.isEmpty)
        #expect(Fixture.fired(second) == 0)
        #expect(second.warnings.first?.message.contains("already in the history") == true)
    }

    /// Another schema (in-app message) is a plain rule consequence event (research §2.5).
    @Test func otherSchemaIsAConsequenceEvent() throws {
        let rules = try AdobeFixtures.load("RulesEngineHistoricalTests__consequence_rules_testSchemaInAppDetailSchema", platform: .ios)
        let outcome = Fixture.evaluate(rules, Self.trackEvent)
        #expect(outcome.historyRecords.isEmpty)
        #expect(outcome.consequences.first?.consequenceEvent?.name == "Rules Consequence Event")
        #expect(outcome.consequences.first?.consequenceEvent?.data?.get("triggeredconsequence")?.get("type")?.asString == "schema")
    }

    // MARK: other consequences

    /// rules_1: a url consequence and an add, in rule order; the consequence event carries
    /// `triggeredconsequence` with the rendered detail.
    @Test func consequencesFireInRuleOrder() throws {
        let rules = try AdobeFixtures.load("rules_1", platform: .ios)
        let state = #"{"lifecyclecontextdata": {"carriername": "AT&T", "installevent": "Installevent", "devicename": "iPhone X"}}"#
        let outcome = Fixture.evaluate(rules, Fixture.lifecycleEvent(), Fixture.lifecycle(state))
        #expect(outcome.matchedRules == [0, 1])
        #expect(outcome.consequences.map(\.type) == ["url", "add"])
        #expect(outcome.consequences.map(\.ruleIndex) == [0, 1])
        #expect(
            outcome.consequences.first?.jsonLine
                == #"{"id":"RCd6959d7b48da42709b442c52b74b0e3c","type":"url","detail":{"url":"http://adobe.com/device=iPhone X"}}"#)
        #expect(
            outcome.consequences.first?.consequenceEvent?.data?.text
                == #"{"triggeredconsequence":{"id":"RCd6959d7b48da42709b442c52b74b0e3c","type":"url","detail":{"url":"http://adobe.com/device=iPhone X"}}}"#
        )
        #expect(outcome.event.data?.get("key")?.asString == "value")
        #expect(outcome.event.data?.get("ecid")?.asString == "")
        #expect(outcome.event.data?.get("myObject")?.text == #"{"objKey":"objValue"}"#)
    }

    /// Tokens render against the event as it arrived, not as add/mod left it (the SDKs build the
    /// token finder once, on the triggering event).
    @Test func tokensReadTheOriginalEvent() throws {
        let text =
            #"{"version": 1, "rules": [{"condition": {"type": "matcher", "definition": {"key": "~type", "matcher": "ex"}}, "consequences": [{"id": "m", "type": "mod", "detail": {"eventdata": {"k": "changed"}}}, {"id": "p", "type": "pb", "detail": {"k": "{%k%}"}}]}]}"#
        let event = RuleEvent(type: "t", source: "s", data: Fixture.json(#"{"k": "original"}"#), time: Fixture.epoch)
        let outcome = Fixture.evaluate(try Fixture.rules(text), event)
        #expect(outcome.event.data?.text == #"{"k":"changed"}"#)
        #expect(outcome.consequences.last?.detail.text == #"{"k":"original"}"#)
    }
}

extension FiredConsequence.Effect {
    /// The case name, for comparisons in tests.
    var name: String {
        switch self {
        case .ruleEvent: "ruleEvent"
        case .attachedData: "attachedData"
        case .modifiedData: "modifiedData"
        case .dispatchedEvent: "dispatchedEvent"
        case .recordedHistory: "recordedHistory"
        case .ignored: "ignored"
        }
    }
}
