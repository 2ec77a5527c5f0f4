import Places
import Support

extension ScenarioReader {
    static let sessionKeys = ["launch", "terminate", "nearbyLookup"]

    /// `places:` (SPEC §1.3, §4), typed and checked.
    static func readPlaces(_ node: ConfigNode) throws(FencesimError) -> PlacesSettings {
        if node.isNull { return PlacesSettings(location: node.location) }
        try checkKeys(node, placesKeys, "places")
        var settings = PlacesSettings(location: node.location)
        if let s = node["signals"] {
            settings.signals = try choice(s, "signals")
        }
        if let t = node["membershipTTL"] {
            guard let v = try t.finiteNumber("membershipTTL") else {
                throw t.error("membershipTTL must be a number of seconds, found \(t.string.map { "\"\($0)\"" } ?? t.typeDescription)")
            }
            guard v >= 0 else { throw t.error("membershipTTL must not be negative (found \(JSONWriter.number(v)))") }
            guard v <= Timestamp.spanSeconds else { throw t.error(ScenarioReader.longerThanTime("membershipTTL", v)) }
            settings.configuration.membershipTTL = v
        }
        if let e = node["expiry"] {
            settings.configuration.expiry = try choice(e, "expiry")
        }
        if let e = node["lastPOIExpiry"] {
            settings.configuration.lastPOIExpiry = try choice(e, "lastPOIExpiry")
        }
        if let p = node["platform"] {
            settings.configuration.platform = try choice(p, "platform")
        }
        if let b = node["regionBudget"] {
            guard let v = b.number, v == v.rounded(), v >= 1, v <= 1_000_000 else {
                throw b.error(
                    "regionBudget must be a whole number of POIs, 1 or more, found \(b.number.map(JSONWriter.number) ?? b.typeDescription)")
            }
            settings.configuration.regionBudget = Int(v)
        }
        return settings
    }

    /// `sessions:` (SPEC §1.3): launches in time order, each terminated after it launched and
    /// before the next launch.
    static func readSessions(_ node: ConfigNode) throws(FencesimError) -> [AppSession] {
        guard let items = node.items else {
            throw node.error("sessions must be a list of {launch, terminate, nearbyLookup}, found \(node.typeDescription)")
        }
        var sessions: [AppSession] = []
        for item in items {
            try checkKeys(item, sessionKeys, "session")
            guard let launchNode = item["launch"] else { throw item.error("a session needs \"launch\" (an ISO-8601 time)") }
            let launch = try time(launchNode, "launch")
            var session = AppSession(launch: launch, location: item.location)
            if let t = item["terminate"], !t.isNull {
                let terminate = try time(t, "terminate")
                guard terminate > launch else {
                    throw t.error("terminate \(terminate) is not after the session's launch \(launch)")
                }
                session.terminate = terminate
            }
            if let n = item["nearbyLookup"] {
                guard let b = n.bool else { throw n.error("nearbyLookup must be true or false, found \(n.typeDescription)") }
                session.nearbyLookup = b
            }
            if let previous = sessions.last {
                guard launch > previous.launch else {
                    throw launchNode.error(
                        "sessions must be in time order: launch \(launch) is not after the previous launch \(previous.launch)")
                }
                if let end = previous.terminate, launch < end {
                    throw launchNode.error("launch \(launch) is before the previous session's terminate \(end); sessions must not overlap")
                }
            }
            sessions.append(session)
        }
        return sessions
    }

    /// An ISO-8601 time.
    static func time(_ node: ConfigNode, _ key: String) throws(FencesimError) -> Timestamp {
        guard let text = node.string else {
            throw node.error("\(key) must be an ISO-8601 time such as \"2026-01-01T09:00:00Z\", found \(node.typeDescription)")
        }
        switch Timestamp.parseISO8601(text) {
        case .success(let t): return t
        case .failure(let f): throw node.error("\(key): \"\(text)\" is not an ISO-8601 time (\(f.message))")
        }
    }

    /// One of an enumeration's raw values.
    static func choice<T: RawRepresentable & CaseIterable>(_ node: ConfigNode, _ key: String) throws(FencesimError) -> T
    where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        guard let text = node.string else {
            throw node.error("\(key) must be one of \(names.joined(separator: ", ")), found \(node.typeDescription)")
        }
        guard let value = T(rawValue: text) else {
            throw node.error("\(key) must be one of \(names.joined(separator: ", ")), found \"\(text)\"")
        }
        return value
    }
}
