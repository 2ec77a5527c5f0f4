import Fences
import Foundation
import Geotriggers
import Support
import Testing

@testable import Scenarios

/// Settings of a large fence set, resolved with fences without settings of their own taking
/// their zone's (or the scenario's) value by position, are those of resolving each fence in
/// full, each distinct value is held once, and the first bad `geotrigger` property in fence
/// order is the one reported.
@Suite struct SettingsResolverTests {
    /// `count` circles; fence `k` has a `geotrigger` property when `k % 7 == 0` (a buffer of
    /// `k % 5` metres, or the accuracy feed), a `buffer` property when `k % 11 == 0`, and the
    /// `geotrigger` property of the fences in `bad` names a feed that does not exist.
    static func fences(_ count: Int, bad: Set<Int> = []) throws -> (FenceSet, URL) {
        var features: [String] = []
        for k in 0..<count {
            var properties = "\"id\": \"f\(k)\""
            if bad.contains(k) {
                properties += ", \"geotrigger\": {\"feed\": \"sideways\"}"
            } else if k % 7 == 0 {
                properties += k % 2 == 0 ? ", \"geotrigger\": {\"buffer\": \(k % 5)}" : ", \"geotrigger\": {\"feed\": \"accuracy\"}"
            }
            if k % 11 == 0 { properties += ", \"buffer\": 3" }
            let lon = -122.2 + Double(k % 100) * 1e-3
            let lat = 37.7 + Double(k / 100) * 1e-3
            features.append(
                "{\"type\": \"Feature\", \"properties\": {\(properties), \"radius\": 20}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(lon), \(lat)]}}"
            )
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fencesim-settings-\(count)-\(bad.count)-\(ProcessInfo.processInfo.processIdentifier).geojson")
        try ("{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}\n").write(
            to: url, atomically: true, encoding: .utf8)
        return (try FenceReader.read(path: url.path), url)
    }

    @Test func blocksGiveWhatOnePassGives() throws {
        let (set, url) = try Self.fences(20_000)
        defer { try? FileManager.default.removeItem(at: url) }
        var global = GeotriggerOverrides()
        global.bufferMeters = 1
        let resolved = try SettingsResolver.resolve(set, global: global)
        let base = global.applied(to: GeotriggerSettings())
        var source: SourceText?
        var onePass: [GeotriggerSettings] = []
        for fence in set.fences {
            onePass.append(
                try SettingsResolver.settingsOf(fence, file: set.file, base: base, zones: [:], requireDeclaredZones: false, source: &source)
            )
        }
        #expect(resolved.count == 20_000)
        #expect(resolved == FenceSettings(onePass))
        #expect(resolved.elementsEqual(onePass))
        // The scenario's value, buffers 0 to 4 from the property, 3 from `buffer`, the accuracy
        // feed (with either buffer): a handful of values for 20,000 fences.
        #expect(resolved.distinct.count == Set(onePass).count)
        #expect(resolved.distinct.count <= 8)
        #expect(resolved[0].bufferMeters == 3)  // the buffer property wins over the geotrigger one
        #expect(resolved[7].feed == .accuracy)
        #expect(resolved[14].bufferMeters == 4)
        #expect(resolved[1].bufferMeters == 1)
        #expect(resolved[19_999].bufferMeters == 1)
    }

    @Test func theFirstBadFenceInFileOrderIsReported() throws {
        let (set, url) = try Self.fences(20_000, bad: [15_001, 4_000])
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try SettingsResolver.resolve(set, global: GeotriggerOverrides())
            Issue.record("a bad geotrigger property should fail")
        } catch {
            #expect(error.code.exitStatus == 65)
            #expect(error.message.hasPrefix("fence \"f4000\": "), "\(error)")
            #expect(error.location?.line == 4_002, "\(error)")
        }
    }
}
