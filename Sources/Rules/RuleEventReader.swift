import Support

/// Reads the JSON inputs of `fencesim rules eval`: the triggering event, shared states and
/// event history, with every problem located.
///
/// **Event** (`--event EVENT.json`), a JSON object:
/// ```json
/// {"name": "Places Region Event", "type": "com.adobe.eventType.places",
///  "source": "com.adobe.eventSource.responseContent",
///  "data": {"regioneventtype": "entry", "triggeringregion": {"regionid": "p1"}},
///  "time": "2026-01-01T09:00:00Z"}
/// ```
/// `type` and `source` are required; `name` is optional; `data` (also accepted as `eventdata`,
/// the key the SDKs use in consequence details) must be an object, and an event without it has
/// no data (every plain key then reads as `""`, research §2.2); `time` is optional ISO-8601 UTC.
///
/// **Shared state** (`--shared-state NAME=FILE`): a JSON object, the extension's state.
///
/// **History** (`--history FILE`): a JSON array of `{"time": ISO-8601, "data": {…}, "mask":
/// ["key", …]}` (mask optional).
public enum RuleEventReader {
    /// Reads an event; `defaultTime` is used when the file has no `time`.
    public static func event(_ source: SourceText, defaultTime: Timestamp) throws(FencesimError) -> RuleEvent {
        let root = try JSONParser.parse(source)
        var problems = Problems(source: source)
        guard root.members != nil else {
            throw FencesimError(
                .badData, "an event must be a JSON object with type, source and data, found \(root.value.typeDescription)",
                at: source.location(ofOffset: root.offset))
        }
        for member in root.members ?? [] where !["name", "type", "source", "data", "eventdata", "time"].contains(member.key) {
            problems.add("unknown member \"\(member.key)\" in the event (expected name, type, source, data, time)", member.keyOffset)
        }
        let name = problems.string(root, "name", required: false) ?? ""
        let type = problems.string(root, "type", required: true) ?? ""
        let eventSource = problems.string(root, "source", required: true) ?? ""
        var data: JSONValue?
        if root.member("data") != nil && root.member("eventdata") != nil {
            problems.add("the event has both \"data\" and \"eventdata\"; give one", root.member("eventdata")?.offset ?? root.offset)
        }
        if let node = root.member("data") ?? root.member("eventdata") {
            if node.members != nil {
                data = node.value
            } else {
                problems.add("event data must be an object, found \(node.value.typeDescription)", node.offset)
            }
        }
        var time = defaultTime
        if let node = root.member("time") {
            if let parsed = problems.time(node) { time = parsed }
        }
        try problems.throwIfAny()
        return RuleEvent(name: name, type: type, source: eventSource, data: data, time: time)
    }

    /// Reads a shared state: a JSON object.
    public static func sharedState(_ source: SourceText) throws(FencesimError) -> JSONValue {
        let root = try JSONParser.parse(source)
        guard root.members != nil else {
            throw FencesimError(
                .badData, "a shared state must be a JSON object, found \(root.value.typeDescription)",
                at: source.location(ofOffset: root.offset))
        }
        return root.value
    }

    /// Reads an event history: a JSON array of `{time, data, mask?}`.
    public static func history(_ source: SourceText) throws(FencesimError) -> [RuleHistoryEvent] {
        let root = try JSONParser.parse(source)
        guard let elements = root.elements else {
            throw FencesimError(
                .badData, "an event history must be a JSON array of {time, data, mask}, found \(root.value.typeDescription)",
                at: source.location(ofOffset: root.offset))
        }
        var problems = Problems(source: source)
        var events: [RuleHistoryEvent] = []
        for element in elements {
            guard element.members != nil else {
                problems.add("a history event must be an object with time and data", element.offset)
                continue
            }
            for member in element.members ?? [] where !["time", "data", "mask", "type", "source", "name"].contains(member.key) {
                problems.add("unknown member \"\(member.key)\" in a history event (expected time, data, mask)", member.keyOffset)
            }
            guard let timeNode = element.member("time") else {
                problems.add("a history event needs a time", element.offset)
                continue
            }
            guard let time = problems.time(timeNode) else { continue }
            guard let dataNode = element.member("data"), dataNode.members != nil else {
                problems.add("a history event needs a data object", element.member("data")?.offset ?? element.offset)
                continue
            }
            var mask: [String]?
            if let maskNode = element.member("mask") {
                if let keys = maskNode.elements?.compactMap(\.string), keys.count == maskNode.elements?.count {
                    mask = keys
                } else {
                    problems.add("mask must be an array of key strings", maskNode.offset)
                }
            }
            events.append(RuleHistoryEvent(time: time, data: dataNode.value, mask: mask))
        }
        try problems.throwIfAny()
        return events
    }

    /// Located problems of one file, thrown together.
    private struct Problems {
        let source: SourceText
        var list: [Diagnostic] = []

        init(source: SourceText) { self.source = source }

        mutating func add(_ message: String, _ offset: Int) {
            list.append(Diagnostic(.error, message, at: source.location(ofOffset: offset)))
        }

        mutating func string(_ object: JSONNode, _ key: String, required: Bool) -> String? {
            guard let node = object.member(key) else {
                if required { add("the event has no \"\(key)\" string", object.offset) }
                return nil
            }
            guard let text = node.string else {
                add("\"\(key)\" must be a string, found \(node.value.typeDescription)", node.offset)
                return nil
            }
            return text
        }

        mutating func time(_ node: JSONNode) -> Timestamp? {
            guard let text = node.string else {
                add("time must be an ISO-8601 string, found \(node.value.typeDescription)", node.offset)
                return nil
            }
            switch Timestamp.parseISO8601(text) {
            case .success(let time): return time
            case .failure(let failure):
                add("bad time \"\(text)\": \(failure.message)", node.offset + 1 + failure.offset)
                return nil
            }
        }

        func throwIfAny() throws(FencesimError) {
            guard let first = list.first else { return }
            throw FencesimError(.badData, first.message, at: first.location, related: Array(list.dropFirst()))
        }
    }
}
