import Foundation
import Testing

/// One malformed (or merely strange) input of the bad-input corpus in `Tests/BadInputs` and what
/// fencesim must do with it (issue 8): exit with the documented code and a located message, within
/// a time bound, writing no output file; or, for inputs that are odd but valid, read them.
struct BadInput: Sendable, CustomTestStringConvertible {
    /// Which input of a command the file is.
    enum Role: Sendable {
        /// `replay FILE --fences good/fences.geojson --out OUT`
        case trace
        /// `replay good/trace.csv --fences FILE --out OUT`
        case fences
        /// `run FILE --out OUTDIR`
        case scenario
        /// `run WRAPPER --out OUTDIR`, WRAPPER a scenario with `rules: FILE`
        case rules
    }

    /// How precisely the message must locate the problem.
    enum Location: Sendable {
        case lineColumn, line, file
    }

    enum Outcome: Sendable {
        /// Refused with this exit code (SPEC §7) and a message at least this precisely located.
        case refused(Int32, Location)
        /// Odd but valid: read and replayed (exit 0).
        case accepted
    }

    let path: String
    let role: Role
    let outcome: Outcome
    /// Text the error output must contain (issue 21's cases name their message and location).
    var fragment: String?

    var testDescription: String { path }

    static let folder = CLI.packageRoot.appendingPathComponent("Tests/BadInputs")
}

private func refused(
    _ path: String, _ role: BadInput.Role, _ exit: Int32 = 65, _ at: BadInput.Location = .lineColumn,
    saying fragment: String? = nil
) -> BadInput {
    BadInput(path: path, role: role, outcome: .refused(exit, at), fragment: fragment)
}

private func accepted(_ path: String, _ role: BadInput.Role) -> BadInput {
    BadInput(path: path, role: role, outcome: .accepted)
}

/// The committed corpus. Large inputs (a 1 GB line, a ZIP bomb, million-vertex polygons) are
/// generated at test time by the tests further down.
let badInputs: [BadInput] = [
    // GPX
    refused("gpx/truncated.gpx", .trace),
    refused("gpx/binary-garbage.gpx", .trace),
    refused("gpx/invalid-utf8-element-name.gpx", .trace),  // crashed FoundationXML before the GPXReader fix
    refused("gpx/nan-coordinates.gpx", .trace),
    refused("gpx/latitude-out-of-range.gpx", .trace),
    refused("gpx/huge-numbers.gpx", .trace),
    refused("gpx/time-far-future.gpx", .trace),
    refused("gpx/time-backwards.gpx", .trace),
    refused("gpx/time-duplicate.gpx", .trace),
    refused("gpx/utf16-odd-length.gpx", .trace),
    refused("gpx/entity-expansion.gpx", .trace),  // "billion laughs": libxml2's amplification check
    refused("gpx/external-entity.gpx", .trace, 65, .line),  // never loaded: the point has no time
    refused("gpx/latin1-declared-utf8.gpx", .trace, 65, .line),
    refused("gpx/empty.gpx", .trace),
    refused("gpx/untimed-points.gpx", .trace, 65, .line),
    refused("gpx/mismatched-tags.gpx", .trace),
    refused("gpx/processing-instruction-without-data.gpx", .trace),  // crashed FoundationXML (a null PI data pointer)
    accepted("gpx/time-far-past.gpx", .trace),  // year 0000 is a valid proleptic time
    // Issue 21: no trace, as a CSV header alone.
    refused("gpx/no-points.gpx", .trace, saying: "error: no fixes: the GPX has no track, route or waypoint points"),
    refused("gpx/deep-nesting.gpx", .trace, saying: "error: no fixes"),  // 5,000 nested <extensions>: no points, no crash
    // Altitude is checked like the other numbers (issue 21; it was rendered as nan/inf).
    refused("gpx/elevation-nan.gpx", .trace, saying: "error: altitude is NaN, not a number"),
    refused("gpx/elevation-overflow.gpx", .trace, saying: "error: altitude inf m is out of range [-12000, 100000] m"),
    refused("gpx/elevation-huge.gpx", .trace, saying: "error: altitude 1e+308 m is out of range"),
    // CSV
    refused("csv/binary-garbage.csv", .trace),
    refused("csv/nan-everywhere.csv", .trace),
    refused("csv/huge-numbers.csv", .trace),
    refused("csv/wrong-column-count.csv", .trace),
    refused("csv/latin1-header.csv", .trace),
    refused("csv/utf16.csv", .trace),
    refused("csv/truncated.csv.gz", .trace, 65, .file),
    refused("csv/gzip-garbage.csv.gz", .trace, 65, .file),
    refused("csv/empty.csv", .trace),
    refused("csv/only-newlines.csv", .trace),
    refused("csv/time-backwards.csv", .trace),
    refused("csv/undefined-values.csv", .trace),
    refused("csv/unterminated-quote.csv", .trace),
    refused("csv/header-only.csv", .trace, saying: "header-only.csv:1:1: error: no fixes"),  // issue 21: replayed to an empty log
    refused("csv/header-newlines.csv.gz", .trace, saying: "header-newlines.csv.gz:1:1: error: no fixes"),  // 1 MiB of newlines
    // issue 21: the first `lat` was read, the second ignored
    refused("csv/duplicate-columns.csv", .trace, saying: "duplicate-columns.csv:1:14: error: column 4 'lat' repeats column 2 'lat'"),
    accepted("csv/time-far-past.csv", .trace),
    accepted("csv/time-epoch-far-future.csv", .trace),  // 20 digits: epoch nanoseconds, year 5138
    accepted("csv/time-epoch-negative.csv", .trace),
    // NMEA
    refused("nmea/bad-checksum.nmea", .trace),
    refused("nmea/truncated-sentence.nmea", .trace),
    refused("nmea/garbage.nmea", .trace),
    refused("nmea/nan-fields.nmea", .trace),
    refused("nmea/impossible-date.nmea", .trace),
    refused("nmea/huge-numbers.nmea", .trace),
    refused("nmea/gga-only-untimed.nmea", .trace, 65, .line),
    // PLT
    refused("plt/nan.plt", .trace),
    refused("plt/huge-day-number.plt", .trace),
    refused("plt/missing-fields.plt", .trace, 65, .line),
    refused("plt/truncated-header.plt", .trace, saying: "truncated-header.plt:1:1: error: no fixes"),  // issue 21: was accepted
    refused("plt/header-only.plt", .trace, saying: "header-only.plt:1:1: error: no fixes"),
    accepted("plt/short-header.plt", .trace),  // issue 21: a 2-line header; every fix is read (SilentAnswerTests)
    // GeoJSON fences
    refused("geojson/truncated.geojson", .fences),
    refused("geojson/deep-nesting.geojson", .fences),
    refused("geojson/binary-garbage.geojson", .fences),
    refused("geojson/nan-coordinates.geojson", .fences),
    refused("geojson/nan-strings.geojson", .fences),
    refused("geojson/huge-numbers.geojson", .fences),
    refused("geojson/duplicate-ids.geojson", .fences),
    refused("geojson/missing-id.geojson", .fences),
    refused("geojson/self-intersecting.geojson", .fences),
    refused("geojson/unclosed-ring.geojson", .fences),
    refused("geojson/foreign-crs.geojson", .fences),
    refused("geojson/negative-radius.geojson", .fences),
    refused("geojson/utf16.geojson", .fences),
    refused("geojson/empty.geojson", .fences),
    refused("geojson/latitude-out-of-range.geojson", .fences),
    refused("geojson/duplicate-keys.geojson", .fences, saying: "duplicate-keys.geojson:1:29: error: duplicate key \"type\""),
    // issue 21: the last of two keys won
    refused("geojson/duplicate-property-id.geojson", .fences, saying: "duplicate-property-id.geojson:1:94: error: duplicate key \"id\""),
    refused(
        "geojson/duplicate-geometry-member.geojson", .fences,
        saying: "duplicate-geometry-member.geojson:2:59: error: duplicate key \"coordinates\""),
    refused(
        "geojson/buffer-overflowing.geojson", .fences,  // a GEOS NaN message before the buffer limit (issue 21)
        saying: "buffer-overflowing.geojson:1:91: error: fence \"p\": \"buffer\" 1e+308 m is beyond the limit"),
    // Scenarios
    refused("scenario/unknown-key.yaml", .scenario),
    refused("scenario/yaml-syntax.yaml", .scenario),
    refused("scenario/deep-nesting.yaml", .scenario),
    refused("scenario/not-utf8.yaml", .scenario),
    refused("scenario/binary-garbage.yaml", .scenario),
    refused("scenario/empty.yaml", .scenario),
    refused("scenario/missing-fences.yaml", .scenario, 66),
    refused("scenario/bad-filter.yaml", .scenario),
    refused("scenario/huge-numbers.yaml", .scenario),
    refused("scenario/nan-everywhere.yaml", .scenario),
    refused("scenario/time-far-future.yaml", .scenario),
    refused("scenario/not-a-mapping.yaml", .scenario),
    refused("scenario/wrong-types.yaml", .scenario),
    refused("scenario/deep-filter.yaml", .scenario),  // overflowed the stack before FilterExpression.maximumNesting
    refused("scenario/billion-laughs.yaml", .scenario),  // walked 10^9 values before ConfigNode.maximumYAMLValues
    refused("scenario/name-escapes-parent.yaml", .scenario),  // wrote OUT/../escaped.events.jsonl (issue 21)
    refused("scenario/name-with-slash.yaml", .scenario),
    refused("scenario/name-absolute.yaml", .scenario),
    refused("scenario/geotriggers-duplicate-name.yaml", .scenario, saying: "5:12: error: duplicate geotrigger name \"near\""),
    refused("scenario/geotriggers-and-geotrigger.yaml", .scenario, saying: "4:1: error: a scenario has geotrigger:"),
    refused("scenario/geotriggers-unknown-set.yaml", .scenario, saying: "5:21: error: unknown fence set \"../../etc\""),
    // Rules (through a scenario's `rules:`, so that `run --out` is checked too)
    refused("rules/truncated.json", .rules),
    refused("rules/deep-nesting.json", .rules),
    refused("rules/nan.json", .rules),
    refused("rules/huge-numbers.json", .rules),
    refused("rules/empty.json", .rules),
    refused("rules/binary-garbage.json", .rules),
    refused("rules/utf16.json", .rules),
    refused("rules/zip-slip.zip", .rules, 65, .file),
    refused("rules/zip-absolute-path.zip", .rules, 65, .file),
    refused("rules/zip-garbage.zip", .rules, 65, .file),
    refused("rules/zip-without-rules.zip", .rules, 65, .file),
    refused("rules/zip-truncated-json.zip", .rules),
]

@Suite("Bad-input corpus (issue 8)")
struct BadInputCorpusTests {
    /// The time any input may take before the test calls it a hang: generous, not a benchmark.
    static let timeLimit = 20.0

    @Test("every corpus file is listed, and there are at least 60 cases")
    func corpusIsComplete() throws {
        let listed = Set(badInputs.map(\.path))
        var found: Set<String> = []
        let root = BadInput.folder
        for kind in ["gpx", "csv", "nmea", "plt", "geojson", "scenario", "rules"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(kind).path) {
                found.insert("\(kind)/\(name)")
            }
        }
        #expect(found.subtracting(listed).sorted() == [], "files in Tests/BadInputs that no case names")
        #expect(listed.subtracting(found).sorted() == [], "cases whose file is missing")
        #expect(badInputs.count + GeneratedBadInputTests.count >= 60)
    }

    @Test("a bad input gives its exit code and a located message, in time, and writes nothing", arguments: badInputs)
    func badInput(_ input: BadInput) throws {
        try check(input)
    }

    func check(_ input: BadInput) throws {
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try Self.run(input, in: scratch)
        try Self.expect(run.result, input.outcome, named: run.named, outputs: run.outputs, path: input.path)
        if let fragment = input.fragment {
            #expect(run.result.stderr.contains(fragment), "\(input.path): expected '\(fragment)' in: \(run.result.stderr.prefix(400))")
        }
    }

    /// Runs the command for `input`; returns the result, the name the message must locate, and the
    /// output paths that must not exist afterwards.
    static func run(_ input: BadInput, in scratch: URL) throws -> (result: TimedCLI.Result, named: String, outputs: [URL]) {
        let folder = BadInput.folder
        let eventsOut = scratch.appendingPathComponent("events.jsonl")
        let directoryOut = scratch.appendingPathComponent("out")
        switch input.role {
        case .trace:
            let result = try TimedCLI.run(
                ["replay", input.path, "--fences", "good/fences.geojson", "--out", eventsOut.path],
                in: folder, timeout: timeLimit)
            return (result, input.path, [eventsOut])
        case .fences:
            let result = try TimedCLI.run(
                ["replay", "good/trace.csv", "--fences", input.path, "--out", eventsOut.path],
                in: folder, timeout: timeLimit)
            return (result, input.path, [eventsOut])
        case .scenario:
            let result = try TimedCLI.run(["run", input.path, "--out", directoryOut.path], in: folder, timeout: timeLimit)
            return (result, input.path, [directoryOut])
        case .rules:
            let rules = folder.appendingPathComponent(input.path).path
            let wrapper = scratch.appendingPathComponent("rules-wrapper.yaml")
            try """
            name: rules-wrapper
            traces: [\(folder.appendingPathComponent("good/trace.csv").path)]
            fences: \(folder.appendingPathComponent("good/fences.geojson").path)
            rules: \(rules)

            """.write(to: wrapper, atomically: true, encoding: .utf8)
            let result = try TimedCLI.run(["run", wrapper.path, "--out", directoryOut.path], in: folder, timeout: timeLimit)
            return (result, rules, [directoryOut])
        }
    }

    static func expect(_ result: TimedCLI.Result, _ outcome: BadInput.Outcome, named: String, outputs: [URL], path: String) throws {
        #expect(!result.timedOut, "\(path): \(result.summary)")
        #expect(result.signal == nil, "\(path): \(result.summary)")
        switch outcome {
        case .accepted:
            #expect(result.status == 0, "\(path): \(result.summary)")
        case .refused(let code, let precision):
            #expect(result.status == code, "\(path): \(result.summary)")
            #expect(locates(result.stderr, named, precision), "\(path): no \(precision) location in: \(result.stderr.prefix(400))")
            for output in outputs {
                #expect(!FileManager.default.fileExists(atPath: output.path), "\(path): \(output.lastPathComponent) was written")
            }
        }
    }

    /// Whether `stderr` has an error line `name:L:C: error:` (or as precise as `precision` asks).
    static func locates(_ stderr: String, _ name: String, _ precision: BadInput.Location) -> Bool {
        for line in stderr.split(separator: "\n") {
            // Archive members are located as `archive.zip!rules.json:L:C`.
            guard line.hasPrefix(name + ":") || line.hasPrefix(name + "!") else { continue }
            var rest = line.dropFirst(name.count)
            if rest.hasPrefix("!"), let colon = rest.firstIndex(of: ":") { rest = rest[colon...] }
            let fields = rest.dropFirst().split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            let numbers = fields.prefix(while: { !$0.isEmpty && $0.allSatisfy(\.isNumber) }).count
            let isError = fields.dropFirst(numbers).first?.trimmingCharacters(in: .whitespaces) == "error"
            guard isError else { continue }
            switch precision {
            case .lineColumn: if numbers >= 2 { return true }
            case .line: if numbers >= 1 { return true }
            case .file: return true
            }
        }
        return false
    }
}
