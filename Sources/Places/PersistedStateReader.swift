import Support

/// Reads the members of a persisted ``PlacesState`` with located errors.
struct PersistedStateReader {
    let source: SourceText

    func error(_ message: String, at node: JSONNode?) -> FencesimError {
        FencesimError(.badData, "Places state: \(message)", at: source.location(ofOffset: node?.offset ?? 0))
    }

    /// The members of an object by key, refusing other types and unknown or duplicate keys;
    /// with `allRequired`, every key in `keys` must be present.
    func object(_ node: JSONNode?, _ what: String, keys: [String], allRequired: Bool = true) throws(FencesimError) -> [String: JSONNode] {
        guard let node, let members = node.members else {
            throw error("\(what) must be an object, found \(node?.value.typeDescription ?? "nothing")", at: node)
        }
        var out: [String: JSONNode] = [:]
        for member in members {
            guard keys.contains(member.key) else {
                throw FencesimError(
                    .badData, "Places state: unknown key \"\(member.key)\" in \(what)", at: source.location(ofOffset: member.keyOffset))
            }
            guard out[member.key] == nil else {
                throw FencesimError(
                    .badData, "Places state: duplicate key \"\(member.key)\" in \(what)", at: source.location(ofOffset: member.keyOffset))
            }
            out[member.key] = member.node
        }
        if allRequired {
            for key in keys where out[key] == nil {
                throw error("missing key \"\(key)\" in \(what)", at: node)
            }
        }
        return out
    }

    func require(_ members: [String: JSONNode], _ key: String, in node: JSONNode) throws(FencesimError) -> JSONNode {
        guard let value = members[key] else { throw error("missing key \"\(key)\"", at: node) }
        return value
    }

    /// Every top-level key must be present (checked after the format and version, so that a
    /// file of another kind is named as such first).
    func requireAll(_ members: [String: JSONNode], in node: JSONNode) throws(FencesimError) {
        for key in [
            "nearby", "entered", "current", "lastEntered", "lastExited", "validUntil", "lastKnownLocation", "lastLookup", "nextSequence",
        ] {
            _ = try require(members, key, in: node)
        }
    }

    func array(_ node: JSONNode?, _ what: String) throws(FencesimError) -> [JSONNode] {
        guard let node, let elements = node.elements else {
            throw error("\"\(what)\" must be an array, found \(node?.value.typeDescription ?? "nothing")", at: node)
        }
        return elements
    }

    func optional<T>(_ node: JSONNode?, _ read: (JSONNode) throws(FencesimError) -> T) throws(FencesimError) -> T? {
        guard let node, !node.isNull else { return nil }
        return try read(node)
    }

    func string(_ node: JSONNode?, _ what: String) throws(FencesimError) -> String {
        guard let s = node?.string else {
            throw error("\"\(what)\" must be a string, found \(node?.value.typeDescription ?? "nothing")", at: node)
        }
        return s
    }

    func double(_ node: JSONNode?, _ what: String) throws(FencesimError) -> Double {
        guard let d = node?.number, d.isFinite else {
            throw error("\"\(what)\" must be a number, found \(node?.value.typeDescription ?? "nothing")", at: node)
        }
        return d
    }

    func bool(_ node: JSONNode?, _ what: String) throws(FencesimError) -> Bool {
        guard let b = node?.bool else {
            throw error("\"\(what)\" must be true or false, found \(node?.value.typeDescription ?? "nothing")", at: node)
        }
        return b
    }

    func int(_ node: JSONNode?, _ what: String) throws(FencesimError) -> Int {
        guard case .int(let i)? = node?.value, let value = Int(exactly: i) else {
            throw error("\"\(what)\" must be an integer, found \(node?.value.typeDescription ?? "nothing")", at: node)
        }
        return value
    }

    func sequence(_ node: JSONNode?, _ what: String) throws(FencesimError) -> UInt64 {
        guard case .int(let i)? = node?.value, i >= 0 else {
            throw error("\"\(what)\" must be a non-negative integer", at: node)
        }
        return UInt64(i)
    }

    func timestamp(_ node: JSONNode?, _ what: String) throws(FencesimError) -> Timestamp {
        let text = try string(node, what)
        switch Timestamp.parseISO8601(text) {
        case .success(let t): return t
        case .failure(let failure):
            throw error("\"\(what)\" is not an ISO-8601 time: \(failure.message)", at: node)
        }
    }

    func poi(_ node: JSONNode?) throws(FencesimError) -> POI {
        let m = try object(
            node, "a POI", keys: ["id", "name", "latitude", "longitude", "radiusMeters", "library", "rank", "metadata", "userIsWithin"])
        // Source order, so that the first bad value is the one reported.
        _ = try object(m["metadata"], "POI metadata", keys: (m["metadata"]?.members ?? []).map(\.key))
        var metadata: [String: String] = [:]
        for member in m["metadata"]?.members ?? [] { metadata[member.key] = try string(member.node, "metadata \(member.key)") }
        return POI(
            id: try string(m["id"], "id"), name: try string(m["name"], "name"),
            latitude: try double(m["latitude"], "latitude"), longitude: try double(m["longitude"], "longitude"),
            radiusMeters: try double(m["radiusMeters"], "radiusMeters"), library: try string(m["library"], "library"),
            rank: try int(m["rank"], "rank"), metadata: metadata, userIsWithin: try bool(m["userIsWithin"], "userIsWithin"))
    }
}
