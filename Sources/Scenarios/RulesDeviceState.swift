import Rules
import Support

/// What the rules engine keeps on a device across app launches, and across runs with
/// `--state`: the client-side profile that `csp` consequences write (SPEC §5) and the event
/// history that `historical` conditions search (the SDK keeps both in persistent storage: the
/// profile's data store and the event-history database).
public struct RulesDeviceState: Sendable {
    /// The `format` member of a persisted state.
    public static let persistenceFormat = "fencesim-rules-state"
    /// The current persistence version; ``decode(_:)`` refuses any other.
    public static let persistenceVersion: Int64 = 1

    /// The client-side profile (`com.adobe.module.userProfile`).
    public var profile: ClientSideProfile
    /// The recorded events in the order they were recorded (a second run of a trace with
    /// `--state` appends events at the times of its trace, which may be earlier).
    public var history: [RuleHistoryEvent]

    public init(profile: ClientSideProfile = ClientSideProfile(), history: [RuleHistoryEvent] = []) {
        self.profile = profile
        self.history = history
    }

    /// The state as JSON, keys in a fixed order (profile attributes sorted), times as ISO-8601
    /// UTC with nanoseconds, so that decoding and re-encoding gives the same bytes:
    /// `{"format", "version", "userProfile": {"userprofiledata": {…}}, "history": [{"time",
    /// "data", "mask"}]}` (`mask` is `null` for an event hashed on all its keys).
    public var persistedJSON: JSONValue {
        .orderedObject([
            ("format", .string(Self.persistenceFormat)),
            ("version", .int(Self.persistenceVersion)),
            ("userProfile", profile.sharedState),
            (
                "history",
                .list(
                    history.map { event in
                        .orderedObject([
                            ("time", .string(event.time.iso8601(fractionDigits: 9))),
                            ("data", event.data),
                            ("mask", event.mask.map { .list($0.map { .string($0) }) } ?? .null),
                        ])
                    })
            ),
        ])
    }

    /// The persisted text: one JSON line with a final newline.
    public func encoded() -> String {
        JSONWriter.string(persistedJSON) + "\n"
    }

    /// Reads a state written by ``encoded()``.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` located at `file:line:col` for text that is
    ///   not JSON, another format or version, or a missing, unknown, duplicate or mistyped key. A
    ///   corrupt state is never replaced silently.
    public static func decode(_ source: SourceText) throws(FencesimError) -> RulesDeviceState {
        let root = try JSONParser.parse(source)
        func error(_ message: String, _ offset: Int) -> FencesimError {
            FencesimError(.badData, "rules state: \(message)", at: source.location(ofOffset: offset))
        }
        func members(_ node: JSONNode, _ what: String, keys: [String], required: [String]) throws(FencesimError) -> [String: JSONNode] {
            guard let list = node.members else {
                throw error("\(what) must be an object, found \(node.value.typeDescription)", node.offset)
            }
            var out: [String: JSONNode] = [:]
            for member in list {
                guard keys.contains(member.key) else {
                    throw error("unknown key \"\(member.key)\" in \(what) (expected \(keys.joined(separator: ", ")))", member.keyOffset)
                }
                guard out[member.key] == nil else { throw error("duplicate key \"\(member.key)\" in \(what)", member.keyOffset) }
                out[member.key] = member.node
            }
            for key in required where out[key] == nil {
                throw error("missing key \"\(key)\" in \(what)", node.offset)
            }
            return out
        }
        let top = try members(root, "the rules state", keys: ["format", "version", "userProfile", "history"], required: [])
        guard let format = top["format"], format.string == persistenceFormat else {
            throw error("not a fencesim rules state (\"format\" must be \"\(persistenceFormat)\")", top["format"]?.offset ?? root.offset)
        }
        guard let version = top["version"], case .int(let v) = version.value, v == persistenceVersion else {
            throw error("unsupported version (this fencesim reads version \(persistenceVersion))", top["version"]?.offset ?? root.offset)
        }
        // Checked after the format and version, so that a file of another kind is named as such.
        guard let profileNode = top["userProfile"] else { throw error("missing key \"userProfile\" in the rules state", root.offset) }
        guard let historyNode = top["history"] else { throw error("missing key \"history\" in the rules state", root.offset) }
        let profileMembers = try members(profileNode, "userProfile", keys: ["userprofiledata"], required: ["userprofiledata"])
        guard let data = profileMembers["userprofiledata"], let attributes = data.members else {
            throw error("userprofiledata must be an object", profileMembers["userprofiledata"]?.offset ?? profileNode.offset)
        }
        var seen: Set<String> = []
        for attribute in attributes where !seen.insert(attribute.key).inserted {
            throw error("duplicate key \"\(attribute.key)\" in userprofiledata", attribute.keyOffset)
        }
        let profile = ClientSideProfile(sharedState: profileNode.value)
        guard let elements = historyNode.elements else {
            throw error("history must be an array, found \(historyNode.value.typeDescription)", historyNode.offset)
        }
        var history: [RuleHistoryEvent] = []
        history.reserveCapacity(elements.count)
        for element in elements {
            let event = try members(element, "a history event", keys: ["time", "data", "mask"], required: ["time", "data", "mask"])
            guard let timeNode = event["time"], let text = timeNode.string else {
                throw error("a history event's time must be an ISO-8601 string", event["time"]?.offset ?? element.offset)
            }
            let time: Timestamp
            switch Timestamp.parseISO8601(text) {
            case .success(let t): time = t
            case .failure(let failure): throw error("bad time \"\(text)\": \(failure.message)", timeNode.offset + 1 + failure.offset)
            }
            guard let dataNode = event["data"], dataNode.members != nil else {
                throw error("a history event's data must be an object", event["data"]?.offset ?? element.offset)
            }
            var mask: [String]?
            if let maskNode = event["mask"], !maskNode.isNull {
                guard let keys = maskNode.elements?.compactMap(\.string), keys.count == maskNode.elements?.count else {
                    throw error("a history event's mask must be null or an array of key strings", maskNode.offset)
                }
                mask = keys
            }
            history.append(RuleHistoryEvent(time: time, data: dataNode.value, mask: mask))
        }
        return RulesDeviceState(profile: profile, history: history)
    }
}
