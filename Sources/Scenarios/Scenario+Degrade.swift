import Foundation
import Support
import Traces

extension Scenario {
    /// The scenario's `degrade` section (SPEC §6.2), or `nil` when it has none.
    ///
    /// Keys, all optional: `resample` (seconds between fixes, > 0), `noise` (σ per axis as a
    /// multiple of each fix's accuracy, ≥ 0), `dropout` (share of fixes lost, in [0, 1), or
    /// `{share, burst}` with the mean run length in fixes), `spikes` (share of fixes jumping while
    /// their accuracy stays good, in [0, 1], or `{share, meters}`; default jump 200 m), `jitter`
    /// (σ of the time error, seconds), `exitLoss` and `entryLoss` (shares of notifications never
    /// delivered, in [0, 1]), `seed` (a non-negative integer, default 0).
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` located at the offending value.
    public func degradation() throws(FencesimError) -> Degradation? {
        guard let node = root["degrade"] else { return nil }
        return try Scenario.degradation(node)
    }

    /// A degradation written on one line, `key=value` pairs separated by commas, with the keys
    /// and meanings of the scenario's `degrade` section (`resample=10,noise=1,dropout=0.05,seed=42`).
    ///
    /// - Throws: ``Support/FencesimError`` `.usage` located at the bad pair, key or value by its
    ///   column in `text` (`--degrade:1:COLUMN: error: ...`).
    public static func degradation(parsing text: String, source: String = "--degrade") throws(FencesimError) -> Degradation {
        var entries: [(key: String, keyLocation: SourceLocation, value: ConfigNode)] = []
        // Each key and value is located by its column in the option's text (`--degrade:1:COL`).
        func column(_ i: Substring.Index) -> Int { text.distance(from: text.startIndex, to: i) + 1 }
        func skippingSpaces(_ part: Substring) -> Substring.Index { part.firstIndex { $0 != " " } ?? part.endIndex }
        for pair in text.split(separator: ",") {
            let keyLocation = SourceLocation(file: source, line: 1, column: column(skippingSpaces(pair)))
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let value = ConfigNode.number(String(parts[1]).trimmingCharacters(in: .whitespaces)) else {
                throw FencesimError(
                    .usage, "\"\(pair)\" is not key=number (keys: \(ScenarioReader.degradeKeys.joined(separator: ", ")))",
                    at: keyLocation)
            }
            let valueLocation = SourceLocation(file: source, line: 1, column: column(skippingSpaces(parts[1])))
            entries.append(
                (String(parts[0]).trimmingCharacters(in: .whitespaces), keyLocation, ConfigNode(.number(value), at: valueLocation)))
        }
        do throws(FencesimError) {
            return try degradation(ConfigNode(.map(entries), at: SourceLocation(file: source, line: 1, column: 1)))
        } catch {
            throw FencesimError(.usage, error.message, at: error.location)
        }
    }

    /// Reads a `degrade` mapping.
    package static func degradation(_ node: ConfigNode) throws(FencesimError) -> Degradation {
        try ScenarioReader.checkKeys(node, ScenarioReader.degradeKeys, "degrade")
        var d = Degradation()
        if let n = node["resample"] {
            let v = try number(n, "resample", "a number of seconds between fixes")
            guard v > 0 else { throw n.error("resample must be a positive number of seconds") }
            guard v >= Degradation.shortestResampleSeconds else {
                throw n.error(
                    "resample must be at least \(Degradation.shortestResampleSeconds) s (fix times are written to the millisecond)")
            }
            guard v <= Degradation.secondsLimit else { throw n.error(tooLarge("resample", v, Degradation.secondsLimit, "s")) }
            d.resampleSeconds = v
        }
        if let n = node["noise"] {
            let v = try number(n, "noise", "a multiple of each fix's accuracy")
            guard v >= 0 else { throw n.error("noise must not be negative") }
            guard v <= Degradation.noiseLimit else { throw n.error(tooLarge("noise", v, Degradation.noiseLimit, "× accuracy")) }
            d.noise = v
        }
        if let n = node["dropout"] {
            if n.entries != nil {
                try ScenarioReader.checkKeys(n, ["share", "burst"], "dropout")
                guard let s = n["share"] else { throw n.error("dropout needs a share (0 to 1)") }
                d.dropout = try share(s, "dropout share", below: 1)
                if let b = n["burst"] {
                    let v = try number(b, "burst", "a mean number of fixes")
                    guard v >= 1 else { throw b.error("burst must be at least 1 fix") }
                    d.dropoutBurst = v
                }
            } else {
                d.dropout = try share(n, "dropout", below: 1)
            }
        }
        if let n = node["spikes"] {
            if n.entries != nil {
                try ScenarioReader.checkKeys(n, ["share", "meters"], "spikes")
                guard let s = n["share"] else { throw n.error("spikes needs a share (0 to 1)") }
                d.spikes = try share(s, "spikes share")
                if let m = n["meters"] {
                    let v = try number(m, "meters", "a distance in metres")
                    guard v > 0 else { throw m.error("spike meters must be positive") }
                    guard v <= Degradation.spikeMetersLimit else {
                        throw m.error(tooLarge("spike meters", v, Degradation.spikeMetersLimit, "m"))
                    }
                    d.spikeMeters = v
                }
            } else {
                d.spikes = try share(n, "spikes")
            }
        }
        if let n = node["jitter"] {
            let v = try number(n, "jitter", "a number of seconds")
            guard v >= 0 else { throw n.error("jitter must not be negative") }
            guard v <= Degradation.secondsLimit else { throw n.error(tooLarge("jitter", v, Degradation.secondsLimit, "s")) }
            d.jitterSeconds = v
        }
        if let n = node["exitLoss"] { d.exitLoss = try share(n, "exitLoss") }
        if let n = node["entryLoss"] { d.entryLoss = try share(n, "entryLoss") }
        if let n = node["seed"] {
            guard let v = n.number, v >= 0, v == v.rounded(), v < 1.8e19 else {
                throw n.error("seed must be a non-negative integer")
            }
            d.seed = UInt64(v)
        }
        return d
    }

    private static func tooLarge(_ key: String, _ value: Double, _ limit: Double, _ unit: String) -> String {
        "\(key) \(JSONWriter.number(value)) \(unit) is more than the limit of \(JSONWriter.number(limit)) \(unit)"
    }

    private static func number(_ node: ConfigNode, _ key: String, _ what: String) throws(FencesimError) -> Double {
        guard let v = try node.finiteNumber(key) else {
            throw node.error("\(key) must be \(what), found \(node.string.map { "\"\($0)\"" } ?? node.typeDescription)")
        }
        return v
    }

    private static func share(_ node: ConfigNode, _ key: String, below limit: Double? = nil) throws(FencesimError) -> Double {
        let v = try number(node, key, "a share from 0 to 1")
        if let limit {
            guard v >= 0, v < limit else { throw node.error("\(key) must be at least 0 and below \(JSONWriter.number(limit))") }
        } else {
            guard v >= 0, v <= 1 else { throw node.error("\(key) must be a share from 0 to 1") }
        }
        return v
    }
}
