import Geotriggers
import Scenarios
import Support
import Traces

/// A setting a sweep varies (SPEC §6.4), named as on the command line (`--vary NAME=...`).
///
/// Geotrigger parameters apply to every fence, whatever the scenario, its zones or the fence's own
/// `geotrigger` property say: `buffer` is added to each fence's resolved buffer, the others
/// replace the resolved value. `radiusScale` multiplies the radius of circle fences and the range
/// (and a proximity in metres) of beacons; ground truth keeps the fences as drawn, as it does for
/// buffers, so that a larger monitored fence is scored against the place it stands for.
/// Degradation parameters replace the key of the scenario's `degrade` section (SPEC §6.2), the
/// other keys kept; a scenario without one starts from no degradation.
public enum SweepParameter: String, CaseIterable, Sendable {
    /// Metres added to every fence's buffer (negative shrinks).
    case buffer
    /// Factor on circle radii and beacon ranges, > 0.
    case radiusScale
    case relationship
    case feed
    /// Seconds continuously inside before a dwell event, or `none`.
    case dwell
    /// Debounce before an enter is confirmed: seconds, or `N fixes`.
    case enterAfter
    /// Debounce before an exit is confirmed: seconds, or `N fixes`.
    case exitAfter
    /// `enterAfter` and `exitAfter` together.
    case debounce
    /// Seconds between degraded fixes, or `none` (the clean fixes' times).
    case resample
    case noise
    /// The share of fixes lost (a scenario's `burst` is kept).
    case dropout
    /// The share of fixes with a lying accuracy (a scenario's `meters` is kept).
    case spikes
    case jitter
    case exitLoss
    case entryLoss
    case seed

    /// The parameter named `name` (as written, or in any letter case).
    public init?(name: String) {
        if let exact = SweepParameter(rawValue: name) {
            self = exact
            return
        }
        guard let match = SweepParameter.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }

    /// The unit of the parameter's values, for headings and help: `m`, `s`, `×`, `share`, or
    /// the empty string.
    public var unit: String {
        switch self {
        case .buffer: "m"
        case .radiusScale: "×"
        case .relationship, .feed, .seed: ""
        case .dwell, .resample, .jitter: "s"
        case .enterAfter, .exitAfter, .debounce: "s or fixes"
        case .noise: "× accuracy"
        case .dropout, .spikes, .exitLoss, .entryLoss: "share"
        }
    }

    /// Whether the parameter changes the fences or their settings (and so what the engine
    /// compiles), as opposed to the feed.
    public var changesFences: Bool {
        switch self {
        case .buffer, .radiusScale, .relationship, .feed, .dwell, .enterAfter, .exitAfter, .debounce: true
        case .resample, .noise, .dropout, .spikes, .jitter, .exitLoss, .entryLoss, .seed: false
        }
    }

    /// The geotrigger settings this parameter sets, for conflicts between `--vary` flags
    /// (`debounce` sets both thresholds).
    var settingKeys: [String] {
        switch self {
        case .debounce: ["enterAfter", "exitAfter"]
        default: [rawValue]
        }
    }

    /// Reads one value of this parameter.
    ///
    /// - Parameters:
    ///   - text: the value as written, without surrounding spaces.
    ///   - location: where it is, for errors.
    /// - Throws: ``Support/FencesimError`` `.badData` located at the value when the parameter
    ///   does not take it (with the rule it breaks, as the scenario's key would say).
    public func value(parsing text: String, at location: SourceLocation) throws(FencesimError) -> SweepValue {
        let node: ConfigNode
        if let number = ConfigNode.number(text) {
            node = ConfigNode(.number(number), at: location)
            _ = try node.finiteNumber(rawValue)
        } else if text == "none" && (self == .dwell || self == .resample) {
            return .none
        } else {
            node = ConfigNode(.string(text), at: location, textColumn: location.column)
        }
        switch self {
        case .buffer:
            let v = try SweepParameter.number(node, "buffer must be a number of metres")
            let limit = JSONWriter.number(GeotriggerSettings.bufferLimitMeters)
            guard abs(v) <= GeotriggerSettings.bufferLimitMeters else {
                throw node.error("buffer must be a number of metres from -\(limit) to \(limit) (1000 km)")
            }
            return .number(v)
        case .radiusScale:
            let v = try SweepParameter.number(node, "radiusScale must be a positive factor")
            guard v > 0 else { throw node.error("radiusScale must be a positive factor") }
            return .number(v)
        case .relationship:
            let v: GeotriggerSettings.Relationship = try GeotriggerOverrides.choice(node, rawValue)
            return .relationship(v)
        case .feed:
            let v: GeotriggerSettings.Feed = try GeotriggerOverrides.choice(node, rawValue)
            return .feed(v)
        case .dwell:
            let v = try SweepParameter.number(node, "dwell must be a number of seconds, 0 or more, or none")
            guard v >= 0 else { throw node.error("dwell must be a number of seconds, 0 or more, or none") }
            return .number(v)
        case .enterAfter, .exitAfter, .debounce:
            let spaced = node.string.map(SweepParameter.spacingUnit).map { ConfigNode(.string($0), at: location) } ?? node
            return .threshold(try GeotriggerOverrides.threshold(spaced, rawValue))
        case .resample, .noise, .dropout, .spikes, .jitter, .exitLoss, .entryLoss, .seed:
            let d = try Scenario.degradation(ConfigNode(.map([(rawValue, location, node)]), at: location))
            switch self {
            case .resample: return d.resampleSeconds.map(SweepValue.number) ?? .none
            case .noise: return .number(d.noise)
            case .dropout: return .number(d.dropout)
            case .spikes: return .number(d.spikes)
            case .jitter: return .number(d.jitterSeconds)
            case .exitLoss: return .number(d.exitLoss)
            case .entryLoss: return .number(d.entryLoss)
            default: return .number(Double(d.seed))
            }
        }
    }

    /// The node's finite number, or an error saying `rule` and what was found.
    static func number(_ node: ConfigNode, _ rule: String) throws(FencesimError) -> Double {
        guard let v = node.number, v.isFinite else {
            throw node.error("\(rule), found \(node.string.map { "\"\($0)\"" } ?? node.typeDescription)")
        }
        return v
    }

    /// `2fixes` → `2 fixes`, `10s` → `10 s`, so that a threshold needs no space (and no quoting
    /// in a shell); text with a space, or without a leading number, is left as it is.
    static func spacingUnit(_ text: String) -> String {
        guard !text.contains(" "), let k = text.firstIndex(where: { $0.isLetter }), k != text.startIndex else { return text }
        return String(text[..<k]) + " " + String(text[k...])
    }

    /// Sets `value` in a combination's settings and degradation.
    ///
    /// - Parameters:
    ///   - settings: every fence's resolved settings.
    ///   - degradation: the degradation of the feed (set to one that changes nothing first when a
    ///     degradation parameter is varied and there is none).
    ///   - radiusScale: the factor on circle radii and beacon ranges.
    func apply(_ value: SweepValue, settings: inout FenceSettings, degradation: inout Degradation?, radiusScale: inout Double) {
        switch (self, value) {
        case (.buffer, .number(let v)):
            settings.modifyEach { $0.bufferMeters += v }
        case (.radiusScale, .number(let v)):
            radiusScale = v
        case (.relationship, .relationship(let v)):
            settings.modifyEach { $0.relationship = v }
        case (.feed, .feed(let v)):
            settings.modifyEach { $0.feed = v }
        case (.dwell, .number(let v)):
            settings.modifyEach { $0.dwellSeconds = v }
        case (.dwell, .none):
            settings.modifyEach { $0.dwellSeconds = nil }
        case (.enterAfter, .threshold(let t)):
            settings.modifyEach { $0.enterAfter = t }
        case (.exitAfter, .threshold(let t)):
            settings.modifyEach { $0.exitAfter = t }
        case (.debounce, .threshold(let t)):
            settings.modifyEach {
                $0.enterAfter = t
                $0.exitAfter = t
            }
        default:
            var d = degradation ?? Degradation()
            switch (self, value) {
            case (.resample, .number(let v)): d.resampleSeconds = v
            case (.resample, .none): d.resampleSeconds = nil
            case (.noise, .number(let v)): d.noise = v
            case (.dropout, .number(let v)): d.dropout = v
            case (.spikes, .number(let v)): d.spikes = v
            case (.jitter, .number(let v)): d.jitterSeconds = v
            case (.exitLoss, .number(let v)): d.exitLoss = v
            case (.entryLoss, .number(let v)): d.entryLoss = v
            case (.seed, .number(let v)): d.seed = UInt64(v)
            default: return
            }
            degradation = d
        }
    }
}

/// One value of a swept parameter.
public enum SweepValue: Hashable, Sendable, CustomStringConvertible {
    /// Metres, seconds, a factor, a share or a seed, as the parameter says.
    case number(Double)
    /// `none`: no dwell, or no resampling.
    case none
    case relationship(GeotriggerSettings.Relationship)
    case feed(GeotriggerSettings.Feed)
    case threshold(GeotriggerSettings.Threshold)

    /// The value as the command line and the scenario write it: `10`, `0.5`, `none`,
    /// `contains`, `2 fixes`.
    public var description: String {
        switch self {
        case .number(let v): JSONWriter.number(v)
        case .none: "none"
        case .relationship(let r): r.rawValue
        case .feed(let f): f.rawValue
        case .threshold(.seconds(let s)): JSONWriter.number(s)
        case .threshold(.fixes(let n)): n == 1 ? "1 fix" : "\(n) fixes"
        }
    }

    /// The value as JSON: a number for numbers and thresholds in seconds, else a string.
    public var json: JSONValue {
        switch self {
        case .number(let v), .threshold(.seconds(let v)):
            v == v.rounded() && abs(v) < 9e15 ? .int(Int64(v)) : .double(v)
        default:
            .string(description)
        }
    }
}
