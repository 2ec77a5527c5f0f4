import Dispatch
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
        let all = fences.fences
        // Large sets are resolved in blocks on two threads; the first failure in fence order is
        // thrown, as one pass would.
        let parts = all.count >= 16_384 && ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1
        final class Block: @unchecked Sendable {
            // Written by one thread; read after the threads have joined.
            var settings: [GeotriggerSettings] = []
            var error: FencesimError?
        }
        let blocks = (0..<parts).map { _ in Block() }
        let zoneTable = zoneSettings
        let work: @Sendable (Int) -> Void = { w in
            let block = blocks[w]
            let range = (all.count * w / parts)..<(all.count * (w + 1) / parts)
            block.settings.reserveCapacity(range.count)
            do throws(FencesimError) {
                var source: SourceText?
                for k in range {
                    block.settings.append(try settingsOf(all[k], file: fences.file, base: base, zones: zoneTable,
                                                         requireDeclaredZones: requireDeclaredZones, source: &source))
                }
            } catch {
                block.error = error
            }
        }
        if parts == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: work) }
        var out: [GeotriggerSettings] = []
        out.reserveCapacity(all.count)
        for block in blocks {
            if let error = block.error { throw error }
            out += block.settings
        }
        return out
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
