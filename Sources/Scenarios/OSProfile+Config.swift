import Files
import Foundation
import Support

extension OSProfile {
    /// The keys of a profile mapping (a scenario's `profile:`, a profile file), besides `fit`,
    /// which `calibrate` writes and nothing reads.
    public static let keys = [
        "platform", "rule", "regionLimit", "beyondLimit", "refreshDistance", "minimumRadius", "maximumRadius", "entryDistance",
        "entryDistanceCap", "exitDistance",
        "sameSide", "enterOverlapLarger", "enterOverlapSmaller", "exitOverlapLarger", "exitOverlapSmaller",
        "initialTrigger", "loiteringDelay", "responsiveness", "delayMinimum", "delayMean", "entryLoss", "exitLoss",
        "duplicate", "seed",
    ]

    /// A profile named on the command line (`--profile`): a built-in name, or a profile file.
    ///
    /// - Throws: `.usage` for a name that is neither (at `--profile`), the file's own errors
    ///   (`.missingInput`, located `.badData`).
    public static func named(_ text: String, source: String = "--profile") throws(FencesimError) -> OSProfile {
        if let platform = Platform(rawValue: text) { return builtIn(platform) }
        guard FileIO.exists(text) else {
            throw FencesimError(
                .usage,
                "\"\(text)\" is neither a built-in profile (\(Platform.allCases.map(\.rawValue).joined(separator: ", "))) nor a profile file",
                at: SourceLocation(file: source))
        }
        return try read(path: text)
    }

    /// Reads a profile file (YAML or JSON): a mapping with `platform` and any parameters.
    ///
    /// - Throws: `.missingInput` when it cannot be read, `.badData` located at what is wrong.
    public static func read(path: String) throws(FencesimError) -> OSProfile {
        let bytes = try FileIO.readAll(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FencesimError(.badData, "the profile is not UTF-8 text", at: SourceLocation(file: path, line: 1, column: 1))
        }
        return try OSProfile(config: try ConfigNode.parseYAML(text, file: path), directory: (path as NSString).deletingLastPathComponent)
    }

    /// A profile from a scenario's `profile:` value: a built-in name, a profile file relative to
    /// `directory`, or a mapping with `platform` and the parameters to change.
    ///
    /// - Throws: `.badData` located at the offending key or value.
    public init(config node: ConfigNode, directory: String) throws(FencesimError) {
        if let text = node.string {
            if let platform = Platform(rawValue: text) {
                self = OSProfile.builtIn(platform)
                return
            }
            let path = ScenarioReader.resolve(text, directory)
            guard FileIO.exists(path) else {
                throw node.error(
                    "profile \"\(text)\" is neither a built-in profile (\(Platform.allCases.map(\.rawValue).joined(separator: ", "))) nor a profile file (looked for \(path))"
                )
            }
            self = try OSProfile.read(path: path)
            return
        }
        guard node.entries != nil else {
            throw node.error(
                "a profile is a built-in name, a profile file, or a mapping with platform: and parameters; found \(node.typeDescription)")
        }
        try ScenarioReader.checkKeys(node, OSProfile.keys + ["fit"], "profile")
        guard let p = node["platform"] else {
            throw node.error("a profile needs platform: (\(Platform.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let name = p.string, let platform = Platform(rawValue: name) else {
            throw p.error("platform must be one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var profile = OSProfile.builtIn(platform)
        func number(_ key: String) throws(FencesimError) -> Double? {
            guard let n = node[key] else { return nil }
            guard let v = try n.finiteNumber(key) else { throw n.error("\(key) must be a number") }
            return v
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws(FencesimError) -> T? where T.RawValue == String {
            guard let n = node[key] else { return nil }
            guard let s = n.string, let v = T(rawValue: s) else {
                throw n.error("\(key) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return v
        }
        if let v = try choice("rule", DecisionRule.self) { profile.rule = v }
        if let v = try choice("initialTrigger", InitialTrigger.self) { profile.initialTrigger = v }
        if let v = try choice("beyondLimit", BeyondLimit.self) { profile.beyondLimit = v }
        if let v = try number("regionLimit") {
            guard v >= 0, v == v.rounded(), v <= 1_000_000 else {
                throw (node["regionLimit"] ?? node).error("regionLimit must be a whole number of fences, 0 to 1000000")
            }
            profile.regionLimit = Int(v)
        }
        if let v = try number("seed") {
            guard v >= 0, v == v.rounded(), v < 9_007_199_254_740_992 else {
                throw (node["seed"] ?? node).error("seed must be a non-negative whole number")
            }
            profile.seed = UInt64(v)
        }
        let doubles: [(String, WritableKeyPath<OSProfile, Double>)] = [
            ("minimumRadius", \.minimumRadiusMeters), ("refreshDistance", \.refreshDistanceMeters),
            ("entryDistance", \.entryDistanceMeters), ("entryDistanceCap", \.entryDistanceCapShare),
            ("exitDistance", \.exitDistanceMeters), ("sameSide", \.sameSideSeconds), ("enterOverlapLarger", \.enterOverlapLarger),
            ("enterOverlapSmaller", \.enterOverlapSmaller), ("exitOverlapLarger", \.exitOverlapLarger),
            ("exitOverlapSmaller", \.exitOverlapSmaller),
            ("responsiveness", \.responsivenessSeconds), ("delayMinimum", \.delayMinimumSeconds), ("delayMean", \.delayMeanSeconds),
            ("entryLoss", \.entryLoss), ("exitLoss", \.exitLoss), ("duplicate", \.duplicateShare),
        ]
        for (key, path) in doubles {
            if let v = try number(key) { profile[keyPath: path] = v }
        }
        if let n = node["maximumRadius"] {
            if n.string == "none" || n.isNull {
                profile.maximumRadiusMeters = nil
            } else {
                profile.maximumRadiusMeters = try number("maximumRadius")
            }
        }
        if let n = node["loiteringDelay"] {
            if n.string == "none" || n.isNull {
                profile.loiteringDelaySeconds = nil
            } else {
                profile.loiteringDelaySeconds = try number("loiteringDelay")
            }
        }
        do throws(FencesimError) {
            try profile.validate()
        } catch {
            // Located at the key the message names when there is one, else at the mapping.
            let key = OSProfile.keys.first { error.message.hasPrefix($0 + " ") }
            throw (key.flatMap { node[$0] } ?? node).error(error.message)
        }
        self = profile
    }

    /// What `calibrate` found for a fitted parameter, written beside it.
    public struct FitNote: Sendable {
        public var samples: Int
        public var residual: String

        public init(samples: Int, residual: String) {
            self.samples = samples
            self.residual = residual
        }
    }

    /// The profile as a profile file (YAML): every parameter with its provenance as a comment,
    /// and for fitted ones the fit's sample size and residual.
    public func yaml(header: [String] = [], fits: [String: FitNote] = [:]) -> String {
        var lines = header.map { "# \($0)" }
        for p in parameters {
            let value =
                p.key == "platform" || p.key == "rule" || p.key == "initialTrigger" || p.key == "beyondLimit" || p.value == "none"
                ? "\"\(p.value)\"" : p.value
            if let fit = fits[p.key] {
                lines.append("\(p.key): \(value)  # fitted from \(fit.samples) samples; residual \(fit.residual)")
            } else {
                lines.append("\(p.key): \(value)  # \(p.provenance.note)")
            }
        }
        if !fits.isEmpty {
            lines.append("fit:")
            for key in OSProfile.keys where fits[key] != nil {
                if let fit = fits[key] { lines.append("  \(key): {samples: \(fit.samples), residual: \"\(fit.residual)\"}") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
