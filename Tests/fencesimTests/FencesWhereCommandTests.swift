import Foundation
import Testing

/// `--fences-where` and a scenario's `geotrigger: where:` watch only the fences a where-clause
/// over their properties selects (issue 27).
@Suite struct FencesWhereCommandTests {
    /// The fences named in a CSV event log, in order of first appearance.
    static func fences(_ csv: String) -> [String] {
        var seen: [String] = []
        for line in csv.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            let fence = String(cells[6])
            if !fence.isEmpty, !seen.contains(fence) { seen.append(fence) }
        }
        return seen
    }

    @Test func replayWatchesOnlyTheSelectedFences() throws {
        let all = try CLI.run(["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--format", "csv"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(Set(Self.fences(all.stdout)).isSuperset(of: ["store-a", "store-b", "depot"]), "\(all.stdout)")
        let shops = try CLI.run([
            "replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--format", "csv",
            "--fences-where", "library = 'shops' and rank in (1, 2)",
        ])
        #expect(shops.status == 0, "\(shops.stderr)")
        #expect(Set(Self.fences(shops.stdout)) == ["store-a", "store-b"], "\(shops.stdout)")
        // The selected fences' lines are the same bytes as in the whole replay, less the others'.
        let kept = all.stdout.split(separator: "\n").dropFirst().filter { $0.contains(",store-a,") || $0.contains(",store-b,") }
        let got = shops.stdout.split(separator: "\n").dropFirst()
        #expect(kept.map { $0.split(separator: ",").dropFirst(2) } == got.map { $0.split(separator: ",").dropFirst(2) })
    }

    @Test func aClauseThatSelectsNothingWarns() throws {
        let result = try CLI.run([
            "replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--fences-where", "rank > 5",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: the where-clause \"rank > 5\" selects none of the"), "\(result.stderr)")
    }

    @Test func aBadClauseIsAUsageErrorWithACaret() throws {
        let result = try CLI.run([
            "replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--fences-where", "rank >> 1",
        ])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--fences-where: column 7: expected a value or a property"), "\(result.stderr)")
        #expect(result.stderr.contains("rank >> 1\n        ^"), "\(result.stderr)")
    }

    @Test func aScenarioWhereSelectsForRunAndReport() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = CLI.packageRoot.path
        let scenario = folder.appendingPathComponent("shops.yaml").path
        try """
        traces: [\(root)/traces/demo-drive.gpx]
        fences: \(root)/traces/demo-fences.geojson
        geotrigger:
          where: "zone = 'stores' and library is null"
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let run = try CLI.run(["run", scenario, "--format", "csv"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.fences(run.stdout) == ["fuel"], "\(run.stdout)")
        let report = try CLI.run(["report", scenario, "--quiet", "--json", folder.appendingPathComponent("r.json").path])
        #expect(report.status == 0, "\(report.stderr)")
        let json = try String(contentsOf: folder.appendingPathComponent("r.json"), encoding: .utf8)
        #expect(json.contains("\"fuel\""))
        #expect(!json.contains("\"store-a\""))
    }
}
