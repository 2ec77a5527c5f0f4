import Foundation
import Testing

/// `--lenient` says per trace how many fixes it dropped and why, and the count of warnings not
/// shown is the count of every warning past the first 20.
@Suite struct LenientDropSummaryTests {
    /// 300 fixes in order, 1,200 going back in time, then 150 without a time (past the 100 a
    /// replay lists one by one): 1,650 rows.
    static func write(in folder: URL) throws -> String {
        var rows = ["time,lat,lon"]
        for k in 0..<300 { rows.append("\(1_000 + k),47.37,8.54") }
        for k in 0..<1_200 { rows.append("\(k),47.37,8.54") }
        for _ in 0..<150 { rows.append(",47.37,8.54") }
        let path = folder.appendingPathComponent("backwards.csv").path
        try (rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [["replay", "--summary"], ["replay", "--format", "csv"], ["report", "--quiet"]])
    func oneLinePerFileAndTheRightCount(_ command: [String]) throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.write(in: folder)
        let result = try CLI.run([command[0], path] + command.dropFirst() + ["--fences", "traces/demo-fences.geojson", "--lenient"])
        #expect(result.status == 0, "\(result.stderr.suffix(600))")
        let notes = result.stderr.split(separator: "\n").filter { $0.hasPrefix("\(path): note: ") }
        if command[0] == "report" {
            // Scoring leaves untimed fixes out without a warning each.
            #expect(notes.contains { $0.hasSuffix("note: 1180 more warnings not shown") }, "\(notes)")
            #expect(notes.contains { $0.hasSuffix("note: dropped 1350 of 1650 fixes (time-backwards 1200, no-time 150)") }, "\(notes)")
        } else {
            #expect(notes.contains { $0.hasSuffix("note: 1330 more warnings not shown") }, "\(notes)")
            #expect(notes.contains { $0.hasSuffix("note: dropped 1350 of 1650 fixes (time-backwards 1200, no-time 150)") }, "\(notes)")
        }
    }

    @Test func strictReadsSayNothingOfDrops() throws {
        let result = try CLI.run(["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--summary"])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("dropped"), "\(result.stderr)")
    }
}
