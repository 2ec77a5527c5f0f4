import Fences
import Foundation
import Support
import Traces

/// What a phone recorded in the field (issue 25): the geofence events an app received, per
/// trace, and the fixes it logged beside them when the format has them, read from fencesim's own
/// JSON Lines event log, a plain CSV (`time,fence,type`, optional `trace`), or OwnTracks
/// recorder files (`.rec`).
///
/// Events are ``LogEvent``s as fencesim writes them (`enter`, `exit`, `dwell`; a fencesim log
/// keeps every type), so that ``Scoring`` reads a recorded log exactly as it reads a replay.
/// Every problem is a located error (`file:line:col`), `.badData`.
public struct DeviceLog: Sendable {
    /// The formats a device log can be read from.
    public enum Format: String, Sendable, CaseIterable {
        case jsonl, csv, owntracks

        /// The format a path's extension names: `.jsonl`/`.json`/`.ndjson`, `.csv`, `.rec`.
        public static func detect(path: String) -> Format? {
            switch (path as NSString).pathExtension.lowercased() {
            case "jsonl", "json", "ndjson": .jsonl
            case "csv": .csv
            case "rec": .owntracks
            default: nil
            }
        }
    }

    /// One device's recording.
    public struct Recording: Sendable {
        public var name: String
        /// The file holding it.
        public var file: String
        /// Its events in time order (stable).
        public var events: [LogEvent]
        /// The fixes the device logged (OwnTracks locations), in time order; empty when the
        /// format has none.
        public var fixes: [Fix]
    }

    public var format: Format
    public var traces: [Recording]

    /// Reads the device log at `path`.
    ///
    /// - Parameters:
    ///   - format: the format; `nil` detects it from the extension.
    ///   - trace: the trace name of a file that names none (CSV without `trace`, OwnTracks);
    ///     `nil`: the file name without extensions.
    ///   - fences: the fence set events must name (by id; OwnTracks regions by id or name).
    /// - Throws: ``Support/FencesimError``: `.missingInput` when the file cannot be read,
    ///   `.usage` when the format cannot be told, `.badData` located at the first bad line, cell
    ///   or value.
    public static func read(path: String, format: Format? = nil, trace: String? = nil, fences: FenceSet) throws(FencesimError) -> DeviceLog {
        guard let format = format ?? Format.detect(path: path) else {
            throw FencesimError(.usage, "cannot tell the format of \(path) from its extension (.jsonl, .csv or .rec); give --format jsonl|csv|owntracks",
                                at: SourceLocation(file: path))
        }
        let bytes = try FileIO.readAll(path)
        let source = SourceText(file: path, bytes: bytes)
        let name = trace ?? DeviceLog.stem(path)
        var events: [(String, LogEvent)]
        var fixes: [String: [Fix]] = [:]
        switch format {
        case .jsonl:
            let recorded = try EventLogReader.parse(source)
            // Fences the log names must be in the fence set, as in a visits file.
            let ids = Set(fences.fences.map(\.id))
            for r in recorded {
                if case .string(let id)? = r.event.field("fence"), !ids.contains(id) {
                    throw FencesimError(.badData, "unknown fence \"\(id)\" (not in \(fences.file))", at: SourceLocation(file: path, line: r.line, column: 1))
                }
            }
            events = recorded.map { ($0.event.trace, $0.event) }
        case .csv:
            events = try DeviceLog.parseCSV(source, trace: name, fences: fences)
        case .owntracks:
            let read = try DeviceLog.parseOwnTracks(source, trace: name, fences: fences)
            events = read.events.map { (name, $0) }
            fixes[name] = read.fixes
        }
        var order: [String] = []
        var byTrace: [String: [LogEvent]] = [:]
        for (t, e) in events {
            if byTrace[t] == nil { order.append(t) }
            byTrace[t, default: []].append(e)
        }
        for (t, _) in fixes where byTrace[t] == nil {
            order.append(t)
            byTrace[t] = []
        }
        let traces = order.map { t in
            // Stable: a recorder writes in arrival order; scoring reads time order.
            let sorted = (byTrace[t] ?? []).enumerated().sorted { a, b in
                a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
            }.map(\.element)
            return Recording(name: t, file: path, events: sorted, fixes: fixes[t] ?? [])
        }
        return DeviceLog(format: format, traces: traces)
    }

    /// A file's name without its extensions.
    static func stem(_ path: String) -> String {
        var stem = (path as NSString).lastPathComponent
        while case let s = (stem as NSString).deletingPathExtension, s != stem, !s.isEmpty { stem = s }
        return stem
    }

    /// The types a CSV log's `type` column takes.
    static let csvTypes: [String: LogEvent.EventType] = ["enter": .enter, "exit": .exit, "dwell": .dwell]

    /// Reads a CSV device log: a header naming `time`, `fence` and `type` (any order, any case),
    /// optionally `trace`, `fixtime`, `latitude`, `longitude`, `accuracy`, `distance`.
    static func parseCSV(_ source: SourceText, trace: String, fences: FenceSet) throws(FencesimError) -> [(String, LogEvent)] {
        let path = source.file
        guard let text = String(validating: source.bytes, as: UTF8.self) else {
            throw FencesimError(.badData, "the device log is not UTF-8 text", at: SourceLocation(file: path, line: 1, column: 1))
        }
        let ids = Set(fences.fences.map(\.id))
        var columns: [String: Int] = [:]
        var out: [(String, LogEvent)] = []
        for (k, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : String(rawLine)
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let cells = CSVLine.split(line)
            let at = { (column: Int) in SourceLocation(file: path, line: k + 1, column: column) }
            if columns.isEmpty {
                for (c, cell) in cells.enumerated() { columns[cell.text.trimmingCharacters(in: .whitespaces).lowercased()] = c }
                guard columns["time"] != nil, columns["fence"] != nil, columns["type"] != nil else {
                    throw FencesimError(.badData, "a CSV device log needs a header with the columns time, fence and type (optionally trace)", at: at(1))
                }
                continue
            }
            func cell(_ name: String) -> (text: String, column: Int)? {
                guard let c = columns[name], c < cells.count else { return nil }
                return (cells[c].text.trimmingCharacters(in: .whitespaces), cells[c].column)
            }
            guard let timeCell = cell("time"), let time = LabelledVisits.time(timeCell.text) else {
                throw FencesimError(.badData, "time must be an ISO-8601 time or epoch seconds", at: at(cell("time")?.column ?? 1))
            }
            guard let fenceCell = cell("fence"), !fenceCell.text.isEmpty else {
                throw FencesimError(.badData, "the row has no fence", at: at(cell("fence")?.column ?? 1))
            }
            guard ids.contains(fenceCell.text) else {
                throw FencesimError(.badData, "unknown fence \"\(fenceCell.text)\" (not in \(fences.file))", at: at(fenceCell.column))
            }
            guard let typeCell = cell("type"), let type = csvTypes[typeCell.text.lowercased()] else {
                throw FencesimError(.badData, "type must be enter, exit or dwell", at: at(cell("type")?.column ?? 1))
            }
            var fields: [(String, JSONValue)] = [("fence", .string(fenceCell.text))]
            if let c = cell("fixtime"), !c.text.isEmpty {
                guard let t = LabelledVisits.time(c.text) else { throw FencesimError(.badData, "fixTime must be an ISO-8601 time or epoch seconds", at: at(c.column)) }
                fields.append(("fixTime", .string(t.description)))
            }
            func number(_ name: String, _ range: ClosedRange<Double>) throws(FencesimError) -> Double? {
                guard let c = cell(name), !c.text.isEmpty else { return nil }
                guard let v = Double(c.text), v.isFinite, range.contains(v) else {
                    throw FencesimError(.badData, "\(name) must be a number from \(JSONWriter.number(range.lowerBound)) to \(JSONWriter.number(range.upperBound))", at: at(c.column))
                }
                return v
            }
            if let d = try number("distance", -1e7...1e7) { fields.append(("distance", .meters(d))) }
            if let a = try number("accuracy", 0...1e7) { fields.append(("accuracy", .meters(a))) }
            let latitude = try number("latitude", -90...90)
            let longitude = try number("longitude", -180...180)
            let name = cell("trace").map(\.text).flatMap { $0.isEmpty ? nil : $0 } ?? trace
            out.append((name, LogEvent(time: time, trace: name, type: type, fields: fields, longitude: longitude, latitude: latitude)))
        }
        if columns.isEmpty {
            throw FencesimError(.badData, "the device log is empty (it needs a header: time,fence,type)", at: SourceLocation(file: path, line: 1, column: 1))
        }
        return out
    }
}
