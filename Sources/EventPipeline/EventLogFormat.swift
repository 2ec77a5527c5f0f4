import Files
import Support

/// The formats an event log can be written in (SPEC §6.6).
public enum EventLogFormat: String, Sendable, CaseIterable {
    case jsonl, csv, geojson, table

    /// The file extension for this format.
    public var fileExtension: String {
        switch self {
        case .jsonl: "jsonl"
        case .csv: "csv"
        case .geojson: "geojson"
        case .table: "txt"
        }
    }

    /// The whole log in this format (events numbered in order, as ``EventLogWriter`` numbers
    /// them). A CSV gets a column after SPEC's for each of `extraColumns`, then for every other
    /// key outside ``LogEvent/fieldOrder``, in order of first appearance.
    public func render(_ events: [LogEvent], extraColumns: [String] = []) -> String {
        var extra: [String] = []
        if self == .csv {
            extra = extraColumns
            var seen = Set(LogEvent.fieldOrder + extraColumns)
            for e in events {
                for (k, _) in e.fields where !seen.contains(k) {
                    seen.insert(k)
                    extra.append(k)
                }
            }
        }
        let memory = MemorySink()
        let writer = EventLogWriter(format: self, sink: memory, extraColumns: extra)
        do throws(FencesimError) {
            for e in events { try writer.append(e) }
            try writer.finish()
        } catch {
            // A memory sink does not fail, and every key has a column.
            preconditionFailure("rendering an event log in memory: \(error)")
        }
        return String(decoding: memory.bytes, as: UTF8.self)
    }

    static func cell(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): s
        case .null: ""
        default: JSONWriter.string(value)
        }
    }

    /// An aligned table for terminals: time, trace, type, fence, fix, distance and details.
    static func table(_ events: [LogEvent]) -> String {
        let header = ["time", "trace", "type", "fence", "fix", "distance", "details"]
        var rows: [[String]] = [header]
        for e in events {
            var details: [String] = []
            for (k, v) in e.orderedFields where !["fence", "fix", "distance", "fixTime", "feed", "accuracy", "feedRadius"].contains(k) {
                details.append("\(k)=\(cell(v))")
            }
            rows.append([
                e.time.description, e.trace, e.type.rawValue, (e.field("fence") ?? e.field("poi")).map(cell) ?? "",
                e.field("fix").map(cell) ?? "", e.field("distance").map(cell) ?? "", details.joined(separator: " "),
            ])
        }
        var widths = Array(repeating: 0, count: header.count)
        for row in rows {
            for (k, c) in row.enumerated() where k < header.count - 1 { widths[k] = max(widths[k], c.count) }
        }
        var out = ""
        for row in rows {
            var line = ""
            for (k, c) in row.enumerated() {
                line += k < header.count - 1 ? c + String(repeating: " ", count: widths[k] - c.count + 2) : c
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        if events.isEmpty { out += "(no events)\n" }
        return out
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        var out = ""
        for c in self {
            if String(c) == target { out += replacement } else { out.append(c) }
        }
        return out
    }
}
