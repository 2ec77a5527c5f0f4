import Geotriggers
import Support

extension ScenarioReader {
    /// The keys of an entry of `geotriggers:`: its `name`, the fence sets it watches, and every
    /// key of a `geotrigger:` mapping.
    static let geotriggerEntryKeys = ["name", "fences"] + GeotriggerOverrides.keys

    /// `geotriggers`: a non-empty list of named geotriggers, each with its own fence selection
    /// and settings.
    ///
    /// - Parameter fenceFiles: the scenario's fence files: an entry's `fences` names sets of
    ///   their map.
    /// - Throws: ``Support/FencesimError`` `.badData` located at the offending node: not a list,
    ///   an entry that is not a mapping, an unknown key, a missing, empty or duplicate name, a
    ///   `fences` naming no set of the scenario (or given when `fences:` is not a map of sets),
    ///   and any error of its settings.
    static func readGeotriggers(_ node: ConfigNode, fenceFiles: [FenceFile]) throws(FencesimError) -> [GeotriggerDeclaration] {
        guard let items = node.items else {
            throw node.error("geotriggers must be a list of geotriggers, each a mapping with a name (found \(node.typeDescription))")
        }
        guard !items.isEmpty else { throw node.error("geotriggers is empty") }
        let setNames = fenceFiles.compactMap(\.set)
        var declarations: [GeotriggerDeclaration] = []
        var seen: [String: SourceLocation] = [:]
        for item in items {
            guard let entries = item.entries else {
                throw item.error("a geotrigger must be a mapping with a name and its settings, found \(item.typeDescription)")
            }
            var settings: [(key: String, keyLocation: SourceLocation, value: ConfigNode)] = []
            var name: String?
            var sets: [String] = []
            for entry in entries {
                switch entry.key {
                case "name":
                    guard let s = entry.value.string, !s.isEmpty else {
                        throw entry.value.error("a geotrigger's name must be a non-empty string")
                    }
                    if s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
                        throw entry.value.error("a geotrigger's name cannot contain control characters")
                    }
                    if let first = seen[s] { throw entry.value.error("duplicate geotrigger name \"\(s)\" (first at \(first))") }
                    seen[s] = entry.value.location
                    name = s
                case "fences":
                    sets = try readSetNames(entry.value, known: setNames)
                default:
                    guard GeotriggerOverrides.keys.contains(entry.key) else {
                        throw FencesimError(
                            .badData,
                            "unknown geotrigger key \"\(entry.key)\" (expected one of \(geotriggerEntryKeys.joined(separator: ", ")))",
                            at: entry.keyLocation)
                    }
                    settings.append(entry)
                }
            }
            guard let name else { throw item.error("a geotrigger needs a \"name\" (its events carry it)") }
            let overrides = try GeotriggerOverrides(config: ConfigNode(.map(settings), at: item.location), selectsFences: true)
            declarations.append(GeotriggerDeclaration(name: name, location: item.location, sets: sets, overrides: overrides))
        }
        return declarations
    }

    /// A geotrigger's `fences`: a set name or a list of them, each a key of the scenario's
    /// `fences:` map, none twice.
    static func readSetNames(_ node: ConfigNode, known: [String]) throws(FencesimError) -> [String] {
        guard !known.isEmpty else {
            throw node.error(
                "a geotrigger's fences names sets of the scenario's fences: map, and fences: is not a map of named sets (use where: to select fences)"
            )
        }
        let items = node.items ?? [node]
        guard !items.isEmpty else { throw node.error("a geotrigger's fences is empty (leave it out to watch every set)") }
        var sets: [String] = []
        for item in items {
            guard let s = item.string else {
                throw item.error("a geotrigger's fences must be a set name or a list of set names, found \(item.typeDescription)")
            }
            guard known.contains(s) else {
                throw item.error("unknown fence set \"\(s)\" (the scenario's sets are \(known.joined(separator: ", ")))")
            }
            guard !sets.contains(s) else { throw item.error("fence set \"\(s)\" is named twice") }
            sets.append(s)
        }
        return sets
    }
}

extension ScenarioReader {
    /// The scenario's `geotriggers`, empty when it has none; with `geotrigger` too, a located
    /// error (one unnamed geotrigger, or a list of named ones).
    static func readGeotriggers(scenario root: ConfigNode, fenceFiles: [FenceFile]) throws(FencesimError) -> [GeotriggerDeclaration] {
        guard let entries = root.entries, let list = entries.last(where: { $0.key == "geotriggers" }) else { return [] }
        if let single = entries.first(where: { $0.key == "geotrigger" }) {
            throw FencesimError(
                .badData,
                "a scenario has geotrigger: (one unnamed geotrigger) or geotriggers: (a list of named ones), not both; geotrigger: is at \(single.keyLocation)",
                at: list.keyLocation)
        }
        return try readGeotriggers(list.value, fenceFiles: fenceFiles)
    }
}
