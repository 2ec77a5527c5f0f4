import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `fencesim check` through the built binary (SPEC §6.5).
@Suite struct CheckCommandTests {
    /// Two 50 m circles A (8.5 E) and B (8.503 E) in zones za and zb; `radiusB` moves B's edge.
    static func fences(radiusB: Int = 50) -> String {
        """
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"id": "A", "radius": 50, "zone": "za"}, "geometry": {"type": "Point", "coordinates": [8.5, 47.39]}},
        {"type": "Feature", "properties": {"id": "B", "radius": \(radiusB), "zone": "zb"}, "geometry": {"type": "Point", "coordinates": [8.503, 47.39]}}
        ]}
        """
    }

    /// A walk east past both fences, one fix every 10 s.
    static let trace: String = {
        var lines = ["time,lat,lon"]
        for k in 0..<40 {
            lines.append(String(format: "2026-01-01T09:%02d:%02dZ,47.39,%.5f", k * 10 / 60, k * 10 % 60, 8.4985 + 0.00015 * Double(k)))
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    /// A folder with `scenarios/walk.yaml` (and the fences and trace beside it).
    static func folder() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let scenarios = dir.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try fences().write(to: scenarios.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        try trace.write(to: scenarios.appendingPathComponent("walk.csv"), atomically: true, encoding: .utf8)
        try "traces: [walk.csv]\nfences: fences.geojson\nzones: [{id: za}, {id: zb}]\n"
            .write(to: scenarios.appendingPathComponent("walk.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    static func golden(_ dir: URL) -> URL { dir.appendingPathComponent("scenarios/expected/walk.jsonl") }

    @Test func updateWritesTheGoldenLogAndThenTheScenarioPasses() throws {
        let dir = try Self.folder()
        let missing = try CLI.run(["check", "scenarios/walk.yaml"], in: dir)
        #expect(missing.status == 66, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stderr.contains("scenarios/expected/walk.jsonl: error: there is no golden log here yet; fencesim check --update"))
        let update = try CLI.run(["check", "scenarios/walk.yaml", "--update"], in: dir)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.hasPrefix("UPDATED scenarios/walk.yaml (scenarios/expected/walk.jsonl, "), "\(update.stdout)")
        // The golden log is exactly what run writes.
        let run = try CLI.run(["run", "scenarios/walk.yaml"], in: dir)
        let golden = try String(contentsOf: Self.golden(dir), encoding: .utf8)
        #expect(golden == run.stdout)
        #expect(golden.contains("\"type\":\"checkin\""))
        let check = try CLI.run(["check", "scenarios/walk.yaml"], in: dir)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.hasPrefix("PASS scenarios/walk.yaml ("))
        #expect(check.stdout.contains("1 scenario: 1 passed, 0 failed, 0 errors"))
        let again = try CLI.run(["check", "scenarios/", "--update"], in: dir)
        #expect(again.stdout.hasPrefix("UNCHANGED scenarios/walk.yaml"), "\(again.stdout)")
    }

    @Test func aChangedFencePrintsAReadableDiffAndExits1ThenUpdatePasses() throws {
        let dir = try Self.folder()
        #expect(try CLI.run(["check", "scenarios", "--update"], in: dir).status == 0)
        // B shrinks from 50 m to 30 m: it is entered later and left sooner.
        try Self.fences(radiusB: 30).write(to: dir.appendingPathComponent("scenarios/fences.geojson"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["check", "scenarios"], in: dir)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        let out = r.stdout
        #expect(out.contains("FAIL scenarios/walk.yaml: "), "\(out)")
        #expect(out.contains("differences from scenarios/expected/walk.jsonl"))
        #expect(out.contains("trace walk.csv: "))
        #expect(out.contains("changed"))
        // Field by field, with times and the golden line.
        let enterB = try #require(out.split(separator: "\n").first { $0.contains("~ changed") && $0.contains("enter fence=\"B\"") })
        #expect(enterB.contains("(golden line "), "\(enterB)")
        #expect(out.contains("      time: 2026-01-01T09:"), "\(out)")
        #expect(out.contains("      distance: "))
        #expect(out.contains("accept the new events with: fencesim check --update scenarios/walk.yaml"))
        #expect(out.contains("1 scenario: 0 passed, 1 failed, 0 errors"))
        // Accepting the change makes it pass.
        let update = try CLI.run(["check", "scenarios", "--update"], in: dir)
        #expect(update.stdout.hasPrefix("UPDATED "))
        #expect(try CLI.run(["check", "scenarios"], in: dir).status == 0)
    }

    @Test func junitHasOneCasePerScenarioAndTheFailureWithItsDiff() throws {
        let dir = try Self.folder()
        let scenarios = dir.appendingPathComponent("scenarios")
        try "traces: [walk.csv]\nfences: fences.geojson\nzones: [{id: za}, {id: zb}]\ngeotrigger: {buffer: 20}\n"
            .write(to: scenarios.appendingPathComponent("wide.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["check", "scenarios", "--update"], in: dir).status == 0)
        try "traces: [walk.csv]\nfences: fences.geojson\nzones: [{id: za}, {id: zb}]\ngeotrigger: {buffer: 5}\n"
            .write(to: scenarios.appendingPathComponent("wide.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["check", "scenarios", "--junit", "out/junit.xml"], in: dir)
        #expect(r.status == 1)
        let data = try Data(contentsOf: dir.appendingPathComponent("out/junit.xml"))
        let collector = XMLCollector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        #expect(parser.parse(), "\(String(decoding: data, as: UTF8.self))")
        let cases = collector.elements.filter { $0.name == "testcase" }
        #expect(cases.map { $0.attributes["name"] ?? "" } == ["scenarios/walk.yaml", "scenarios/wide.yaml"])
        #expect(collector.elements.first { $0.name == "testsuite" }?.attributes["tests"] == "2")
        #expect(collector.elements.first { $0.name == "testsuite" }?.attributes["failures"] == "1")
        let failure = try #require(collector.elements.first { $0.name == "failure" })
        #expect(failure.attributes["message"]?.contains("from scenarios/expected/wide.jsonl") == true)
        #expect(collector.text.contains("trace walk.csv:"))
    }

    @Test func aGoldenLogThatIsNotAnEventLogIsALocatedError65() throws {
        let dir = try Self.folder()
        #expect(try CLI.run(["check", "scenarios", "--update"], in: dir).status == 0)
        let golden = Self.golden(dir)
        var lines = try String(contentsOf: golden, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[2] = "time,seq,trace,type"
        try (lines.joined(separator: "\n") + "\n").write(to: golden, atomically: true, encoding: .utf8)
        let r = try CLI.run(["check", "scenarios/walk.yaml", "--junit", "j.xml"], in: dir)
        #expect(r.status == 65, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stderr.hasPrefix("scenarios/expected/walk.jsonl:3:1: error: line 3 is not an event of a JSON Lines event log"), "\(r.stderr)")
        #expect(r.stdout.contains("ERROR scenarios/walk.yaml"))
        let xml = try String(contentsOf: dir.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(xml.contains("<error message=\"scenarios/expected/walk.jsonl:3:1: error: "))
    }

    @Test func aMissingScenarioOrEmptyFolderExits66() throws {
        let dir = try CLI.temporaryDirectory()
        #expect(try CLI.run(["check", "nope.yaml"], in: dir).status == 66)
        #expect(try CLI.run(["check", "."], in: dir).status == 66)
    }

    @Test func theBundledScenariosMatchTheirGoldenLogs() throws {
        let r = try CLI.run(["check", "scenarios/"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("PASS scenarios/demo.yaml"))
    }
}

/// Collects the elements and text of an XML document with Foundation's parser.
final class XMLCollector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var text = ""

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append((elementName, attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
