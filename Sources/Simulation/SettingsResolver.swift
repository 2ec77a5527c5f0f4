import Fences
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
    public static func resolve(_ fences: FenceSet, global: GeotriggerOverrides, zones: [ZoneDeclaration] = [],
                               requireDeclaredZones: Bool = false) throws(FencesimError) -> [GeotriggerSettings] {
        let base = global.applied(to: GeotriggerSettings())
        var zoneSettings: [String: GeotriggerSettings] = [:]
        for zone in zones { zoneSettings[zone.id] = zone.geotrigger.applied(to: base) }
        let count = fences.fences.count
        // Large sets are resolved in blocks on two threads; the first failure in fence order is
        // thrown, as one pass would. Every element starts as `base` and each block assigns its
        // own range in place (read and written through plain pointers: no copy of a fence, no
        // joining of the blocks' results afterwards, which took one thread 20 ms of 45 for the
        // 100,000 bench fences).
        let parts = count >= 16_384 && ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1
        let zoneTable = zoneSettings
        var settings = [GeotriggerSettings](repeating: base, count: count)
        try fences.fences.withUnsafeBufferPointer { (all) throws(FencesimError) in
            try settings.withUnsafeMutableBufferPointer { (out) throws(FencesimError) in
                /// Each block touches only its own range of both.
                struct Pointers: @unchecked Sendable {
                    let all: UnsafeBufferPointer<Fence>
                    let out: UnsafeMutableBufferPointer<GeotriggerSettings>
                }
                let p = Pointers(all: all, out: out)
                _ = try OrderedBlocks.map(count: count, parts: parts) { (_, range) throws(FencesimError) in
                    var source: SourceText?
                    for k in range {
                        p.out[k] = try settingsOf(p.all[k], file: fences.file, base: base, zones: zoneTable,
                                                  requireDeclaredZones: requireDeclaredZones, source: &source)
                    }
                }
            }
        }
        return settings
    }

    /// One fence's settings; `source` is the fence file, read on first need (for a `geotrigger`
    /// property's locations).
    static func settingsOf(_ fence: borrowing Fence, file: String, base: GeotriggerSettings, zones: [String: GeotriggerSettings],
                           requireDeclaredZones: Bool, source: inout SourceText?) throws(FencesimError) -> GeotriggerSettings {
        var settings = base
        if let zone = fence.zone {
            if let s = zones[zone] {
                settings = s
            } else if requireDeclaredZones {
                throw FencesimError(.badData, "fence \"\(fence.id)\" names zone \"\(zone)\", which the scenario does not declare under zones:", at: fence.location)
            }
        }
        if let node = fence.property("geotrigger") {
            if source == nil {
                source = SourceText(file: file, bytes: (try? FileIO.readAll(file)) ?? [])
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
        return settings
    }
}
