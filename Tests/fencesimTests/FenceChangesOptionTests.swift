import Foundation
import Testing

/// `replay`/`report --fence-changes FILE`: a fence-changes file for fences given on the command
/// line, read as a scenario's `fenceChanges:` is (issue 27).
@Suite struct FenceChangesOptionTests {
    static let replay = ["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson"]

    @Test func changesApplyToFencesGivenOnTheCommandLine() throws {
        let result = try CLI.run(Self.replay + ["--fence-changes", "traces/demo-fence-changes.jsonl", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        for reason in ["\"reason\":\"removed\"", "\"reason\":\"replaced\"", "\"reason\":\"added\""] {
            #expect(result.stdout.contains(reason), "\(reason)")
        }
        #expect(result.stdout.contains("\"fence\":\"pop-up\""), "the added fence is watched")
        let plain = try CLI.run(Self.replay + ["--format", "jsonl"])
        #expect(!plain.stdout.contains("\"reason\":\"removed\""))
    }

    @Test func aMissingFileAndAScenarioAreRefused() throws {
        let missing = try CLI.run(Self.replay + ["--fence-changes", "nowhere.jsonl"])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("fence changes file nowhere.jsonl does not exist"), "\(missing.stderr)")
        let scenario = try CLI.run(["report", "scenarios/demo.yaml", "--fence-changes", "traces/demo-fence-changes.jsonl", "--quiet"])
        #expect(scenario.status == 64, "\(scenario.stderr)")
        #expect(scenario.stderr.contains("fenceChanges:"), "\(scenario.stderr)")
    }
}
