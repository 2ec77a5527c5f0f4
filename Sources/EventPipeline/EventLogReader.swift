import Files
import Support

/// Reads JSON Lines event logs (SPEC §6.6) back into events: golden logs for `fencesim check`
/// (§6.5) and the event lines of shards' partial logs (§6.7).
///
/// A line is an event when it is a JSON object with `time` (an ISO-8601 string), `seq` (a whole
/// number, 0 or more), `trace` (a string) and `type` (one of ``LogEvent/EventType``); its other
/// members are the event's fields, in the order written. Blank lines are skipped. Anything else
/// is a located error, so that a file that is not an event log (a GeoJSON file, a CSV log, a
/// truncated line) is refused at its first bad line rather than compared.
public enum EventLogReader {
    /// The key under which a partial log carries an event's place (longitude, latitude), which
    /// the JSON Lines format does not write but CSV and GeoJSON do.
    public static let positionKey = "position"

    /// Reads the event log at `path`.
    ///
    /// - Throws: ``Support/FencesimError``: `.missingInput` when the file does not exist,
    ///   `.badData` located at the first line that is not an event.
    /// - Complexity: O(n) in the size of the file.
    public static func read(path: String) throws(FencesimError) -> [RecordedEvent] {
        try parse(SourceText(file: path, bytes: try FileIO.readAll(path)))
    }

    /// Reads an event log held in memory.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` located at the first line that is not an
    ///   event.
    public static func parse(_ source: SourceText) throws(FencesimError) -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        for (line, bytes) in lines(of: source.bytes) {
            guard let node = try parseLine(bytes, line: line, file: source.file) else { continue }
            events.append(RecordedEvent(event: try event(node, line: line, file: source.file, positions: false), line: line))
        }
        return events
    }

    /// Splits `bytes` into 1-based numbered lines without their line ends (`\n` or `\r\n`).
    package static func lines(of bytes: [UInt8]) -> [(Int, ArraySlice<UInt8>)] {
        var out: [(Int, ArraySlice<UInt8>)] = []
        var start = 0
        var number = 1
        for (k, b) in bytes.enumerated() where b == 0x0A {
            var end = k
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            out.append((number, bytes[start..<end]))
            start = k + 1
            number += 1
        }
        if start < bytes.count {
            var end = bytes.count
            if bytes[end - 1] == 0x0D { end -= 1 }
            out.append((number, bytes[start..<end]))
        }
        return out
    }

    /// Parses one line as JSON; `nil` for a blank line.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` at the line and column of the problem.
    package static func parseLine(_ bytes: ArraySlice<UInt8>, line: Int, file: String) throws(FencesimError) -> JSONNode? {
        guard bytes.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) }) else { return nil }
        do {
            return try JSONParser.parse(SourceText(file: file, bytes: Array(bytes)))
        } catch {
            var located = error
            located.location?.line = line
            located.message = "line \(line) is not an event of a JSON Lines event log: \(error.message)"
            throw located
        }
    }

    /// The event of one parsed line.
    ///
    /// - Parameter positions: whether a `position` member ([longitude, latitude] or null) is
    ///   the event's place (partial logs) rather than a field.
    /// - Throws: ``Support/FencesimError`` `.badData` at the member that is missing or wrong.
    package static func event(_ node: JSONNode, line: Int, file: String, positions: Bool) throws(FencesimError) -> LogEvent {
        func at(_ node: JSONNode) -> SourceLocation { SourceLocation(file: file, line: line, column: node.offset + 1) }
        func fail(_ message: String, _ node: JSONNode) -> FencesimError {
            FencesimError(.badData, "line \(line) is not an event of a JSON Lines event log: \(message)", at: at(node))
        }
        guard let members = node.members else {
            throw fail("expected an object with time, seq, trace and type, found \(node.value.typeDescription)", node)
        }
        func required(_ key: String) throws(FencesimError) -> JSONNode {
            guard let value = node.member(key) else { throw fail("it has no \"\(key)\" (an event has time, seq, trace and type)", node) }
            return value
        }
        let timeNode = try required("time")
        guard let timeText = timeNode.string, case .success(let time) = Timestamp.parseISO8601(timeText, assumeUTC: false) else {
            throw fail(
                "\"time\" must be an ISO-8601 time such as \"2026-01-01T09:00:00.000Z\", found \(JSONWriter.string(timeNode.value))",
                timeNode)
        }
        let seqNode = try required("seq")
        guard case .int(let seq) = seqNode.value, seq >= 0, seq <= Int64(Int.max) else {
            throw fail("\"seq\" must be a whole number, 0 or more, found \(JSONWriter.string(seqNode.value))", seqNode)
        }
        let traceNode = try required("trace")
        guard let trace = traceNode.string else {
            throw fail("\"trace\" must be a string, found \(traceNode.value.typeDescription)", traceNode)
        }
        let typeNode = try required("type")
        guard let typeText = typeNode.string, let type = LogEvent.EventType(rawValue: typeText) else {
            let known = LogEvent.EventType.allCases.map(\.rawValue).joined(separator: " ")
            throw fail("\"type\" must be an event type (\(known)), found \(JSONWriter.string(typeNode.value))", typeNode)
        }
        var fields: [(String, JSONValue)] = []
        var longitude: Double?
        var latitude: Double?
        var seen: Set<String> = []
        for member in members {
            guard seen.insert(member.key).inserted else {
                throw fail("\"\(member.key)\" appears twice", member.node)
            }
            switch member.key {
            case "time", "seq", "trace", "type":
                continue
            case positionKey where positions:
                if member.node.isNull { continue }
                guard let pair = member.node.elements, pair.count == 2, let lon = pair[0].number, let lat = pair[1].number else {
                    throw fail("\"\(positionKey)\" must be [longitude, latitude] or null", member.node)
                }
                longitude = lon
                latitude = lat
            default:
                fields.append((member.key, member.node.value))
            }
        }
        return LogEvent(time: time, seq: Int(seq), trace: trace, type: type, fields: fields, longitude: longitude, latitude: latitude)
    }
}
