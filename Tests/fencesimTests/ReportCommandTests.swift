import Foundation
import Testing

/// `fencesim report` through the built binary: batches with a bad trace, manifests, atomic
/// outputs, located errors in truth files.
@Suite struct ReportCommandTests {
    static let fences = """
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"id": "A", "radius": 50, "zone": "za"}, "geometry": {"type": "Point", "coordinates": [8.5, 47.39]}},
        {"type": "Feature", "properties": {"id": "B", "radius": 50}, "geometry": {"type": "Point", "coordinates": [8.503, 47.39]}}
        ]}
        """

    /// A drive east through A and B, a fix every 10 s (about 7.5 m/s).
    static func drive(minute: Int) -> String {
        var out = "time,lat,lon\n"
        for k in 0..<60 {
            let s = minute * 60 + k * 10
            out += String(format: "2026-01-01T09:%02d:%02dZ,47.39,%.6f\n", s / 60, s % 60, 8.497 + Double(k) * 0.0001)
        }
        return out
    }

    static func folder() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try fences.write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        let traces = dir.appendingPathComponent("traces")
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        try drive(minute: 0).write(to: traces.appendingPathComponent("a.csv"), atomically: true, encoding: .utf8)
        try drive(minute: 20).write(to: traces.appendingPathComponent("c.csv"), atomically: true, encoding: .utf8)
        // The third fix's latitude is not a number.
        try "time,lat,lon\n2026-01-01T10:00:00Z,47.39,8.497\n2026-01-01T10:00:10Z,north,8.498\n"
            .write(to: traces.appendingPathComponent("b.csv"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func folderWithABadTraceReportsTheOthersAndExits65() throws {
        let dir = try Self.folder()
        let json = dir.appendingPathComponent("report.json").path
        let html = dir.appendingPathComponent("report.html").path
        let r = try CLI.run(["report", "traces", "--fences", "fences.geojson", "--json", json, "--html", html, "--workers", "2"], in: dir)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("traces/b.csv:3:"), "\(r.stderr)")
        // No progress bar: standard error is not a terminal.
        #expect(!r.stderr.contains("█"))
        // The others are reported, in order.
        #expect(r.stdout.contains("traces/a.csv") && r.stdout.contains("traces/c.csv"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let traces = try #require(object["traces"] as? [[String: Any]])
        #expect(traces.map { $0["status"] as? String } == ["ok", "failed", "ok"])
        let overall = try #require(object["overall"] as? [String: Any])
        #expect(overall["truthVisits"] as? Int == 4)
        #expect(overall["recall"] as? Double == 1)
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("Traces that failed"))
    }

    /// A long trace that goes bad after several of the chunks it streams in (its replay and its
    /// truth have taken them): the trace fails with the reading's located error, strict, and the
    /// other traces of the batch are reported as ever; lenient, the bad fix is dropped with a
    /// warning and the trace is scored.
    @Test func aTraceGoingBadAfterSeveralChunksFailsLocated() throws {
        let dir = try Self.folder()
        try FileManager.default.removeItem(at: dir.appendingPathComponent("traces/b.csv"))
        // Back and forth through A and B at 7.5 m/s, a fix a second.
        var long = "time,lat,lon\n"
        for k in 0..<50_000 {
            let lat = k == 40_000 ? "north" : "47.39"
            long += String(
                format: "2026-01-02T%02d:%02d:%02dZ,%@,%.6f\n", k / 3600, k / 60 % 60, k % 60, lat,
                8.497 + Double(k % 120 < 60 ? k % 60 : 60 - k % 60) * 0.0001)
        }
        try long.write(to: dir.appendingPathComponent("traces/long.csv"), atomically: true, encoding: .utf8)
        let json = dir.appendingPathComponent("report.json").path
        let strict = try CLI.run(["report", "traces", "--fences", "fences.geojson", "--json", json], in: dir)
        #expect(strict.status == 65, "\(strict.stderr)")
        #expect(strict.stderr.contains("traces/long.csv:40002:"), "\(strict.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let traces = try #require(object["traces"] as? [[String: Any]])
        #expect(traces.map { $0["status"] as? String } == ["ok", "ok", "failed"], "\(traces)")
        let lenient = try CLI.run(["report", "traces", "--fences", "fences.geojson", "--json", json, "--lenient"], in: dir)
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains("traces/long.csv:40002:"), "\(lenient.stderr)")
        let scored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let entries = try #require(scored["traces"] as? [[String: Any]])
        #expect(entries.map { $0["status"] as? String } == ["ok", "ok", "ok"])
        #expect(entries.last?["fixes"] as? Int == 49_999, "\(entries.last ?? [:])")
    }

    @Test func manifestAndGlob() throws {
        let dir = try Self.folder()
        try "# the good ones\ntraces/a.csv\n\ntraces/c.csv\n".write(
            to: dir.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["report", "list.txt", "--fences", "fences.geojson"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("traces/a.csv") && r.stdout.contains("traces/c.csv"))
        let g = try CLI.run(
            ["report", "traces/[ac].csv", "--fences", "fences.geojson", "--degrade", "resample=20,exitLoss=1,seed=1"], in: dir)
        #expect(g.status == 0, "\(g.stderr)")
        #expect(g.stdout.contains("exit loss 100.0 %"))
    }

    @Test func aFailingRunLeavesTheOldReportIntact() throws {
        let dir = try Self.folder()
        let html = dir.appendingPathComponent("report.html")
        try "GOOD OLD REPORT".write(to: html, atomically: true, encoding: .utf8)
        // A visits file naming a fence that does not exist: located, exit 65, nothing written.
        try "fence,enter,exit\nA,2026-01-01T09:00:10Z,2026-01-01T09:01:00Z\nZ,2026-01-01T09:02:00Z,\n"
            .write(to: dir.appendingPathComponent("visits.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(
            ["report", "traces/a.csv", "--fences", "fences.geojson", "--truth", "visits.csv", "--html", html.path], in: dir)
        #expect(r.status == 65)
        #expect(r.stderr.contains("visits.csv:3:1: error: unknown fence \"Z\""), "\(r.stderr)")
        #expect(try String(contentsOf: html, encoding: .utf8) == "GOOD OLD REPORT")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
        // With a good visits file the report replaces it.
        try "fence,enter,exit\nA,2026-01-01T09:00:10Z,2026-01-01T09:01:00Z\n".write(
            to: dir.appendingPathComponent("visits.csv"), atomically: true, encoding: .utf8)
        let ok = try CLI.run(
            ["report", "traces/a.csv", "--fences", "fences.geojson", "--truth", "visits.csv", "--html", html.path], in: dir)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try String(contentsOf: html, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
    }

    /// `--html` and `--json` are written both or neither (issue 21): a JSON destination that
    /// cannot be written (its folder is missing) leaves the old HTML in place and no temporary.
    @Test func bothFilesOrNeither() throws {
        let dir = try Self.folder()
        let html = dir.appendingPathComponent("report.html")
        try "GOOD OLD REPORT".write(to: html, atomically: true, encoding: .utf8)
        let r = try CLI.run(
            [
                "report", "traces/a.csv", "--fences", "fences.geojson", "--html", html.path,
                "--json", dir.appendingPathComponent("missing/report.json").path, "--quiet",
            ], in: dir)
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("missing/report.json"), "\(r.stderr)")
        #expect(try String(contentsOf: html, encoding: .utf8) == "GOOD OLD REPORT")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func degradedDemoScenario() throws {
        let dir = try CLI.temporaryDirectory()
        let json = dir.appendingPathComponent("demo.json").path
        let r = try CLI.run(["report", "scenarios/demo-degraded.yaml", "--json", json, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let first = try String(contentsOfFile: json, encoding: .utf8)
        let again = try CLI.run(["report", "scenarios/demo-degraded.yaml", "--json", json, "--quiet", "--workers", "1"])
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: json, encoding: .utf8) == first)
        #expect(first.contains("\"seed\": 42"))
        let bad = try CLI.run(["report", "scenarios/demo-degraded.yaml", "--degrade", "noise=-1"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--degrade:1:7: error: noise must not be negative"), "\(bad.stderr)")
    }

    /// A bad `--degrade` is a usage error located at the column of the bad pair, key or value.
    @Test(arguments: [
        ("resample=10, noise=-1", "--degrade:1:20: error: noise must not be negative"),
        ("resample=10,speed=3", "--degrade:1:13: error: unknown degrade key \"speed\""),
        ("resample=10,noise", "--degrade:1:13: error: \"noise\" is not key=number"),
        ("seed=1, dropout=x", "--degrade:1:9: error: \" dropout=x\" is not key=number"),
    ])
    func aBadDegradeIsLocatedInTheOption(text: String, expected: String) throws {
        let r = try CLI.run(["report", "scenarios/demo-degraded.yaml", "--degrade", text])
        #expect(r.status == 64)
        #expect(r.stderr.contains(expected), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}
