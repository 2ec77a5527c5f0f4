import Fences
import Geotriggers
import Support

extension Scenario {
    /// The log key naming the geotrigger of an event, written only by scenarios with
    /// `geotriggers:` (outside SPEC's keys: after them in JSON, a column after them in CSV).
    public static let geotriggerKey = "geotrigger"

    /// The event log's columns after SPEC's (CSV): `geotrigger` with `geotriggers:`, else none.
    public var logExtraColumns: [String] {
        geotriggers.isEmpty ? [] : [Scenario.geotriggerKey]
    }

    /// The most (geotrigger, fence) pairs a scenario's geotriggers may watch: twenty times the
    /// bench's 100,000 fences (each pair is a fence to the engine, with its state and settings).
    static let pairLimit = 2_000_000

    /// Whether geotrigger `declaration` watches `fence`: it is in one of the geotrigger's sets
    /// (any set when it names none) and its where-clause selects it.
    static func watches(_ declaration: GeotriggerDeclaration, _ fence: Fence) -> Bool {
        if !declaration.sets.isEmpty, !declaration.sets.contains(where: { fence.id.hasPrefix($0 + "/") }) { return false }
        return declaration.overrides.fencesWhere?.selects(fence) ?? true
    }

    /// The fences of `all` that the scenario's `geotriggers` watch: one fence for each
    /// (geotrigger, fence) pair, laid out as ``Fences/FenceWatchers`` says (the distinct fences
    /// first, in `all`'s order; then the further pairs by geotrigger). A geotrigger that
    /// watches nothing is a warning.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` at the geotrigger that takes the pairs past
    ///   ``pairLimit``.
    /// - Complexity: O(geotriggers × fences).
    func watched(_ all: FenceSet) throws(FencesimError) -> FenceSet {
        var shared = [Int32](repeating: -1, count: all.fences.count)
        var firstWatcher = [Int32](repeating: -1, count: all.fences.count)
        var further: [(geotrigger: Int32, fence: Int)] = []
        var warnings = all.warnings
        for (g, declaration) in geotriggers.enumerated() {
            var count = 0
            all.fences.withUnsafeBufferPointer { fences in
                for j in fences.indices where Scenario.watches(declaration, fences[j]) {
                    count += 1
                    if firstWatcher[j] < 0 { firstWatcher[j] = Int32(g) } else { further.append((Int32(g), j)) }
                }
            }
            if all.fences.count - firstWatcher.count(where: { $0 < 0 }) + further.count > Scenario.pairLimit {
                throw FencesimError(
                    .badData,
                    "the geotriggers watch more than \(Scenario.pairLimit) (geotrigger, fence) pairs; each pair is a fence the engine tracks: select fewer fences with fences: or where:",
                    at: declaration.location)
            }
            if count == 0 {
                warnings.append(
                    Diagnostic(
                        .warning,
                        "geotrigger \"\(declaration.name)\" watches none of the \(all.fences.count) fences (check its fences: and where:)",
                        at: declaration.location, kind: "geotrigger-watches-none"))
            }
        }
        var fences: [Fence] = []
        var geotrigger: [Int32] = []
        for j in all.fences.indices where firstWatcher[j] >= 0 {
            shared[j] = Int32(fences.count)
            fences.append(all.fences[j])
            geotrigger.append(firstWatcher[j])
        }
        let sharedCount = fences.count
        var sharedOf = Array(0..<Int32(sharedCount))
        for pair in further {
            fences.append(all.fences[pair.fence])
            geotrigger.append(pair.geotrigger)
            sharedOf.append(shared[pair.fence])
        }
        var set = FenceSet(file: all.file, fences: fences, warnings: warnings, reprojectedFrom: all.reprojectedFrom)
        set.watchers = FenceWatchers(names: geotriggers.map(\.name), geotrigger: geotrigger, shared: sharedOf, sharedCount: sharedCount)
        return set
    }

    /// Each fence's geotrigger settings, in fence order: defaults, then the scenario's
    /// `geotrigger` (with `geotriggers:`, the settings of the fence's geotrigger), then its
    /// zone's, then the fence's own `geotrigger` property, then its `buffer` property
    /// (``SettingsResolver``).
    ///
    /// - Parameter fences: the fences as ``readFences(options:)`` gives them.
    /// - Throws: what ``SettingsResolver/resolve(_:global:zones:requireDeclaredZones:)`` throws.
    public func settings(for fences: FenceSet) throws(FencesimError) -> FenceSettings {
        let requireDeclared = !zones.isEmpty
        guard let watchers = fences.watchers else {
            return try SettingsResolver.resolve(fences, global: geotrigger, zones: zones, requireDeclaredZones: requireDeclared)
        }
        // Each fence's value, as its place in its geotrigger's resolution; the resolutions'
        // distinct values are then interned once each, and every fence takes its position.
        var resolutions: [FenceSettings] = []
        var place = [(resolution: Int, index: Int)](repeating: (-1, 0), count: fences.fences.count)
        for (g, declaration) in geotriggers.enumerated() {
            let members = fences.fences.indices.filter { watchers.geotrigger[$0] == Int32(g) }
            guard !members.isEmpty else { continue }
            // A geotrigger watching every fence of the set is resolved on the set itself: a copy
            // of a fence retains a dozen references.
            let subset =
                members.count == fences.fences.count ? fences : FenceSet(file: fences.file, fences: members.map { fences.fences[$0] })
            resolutions.append(
                try SettingsResolver.resolve(subset, global: declaration.overrides, zones: zones, requireDeclaredZones: requireDeclared))
            for (k, j) in members.enumerated() { place[j] = (resolutions.count - 1, k) }
        }
        var builder = FenceSettings.Builder()
        builder.reserveCapacity(place.count)
        let unwatched = builder.intern(GeotriggerSettings())
        let positions = resolutions.map { r in r.distinct.map { builder.intern($0) } }
        for (r, k) in place {
            builder.append(position: r < 0 ? unwatched : positions[r][resolutions[r].position(of: k)])
        }
        return builder.settings
    }

    /// A located error when `profile` (the scenario's or the command line's) is used with
    /// `geotriggers:`: an operating-system profile between several geotriggers and the app is
    /// not simulated yet.
    public func checkProfile(_ profile: OSProfile?) throws(FencesimError) {
        guard profile != nil, let first = geotriggers.first else { return }
        throw FencesimError(
            .badData,
            "an operating-system profile (profile: or --profile) is not simulated with geotriggers: yet; use one geotrigger: or leave the profile out",
            at: root["profile"]?.location ?? first.location)
    }
}
