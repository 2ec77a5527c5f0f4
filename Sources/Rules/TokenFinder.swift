import Support

/// Resolves rule keys for one triggering event (research §2.2; `TokenFinder.swift`,
/// `LaunchTokenFinder.kt`).
///
/// Special keys start with `~`; any other key is looked up in the flattened event data. Time
/// keys read the event's simulated time, `~cachebust` draws from the seeded generator, and
/// `~state.<extension>/<key>` reads the shared states of the ``RulesContext``. Flattened data is
/// built once per event and per extension.
struct TokenFinder {
    let event: RuleEvent
    let context: RulesContext
    let platform: RulesPlatform
    private var flatEvent: FlatData?
    private var flatStates: [String: FlatData] = [:]

    init(event: RuleEvent, context: RulesContext, platform: RulesPlatform) {
        self.event = event
        self.context = context
        self.platform = platform
    }

    /// The value of `key`.
    mutating func resolve(_ key: String, rng: inout SplitMix64) -> TokenValue {
        // Android trims the key before matching special keys and reads a blank key as null
        // (`LaunchTokenFinder.get`, code reading).
        let special = platform == .android ? key.trimmingASCIIWhitespace : key
        if platform == .android && special.isEmpty { return .missing }
        switch special {
        case "~type": return .string(event.type)
        case "~source": return .string(event.source)
        case "~timestampu":
            // Epoch seconds: an Int on iOS, a String on Android (research §2.2 table), which is
            // why `int(~timestampu)` stops parsing on Android after 2038 (research §4 item 7).
            let seconds = event.time.seconds
            return platform == .android ? .string(String(seconds)) : .int(seconds)
        case "~timestampz": return .string(Self.timestampZ(event.time, utcOffsetSeconds: context.utcOffsetSeconds))
        case "~timestampp": return .string(Self.timestampP(event.time))
        case "~sdkver": return .string(context.sdkVersion)
        case "~cachebust":
            // A random integer below 10^8 (research §2.2 table): iOS draws from 1..<10^8
            // (`Int.random(in: 1 ..< RANDOM_INT_BOUNDARY)`), Android from 0..<10^8 (`nextInt`).
            let lower: UInt64 = platform == .android ? 0 : 1
            return .string(String(lower + Self.uniform(below: 100_000_000 - lower, rng: &rng)))
        case "~all_url":
            guard let data = event.data else { return .string("") }
            return .string(URLEncoding.queryString(FlatData.queryPairs(data, platform: platform)))
        case "~all_json":
            guard let data = event.data else { return .string("") }
            return .string(JSONWriter.string(data))
        default:
            break
        }
        if let stateKey = parseSharedStateKey(key) {
            return sharedStateValue(extension: stateKey.extension, key: stateKey.key)
        }
        if key.hasPrefix("~state") && platform != .android {
            // iOS treats any key starting with "~state" as a shared-state key; without "/" it is nil.
            return .missing
        }
        guard let data = event.data else {
            // An event without data reads every plain key as "" on both SDKs (research §2.2).
            return .string("")
        }
        if flatEvent == nil { flatEvent = FlatData(data) }
        return flatEvent?[key] ?? .missing
    }

    /// Splits `~state.<extension>/<key>`. iOS takes everything after the first `/` as the key;
    /// Android splits on `/` and keeps the first two parts, so `a/b/c` reads key `b` (code
    /// reading of `LaunchTokenFinder.getValueFromSharedState`; research §2.2 names the key form).
    private func parseSharedStateKey(_ key: String) -> (extension: String, key: String)? {
        let prefix = platform == .android ? "~state." : "~state"
        guard key.hasPrefix(prefix) else { return nil }
        var rest = key.dropFirst(prefix.count)
        if platform != .android {
            // iOS skips the one character after "~state" (the dot) whatever it is.
            guard !rest.isEmpty else { return nil }
            rest = rest.dropFirst()
        }
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let name = String(rest[..<slash])
        var dataKey = String(rest[rest.index(after: slash)...])
        if platform == .android {
            dataKey = String(dataKey.split(separator: "/", omittingEmptySubsequences: false).first ?? "")
            if name.allSatisfy(\.isWhitespace) || dataKey.allSatisfy(\.isWhitespace) { return nil }
        }
        return (name, dataKey)
    }

    private mutating func sharedStateValue(extension name: String, key: String) -> TokenValue {
        guard let state = context.sharedStates[name] else { return .missing }
        if flatStates[name] == nil { flatStates[name] = FlatData(state) }
        return flatStates[name]?[key] ?? .missing
    }

    /// `yyyy-MM-dd'T'HH:mm:ssXX` at the device's UTC offset (`Z` at UTC, else `±hhmm`), as
    /// `getISO8601DateNoColon` formats it.
    static func timestampZ(_ time: Timestamp, utcOffsetSeconds: Int) -> String {
        let local = Timestamp(seconds: time.seconds + Int64(utcOffsetSeconds))
        let c = local.civil
        var text = pad(c.year, 4) + "-" + pad(c.month, 2) + "-" + pad(c.day, 2)
        text += "T" + pad(c.hour, 2) + ":" + pad(c.minute, 2) + ":" + pad(c.second, 2)
        if utcOffsetSeconds == 0 { return text + "Z" }
        let minutes = abs(utcOffsetSeconds) / 60
        return text + (utcOffsetSeconds < 0 ? "-" : "+") + pad(minutes / 60, 2) + pad(minutes % 60, 2)
    }

    /// `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC, milliseconds truncated as date formatters do.
    static func timestampP(_ time: Timestamp) -> String {
        let millis = Int64(time.nanoseconds) / 1_000_000
        return Timestamp(seconds: time.seconds, nanoseconds: millis * 1_000_000).iso8601(fractionDigits: 3)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// A uniform integer in `0..<bound` from the generator, by rejection sampling, so that the
    /// sequence depends on the seed only (not on the standard library's algorithm).
    static func uniform(below bound: UInt64, rng: inout SplitMix64) -> UInt64 {
        precondition(bound > 0)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let draw = rng.next()
            if draw < limit { return draw % bound }
        }
    }
}
