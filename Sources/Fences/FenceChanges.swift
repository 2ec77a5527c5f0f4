import Files
import Spatial
import Support

/// A fence-changes file: JSON Lines, one change a line, in time order:
/// `{"time": ISO-8601, "action": "add" | "remove" | "replace", "id": ..., "geometry": GeoJSON
/// geometry, "properties": {...}}`.
///
/// Models graphics fences added, removed or moved while an ArcGIS geotrigger monitor runs
/// (and Tile38's SET/DEL of a fence). Applied to a fence set (``FenceSet/applying(_:)``), each
/// change becomes validity: a removal ends the fence's current version, an addition or a
/// replacement is a new version of the id from that time.
public struct FenceChanges: Sendable {
    /// What a change does.
    public enum Action: String, Hashable, Sendable, CaseIterable {
        /// A new fence from `time`: its id is not in use then.
        case add
        /// The fence stops existing at `time`, as `validUntil`.
        case remove
        /// The fence takes a new geometry and properties at `time`.
        case replace
    }

    /// One line of the file.
    public struct Change: Sendable {
        public var time: Timestamp
        public var action: Action
        public var id: String
        /// The fence from `time` (add and replace), read as a fence file's feature.
        public var fence: Fence?
        /// Where the line is.
        public var location: SourceLocation
    }

    /// The file's path, and its changes in file (and time) order.
    public var file: String
    public var changes: [Change]

    /// Reads a fence-changes file.
    ///
    /// - Throws: ``Support/FencesimError`` (bad data, located) for a line that is not a change,
    ///   an unknown action, a time earlier than the line before, or a bad geometry or property.
    /// - Parameter fences: the fences the changes apply to: a replacement without properties
    ///   takes those of the version it replaces.
    public static func read(path: String, options: FenceReadOptions = FenceReadOptions(), fences: FenceSet? = nil) throws(FencesimError)
        -> FenceChanges
    {
        try parse(SourceText(file: path, bytes: try FileIO.readAll(path)), options: options, fences: fences)
    }

    /// Reads fence changes held in memory.
    public static func parse(_ source: SourceText, options: FenceReadOptions = FenceReadOptions(), fences: FenceSet? = nil)
        throws(FencesimError) -> FenceChanges
    {
        var properties: [String: [JSONMember]] = [:]
        for fence in fences?.fences ?? [] { properties[fence.id] = fence.properties }
        var readOptions = options
        // The id is the change's own.
        readOptions.idProperty = nil
        var changes: [Change] = []
        var lineStart = 0
        var lineNumber = 0
        let bytes = source.bytes
        while lineStart < bytes.count {
            lineNumber += 1
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let line = Array(bytes[lineStart..<lineEnd])
            lineStart = lineEnd + 1
            guard line.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) }) else { continue }
            let change = try parseLine(
                line, file: source.file, lineNumber: lineNumber, options: readOptions, changes: changes,
                properties: properties)
            changes.append(change)
            if let fence = change.fence { properties[fence.id] = fence.properties }
        }
        return FenceChanges(file: source.file, changes: changes)
    }

    /// One line (`changes`: those before it, for the time order; `properties`: each id's latest
    /// properties, for a replacement that gives none).
    static func parseLine(
        _ line: [UInt8], file: String, lineNumber: Int, options: FenceReadOptions,
        changes: [Change], properties: [String: [JSONMember]]
    ) throws(FencesimError) -> Change {
        /// An error of the line read alone, at its place in the file.
        func relocated(_ error: FencesimError) -> FencesimError {
            var error = error
            error.location = SourceLocation(file: file, line: lineNumber, column: error.location?.column ?? 1)
            error.related = []
            return error
        }
        let locator = SourceText(file: file, bytes: line)
        func fail(_ message: String, _ node: JSONNode) -> FencesimError {
            relocated(FencesimError(.badData, message, at: locator.location(ofOffset: node.offset)))
        }
        let node: JSONNode
        do {
            node = try JSONParser.parse(locator)
        } catch {
            throw relocated(error)
        }
        guard let members = node.members else {
            throw fail(
                "a fence change must be an object {time, action, id, geometry, properties}, found \(node.value.typeDescription)", node)
        }
        for member in members where !["time", "action", "id", "geometry", "properties"].contains(member.key) {
            throw fail("unknown key \"\(member.key)\" in a fence change (use time, action, id, geometry, properties)", member.node)
        }
        guard let timeNode = node.member("time") else { throw fail("a fence change needs a \"time\" (ISO-8601)", node) }
        guard let timeText = timeNode.string, case .success(let time) = Timestamp.parseISO8601(timeText) else {
            throw fail("\"time\" must be an ISO-8601 time such as 2026-03-01T08:00:00Z", timeNode)
        }
        if let last = changes.last, time < last.time {
            throw fail(
                "the change at \(time) is earlier than the one before it (\(last.time), line \(last.location.line ?? 0)): changes must be in time order",
                timeNode)
        }
        guard let actionNode = node.member("action") else {
            throw fail("a fence change needs an \"action\" (add, remove or replace)", node)
        }
        guard let actionText = actionNode.string, let action = Action(rawValue: actionText) else {
            throw fail("\"action\" must be add, remove or replace", actionNode)
        }
        guard let idNode = node.member("id") else { throw fail("a fence change needs the \"id\" of its fence", node) }
        guard let id = idNode.string, !id.isEmpty else {
            throw fail("\"id\" must be a non-empty string, found \(idNode.value.typeDescription)", idNode)
        }
        let location = SourceLocation(file: file, line: lineNumber, column: 1)
        guard action != .remove else {
            if let g = node.member("geometry") { throw fail("a removal takes no geometry", g) }
            return Change(time: time, action: action, id: id, fence: nil, location: location)
        }
        guard node.member("geometry") != nil else { throw fail("\(action.rawValue) needs a \"geometry\" (GeoJSON)", node) }
        if let p = node.member("properties"), let pid = p.member("id"), pid.string != id {
            throw fail("properties.id must be the change's id \"\(id)\" when given", pid)
        }
        // The line read as a GeoJSON Feature: a "type" member goes in place of its closing
        // brace, so that every offset in the line stays where it was.
        var feature = line
        while let last = feature.last, last == 0x20 || last == 0x09 || last == 0x0D { feature.removeLast() }
        feature.removeLast()
        var tail = ", \"type\": \"Feature\""
        if node.member("properties") == nil || node.member("properties")?.isNull == true {
            // A fence of the same id keeps its properties when the change gives none.
            if action == .replace, let before = properties[id] {
                tail += ", \"properties\": " + JSONWriter.string(.object(before))
            }
        }
        feature += Array((tail + "}").utf8)
        let set: FenceSet
        do {
            set = try FenceReader.parse(SourceText(file: file, bytes: feature), options: options)
        } catch {
            throw relocated(error)
        }
        guard var fence = set.fences.first else { throw fail("the change holds no fence", node) }
        fence.location = location
        return Change(time: time, action: action, id: id, fence: fence, location: location)
    }
}

extension FenceSet {
    /// These fences with `changes` applied: a removal or a replacement ends the id's current
    /// version at its time (as `validUntil`); an addition or a replacement appends a version of
    /// the id valid from its time (and its own `validUntil` or `schedule`, if its properties
    /// give them).
    ///
    /// A fence's properties as given on a replacement without properties are those of the
    /// version it replaces.
    ///
    /// - Throws: ``Support/FencesimError`` (bad data, at the change's line) for a removal or a
    ///   replacement of an id no fence has then, an addition of an id in use, or two changes of
    ///   one id at one instant.
    public func applying(_ changes: FenceChanges) throws(FencesimError) -> FenceSet {
        var result = self
        // Each id's current version, while it exists.
        var current: [String: Int] = [:]
        for (j, fence) in fences.enumerated() { current[fence.id] = j }
        var lastChange: [String: Timestamp] = [:]
        for change in changes.changes {
            func fail(_ message: String) -> FencesimError { FencesimError(.badData, message, at: change.location) }
            if lastChange[change.id] == change.time {
                throw fail("fence \"\(change.id)\" changes twice at \(change.time): give one change per fence and instant")
            }
            lastChange[change.id] = change.time
            if change.action == .add {
                if let j = current[change.id] {
                    throw fail("cannot add fence \"\(change.id)\": it exists (\(result.fences[j].location)); replace it instead")
                }
            } else {
                guard let j = current[change.id] else {
                    throw fail("cannot \(change.action.rawValue) fence \"\(change.id)\": no fence has that id at \(change.time)")
                }
                var validity = result.fences[j].validity ?? FenceValidity()
                if let from = validity.from, from >= change.time {
                    throw fail("cannot \(change.action.rawValue) fence \"\(change.id)\" at \(change.time): it is valid only from \(from)")
                }
                if validity.until.map({ $0 > change.time }) ?? true { validity.until = change.time }
                result.fences[j].validity = validity
                current[change.id] = nil
            }
            guard var fence = change.fence else { continue }
            fence.index = result.fences.count
            var validity = fence.validity ?? FenceValidity()
            if validity.from.map({ $0 < change.time }) ?? true { validity.from = change.time }
            if let until = validity.until, until <= change.time {
                throw fail("fence \"\(change.id)\" is \(change.action.rawValue)d at \(change.time) with a validUntil no later")
            }
            fence.validity = validity
            current[change.id] = result.fences.count
            result.fences.append(fence)
        }
        return result
    }
}
