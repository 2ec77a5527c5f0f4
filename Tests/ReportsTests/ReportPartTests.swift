import Files
import Foundation
import Support
import Testing
import Traces

@testable import Execution
@testable import Regression
@testable import Reports

/// A report's entries written into a shard's part and read back render the same bytes
/// (SPEC §6.7): the merge goes through the single run's renderers.
@Suite struct ReportPartTests {
    @Test func entriesReadBackFromAPartRenderTheSameReport() throws {
        let degradation = Degradation(resampleSeconds: 3, noise: 0.5, exitLoss: 0.3, seed: 5)
        let folder = try ReportTests.temporaryDirectory()
        let report = try ReportTests.report(degradation: degradation, in: folder, drawnEventsKept: AccuracyReport.markerLimit)
        let (fences, _, _) = try ReportTests.drives(in: folder)
        #expect(report.traces.contains { !$0.markers.isEmpty } && !report.visits.isEmpty)
        let header = RunPart.Header(
            kind: .report, run: "test", shard: try Shard(index: 0, count: 1), traceCount: report.traces.count,
            positions: Array(report.traces.indices), arguments: [])
        let bytes = RunPart.text(header, records: report.traces.map { $0.partValue(failure: nil) })
        var entries: [AccuracyReport.TraceEntry] = []
        let back = try RunPart.read(SourceText(file: "part.jsonl", bytes: bytes)) { (_, position, node) throws(FencesimError) in
            #expect(position == entries.count)
            entries.append(try AccuracyReport.TraceEntry.read(part: node).entry)
        }
        #expect(back == header)
        let merged = AccuracyReport(
            entries: entries, fences: fences, title: report.title, generator: report.generator,
            truth: report.truth, degradation: report.degradation)
        let sameHTML = ReportHTML.render(merged) == ReportHTML.render(report)
        #expect(sameHTML, "the HTML differs")
        #expect(ReportTable.render(merged) == ReportTable.render(report), "the table differs")
        let sink = MemorySink(), mergedSink = MemorySink()
        try ReportJSON.write(report, to: sink)
        try ReportJSON.write(merged, to: mergedSink)
        let same = mergedSink.bytes == sink.bytes
        #expect(same, "the JSON differs")
    }
}
