import Foundation
import Testing

/// The command line as a newcomer meets it: usage lines, help, and errors that say what works.
@Suite struct UsageLineTests {
    static let fences = ["--fences", "traces/demo-fences.geojson"]

    /// Values refused while parsing and values refused once parsing is over both print the
    /// usage line of the command at hand.
    @Test(arguments: [
        (["replay", "x", "--fences", "f", "--feed", "disc"], "replay"),
        (["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--crs", "bogus"], "replay"),
        (["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--columns", "lattitude"], "replay"),
        (["report", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--crs", "bogus"], "report"),
        (["run", "scenarios/demo.yaml", "--columns", "x"], "run"),
        (["check", "scenarios/demo.yaml", "--columns", "x"], "check"),
        (["lint", "traces/demo-fences.geojson", "--crs", "bogus"], "lint"),
        (["inspect", "traces/demo-drive.gpx", "--columns", "x"], "inspect"),
    ])
    func anOptionErrorPrintsTheSubcommandsUsage(_ arguments: [String], _ command: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("Usage: fencesim \(command) "), "\(result.stderr)")
        #expect(!result.stderr.contains("fencesim <subcommand>"), "\(result.stderr)")
        #expect(result.stderr.contains("See 'fencesim \(command) --help'"), "\(result.stderr)")
    }
}
