import Fences
import Files
import Foundation
import Geotriggers
import Support

/// Resolves each fence's geotrigger settings: defaults, then the scenario's `geotrigger`, then
/// its zone's `geotrigger`, then the fence's own `geotrigger` property, then its `buffer`
/// property (SPEC §2: global settings with per-zone and per-fence overrides).
public enum SettingsResolver {
    /// The settings of every fence, in fence order.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` located in the fence file for a bad
    ///   `geotrigger` property, or at the fence for a zone the scenario does not declare (when the
    ///   scenario declares zones).
    public static func resolve(
        _ fences: FenceSet, global: GeotriggerOverrides, zones: [ZoneDeclaration] = [],
        requireDeclaredZones: Bool = false
    ) throws(FencesimError) -> FenceSettings {
        let base = global.applied(to: GeotriggerSettings())
        var zoneSettings: [String: GeotriggerSettings] = [:]
        for zone in zones { zoneSettings[zone.id] = zone.geotrigger.applied(to: base) }
        // A fence without settings of its own (no `geotrigger` property, no `buffer`) takes its
        // zone's value, or the scenario's, by position: no value is built or hashed for it.
        var builder = FenceSettings.Builder()
        builder.reserveCapacity(fences.fences.count)
        let basePosition = builder.intern(base)
        var zonePosition: [String: Int32] = [:]
        // In declaration order, so that the distinct values' order is the same at every run.
        for zone in zones { zonePosition[zone.id] = builder.intern(zoneSettings[zone.id] ?? base) }
        var source: SourceText?
        try fences.fences.withUnsafeBufferPointer { (all) throws(FencesimError) in
            for k in all.indices {
                let geotrigger = Self.geotrigger(all[k].properties)
                if geotrigger == nil, all[k].bufferMeters == nil {
                    if let zone = all[k].zone {
                        // No zones declared (a replay without a scenario): nothing to look up.
                        if !zonePosition.isEmpty, let position = zonePosition[zone] {
                            builder.append(position: position)
                            continue
                        }
                        if requireDeclaredZones { throw undeclared(zone, fence: all[k].id, at: all[k].location) }
                    }
                    builder.append(position: basePosition)
                    continue
                }
                builder.append(
                    try settingsOf(
                        zone: all[k].zone, geotrigger: geotrigger, buffer: all[k].bufferMeters,
                        fence: { (all[k].id, all[k].location) }, file: fences.file, base: base,
                        zones: zoneSettings, requireDeclaredZones: requireDeclaredZones, source: &source))
            }
        }
        return builder.settings
    }

    /// The error for a fence naming a zone the scenario does not declare.
    static func undeclared(_ zone: String, fence id: String, at location: SourceLocation) -> FencesimError {
        FencesimError(.badData, "fence \"\(id)\" names zone \"\(zone)\", which the scenario does not declare under zones:", at: location)
    }

    /// One fence's settings; `source` is the fence file, read on first need (for a `geotrigger`
    /// property's locations).
    static func settingsOf(
        _ fence: Fence, file: String, base: GeotriggerSettings, zones: [String: GeotriggerSettings],
        requireDeclaredZones: Bool, source: inout SourceText?
    ) throws(FencesimError) -> GeotriggerSettings {
        try settingsOf(
            zone: fence.zone, geotrigger: fence.property("geotrigger"), buffer: fence.bufferMeters, fence: { (fence.id, fence.location) },
            file: file, base: base, zones: zones, requireDeclaredZones: requireDeclaredZones, source: &source)
    }

    /// The `geotrigger` property among a fence's properties (as ``Fences/Fence/property(_:)``
    /// finds it: the last member of that name), from the stored array, read in place.
    static func geotrigger(_ properties: [JSONMember]) -> JSONNode? {
        // The length first: most keys differ from it there, without a comparison of text.
        properties.last(where: { $0.key.utf8.count == 10 && $0.key == "geotrigger" })?.node
    }

    /// One fence's settings from the fields they depend on (`fence` gives its id and location for
    /// a message): the caller reads those fields in place, where a copy of the whole fence
    /// retains a dozen references (most of this loop's time in perf).
    static func settingsOf(
        zone: String?, geotrigger: JSONNode?, buffer: Double?, fence: () -> (id: String, location: SourceLocation),
        file: String, base: GeotriggerSettings, zones: [String: GeotriggerSettings],
        requireDeclaredZones: Bool, source: inout SourceText?
    ) throws(FencesimError) -> GeotriggerSettings {
        var settings = base
        if let zone {
            if let s = zones[zone] {
                settings = s
            } else if requireDeclaredZones {
                let (id, location) = fence()
                throw undeclared(zone, fence: id, at: location)
            }
        }
        if let node = geotrigger {
            if source == nil {
                source = SourceText(file: file, bytes: (try? FileIO.readAll(file)) ?? [])
            }
            if let source {
                let config = ConfigNode(json: node, source: source)
                do {
                    settings = try GeotriggerOverrides(config: config).applied(to: settings)
                } catch {
                    throw FencesimError(.badData, "fence \"\(fence().id)\": \(error.message)", at: error.location)
                }
            }
        }
        if let buffer { settings.bufferMeters = buffer }
        return settings
    }
}
