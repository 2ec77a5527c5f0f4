import Fences
import Foundation
import Geotriggers
import Spatial
import Support
import Traces

/// Whether any fence lies within reach of the traces: a replay where none does can only answer
/// "no events", which says nothing of why (a circle written latitude first, a fence file of
/// another city).
public enum FenceReach {
    /// How far beyond a fence (and its buffer) a trace still counts as within reach.
    public static let reachMeters = 1_000.0

    /// A warning located at the fence file when no fence, grown by its buffer and
    /// ``reachMeters``, overlaps the box holding every trace's accepted fixes; `nil` otherwise,
    /// or when no trace has a fix.
    ///
    /// - Parameters:
    ///   - settings: each fence's resolved settings (for its buffer), by fence index.
    ///   - traces: each trace's extent (``Traces/TraceStatistics/boundingBox``).
    /// - Complexity: O(fences) at worst (it stops at the first fence within reach); boxes in
    ///   degrees, not across the antimeridian.
    public static func warning(fences: FenceSet, settings: FenceSettings, traces: [TraceStatistics.BoundingBox?]) -> Diagnostic? {
        guard var box = traces.compactMap({ $0 }).first else { return nil }
        for t in traces.compactMap({ $0 }) {
            box.include(latitude: t.south, longitude: t.west)
            box.include(latitude: t.north, longitude: t.east)
        }
        var fenceBox: BoundingBox?
        for (k, fence) in fences.fences.enumerated() {
            guard let extent = fence.boundingBox else { continue }
            let buffer = k < settings.count ? max(0, settings[k].bufferMeters) : 0
            if overlaps(box, extent, meters: reachMeters + buffer) { return nil }
            if var union = fenceBox {
                union.include(XY(longitude: extent.minX, latitude: extent.minY))
                union.include(XY(longitude: extent.maxX, latitude: extent.maxY))
                fenceBox = union
            } else {
                fenceBox = extent
            }
        }
        guard let fenceBox else { return nil }
        var message =
            "no fence lies within \(Int(reachMeters)) m of any trace (the traces span longitude \(degrees(box.west))…\(degrees(box.east)), latitude \(degrees(box.south))…\(degrees(box.north)); the fences longitude \(degrees(fenceBox.minX))…\(degrees(fenceBox.maxX)), latitude \(degrees(fenceBox.minY))…\(degrees(fenceBox.maxY))), so no event can happen"
        let swapped = BoundingBox(minX: fenceBox.minY, minY: fenceBox.minX, maxX: fenceBox.maxY, maxY: fenceBox.maxX)
        if overlaps(box, swapped, meters: reachMeters) {
            message += "; the fences would be near the traces with latitude and longitude swapped: GeoJSON writes [longitude, latitude]"
        }
        return Diagnostic(.warning, message, at: SourceLocation(file: fences.file), kind: "fences-out-of-reach")
    }

    private static func overlaps(_ traces: TraceStatistics.BoundingBox, _ fence: BoundingBox, meters: Double) -> Bool {
        let latitude = meters / 111_195
        let north = max(abs(traces.south), abs(traces.north), abs(fence.minY), abs(fence.maxY))
        let longitude = north >= 89 ? 360 : meters / (111_195 * cos(north * .pi / 180))
        return fence.minX - longitude <= traces.east && fence.maxX + longitude >= traces.west
            && fence.minY - latitude <= traces.north && fence.maxY + latitude >= traces.south
    }

    private static func degrees(_ value: Double) -> String {
        String(format: "%.4f", value)
    }
}
