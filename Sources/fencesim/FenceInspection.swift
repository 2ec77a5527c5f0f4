import Fences
import Spatial
import Support

/// What `inspect` reports about a fence file, as text or JSON.
struct FenceInspection {
    let set: FenceSet

    init(_ set: FenceSet) {
        self.set = set
    }

    var text: String {
        var lines = ["\(set.file): fences (GeoJSON)"]
        lines.append("  fences: \(set.fences.count)")
        for (kind, count) in set.countsByKind where count > 0 {
            lines.append("    \(kind): \(count)")
        }
        if let from = set.reprojectedFrom { lines.append("  reprojected from: \(from)") }
        if let box = set.boundingBox {
            lines.append(
                "  bounding box: west \(Format.degrees(box.west)), south \(Format.degrees(box.south)), east \(Format.degrees(box.east)), north \(Format.degrees(box.north))"
            )
        }
        let zones = Set(set.fences.compactMap(\.zone)).sorted()
        if !zones.isEmpty {
            lines.append("  zones: \(zones.count) (\(zones.prefix(8).joined(separator: ", "))\(zones.count > 8 ? ", ..." : ""))")
        }
        lines.append("  validity: \(set.warnings.isEmpty ? "all fences valid" : "\(set.warnings.count) warnings")")
        for w in set.warnings { lines.append("  \(w)") }
        return lines.joined(separator: "\n") + "\n"
    }

    var jsonLine: String {
        var pairs: [(String, JSONValue)] = [
            ("file", .string(set.file)),
            ("kind", .string("fences")),
            ("format", .string("GeoJSON")),
            ("fences", .int(Int64(set.fences.count))),
            ("byKind", .orderedObject(set.countsByKind.map { ($0.kind, .int(Int64($0.count))) })),
        ]
        if let box = set.boundingBox {
            pairs.append(("boundingBox", .list([.double(box.west), .double(box.south), .double(box.east), .double(box.north)])))
        }
        if let from = set.reprojectedFrom { pairs.append(("reprojectedFrom", .string(from))) }
        pairs.append(("zones", .list(Set(set.fences.compactMap(\.zone)).sorted().map { .string($0) })))
        pairs.append(("warnings", .list(set.warnings.map { .string($0.description) })))
        return JSONWriter.string(.orderedObject(pairs)) + "\n"
    }
}

/// Number formatting shared by the text outputs.
enum Format {
    /// Degrees with 6 decimals (about 0.1 m).
    static func degrees(_ value: Double) -> String { fixed(value, 6) }

    /// `value` with exactly `digits` decimals, rounded half away from zero.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int64(scaled / scale)
        let frac = Int64(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fracText = String(frac)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fracText.count) + fracText
    }
}
