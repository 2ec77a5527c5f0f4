import EventPipeline
import Fences
import Files
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
    public static func read(path: String, format: Format? = nil, trace: String? = nil, fences: FenceSet) throws(FencesimError) -> DeviceLog
    {
        guard let format = format ?? Format.detect(path: path) else {
            throw FencesimError(
                .usage, "cannot tell the format of \(path) from its extension (.jsonl, .csv or .rec); give --format jsonl|csv|owntracks",
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
                    throw FencesimError(
                        .badData, "unknown fence \"\(id)\" (not in \(fences.file))", at: SourceLocation(file: path, line: r.line, column: 1)
                    )
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
}
