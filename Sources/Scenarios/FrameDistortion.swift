import Fences
import Spatial
import Support
import Traces

/// Whether a metric frame the user chose (`--crs`, a scenario's `crs:`) keeps distances true over
/// the data, by the bound the automatic frame keeps (SPEC §1.4): a projection that stretches or
/// shrinks them more (Web Mercator away from the equator, a transverse Mercator centred far away)
/// changes which fixes fall inside a fence, with no other sign.
public enum FrameDistortion {
    /// A warning when `definition` changes distances over `boxes` (their union) by more than
    /// ``Spatial/MetricFrame/maximumAutomaticScaleError``, saying by how much; `nil` when it
    /// does not, or when there is nothing to measure over.
    ///
    /// - Parameters:
    ///   - definition: the frame the user gave.
    ///   - boxes: the extents of the fences and traces, WGS84 degrees (x = longitude).
    ///   - source: how the user gave it, for the message (`--crs`, `crs`).
    ///   - location: where (the scenario's `crs:` line, or `--crs`).
    public static func warning(
        _ definition: FrameDefinition, over boxes: [BoundingBox], source: String,
        at location: SourceLocation
    ) -> Diagnostic? {
        guard var union = boxes.first else { return nil }
        for b in boxes.dropFirst() {
            union = BoundingBox(
                minX: min(union.minX, b.minX), minY: min(union.minY, b.minY),
                maxX: max(union.maxX, b.maxX), maxY: max(union.maxY, b.maxY))
        }
        guard let frame = try? MetricFrame(definition) else { return nil }
        let limit = MetricFrame.maximumAutomaticScaleError
        let (error, failedAt) = frame.scaleError(over: union)
        let advice = "pick a projection centred on the data, or leave \(source) out for the automatic frame"
        guard let error else {
            let p = failedAt.map { " at (\(JSONWriter.number($0.longitude)), \(JSONWriter.number($0.latitude)))" } ?? ""
            return Diagnostic(
                .warning,
                "\(source) \"\(definition)\" does not cover the fences and traces: PROJ cannot take its scale\(p), so its distances there cannot be trusted; \(advice)",
                at: location, kind: "crs-distortion")
        }
        guard error > limit else { return nil }
        return Diagnostic(
            .warning,
            "\(source) \"\(definition)\" changes distances by up to \(percent(error)) over the fences and traces (scale error \(String(format: "%.2g", error)), \(times(error / limit)) the \(JSONWriter.number(limit)) the automatic frame allows); fences are evaluated that much larger or smaller than drawn: \(advice)",
            at: location, kind: "crs-distortion")
    }

    /// The check of a frame the user chose, worked out over the fences when they are read;
    /// ``warning(traces:)`` adds the traces read at the end, and measures again only when they
    /// reach beyond the fences.
    public final class Check: Sendable {
        private let definition: FrameDefinition
        private let source: String
        private let location: SourceLocation
        private let fenceBox: BoundingBox?
        private let fenceWarning: Diagnostic?

        public init(_ definition: FrameDefinition, fences: FenceSet, source: String, at location: SourceLocation) {
            self.definition = definition
            self.source = source
            self.location = location
            let box = fences.boundingBox
            fenceBox = box
            fenceWarning = FrameDistortion.warning(definition, over: box.map { [$0] } ?? [], source: source, at: location)
        }

        /// The warning over the fences and the traces read (``FrameDistortion/warning(_:over:source:at:)``).
        public func warning(traces: [TraceStatistics?]) -> Diagnostic? {
            let traceBoxes = FrameDistortion.extents(traces: traces)
            if let box = fenceBox,
                traceBoxes.allSatisfy({ box.minX <= $0.minX && box.minY <= $0.minY && box.maxX >= $0.maxX && box.maxY >= $0.maxY })
            {
                return fenceWarning
            }
            return FrameDistortion.warning(definition, over: fenceBox.map { [$0] + traceBoxes } ?? traceBoxes, source: source, at: location)
        }
    }

    /// The extents of the traces read, in WGS84 degrees.
    static func extents(traces: [TraceStatistics?]) -> [BoundingBox] {
        traces.compactMap { $0?.boundingBox }.map { b in BoundingBox(minX: b.west, minY: b.south, maxX: b.east, maxY: b.north) }
    }

    /// The extent of a fence set and of the traces read, in WGS84 degrees.
    public static func extents(fences: FenceSet, traces: [TraceStatistics?]) -> [BoundingBox] {
        var boxes: [BoundingBox] = []
        if let b = fences.boundingBox { boxes.append(b) }
        for case let b? in traces.map({ $0?.boundingBox }) {
            boxes.append(BoundingBox(minX: b.west, minY: b.south, maxX: b.east, maxY: b.north))
        }
        return boxes
    }

    static func percent(_ error: Double) -> String {
        let p = error * 100
        return p >= 10 ? "\(JSONWriter.number(p.rounded())) %" : "\(String(format: "%.2g", p)) %"
    }

    static func times(_ ratio: Double) -> String {
        ratio >= 10 ? "\(JSONWriter.number(ratio.rounded())) times" : "\(String(format: "%.2g", ratio)) times"
    }
}
