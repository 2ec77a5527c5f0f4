import Foundation
import Testing

/// Every bundled scenario gives byte-identical outputs with 1 and 2 workers, across two runs, and
/// with its fences shuffled in the input file (issue 8; README "Event log": the log depends
/// neither on the number of workers nor on the order of fences in the file).
@Suite("Determinism (issue 8)")
struct DeterminismTests {
    static let scenarios: [String] = {
        let folder = CLI.packageRoot.appendingPathComponent("scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }()

    /// Whether this binary has `fencesim report`; the JSON and HTML reports are compared too when
    /// it does.
    static let hasReport: Bool = (try? TimedCLI.run(["report", "--help"], timeout: 30).status) == 0

    /// The bytes of every file a run wrote, by file name.
    typealias Outputs = [String: Data]

    /// Runs `scenario` (a path) with `workers`, writing the log in every format, and the JSON and
    /// HTML reports when `fencesim report` exists; returns what was written.
    static func outputs(of scenario: String, workers: Int, in directory: URL) throws -> Outputs {
        let out = directory.appendingPathComponent("out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        for format in ["jsonl", "csv", "geojson", "table"] {
            let result = try TimedCLI.run(
                ["run", scenario, "--out", out.path, "--format", format, "--workers", "\(workers)"],
                in: directory, timeout: 300)
            #expect(result.status == 0 && result.signal == nil, "\(scenario) --workers \(workers) --format \(format): \(result.summary)")
        }
        if hasReport {
            let result = try TimedCLI.run(
                [
                    "report", scenario, "--json", out.appendingPathComponent("report.json").path,
                    "--html", out.appendingPathComponent("report.html").path, "--workers", "\(workers)", "--quiet",
                ],
                in: directory, timeout: 300)
            #expect(result.status == 0 && result.signal == nil, "\(scenario) report --workers \(workers): \(result.summary)")
        }
        var files: Outputs = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [] {
            files[name] = try Data(contentsOf: out.appendingPathComponent(name))
        }
        return files
    }

    static func expectSame(_ a: Outputs, _ b: Outputs, _ what: String) {
        #expect(a.keys.sorted() == b.keys.sorted(), "\(what): different files")
        for (name, bytes) in a where b[name] != bytes {
            Issue.record("\(what): \(name) differs (\(bytes.count) vs \(b[name]?.count ?? 0) bytes)")
        }
    }

    @Test("1 and 2 workers, two runs, and shuffled fences give the same bytes", arguments: scenarios)
    func scenarioIsDeterministic(_ name: String) throws {
        let work = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let root = CLI.packageRoot
        // A copy of the repository's layout in which the scenario's relative paths resolve as in
        // the repository: `scenarios/` holds the scenario and links to `expected/`; `traces/` and
        // `rules/` hold links to every original file. For the shuffled run, the fence file's link
        // is replaced by a shuffled copy under the same name, so that no output can differ by the
        // path it names.
        let scenarios = work.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        for folder in ["traces", "rules"] {
            let copy = work.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path) {
                try FileManager.default.createSymbolicLink(
                    at: copy.appendingPathComponent(file),
                    withDestinationURL: root.appendingPathComponent("\(folder)/\(file)"))
            }
        }
        try FileManager.default.createSymbolicLink(
            at: scenarios.appendingPathComponent("expected"),
            withDestinationURL: root.appendingPathComponent("scenarios/expected"))
        let original = try String(contentsOf: root.appendingPathComponent("scenarios/\(name)"), encoding: .utf8)
        try original.write(to: scenarios.appendingPathComponent(name), atomically: true, encoding: .utf8)
        let scenario = "scenarios/\(name)"

        let one = try Self.outputs(of: scenario, workers: 1, in: work)
        #expect(!one.isEmpty, "\(name): no output")
        let two = try Self.outputs(of: scenario, workers: 2, in: work)
        Self.expectSame(one, two, "\(name): 1 worker vs 2 workers")
        let again = try Self.outputs(of: scenario, workers: 2, in: work)
        Self.expectSame(two, again, "\(name): two runs with 2 workers")

        // The same scenario reading its fences shuffled: the file of `fences:`, or each file of
        // its map of named sets (the indented `name: path` lines after it).
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false)
        guard let at = lines.firstIndex(where: { $0.hasPrefix("fences:") }) else {
            Issue.record("\(name): no fences: line")
            return
        }
        func path(_ text: Substring) -> String {
            text.split(separator: "#").first?.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                ?? ""
        }
        var fencesPaths = [path(lines[at].dropFirst("fences:".count))]
        if fencesPaths == [""] {
            fencesPaths = lines[(at + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { line in
                line.firstIndex(of: ":").map { path(line[line.index(after: $0)...]) }
            }
        }
        for fencesPath in fencesPaths {
            // `..` is removed by hand: standardizedFileURL would also resolve the links.
            var components: [String] = ["scenarios"]
            for part in fencesPath.split(separator: "/") where part != "." {
                if part == "..", !components.isEmpty { components.removeLast() } else { components.append(String(part)) }
            }
            let inWork = work.appendingPathComponent(components.joined(separator: "/"))
            // Only one of the links made above is ever replaced, never a file of the repository.
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: inWork.path)) != nil else {
                Issue.record("\(name): fences \(fencesPath) are not under traces/ or rules/")
                return
            }
            let fences = try [UInt8](Data(contentsOf: inWork))
            guard let shuffled = Self.shuffledFeatures(fences) else {
                Issue.record("\(name): cannot find the features of \(fencesPath)")
                return
            }
            #expect(shuffled != fences || Self.featureCount(fences) < 2, "\(name): the shuffle changed nothing")
            try FileManager.default.removeItem(at: inWork)
            try Data(shuffled).write(to: inWork)
        }
        let reordered = try Self.outputs(of: scenario, workers: 2, in: work)
        Self.expectSame(one, reordered, "\(name): fences shuffled in the file")
    }

    // MARK: Shuffling the features of a FeatureCollection, text untouched

    /// The byte ranges of the elements of the top-level `features` array.
    static func featureRanges(_ bytes: [UInt8]) -> (open: Int, close: Int, elements: [Range<Int>])? {
        var depth = 0
        var inString = false
        var escaped = false
        var open: Int?
        var start = 0
        var elements: [Range<Int>] = []
        var lastKey: [UInt8] = []
        var keyStart: Int?
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                    if let s = keyStart { lastKey = Array(bytes[s..<i]) }
                    keyStart = nil
                }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                inString = true
                if depth == 1 { keyStart = i + 1 }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if b == UInt8(ascii: "["), depth == 2, open == nil, lastKey == Array("features".utf8) {
                    open = i
                    start = i + 1
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == 2, let o = open, b == UInt8(ascii: "]") {
                    let element = start..<i
                    if bytes[element].contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) {
                        elements.append(element)
                    }
                    return (o, i, elements)
                }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 2, open != nil {
                    elements.append(start..<i)
                    start = i + 1
                }
            default:
                break
            }
            i += 1
        }
        return nil
    }

    static func featureCount(_ bytes: [UInt8]) -> Int { featureRanges(bytes)?.elements.count ?? 0 }

    /// The file with its features in another order (seeded, never the identity for 2 or more).
    static func shuffledFeatures(_ bytes: [UInt8]) -> [UInt8]? {
        guard let (open, close, elements) = featureRanges(bytes) else { return nil }
        var order = Array(elements.indices)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in stride(from: order.count - 1, to: 0, by: -1) {
            // SplitMix64 (swift-algorithms): a fixed permutation on every machine.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            order.swapAt(i, Int(z % UInt64(i + 1)))
        }
        if order == Array(elements.indices) { order.reverse() }
        var out = Array(bytes[...open])
        for (k, index) in order.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            out += bytes[elements[index]]
        }
        out += bytes[close...]
        return out
    }

    @Test("the shuffle keeps every feature's bytes")
    func shuffleKeepsFeatures() throws {
        let text = #"{"type":"FeatureCollection","features":[{"a":"x,]"},{"b":[1,2]} , {"c":{"d":"\"]"}}]}"#
        let shuffled = try #require(Self.shuffledFeatures(Array(text.utf8)))
        let result = String(decoding: shuffled, as: UTF8.self)
        #expect(result != text)
        for piece in [#"{"a":"x,]"}"#, #"{"b":[1,2]}"#, #"{"c":{"d":"\"]"}}"#] {
            #expect(result.contains(piece), "\(piece) lost in \(result)")
        }
        #expect(Self.featureCount(shuffled) == 3)
    }
}
