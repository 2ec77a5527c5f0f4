import Files
import Rules
import Support

/// A scenario's `rules` and `rulesPlatform` keys, read and checked (SPEC §1.3, §5).
public struct RulesSettings: Sendable {
    /// The seed used when the scenario gives none.
    public static let defaultSeed: UInt64 = 0

    /// The rules file or archive, resolved against the scenario's folder.
    public var path: String
    /// The path as the scenario wrote it; event logs name the rules file by this, so that a log
    /// does not depend on the folder fencesim was run from.
    public var label: String
    /// Where the scenario names the rules.
    public var location: SourceLocation
    /// Whose tolerance and matcher semantics apply (`rulesPlatform`, or `--rules-platform`).
    public var platform: RulesPlatform
    /// The seed of the generators `~cachebust` draws from (see ``traceSeed(for:)``).
    public var seed: UInt64

    public init(
        path: String, label: String? = nil, location: SourceLocation, platform: RulesPlatform = .docs,
        seed: UInt64 = RulesSettings.defaultSeed
    ) {
        self.path = path
        self.label = label ?? path
        self.location = location
        self.platform = platform
        self.seed = seed
    }

    /// The seed of one trace's generator: a SplitMix64 seeded with the scenario's seed XOR the
    /// 64-bit FNV-1a hash of the trace's label (its path as the scenario wrote it), whose first
    /// output seeds the trace's generator.
    ///
    /// A trace's `~cachebust` values therefore depend on the seed and its label only: not on the
    /// number of workers, nor on the other traces of the scenario or their order.
    public func traceSeed(for trace: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in trace.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        var mixer = SplitMix64(seed: seed ^ hash)
        return mixer.next()
    }

    /// Reads and decodes the rules (a rules.json, or a ZIP archive holding one).
    ///
    /// - Throws: ``Support/FencesimError`` `.missingInput` (66) when the file has gone, `.badData`
    ///   (65) located in the rules file (or at the archive) for anything the platform refuses.
    public func load() throws(FencesimError) -> RuleSet {
        try RulesLoader.load(path: path, platform: platform)
    }
}

extension Scenario {
    /// Whether the scenario names a rules file.
    public var hasRules: Bool { root["rules"] != nil }

    /// The scenario's `rules` and `rulesPlatform`, or `nil` when it has no `rules`.
    ///
    /// `rules` is a path (a rules.json or a ZIP holding it, relative to the scenario), or a
    /// mapping `{path: PATH, seed: N}` (fencesim's extension to SPEC §1.3: the seed of
    /// `~cachebust`, default 0). `rulesPlatform` is `docs` (the default), `ios` or `android`.
    ///
    /// - Parameter platform: overrides `rulesPlatform` (`--rules-platform`).
    /// - Throws: ``Support/FencesimError`` located at the key: `.missingInput` (66) when the rules
    ///   file does not exist, `.badData` (65) for a malformed value, or `rulesPlatform` without
    ///   `rules`.
    public func rulesSettings(platform override: RulesPlatform? = nil) throws(FencesimError) -> RulesSettings? {
        let platformNode = root["rulesPlatform"]
        guard let node = root["rules"] else {
            if let platformNode {
                throw platformNode.error("rulesPlatform is set but the scenario has no rules: (a rules.json or a ZIP holding it)")
            }
            return nil
        }
        let pathNode: ConfigNode
        var seed = RulesSettings.defaultSeed
        if node.entries != nil {
            try ScenarioReader.checkKeys(node, ["path", "seed"], "rules")
            guard let p = node["path"] else { throw node.error("rules needs \"path\": a rules.json or a ZIP holding it") }
            pathNode = p
            if let s = node["seed"] {
                guard let v = s.number, v == v.rounded(), v >= 0, v < 9_007_199_254_740_992 else {
                    throw s.error(
                        "rules seed must be a whole number from 0 to 2^53, found \(s.number.map(JSONWriter.number) ?? s.typeDescription)")
                }
                seed = UInt64(v)
            }
        } else {
            pathNode = node
        }
        guard let text = pathNode.string, !text.isEmpty else {
            throw pathNode.error(
                "rules must be a path to a rules.json or a ZIP holding it (or {path: ..., seed: N}), found \(pathNode.typeDescription)")
        }
        let path = resolve(text)
        guard FileIO.exists(path) else {
            throw FencesimError(.missingInput, "rules file \(text) does not exist (looked for \(path))", at: pathNode.location)
        }
        guard !FileIO.isDirectory(path) else {
            throw pathNode.error("rules file \(text) is a directory; give the rules.json or the ZIP archive holding it")
        }
        var platform = RulesPlatform.docs
        if let platformNode {
            let names = RulesPlatform.allCases.map(\.rawValue)
            guard let name = platformNode.string, let value = RulesPlatform(rawValue: name) else {
                throw platformNode.error(
                    "rulesPlatform must be one of \(names.joined(separator: ", ")), found \(platformNode.string.map { "\"\($0)\"" } ?? platformNode.typeDescription)"
                )
            }
            platform = value
        }
        return RulesSettings(path: path, label: text, location: pathNode.location, platform: override ?? platform, seed: seed)
    }
}
