import Foundation
import Testing

/// A replay whose fences lie nowhere near its traces says so, rather than only "(no events)".
@Suite struct FenceReachTests {
    /// Store A of the demo fences, written latitude first.
    static let swapped = """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"store-a","radius":60},"geometry":{"type":"Point","coordinates":[47.3726,8.5421]}}]}
        """

    @Test(arguments: [
        ["replay", "--format", "table"], ["replay", "--summary"], ["replay", "--format", "jsonl", "--workers", "1"], ["report", "--quiet"],
    ])
    func swappedCoordinatesAreSaid(_ command: [String]) throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fences = folder.appendingPathComponent("swapped.geojson").path
        try Self.swapped.write(toFile: fences, atomically: true, encoding: .utf8)
        let result = try CLI.run([command[0], "traces/demo-drive.gpx"] + command.dropFirst() + ["--fences", fences])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(fences): warning: no fence lies within 1000 m of any trace"), "\(result.stderr)")
        #expect(result.stderr.contains("latitude and longitude swapped"), "\(result.stderr)")
    }

    @Test func fencesWithinReachSayNothing() throws {
        let result = try CLI.run(["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--summary"])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("no fence lies"), "\(result.stderr)")
    }
}
