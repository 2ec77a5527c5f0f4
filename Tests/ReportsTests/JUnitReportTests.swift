import Foundation
import Testing

@testable import Reports

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The JUnit XML of `fencesim check --junit` (SPEC §6.5).
@Suite struct JUnitReportTests {
    /// Collects the elements of an XML document with Foundation's parser.
    final class Collector: NSObject, XMLParserDelegate {
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

    @Test func junitIsWellFormedWithOneCasePerScenario() throws {
        let diff = "trace a.csv: 1 missing\n  - missing  2026-01-01T09:00:00.000Z enter fence=\"A&B <1>\"\n"
        let report = JUnitReport(cases: [
            JUnitReport.TestCase(name: "scenarios/a.yaml", file: "scenarios/a.yaml", outcome: .passed),
            JUnitReport.TestCase(
                name: "scenarios/b.yaml", file: "scenarios/b.yaml", outcome: .failed(message: "1 difference from x", text: diff)),
            JUnitReport.TestCase(name: "scenarios/c \"d\".yaml", outcome: .error(message: "c.yaml:1:1: error: bad\u{1}", text: "bad")),
        ])
        let parser = XMLParser(data: Data(report.xml.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")\n\(report.xml)")
        let suites = collector.elements.filter { $0.name == "testsuite" }
        #expect(suites.count == 1)
        #expect(suites.first?.attributes["tests"] == "3")
        #expect(suites.first?.attributes["failures"] == "1")
        #expect(suites.first?.attributes["errors"] == "1")
        let cases = collector.elements.filter { $0.name == "testcase" }
        #expect(cases.map { $0.attributes["name"] ?? "" } == ["scenarios/a.yaml", "scenarios/b.yaml", "scenarios/c \"d\".yaml"])
        #expect(collector.elements.filter { $0.name == "failure" }.map { $0.attributes["message"] ?? "" } == ["1 difference from x"])
        #expect(collector.elements.contains { $0.name == "error" })
        #expect(collector.text.contains("fence=\"A&B <1>\""))
        // Deterministic: no time stamps.
        #expect(report.xml == JUnitReport(cases: report.cases).xml)
        #expect(!report.xml.contains("timestamp"))
    }
}
