import Fences
import Files
import Foundation
import Geotriggers
import Spatial
import Support
import Traces

/// Reads scenario files (YAML or JSON) with exactly the keys of SPEC §1.3; anything else is a
/// located error.
public enum ScenarioReader {
    public static let topLevelKeys = [
        "name", "traces", "fences", "fenceChanges", "crs", "geotrigger", "geotriggers", "zones", "places", "sessions", "rules",
        "rulesPlatform", "degrade", "profile", "truth", "expected",
    ]
    static let zoneKeys = ["id", "name", "checkOut", "minimumRetriggerTime", "customData", "schedule", "conditions", "geotrigger"]
    static let conditionKeys = ["timeWindows", "speed", "bearing", "travelDirection", "percentageCrossed", "travelPath"]
    static let placesKeys = ["signals", "membershipTTL", "expiry", "lastPOIExpiry", "platform", "regionBudget"]
    static let degradeKeys = ["resample", "noise", "dropout", "spikes", "jitter", "exitLoss", "entryLoss", "seed"]

    /// Reads the scenario at `path`.
    ///
    /// - Throws: ``Support/FencesimError``: `.missingInput` (66) when the scenario or a file it
    ///   names does not exist, `.badData` (65) for anything wrong in it, located.
    public static func read(path: String) throws(FencesimError) -> Scenario {
        let bytes = try FileIO.readAll(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FencesimError(.badData, "the scenario is not UTF-8 text", at: SourceLocation(file: path, line: 1, column: 1))
        }
        let root = try ConfigNode.parseYAML(text, file: path)
        return try read(root, path: path)
    }

    /// Reads the scenario at `path`, each trace file that holds several traces split into one
    /// input per trace (``TraceInput/splittingFiles(_:options:)``).
    public static func read(path: String, splitting readOptions: TraceReadOptions) throws(FencesimError) -> Scenario {
        var scenario = try read(path: path)
        scenario.traces = TraceInput.splittingFiles(scenario.traces, options: readOptions)
        return scenario
    }

    /// Bytes a scenario's name may have: with the longest suffix fencesim adds
    /// (`.events.part-K-of-N.jsonl`), a file name stays within the 255 bytes file systems allow.
    static let nameByteLimit = 200

    /// Why `name` cannot be one component of a file name in the folder the user named (`nil`
    /// when it can): no separator, no `.` or `..`, no control character, not too long.
    static func fileNameProblem(_ name: String) -> String? {
        if name.contains("/") { return "it cannot contain \"/\" (\"\(name)\" would place files outside the output folder)" }
        if name == "." || name == ".." { return "it cannot be \"\(name)\"" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) { return "it cannot contain control characters" }
        if name.utf8.count > nameByteLimit { return "it is \(name.utf8.count) bytes long; at most \(nameByteLimit)" }
        return nil
    }

    /// Why `path`, a scenario's `expected:`, could lead out of the scenario's folder (`nil` when
    /// it cannot): `check --update` writes the golden log there, so it must be relative and
    /// never climb above the folder with `..`.
    static func goldenPathProblem(_ path: String) -> String? {
        if path.isEmpty { return "it is empty" }
        if path.hasPrefix("/") { return "it is an absolute path" }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) { return "it contains control characters" }
        var depth = 0
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                depth -= 1
                if depth < 0 { return "it climbs out of the scenario's folder with \"..\"" }
            default: depth += 1
            }
        }
        if depth == 0 || path.hasSuffix("/") { return "it names a folder, not a file" }
        return nil
    }

    static func read(_ root: ConfigNode, path: String) throws(FencesimError) -> Scenario {
        guard let entries = root.entries else {
            throw root.error("a scenario must be a mapping of keys (name, traces, fences, ...), found \(root.typeDescription)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        for (key, location, _) in entries where !topLevelKeys.contains(key) {
            throw FencesimError(
                .badData, "unknown scenario key \"\(key)\" (expected one of \(topLevelKeys.joined(separator: ", ")))", at: location)
        }
        var name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if let n = root["name"] {
            guard let s = n.string, !s.isEmpty else { throw n.error("name must be a non-empty string") }
            if let problem = ScenarioReader.fileNameProblem(s) {
                throw n.error("name becomes part of output file names (NAME.events.jsonl in --out): \(problem)")
            }
            name = s
        }
        guard let tracesNode = root["traces"] else {
            throw FencesimError(.badData, "the scenario has no \"traces\" (a list of trace paths or globs)", at: root.location)
        }
        let traces = try readTraces(tracesNode, directory: directory)
        guard let fencesNode = root["fences"] else {
            throw FencesimError(.badData, "the scenario has no \"fences\" (a GeoJSON file)", at: root.location)
        }
        let fenceFiles = try readFenceFiles(fencesNode, directory: directory)
        var fenceChanges: (path: String, location: SourceLocation)?
        if let c = root["fenceChanges"] {
            guard let text = c.string, !text.isEmpty else {
                throw c.error("fenceChanges must be a path to a JSON Lines file of fence changes")
            }
            let changesPath = resolve(text, directory)
            guard FileIO.exists(changesPath) else {
                throw FencesimError(.missingInput, "fence changes file \(text) does not exist (looked for \(changesPath))", at: c.location)
            }
            fenceChanges = (changesPath, c.location)
        }
        var crs: FrameDefinition?
        if let c = root["crs"] {
            let s = zoneID(c)
            guard !s.isEmpty else { throw c.error("crs must be \"auto\", a PROJ string or an EPSG code") }
            if s != "auto" {
                let definition = FrameDefinition(parsing: s)
                do {
                    _ = try MetricFrame(definition)
                } catch {
                    throw c.error("crs: \(error.message)")
                }
                crs = definition
            }
        }
        var geotrigger = GeotriggerOverrides()
        if let g = root["geotrigger"] { geotrigger = try GeotriggerOverrides(config: g, selectsFences: true) }
        let geotriggers = try readGeotriggers(scenario: root, fenceFiles: fenceFiles)
        var zones: [ZoneDeclaration] = []
        if let z = root["zones"] { zones = try readZones(z) }
        let pending: [(key: String, location: SourceLocation)] = []
        var places: PlacesSettings?
        if let p = root["places"] { places = try readPlaces(p) }
        var sessions: [AppSession] = []
        if let s = root["sessions"] {
            sessions = try readSessions(s)
            // Sessions mean Places: launches publish its state and run nearby lookups.
            if places == nil { places = PlacesSettings(location: s.location) }
        }
        // Read later from `root` by the features that use them (see the Scenario extensions).
        if let node = root["degrade"] {
            try checkKeys(node, degradeKeys, "degrade")
        }
        var expected: String?
        if let e = root["expected"] {
            guard let s = e.string else { throw e.error("expected must be a path to a golden event log") }
            if let problem = goldenPathProblem(s) {
                throw e.error(
                    "expected \"\(s)\" cannot be the golden log: \(problem); check --update writes it, so it must be a file inside the scenario's folder"
                )
            }
            expected = resolve(s, directory)
        }
        var scenario = Scenario(
            file: path, name: name, traces: traces, fenceFiles: fenceFiles, crs: crs,
            geotrigger: geotrigger, zones: zones, places: places, sessions: sessions, notYetSimulated: pending,
            expectedPath: expected, root: root, directory: directory)
        scenario.fenceChangesPath = fenceChanges?.path
        scenario.geotriggers = geotriggers
        return scenario
    }

    /// The message for a duration longer than any span of time fencesim reads.
    static func longerThanTime(_ key: String, _ value: Double) -> String {
        "\(key) \(JSONWriter.number(value)) s is more than \(JSONWriter.number(Timestamp.spanSeconds)) s, the span from the first to the last time fencesim reads (years -9999 to 9999)"
    }

    static func checkKeys(_ node: ConfigNode, _ keys: [String], _ section: String) throws(FencesimError) {
        guard let entries = node.entries else { throw node.error("\(section) must be a mapping") }
        for (key, location, _) in entries where !keys.contains(key) {
            throw FencesimError(
                .badData, "unknown \(section) key \"\(key)\" (expected one of \(keys.joined(separator: ", ")))", at: location)
        }
    }

    static func resolve(_ path: String, _ directory: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty { return path }
        return (directory as NSString).appendingPathComponent(path)
    }

    /// `fences`: a path, a list of paths, or a map of set names to paths, relative to the
    /// scenario's folder. A file that does not exist is a missing input.
    static func readFenceFiles(_ node: ConfigNode, directory: String) throws(FencesimError) -> [FenceFile] {
        var named: [(set: String?, node: ConfigNode)] = []
        if node.string != nil {
            named = [(nil, node)]
        } else if let items = node.items {
            named = items.map { (nil, $0) }
        } else if let entries = node.entries {
            for (key, keyLocation, value) in entries {
                guard !key.isEmpty, !key.contains("/") else {
                    throw FencesimError(
                        .badData, "a fence set's name must be non-empty, without '/' (it prefixes its fences' ids)", at: keyLocation)
                }
                named.append((key, value))
            }
        } else {
            throw node.error("fences must be a path to a GeoJSON file, a list of them, or a map of set names to them")
        }
        guard !named.isEmpty else { throw node.error("fences is empty") }
        var files: [FenceFile] = []
        for (set, item) in named {
            guard let text = item.string, !text.isEmpty else { throw item.error("a fence file must be a path to a GeoJSON file") }
            let path = resolve(text, directory)
            guard FileIO.exists(path) else {
                throw FencesimError(.missingInput, "fence file \(text) does not exist (looked for \(path))", at: item.location)
            }
            files.append(FenceFile(set: set, path: path, location: item.location))
        }
        return files
    }

    /// Paths or globs, relative to the scenario's folder; each glob's matches sorted. A path that
    /// matches nothing is a missing input.
    static func readTraces(_ node: ConfigNode, directory: String) throws(FencesimError) -> [TraceInput] {
        let items: [ConfigNode]
        if let list = node.items {
            items = list
        } else if node.string != nil {
            items = [node]
        } else {
            throw node.error("traces must be a list of paths or globs")
        }
        guard !items.isEmpty else { throw node.error("traces is empty") }
        var inputs: [TraceInput] = []
        for item in items {
            guard let pattern = item.string, !pattern.isEmpty else { throw item.error("a trace must be a path or a glob") }
            let full = resolve(pattern, directory)
            let matches = Glob.expand(full)
            guard !matches.isEmpty else {
                throw FencesimError(.missingInput, "trace \(pattern) does not exist (looked for \(full))", at: item.location)
            }
            for m in matches {
                // The label is the path as the scenario wrote it, relative to its folder.
                let label = directory.isEmpty || pattern.hasPrefix("/") ? m : String(m.dropFirst(directory.count + 1))
                inputs.append(TraceInput(path: m, label: label))
            }
        }
        return inputs
    }

    static func readZones(_ node: ConfigNode) throws(FencesimError) -> [ZoneDeclaration] {
        guard let items = node.items else { throw node.error("zones must be a list of zones") }
        var zones: [ZoneDeclaration] = []
        var seen: [String: SourceLocation] = [:]
        for item in items {
            try checkKeys(item, zoneKeys, "zone")
            guard let idNode = item["id"] else { throw item.error("a zone needs an \"id\"") }
            let id = zoneID(idNode)
            guard !id.isEmpty else { throw idNode.error("a zone id must be a non-empty string") }
            if let first = seen[id] { throw idNode.error("duplicate zone id \"\(id)\" (first declared at \(first))") }
            seen[id] = idNode.location
            var zone = Zone(id: id, location: item.location)
            var geotrigger = GeotriggerOverrides()
            if let n = item["name"] {
                guard let s = n.string else { throw n.error("zone name must be a string") }
                zone.name = s
            }
            if let c = item["checkOut"] {
                guard let b = c.bool else { throw c.error("checkOut must be true or false, found \(c.typeDescription)") }
                zone.checkOut = b
            }
            if let m = item["minimumRetriggerTime"] {
                guard let v = try m.finiteNumber("minimumRetriggerTime") else {
                    throw m.error(
                        "minimumRetriggerTime must be a number of seconds, found \(m.string.map { "\"\($0)\"" } ?? m.typeDescription)")
                }
                guard v >= 0 else { throw m.error("minimumRetriggerTime must not be negative (found \(JSONWriter.number(v)))") }
                guard v <= Timestamp.spanSeconds else { throw m.error(ScenarioReader.longerThanTime("minimumRetriggerTime", v)) }
                zone.minimumRetriggerSeconds = v
            }
            if let d = item["customData"] {
                guard d.entries != nil else { throw d.error("customData must be a mapping") }
                zone.customData = d.json
            }
            if let s = item["schedule"] { zone.schedule = try readSchedule(s) }
            if let c = item["conditions"] { zone.conditions = try readConditions(c) }
            if let g = item["geotrigger"] { geotrigger = try GeotriggerOverrides(config: g) }
            zones.append(ZoneDeclaration(zone: zone, geotrigger: geotrigger))
            continue
        }
        return zones
    }

    /// A zone id as written: a string, or a number's text.
    static func zoneID(_ node: ConfigNode) -> String {
        switch node.value {
        case .string(let s): return s
        case .number(let d): return JSONWriter.number(d)
        default: return ""
        }
    }

    static func readSchedule(_ node: ConfigNode) throws(FencesimError) -> [Zone.ScheduleEntry] {
        guard let items = node.items else { throw node.error("schedule must be a list of {at, enabled}") }
        var out: [Zone.ScheduleEntry] = []
        for item in items {
            try checkKeys(item, ["at", "enabled"], "schedule entry")
            guard let atNode = item["at"], let text = atNode.string else {
                throw item.error("a schedule entry needs \"at\" (an ISO-8601 time)")
            }
            guard case .success(let at) = Timestamp.parseISO8601(text) else { throw atNode.error("\"\(text)\" is not an ISO-8601 time") }
            guard let e = item["enabled"], let enabled = e.bool else {
                throw item.error("a schedule entry needs \"enabled\": true or false")
            }
            if let last = out.last, at <= last.at {
                throw atNode.error("schedule entries must be in time order: \(text) is not after \(last.at)")
            }
            out.append(Zone.ScheduleEntry(at: at, enabled: enabled))
        }
        return out
    }

    /// Zone conditions (SPEC §3), typed and checked.
    static func readConditions(_ node: ConfigNode) throws(FencesimError) -> ZoneConditions {
        try checkKeys(node, conditionKeys, "conditions")
        var c = ZoneConditions()
        if let w = node["timeWindows"] {
            guard let items = w.items else { throw w.error("timeWindows must be a list of {days, from, to, timezone}") }
            for item in items {
                try checkKeys(item, ["days", "from", "to", "timezone"], "time window")
                var days = Set<Int>()
                if let d = item["days"] {
                    guard let list = d.items else { throw d.error("days must be a list such as [mon, tue]") }
                    for day in list {
                        guard let name = day.string, let n = ZoneConditions.TimeWindow.dayNumber(name) else {
                            throw day.error("unknown day (use mon, tue, wed, thu, fri, sat, sun)")
                        }
                        days.insert(n)
                    }
                }
                func minute(_ key: String) throws(FencesimError) -> Int {
                    guard let n = item[key] else { throw item.error("a time window needs \"\(key)\" (HH:MM)") }
                    guard let text = n.string, let minute = ZoneConditions.TimeWindow.minuteOfDay(text) else {
                        throw n.error("\(key) must be a time of day HH:MM")
                    }
                    return minute
                }
                let zoneName = item["timezone"]?.string ?? "UTC"
                guard ZoneConditions.TimeWindow.utcOffsetSeconds(zoneName, at: Timestamp(seconds: 0)) != nil else {
                    throw (item["timezone"] ?? item).error(
                        "unknown time zone \"\(zoneName)\" (use UTC, an offset such as +02:00, or an IANA name)")
                }
                c.timeWindows.append(
                    ZoneConditions.TimeWindow(days: days, fromMinute: try minute("from"), toMinute: try minute("to"), timeZone: zoneName))
            }
        }
        if let s = node["speed"] {
            try checkKeys(s, ["min", "max"], "speed")
            c.speed = ZoneConditions.Range(minimum: try optionalNumber(s["min"], "min"), maximum: try optionalNumber(s["max"], "max"))
            if let lo = c.speed?.minimum, let hi = c.speed?.maximum, lo > hi { throw s.error("speed min is above max") }
        }
        if let b = node["bearing"] {
            try checkKeys(b, ["from", "to"], "bearing")
            guard let from = try optionalNumber(b["from"], "from"), let to = try optionalNumber(b["to"], "to") else {
                throw b.error("bearing needs from and to (degrees clockwise from north)")
            }
            c.bearing = ZoneConditions.BearingRange(from: from, to: to)
        }
        if let d = node["travelDirection"] {
            guard let text = d.string, let direction = ZoneConditions.TravelDirection(rawValue: text) else {
                throw d.error("travelDirection must be left-to-right or right-to-left (relative to the line's digitised direction)")
            }
            c.travelDirection = direction
        }
        if let p = node["percentageCrossed"] {
            try checkKeys(p, ["percent", "window"], "percentageCrossed")
            guard let percent = try optionalNumber(p["percent"], "percent"), percent > 0, percent <= 100 else {
                throw p.error("percentageCrossed needs percent in (0, 100]")
            }
            let window = try optionalNumber(p["window"], "window")
            if let window, window <= 0 { throw p.error("percentageCrossed window must be a positive number of seconds") }
            c.percentageCrossed = ZoneConditions.PercentageCrossed(percent: percent, windowSeconds: window)
        }
        if let t = node["travelPath"] {
            guard let items = t.items, !items.isEmpty else { throw t.error("travelPath must be a list of fence ids") }
            for item in items {
                guard let id = item.string else { throw item.error("travelPath entries are fence ids (strings)") }
                c.travelPath.append(id)
            }
        }
        return c
    }

    static func optionalNumber(_ node: ConfigNode?, _ key: String) throws(FencesimError) -> Double? {
        guard let node, !node.isNull else { return nil }
        guard let v = try node.finiteNumber(key) else { throw node.error("\(key) must be a number") }
        return v
    }
}

/// Expands shell globs with POSIX `glob(3)`; a path without wildcards is returned when it exists.
enum Glob {
    static func expand(_ pattern: String) -> [String] {
        guard pattern.contains(where: { "*?[".contains($0) }) else {
            return FileIO.exists(pattern) ? [pattern] : []
        }
        var g = glob_t()
        defer { globfree(&g) }
        guard glob(pattern, 0, nil, &g) == 0 else { return [] }
        var out: [String] = []
        for k in 0..<Int(g.gl_pathc) {
            if let p = g.gl_pathv[k] { out.append(String(cString: p)) }
        }
        return out.sorted()
    }
}
