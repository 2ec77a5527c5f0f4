import Fences
import Foundation
import Support
import Testing
import Traces

@testable import Accuracy
@testable import Execution
@testable import Regression
@testable import Reports
@testable import Scenarios

/// The row of narrow fences of the sweep tests (SimulationTests/SweepTests.swift), built here
/// again: a drive east along the equator at 30 m/s with a fix every 30 m from x = 0, past ten
/// 8 m × 40 m rectangles centred on the road at x = 300 (k + 1) + phase[k].
enum NarrowRow {
    static let metresPerDegree = 6_378_137 * Double.pi / 180
    static let phases = [14.5, 0.5, 3.5, 6.5, 9.5, 12.5, 26.5, 28.5, 2.5, 11.5]

    /// Writes the drive, the fences and a scenario into a new folder; returns the scenario's path.
    static func write() throws -> String {
        let dir = try ReportTests.temporaryDirectory()
        var csv = "time,lat,lon,accuracy\n"
        for k in 0...111 {
            csv += String(format: "2026-01-01T00:%02d:%02d.000Z,0.0,%.10f,5\n", k / 60, k % 60, Double(30 * k) / metresPerDegree)
        }
        let half = 20 / 110_574.0
        let features = phases.enumerated().map { k, phase in
            let x = 300 * Double(k + 1) + phase
            let (w, e) = ((x - 4) / metresPerDegree, (x + 4) / metresPerDegree)
            let ring = [(w, -half), (e, -half), (e, half), (w, half), (w, -half)].map { String(format: "[%.10f,%.10f]", $0.0, $0.1) }
            return
                "{\"type\":\"Feature\",\"properties\":{\"id\":\"f\(k)\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[\(ring.joined(separator: ","))]]}}"
        }
        try csv.write(to: dir.appendingPathComponent("drive.csv"), atomically: true, encoding: .utf8)
        try ("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n")
            .write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        let scenario = dir.appendingPathComponent("row.yaml")
        try "name: narrow-row\ntraces: [drive.csv]\nfences: fences.geojson\ntruth: trace\n".write(
            to: scenario, atomically: true, encoding: .utf8)
        return scenario.path
    }
}

/// Sweep renderings (SPEC §6.4): the recall by speed of the row of narrow fences, and the table,
/// JSON and SVG plot showing the same numbers.
@Suite struct SweepReportTests {
    static func sweep(_ axes: [String], target: String?) throws -> (runner: ScenarioRunner, report: SweepReport) {
        let runner = try ScenarioRunner(scenario: try ScenarioReader.read(path: try NarrowRow.write()), workers: 2)
        let sweep = try Sweep(
            base: Sweep.Base(runner: runner, truth: .trace), axes: try axes.map { try SweepAxis(parsing: $0) },
            target: try target.map { try SweepTarget(parsing: $0) })
        let report = SweepReport(
            title: "narrow-row", generator: "fencesim test", scenario: "row.yaml", truth: "clean trace",
            degradation: nil, result: try sweep.run())
        return (runner, report)
    }

    /// Without a buffer, the report of the drive shows its five misses in the 30+ band (the speed
    /// at the true entry) and nowhere else; the sweep's row for that setting has the same numbers,
    /// and at the buffer it chooses the band has no miss left.
    @Test func recallBySpeedShowsTheMissesInThe30PlusBand() throws {
        let (runner, sweep) = try Self.sweep(["buffer=0,11"], target: "recall>=1")
        let evaluations = try Evaluator(Evaluator.Configuration(replay: runner.configuration, truth: .trace)).run(runner.scenario.traces)
        let report = AccuracyReport(
            evaluations: evaluations, fences: runner.fences, title: "narrow-row", generator: "fencesim test",
            truth: "clean trace", degradation: nil)
        let bands = Dictionary(uniqueKeysWithValues: report.summary.bySpeedBand.map { ($0.key, $0.metrics) })
        let fast = try #require(bands["30+"])
        #expect(fast.truthVisits == 10 && fast.missed == 5 && fast.missedInGap == 5)
        #expect(["0-5", "5-15", "15-30"].allSatisfy { bands[$0]?.truthVisits == 0 })
        let svg = SpeedRecallFigure.svg(report)
        #expect(svg.contains("data-band=\"30+\" data-recall=\"0.500\" data-missed=\"5\""))
        #expect(!svg.contains("data-band=\"15-30\" data-recall"))

        let rows = sweep.result.rows
        let swept = try #require(rows[0].summary.bySpeedBand.first { $0.key == "30+" }?.metrics)
        #expect(ReportTable.row("30+", swept) == ReportTable.row("30+", fast))
        #expect(ReportTable.row("all", rows[0].metrics) == ReportTable.row("all", report.summary.overall))
        let chosen = try #require(sweep.result.chosen)
        #expect(chosen.values == [.number(11)])
        #expect(chosen.summary.bySpeedBand.first { $0.key == "30+" }?.metrics.missed == 0)
    }

    @Test func theTableTheJSONAndThePlotAgree() throws {
        let (_, report) = try Self.sweep(["buffer=0,6,11", "relationship=intersects,contains"], target: "recall>=1,precision>=1")
        let r = report.result
        #expect(r.rows.count == 6)

        let table = SweepTable.render(report)
        let lines = table.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("# ") })
        #expect(
            header.split(separator: " ").map(String.init) == [
                "#", "buffer", "relationship", "recall", "precision", "f1", "enter", "p50", "exit", "p50",
                "falseExits/h", "visits", "missed", "target",
            ])
        for row in r.rows {
            let cells = SweepTable.row(row, in: r)
            #expect(lines.contains { $0.split(separator: " ").map(String.init) == cells }, "\(cells)")
        }
        #expect(table.hasSuffix("\nsmallest setting meeting the target recall>=1,precision>=1: #5 buffer=11, relationship=intersects\n"))
        #expect(report.verdict == "smallest setting meeting the target recall>=1,precision>=1: #5 buffer=11, relationship=intersects")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(SweepJSON.render(report).utf8)) as? [String: Any])
        #expect(json["sweep"] as? Int == 1 && json["traces"] as? Int == 1)
        let combinations = try #require(json["combinations"] as? [[String: Any]])
        #expect(combinations.count == 6)
        for (row, object) in zip(r.rows, combinations) {
            #expect(object["index"] as? Int == row.index + 1)
            let setting = try #require(object["setting"] as? [String: Any])
            #expect(setting["buffer"] as? Int == Int(row.values[0].description))
            #expect(setting["relationship"] as? String == row.values[1].description)
            #expect(object["meetsTarget"] as? Bool == row.meetsTarget)
            let overall = try #require(object["overall"] as? [String: Any])
            #expect(ReportNumber.ratio((overall["recall"] as? NSNumber)?.doubleValue) == ReportNumber.ratio(row.metrics.recall))
            #expect(overall["missed"] as? Int == row.metrics.missed)
        }
        let chosen = try #require(json["chosen"] as? [String: Any])
        #expect(chosen["index"] as? Int == 5)
        let target = try #require(json["target"] as? [String: Any])
        #expect(target["text"] as? String == "recall>=1,precision>=1")
        #expect((target["conditions"] as? [[String: Any]])?.map { $0["metric"] as? String ?? "" } == ["recall", "precision"])

        // The plot: self-contained, one point per combination in each of three panels.
        let svg = SweepFigure.svg(report)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(!svg.contains("href") && !svg.contains("<script") && !svg.contains("url("))
        for metric in ["recall", "precision", "f1"] { #expect(svg.contains("<g class=\"panel\" data-metric=\"\(metric)\">")) }
        for row in r.rows {
            let hits = svg.components(separatedBy: "data-row=\"\(row.index + 1)\" data-value=").count - 1
            #expect(hits == 3)
        }
        #expect(svg.components(separatedBy: "class=\"point meets\"").count - 1 == 3 * r.rows.filter { $0.meetsTarget == true }.count)
        #expect(svg.components(separatedBy: "<circle class=\"chosen\" data-row=\"5\"").count - 1 == 3)
        #expect(svg.contains("relationship=contains") && svg.contains("id=\"verdict\""))
        // Deterministic: the same sweep renders the same bytes.
        let (_, again) = try Self.sweep(["buffer=0,6,11", "relationship=intersects,contains"], target: "recall>=1,precision>=1")
        #expect(SweepFigure.svg(again) == svg && SweepJSON.render(again) == SweepJSON.render(report) && SweepTable.render(again) == table)
    }

    @Test func noSettingMeetingTheTargetIsSaid() throws {
        let (_, report) = try Self.sweep(["buffer=0,3"], target: "recall>=1")
        #expect(report.result.chosen == nil)
        #expect(SweepTable.render(report).hasSuffix("\nno setting meets the target recall>=1\n"))
        #expect(SweepJSON.render(report).contains("\"chosen\": null"))
        #expect(SweepFigure.svg(report).contains(">no setting meets the target recall&gt;=1</text>"))
    }
}
