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

    /// The whole log in this format.
    public func render(_ events: [LogEvent]) -> String {
        switch self {
        case .jsonl: EventLogFormat.jsonLines(events)
        case .csv: EventLogFormat.csv(events)
        case .geojson: EventLogFormat.geoJSON(events)
        case .table: EventLogFormat.table(events)
        }
    }

    static func jsonLines(_ events: [LogEvent]) -> String {
        var out = ""
        for e in events {
            JSONWriter.write(e.json, to: &out)
            out += "\n"
        }
        return out
    }

    /// CSV with the columns of SPEC §6.6, then any further keys in order of first appearance.
    static func csv(_ events: [LogEvent]) -> String {
        var extra: [String] = []
        var seen = Set(LogEvent.fieldOrder)
        for e in events {
            for (k, _) in e.fields where !seen.contains(k) {
                seen.insert(k)
                extra.append(k)
            }
        }
        let columns = ["time", "seq", "trace", "type"] + LogEvent.fieldOrder + extra + ["longitude", "latitude"]
        var out = columns.joined(separator: ",") + "\n"
        for e in events {
            var row = [e.time.description, String(e.seq), e.trace, e.type.rawValue]
            for key in LogEvent.fieldOrder + extra {
                row.append(e.field(key).map(cell) ?? "")
            }
            row.append(e.longitude.map { JSONWriter.number($0) } ?? "")
            row.append(e.latitude.map { JSONWriter.number($0) } ?? "")
            out += row.map(quote).joined(separator: ",") + "\n"
        }
        return out
    }

    static func cell(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): s
        case .null: ""
        default: JSONWriter.string(value)
        }
    }

    /// RFC 4180 quoting where needed.
    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingAll("\"", "\"\"") + "\""
    }

    /// A FeatureCollection with one Point per located event (for QGIS or geojson.io); events
    /// without a place are kept with a null geometry.
    static func geoJSON(_ events: [LogEvent]) -> String {
        var out = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        for (k, e) in events.enumerated() {
            let geometry: JSONValue
            if let lon = e.longitude, let lat = e.latitude {
                geometry = .object(["type": .string("Point"), "coordinates": .list([.double(lon), .double(lat)])])
            } else {
                geometry = .null
            }
            let feature = JSONValue.orderedObject([("type", .string("Feature")), ("geometry", geometry), ("properties", e.json)])
            JSONWriter.write(feature, to: &out)
            out += k + 1 < events.count ? ",\n" : "\n"
        }
        return out + "]}\n"
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
