import Geotriggers
import Support

extension GeotriggerOverrides {
    /// The keys of a `geotrigger` mapping (SPEC §1.3 and §2).
    public static let keys = [
        "feed", "relationship", "buffer", "notify", "initialTrigger", "filter", "dwell", "debounce",
        "maxGap", "gapPolicy", "message", "level", "where",
    ]

    /// Reads a `geotrigger` mapping: from a scenario, a zone, or a fence's `geotrigger` property.
    ///
    /// - Parameter selectsFences: whether the mapping may hold `where` (a scenario's; a zone's
    ///   or a fence's settings apply to fences already selected).
    /// - Throws: ``Support/FencesimError`` `.badData` located at the offending key or value; a
    ///   bad filter expression, where-clause or message template is located at its column.
    public init(config node: ConfigNode, selectsFences: Bool = false) throws(FencesimError) {
        self.init()
        guard let entries = node.entries else {
            throw node.error("geotrigger settings must be a mapping, found \(node.typeDescription)")
        }
        for (key, keyLocation, value) in entries {
            switch key {
            case "feed": feed = try Self.choice(value, key)
            case "relationship": relationship = try Self.choice(value, key)
            case "buffer":
                let v = try Self.number(value, key)
                guard abs(v) <= GeotriggerSettings.bufferLimitMeters else {
                    throw value.error(
                        "buffer must be a number of metres from -\(JSONWriter.number(GeotriggerSettings.bufferLimitMeters)) to \(JSONWriter.number(GeotriggerSettings.bufferLimitMeters)) (1000 km)"
                    )
                }
                bufferMeters = v
            case "notify": notify = try Self.choice(value, key)
            case "initialTrigger": initialTrigger = try Self.choice(value, key)
            case "gapPolicy": gapPolicy = try Self.choice(value, key)
            case "level": level = try Self.choice(value, key)
            case "maxGap":
                let v = try Self.number(value, key)
                guard v > 0, v <= GeotriggerSettings.maxGapLimitSeconds else {
                    throw value.error("maxGap must be a positive number of seconds, at most 100000000 (about three years)")
                }
                maxGapSeconds = v
            case "dwell":
                if value.isNull {
                    dwellSeconds = .some(nil)
                } else {
                    let v = try Self.number(value, key)
                    guard v >= 0 else { throw value.error("dwell must be a number of seconds, 0 or more") }
                    dwellSeconds = .some(v)
                }
            case "filter":
                guard let text = value.string else {
                    throw value.error("filter must be a string expression, found \(value.typeDescription)")
                }
                do {
                    filter = try FilterExpression(text)
                } catch {
                    throw FencesimError(.badData, "filter: \(error.message)", at: value.location(ofTextColumn: error.column))
                }
            case "where":
                guard selectsFences else {
                    throw FencesimError(
                        .badData,
                        "where selects the fences a geotrigger watches: it belongs under the scenario's geotrigger, not a zone's or a fence's",
                        at: keyLocation)
                }
                guard let text = value.string else {
                    throw value.error("where must be a string expression over fence properties, found \(value.typeDescription)")
                }
                do {
                    fencesWhere = try FilterExpression(text, over: .fences)
                } catch {
                    throw FencesimError(.badData, "where: \(error.message)", at: value.location(ofTextColumn: error.column))
                }
            case "message":
                guard let text = value.string else {
                    throw value.error("message must be a string template, found \(value.typeDescription)")
                }
                do {
                    message = try MessageTemplate(text)
                } catch {
                    throw FencesimError(.badData, "message: \(error.message)", at: value.location(ofTextColumn: error.column))
                }
            case "debounce":
                guard let inner = value.entries else {
                    throw value.error("debounce must be a mapping {enterAfter: ..., exitAfter: ...}, found \(value.typeDescription)")
                }
                for (k, kl, v) in inner {
                    switch k {
                    case "enterAfter": enterAfter = try Self.threshold(v, k)
                    case "exitAfter": exitAfter = try Self.threshold(v, k)
                    default: throw FencesimError(.badData, "unknown debounce key \"\(k)\" (expected enterAfter, exitAfter)", at: kl)
                    }
                }
            default:
                throw FencesimError(
                    .badData, "unknown geotrigger setting \"\(key)\" (expected one of \(Self.keys.joined(separator: ", ")))",
                    at: keyLocation)
            }
        }
    }

    static func number(_ node: ConfigNode, _ key: String) throws(FencesimError) -> Double {
        guard let v = try node.finiteNumber(key) else {
            throw node.error("\(key) must be a number, found \(node.typeDescription)")
        }
        return v
    }

    package static func choice<T: RawRepresentable & CaseIterable>(_ node: ConfigNode, _ key: String) throws(FencesimError) -> T
    where T.RawValue == String {
        let options = T.allCases.map(\.rawValue)
        guard let text = node.string, let v = T(rawValue: text) else {
            let found = node.string.map { "\"\($0)\"" } ?? node.typeDescription
            throw node.error("\(key) must be one of \(options.joined(separator: ", ")), found \(found)")
        }
        return v
    }

    /// A debounce threshold: a number of seconds, or `"N fixes"` (also `"N s"`).
    public static func threshold(_ node: ConfigNode, _ key: String) throws(FencesimError) -> GeotriggerSettings.Threshold {
        if let v = try node.finiteNumber(key) {
            guard v >= 0 else { throw node.error("\(key) must be 0 or more seconds") }
            return .seconds(v)
        }
        guard let text = node.string else {
            throw node.error("\(key) must be seconds (a number) or \"N fixes\", found \(node.typeDescription)")
        }
        guard let threshold = parseThreshold(text) else {
            throw node.error("\(key) must be seconds (a number, or \"N s\") or \"N fixes\", found \"\(text)\"")
        }
        return threshold
    }

    /// Reads `"3 fixes"`, `"1 fix"`, `"10 s"`, `"10 seconds"`, `"10"`; `nil` when it is none of these.
    public static func parseThreshold(_ text: String) -> GeotriggerSettings.Threshold? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = parts.first, let value = Double(first), value >= 0, value.isFinite else { return nil }
        switch parts.count == 2 ? String(parts[1]).lowercased() : (parts.count == 1 ? "s" : "?") {
        case "fix", "fixes":
            guard value == value.rounded(), value >= 1 else { return nil }
            return .fixes(Int(value))
        case "s", "sec", "secs", "second", "seconds":
            return .seconds(value)
        default:
            return nil
        }
    }
}
