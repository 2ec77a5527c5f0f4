import Foundation
import Testing

/// `run`, `report`, `lint` and sharded runs of a scenario with `geotriggers:` through the built
/// binary (issue 27): scenarios/demo-geotriggers.yaml.
@Suite struct GeotriggersCommandTests {
    static let scenario = CLI.packageRoot.appendingPathComponent("scenarios/demo-geotriggers.yaml").path

    @Test func everyFormatNamesTheGeotrigger() throws {
        for format in ["jsonl", "csv", "geojson", "table"] {
            let r = try CLI.run(["run", Self.scenario, "--format", format])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("approach") && r.stdout.contains("venues"), "\(format)")
        }
        let csv = try CLI.run(["run", Self.scenario, "--format", "csv"]).stdout
        let header = csv.split(separator: "\n")[0].split(separator: ",").map(String.init)
        let column = try #require(header.firstIndex(of: "geotrigger"))
        let names = Set(csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[column] })
        #expect(names == ["", "arrivals", "approach", "venues"], "\(names)")
        let demo = try CLI.run(["run", CLI.packageRoot.appendingPathComponent("scenarios/demo.yaml").path, "--format", "csv"])
        #expect(demo.status == 0 && !demo.stdout.contains("geotrigger"))
    }

    @Test func aReportScoresEachFenceOnce() throws {
        let r = try CLI.run(["report", Self.scenario])
        #expect(r.status == 0, "\(r.stderr)")
        // Six fences visited (two stores, the fuel station, three venues): six truth visits, each
        // detected once although two geotriggers watch each store.
        let all = try #require(r.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("all ") })
        let cells = all.split(separator: " ")
        #expect(cells[1] == "6" && cells[2] == "6" && cells[3] == "0" && cells[4] == "0" && cells[5] == "0", "\(all)")
        #expect(r.stdout.contains("city/store-a ") && !r.stdout.contains("city/depot "))
    }

    @Test func theReplayViewNamesEachEventsGeotrigger() throws {
        let dir = try CLI.temporaryDirectory()
        let html = dir.appendingPathComponent("view.html").path
        let r = try CLI.run(["view", Self.scenario, "--html", html])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        // Both enters of store A are listed, each with its geotrigger (the map keeps the fence
        // inside until the last of them exits).
        #expect(page.contains(#"data-type="enter" data-fence="city/store-a" data-geotrigger="approach""#))
        #expect(page.contains(#"data-type="enter" data-fence="city/store-a" data-geotrigger="arrivals""#))
        #expect(page.contains("city/store-a · arrivals"))
    }

    @Test func lintChecksEachWatchedFenceOnce() throws {
        let r = try CLI.run(["lint", "--scenario", Self.scenario])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("6 fences") || r.stderr.contains("6 fences"), "\(r.stdout)\(r.stderr)")
    }

    @Test func shardsMergeIntoTheSingleRun() throws {
        let dir = try CLI.temporaryDirectory()
        for k in 0..<2 {
            let r = try CLI.run(["run", Self.scenario, "--shard", "\(k)/2", "--out", "parts"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        for format in ["jsonl", "csv"] {
            let single = try CLI.run(["run", Self.scenario, "--format", format])
            let merged = try CLI.run(["merge", "parts", "--format", format], in: dir)
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(merged.stdout == single.stdout, "\(format) differs")
        }
    }

    /// A run of several geotriggers whose drive meets none of their fences: the merged CSV has
    /// the `geotrigger` column the single run has, though no event fills it (the parts name
    /// their log's columns; the merge used to find them from the events alone).
    @Test func shardsWithoutEventsMergeIntoTheSingleRunsColumns() throws {
        let dir = try CLI.temporaryDirectory()
        let fences = dir.appendingPathComponent("far.geojson")
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"far","radius":50},"geometry":{"type":"Point","coordinates":[9.5,46.5]}}]}"#
            .write(to: fences, atomically: true, encoding: .utf8)
        let drive = CLI.packageRoot.appendingPathComponent("traces/demo-drive.gpx").path
        let scenario = dir.appendingPathComponent("far.yaml")
        try """
        name: far
        traces: [\(drive), \(drive)]
        fences: {remote: \(fences.path)}
        geotriggers:
          - name: one
            fences: remote
          - name: two
            fences: remote
            buffer: 10
        """.write(to: scenario, atomically: true, encoding: .utf8)
        for k in 0..<2 {
            let r = try CLI.run(["run", scenario.path, "--shard", "\(k)/2", "--out", "parts"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let single = try CLI.run(["run", scenario.path, "--format", "csv"])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(single.stdout.split(separator: "\n").first?.contains("geotrigger") == true, "\(single.stdout)")
        let merged = try CLI.run(["merge", "parts", "--format", "csv"], in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == single.stdout)
    }
}
