import Support

/// The rules of one rules.json, decoded for one platform (SPEC §5).
///
/// Build one with ``RulesLoader`` (files and ZIP archives) or ``RuleSet/decode(_:platform:)``
/// (bytes in memory).
public struct RuleSet: Sendable {
    /// The file name used in locations (`archive.zip!rules.json` for an archive).
    public var file: String
    /// The `version` member; 0 when the platform tolerates its absence (Android).
    public var version: Int64
    /// The rules in file order, without those the platform drops.
    public var rules: [Rule]
    /// The platform whose tolerance was applied while decoding.
    public var platform: RulesPlatform
    /// Every piece dropped or ignored while decoding, located (fencesim never drops silently).
    public var warnings: [Diagnostic]

    /// A rule set as decoded (see ``RuleSet/decode(_:platform:)``).
    public init(file: String, version: Int64, rules: [Rule], platform: RulesPlatform, warnings: [Diagnostic] = []) {
        self.file = file
        self.version = version
        self.rules = rules
        self.platform = platform
        self.warnings = warnings
    }

    /// The number of consequences over all rules.
    public var consequenceCount: Int {
        rules.reduce(0) { $0 + $1.consequences.count }
    }

    /// How many consequences of each type, sorted by type name.
    public var consequenceTypeCounts: [(type: String, count: Int)] {
        var counts: [String: Int] = [:]
        for rule in rules {
            for consequence in rule.consequences { counts[consequence.type, default: 0] += 1 }
        }
        return counts.keys.sorted().map { ($0, counts[$0] ?? 0) }
    }
}
