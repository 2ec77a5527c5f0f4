import EventPipeline
import Fences
import Support

extension DeviceLog {
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
                    throw FencesimError(
                        .badData, "a CSV device log needs a header with the columns time, fence and type (optionally trace)", at: at(1))
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
                guard let t = LabelledVisits.time(c.text) else {
                    throw FencesimError(.badData, "fixTime must be an ISO-8601 time or epoch seconds", at: at(c.column))
                }
                fields.append(("fixTime", .string(t.description)))
            }
            func number(_ name: String, _ range: ClosedRange<Double>) throws(FencesimError) -> Double? {
                guard let c = cell(name), !c.text.isEmpty else { return nil }
                guard let v = Double(c.text), v.isFinite, range.contains(v) else {
                    throw FencesimError(
                        .badData,
                        "\(name) must be a number from \(JSONWriter.number(range.lowerBound)) to \(JSONWriter.number(range.upperBound))",
                        at: at(c.column))
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
            throw FencesimError(
                .badData, "the device log is empty (it needs a header: time,fence,type)", at: SourceLocation(file: path, line: 1, column: 1)
            )
        }
        return out
    }
}
