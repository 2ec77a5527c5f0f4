import Fences
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
    public static func resolve(_ fences: FenceSet, global: GeotriggerOverrides, zones: [ZoneDeclaration] = [],
                               requireDeclaredZones: Bool = false) throws(FencesimError) -> [GeotriggerSettings] {
        let base = global.applied(to: GeotriggerSettings())
        var zoneSettings: [String: GeotriggerSettings] = [:]
        for zone in zones { zoneSettings[zone.id] = zone.geotrigger.applied(to: base) }
        var source: SourceText?
        var out: [GeotriggerSettings] = []
        out.reserveCapacity(fences.fences.count)
        for fence in fences.fences {
            var settings = base
            if let zone = fence.zone {
                if let s = zoneSettings[zone] {
                    settings = s
                } else if requireDeclaredZones {
                    throw FencesimError(.badData, "fence \"\(fence.id)\" names zone \"\(zone)\", which the scenario does not declare under zones:", at: fence.location)
                }
            }
            if let node = fence.property("geotrigger") {
                if source == nil {
                    source = SourceText(file: fences.file, bytes: (try? FileIO.readAll(fences.file)) ?? [])
                }
                if let source {
                    let config = ConfigNode(json: node, source: source)
                    do {
                        settings = try GeotriggerOverrides(config: config).applied(to: settings)
                    } catch {
                        throw FencesimError(.badData, "fence \"\(fence.id)\": \(error.message)", at: error.location)
                    }
                }
            }
            if let buffer = fence.bufferMeters { settings.bufferMeters = buffer }
            out.append(settings)
        }
        return out
    }
}
