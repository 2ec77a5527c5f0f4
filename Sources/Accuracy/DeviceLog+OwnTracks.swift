import EventPipeline
import Fences
import Support
import Traces

extension DeviceLog {
    /// Reads an OwnTracks recorder file (`.rec`): one record a line, `TIME<TAB>TOPIC<TAB>JSON`
    /// (the JSON payload of the OwnTracks protocol, https://owntracks.org/booklet/tech/json/).
    ///
    /// `_type: location` records are the device's fixes (`tst`, `lat`, `lon`, `acc`);
    /// `_type: transition` records are its geofence events: `event` `enter` or `leave` (an
    /// exit), the region in `desc` (matched to a fence id, else a fence name) or `rid`, at `tst`,
    /// decided at the fix `lat`/`lon`/`acc`. The recorder's own time (the first column) is when
    /// the record reached it, not when the device saw the event, so it is not read. Other record
    /// types (`waypoint`, `lwt`, `card`, ...) are skipped.
    static func parseOwnTracks(_ source: SourceText, trace: String, fences: FenceSet) throws(FencesimError) -> (
        events: [LogEvent], fixes: [Fix]
    ) {
        var byID: [String: String] = [:]
        var byName: [String: String] = [:]
        for f in fences.fences {
            if byID[f.id] == nil { byID[f.id] = f.id }
            if let n = f.name, byName[n] == nil { byName[n] = f.id }
        }
        var events: [LogEvent] = []
        var fixes: [Fix] = []
        for (line, bytes) in EventLogReader.lines(of: source.bytes) {
            guard bytes.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) }) else { continue }
            // The payload starts at the first `{`; the columns before it are the recorder's.
            guard let brace = bytes.firstIndex(of: 0x7B) else {
                throw FencesimError(
                    .badData, "line \(line) is not an OwnTracks record (TIME, TOPIC, then a JSON object)",
                    at: SourceLocation(file: source.file, line: line, column: 1))
            }
            let column = brace - bytes.startIndex + 1
            let node: JSONNode
            do {
                node = try JSONParser.parse(SourceText(file: source.file, bytes: Array(bytes[brace...])))
            } catch {
                var located = error
                located.location = SourceLocation(file: source.file, line: line, column: column + (error.location?.column ?? 1) - 1)
                located.message = "line \(line) is not an OwnTracks record: \(error.message)"
                throw located
            }
            func at(_ n: JSONNode) -> SourceLocation { SourceLocation(file: source.file, line: line, column: column + n.offset) }
            func fail(_ message: String, _ n: JSONNode) -> FencesimError { FencesimError(.badData, "line \(line): \(message)", at: at(n)) }
            guard node.members != nil else { throw fail("an OwnTracks record is a JSON object", node) }
            guard let type = node.member("_type")?.string else { throw fail("the record has no \"_type\"", node) }
            guard type == "location" || type == "transition" else { continue }
            func number(_ key: String, _ range: ClosedRange<Double>, required: Bool) throws(FencesimError) -> Double? {
                guard let n = node.member(key) else {
                    if required { throw fail("a \(type) record needs \"\(key)\"", node) }
                    return nil
                }
                let v: Double
                switch n.value {
                case .int(let i): v = Double(i)
                case .double(let d): v = d
                default: throw fail("\"\(key)\" must be a number, found \(n.value.typeDescription)", n)
                }
                guard v.isFinite, range.contains(v) else {
                    throw fail(
                        "\"\(key)\" must be from \(JSONWriter.number(range.lowerBound)) to \(JSONWriter.number(range.upperBound))", n)
                }
                return v
            }
            let epoch = try number("tst", -62_135_596_800...253_402_300_799, required: true) ?? 0
            guard let time = Timestamp(epochSeconds: epoch) else { throw fail("\"tst\" is out of range", node.member("tst") ?? node) }
            let latitude = try number("lat", -90...90, required: type == "location")
            let longitude = try number("lon", -180...180, required: type == "location")
            let accuracy = try number("acc", 0...1e7, required: false)
            if type == "location" {
                fixes.append(
                    Fix(time: time, latitude: latitude ?? 0, longitude: longitude ?? 0, accuracyMeters: accuracy ?? 10, line: line))
                continue
            }
            guard let eventNode = node.member("event") else { throw fail("a transition record needs \"event\" (enter or leave)", node) }
            let kind: LogEvent.EventType
            switch eventNode.string {
            case "enter"?: kind = .enter
            case "leave"?: kind = .exit
            default: throw fail("\"event\" must be enter or leave", eventNode)
            }
            let regionNode = node.member("desc") ?? node.member("rid")
            guard let regionNode, let region = regionNode.string else {
                throw fail("a transition record needs \"desc\" (the region) or \"rid\"", node)
            }
            guard let fence = byID[region] ?? byName[region] else {
                throw fail("region \"\(region)\" is not a fence id or name in \(fences.file)", regionNode)
            }
            var fields: [(String, JSONValue)] = [("fence", .string(fence))]
            if let accuracy { fields.append(("accuracy", .meters(accuracy))) }
            events.append(LogEvent(time: time, trace: trace, type: kind, fields: fields, longitude: longitude, latitude: latitude))
        }
        fixes.sort { ($0.time ?? Timestamp.earliest) < ($1.time ?? Timestamp.earliest) }
        return (events, fixes)
    }
}
