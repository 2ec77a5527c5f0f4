import Foundation
import Rules
import Support
import Testing

/// Adobe's rules fixtures beside the project (`../shared/fixtures/adobe`, Apache-2.0), which the
/// tests read in place and skip, saying so, when absent.
enum AdobeFixtures {
    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/fixtures/adobe`, or `nil` when it is absent.
    static let directory: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/adobe")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    static var isAvailable: Bool { directory != nil }
    static let skipMessage: Comment = "../shared/fixtures/adobe is absent: Adobe rules fixtures not tested"

    /// The path of an aepsdk-core-ios fixture from its short name: `rules_testMatcherGt`,
    /// `RulesEngineHistoricalTests__…` (under AEPCore/Tests/TestResources) or
    /// `AEPIntegrationTests__resources__…`.
    static func ios(_ name: String) -> String {
        let file = name.hasPrefix("AEPIntegrationTests") ? "\(name).json" : "AEPCore__Tests__TestResources__\(name).json"
        return (directory ?? packageRoot).appendingPathComponent("aepsdk-core-ios/\(file)").path
    }

    /// The path of an aepsdk-core-android fixture under code/core/src/test/resources.
    static func android(_ name: String) -> String {
        (directory ?? packageRoot).appendingPathComponent("aepsdk-core-android/code__core__src__test__resources__\(name).json").path
    }

    /// Loads an iOS fixture for a platform.
    static func load(_ name: String, platform: RulesPlatform) throws -> RuleSet {
        try RulesLoader.load(path: ios(name), platform: platform)
    }
}

/// Helpers shared by the rules tests: the Adobe tests' default event and lifecycle shared state.
enum Fixture {
    static let epoch = Timestamp(seconds: 1_700_000_000)

    /// The default event of `RulesEngineFunctionalTests`: Lifecycle responseContent with
    /// `lifecyclecontextdata.launchevent`.
    static func lifecycleEvent(
        data: String = #"{"lifecyclecontextdata": {"launchevent": "LaunchEvent"}}"#,
        time: Timestamp = epoch
    ) -> RuleEvent {
        RuleEvent(
            name: "Configure with file path", type: "com.adobe.eventType.lifecycle",
            source: "com.adobe.eventSource.responseContent", data: json(data), time: time)
    }

    /// A context with the simulated `com.adobe.module.lifecycle` shared state (or none).
    static func lifecycle(_ state: String?) -> RulesContext {
        var context = RulesContext()
        if let state { context.sharedStates["com.adobe.module.lifecycle"] = json(state) }
        return context
    }

    static func json(_ text: String) -> JSONValue {
        do {
            return try JSONParser.parse(text).value
        } catch {
            Issue.record("bad JSON in a test: \(error)")
            return .null
        }
    }

    /// Rules from inline JSON.
    static func rules(_ text: String, platform: RulesPlatform = .docs, file: String = "rules.json") throws -> RuleSet {
        try RuleSet.decode(SourceText(file: file, bytes: Array(text.utf8)), platform: platform)
    }

    /// A rules.json with one rule: `condition` (JSON) and one `pb` consequence.
    static func oneRule(_ condition: String) -> String {
        #"{"version": 1, "rules": [{"condition": \#(condition), "consequences": [{"id": "c1", "type": "pb", "detail": {"templateurl": "https://example.com"}}]}]}"#
    }

    /// A matcher condition.
    static func matcher(_ key: String, _ matcher: String, _ values: String) -> String {
        #"{"type": "matcher", "definition": {"key": "\#(key)", "matcher": "\#(matcher)", "values": \#(values)}}"#
    }

    /// Evaluates with a fixed seed.
    static func evaluate(
        _ rules: RuleSet, _ event: RuleEvent, _ context: RulesContext = RulesContext(),
        platform: RulesPlatform? = nil, seed: UInt64 = 7, explain: Bool = false
    ) -> RulesOutcome {
        var rng = SplitMix64(seed: seed)
        return RulesEngine(ruleSet: rules, platform: platform).evaluate(event, context: context, rng: &rng, explain: explain)
    }

    /// The number of consequences that took effect (what the SDK tests count as dispatched
    /// consequence events, for rules with generic consequences).
    static func fired(_ outcome: RulesOutcome) -> Int {
        outcome.consequences.filter(\.isApplied).count
    }
}

extension JSONValue {
    /// The JSON text, for comparisons in tests.
    var text: String { JSONWriter.string(self) }

    /// Member `key` of an object.
    func get(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.node.value
    }

    /// The string, when the value is one.
    var asString: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
