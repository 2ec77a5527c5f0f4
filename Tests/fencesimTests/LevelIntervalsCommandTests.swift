import Foundation
import Testing

/// `--level intervals` and a geotrigger's `level: intervals` write an `inside` line for each
/// stretch inside a fence, at its end (issue 27, level events).
@Suite struct LevelIntervalsCommandTests {
    static let replay = ["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson"]

    @Test func insideLinesCloseAtTheExitOrTheTraceEnd() throws {
        let result = try CLI.run(Self.replay + ["--level", "intervals", "--initial-trigger", "none", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let inside = lines.filter { $0.contains("\"type\":\"inside\"") }
        // The depot the drive starts in (silently, initialTrigger none) and ends in, the two
        // stores and the fuel station; the bridge is a line (crossed, never inside).
        #expect(inside.count == 5, "\(inside)")
        #expect(inside.first?.contains("\"fence\":\"depot\"") == true)
        #expect(inside.first?.contains("\"enterTime\":\"2026-01-01T00:00:00.000Z\"") == true, "\(inside.first ?? "")")
        #expect(!lines.contains { $0.contains("\"type\":\"enter\"") && $0.contains("\"fix\":0,") }, "the initial enter stays silent")
        #expect(inside.last?.contains("\"reason\":\"the trace ended inside\"") == true, "\(inside.last ?? "")")
        // Each stretch's line comes right after the exit that closes it.
        for (k, line) in lines.enumerated() where line.contains("\"type\":\"inside\"") && !line.contains("trace ended") {
            #expect(k > 0 && lines[k - 1].contains("\"type\":\"exit\""), "\(line)")
        }
    }

    @Test(arguments: ["jsonl", "csv", "geojson", "table"])
    func everyFormatOnEveryWorkerCount(format: String) throws {
        let one = try CLI.run(Self.replay + ["--level", "intervals", "--format", format, "--workers", "1"])
        let two = try CLI.run(Self.replay + ["--level", "intervals", "--format", format, "--workers", "2"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        #expect(one.stdout == two.stdout)
        #expect(one.stdout.contains("inside"))
        let plain = try CLI.run(Self.replay + ["--format", format])
        let none = try CLI.run(Self.replay + ["--level", "none", "--format", format])
        #expect(plain.stdout == none.stdout)
        #expect(!plain.stdout.contains("inside"))
    }

    @Test func aBadLevelIsAUsageError() throws {
        let result = try CLI.run(Self.replay + ["--level", "fixes"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--level must be one of none, intervals"), "\(result.stderr)")
    }
}
