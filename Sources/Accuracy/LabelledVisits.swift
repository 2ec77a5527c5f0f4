import Fences
import Files
import Foundation
import Scenarios
import Support

/// Visits labelled by hand (SPEC §6.1): a CSV file with a header naming the columns `fence`,
/// `enter` and `exit` (any order, any case), and optionally `trace`.
///
/// `enter` and `exit` are ISO-8601 times or epoch seconds; an empty `exit` is a visit still open
/// at the end of the trace. Without a `trace` column every row belongs to every trace; with one,
/// a row belongs to the traces whose name (as the scenario wrote it), path, or file name with
/// or without its extensions equals it.
public struct LabelledVisits: Sendable {
    /// One row of the file.
    public struct Row: Sendable {
        public var trace: String?
        public var visit: TruthVisit
        /// Where the row is.
        public var location: SourceLocation
    }

    public var file: String
    public var rows: [Row]

    /// The visits of one trace, in time order.
    public func visits(for input: TraceInput) -> [TruthVisit] {
        let names = LabelledVisits.names(of: input)
        return rows.filter { row in row.trace.map { names.contains($0) } ?? true }.map(\.visit).sorted(by: TruthVisit.ordered)
    }

    /// The names a `trace` cell may use for `input`.
    static func names(of input: TraceInput) -> Set<String> {
        let file = (input.path as NSString).lastPathComponent
        var names: Set<String> = [input.label, input.path, file]
        var stem = file
        while case let s = (stem as NSString).deletingPathExtension, s != stem, !s.isEmpty {
            stem = s
            names.insert(s)
        }
        return names
    }

    /// Whether the CSV text's first non-empty line is a visits header (names `fence`, `enter`
    /// and `exit`); any other CSV is a trace.
    public static func isVisitsHeader(_ firstLine: String) -> Bool {
        let names = Set(CSVLine.split(firstLine).map { $0.text.trimmingCharacters(in: .whitespaces).lowercased() })
        return names.isSuperset(of: ["fence", "enter", "exit"])
    }

    /// Whether the file at `path` is a visits file (see ``isVisitsHeader(_:)``).
    public static func isVisitsFile(_ path: String) -> Bool {
        guard let bytes = try? FileIO.readAll(path) else { return false }
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            return false
        }
        return isVisitsHeader(String(line))
    }

    /// Reads a visits file, checking every fence id against `fences`.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` (65) located at the first bad cell (an
    ///   unknown fence, a bad time, an exit before its entry), with every further problem in
    ///   `related`; `.missingInput` when the file cannot be opened.
    public static func read(path: String, fences: FenceSet) throws(FencesimError) -> LabelledVisits {
        let bytes = try FileIO.readAll(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FencesimError(.badData, "the visits file is not UTF-8 text", at: SourceLocation(file: path, line: 1, column: 1))
        }
        var indexByID: [String: Int] = [:]
        for (j, fence) in fences.fences.enumerated() where indexByID[fence.id] == nil { indexByID[fence.id] = j }
        var columns: [String: Int] = [:]
        var rows: [Row] = []
        var problems: [Diagnostic] = []
        for (k, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : String(rawLine)
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let cells = CSVLine.split(line)
            if columns.isEmpty {
                for (c, cell) in cells.enumerated() { columns[cell.text.trimmingCharacters(in: .whitespaces).lowercased()] = c }
                guard columns["fence"] != nil, columns["enter"] != nil, columns["exit"] != nil else {
                    throw FencesimError(
                        .badData, "a visits file needs a header with the columns fence, enter and exit",
                        at: SourceLocation(file: path, line: k + 1, column: 1))
                }
                continue
            }
            func cell(_ name: String) -> (text: String, column: Int)? {
                guard let c = columns[name], c < cells.count else { return nil }
                return (cells[c].text.trimmingCharacters(in: .whitespaces), cells[c].column)
            }
            func problem(_ message: String, _ column: Int) {
                problems.append(Diagnostic(.error, message, at: SourceLocation(file: path, line: k + 1, column: column)))
            }
            guard let fenceCell = cell("fence"), !fenceCell.text.isEmpty else {
                problem("the row has no fence", 1)
                continue
            }
            guard let j = indexByID[fenceCell.text] else {
                problem("unknown fence \"\(fenceCell.text)\" (not in \(fences.file))", fenceCell.column)
                continue
            }
            guard let enterCell = cell("enter"), let enter = time(enterCell.text) else {
                problem("enter must be an ISO-8601 time or epoch seconds", cell("enter")?.column ?? 1)
                continue
            }
            var exit: Timestamp?
            if let exitCell = cell("exit"), !exitCell.text.isEmpty {
                guard let t = time(exitCell.text) else {
                    problem("exit must be an ISO-8601 time, epoch seconds, or empty for a visit open at the end", exitCell.column)
                    continue
                }
                guard t >= enter else {
                    problem("exit \(exitCell.text) is before enter \(enterCell.text)", exitCell.column)
                    continue
                }
                exit = t
            }
            let trace = cell("trace").map(\.text).flatMap { $0.isEmpty ? nil : $0 }
            rows.append(
                Row(
                    trace: trace, visit: TruthVisit(fence: j, fenceID: fenceCell.text, enter: enter, exit: exit),
                    location: SourceLocation(file: path, line: k + 1, column: 1)))
        }
        if columns.isEmpty {
            throw FencesimError(
                .badData, "the visits file is empty (it needs a header: fence,enter,exit)",
                at: SourceLocation(file: path, line: 1, column: 1))
        }
        if let first = problems.first {
            throw FencesimError(.badData, first.message, at: first.location, related: Array(problems.dropFirst().prefix(50)))
        }
        return LabelledVisits(file: path, rows: rows)
    }

    /// An ISO-8601 time or epoch seconds.
    static func time(_ text: String) -> Timestamp? {
        if case .success(let t) = Timestamp.parseISO8601(text) { return t }
        if let v = Double(text), v.isFinite { return Timestamp(epochSeconds: v) }
        return nil
    }
}

/// Splitting one CSV line into cells with their 1-based columns (RFC 4180 quotes).
enum CSVLine {
    static func split(_ line: String) -> [(text: String, column: Int)] {
        var cells: [(text: String, column: Int)] = []
        var current = ""
        var start = 1
        var column = 0
        var quoted = false
        var chars = Array(line)
        chars.append(",")
        var k = 0
        while k < chars.count {
            let c = chars[k]
            column += 1
            if quoted {
                if c == "\"" {
                    if k + 1 < chars.count - 1, chars[k + 1] == "\"" {
                        current.append("\"")
                        k += 2
                        column += 1
                        continue
                    }
                    quoted = false
                } else {
                    current.append(c)
                }
            } else if c == "\"" && current.isEmpty {
                quoted = true
            } else if c == "," {
                cells.append((current, start))
                current = ""
                start = column + 1
            } else {
                current.append(c)
            }
            k += 1
        }
        return cells
    }
}
