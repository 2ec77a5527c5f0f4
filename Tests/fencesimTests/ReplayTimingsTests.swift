import Foundation
import Testing

/// `replay --timings` reports where the time went on standard error and changes nothing else.
@Suite struct ReplayTimingsTests {
    static let base = ["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson"]

    @Test(arguments: [[], ["--summary"], ["--parse-only"]])
    func timingsGoToStandardErrorOnly(_ extra: [String]) throws {
        let plain = try CLI.run(Self.base + extra)
        let timed = try CLI.run(Self.base + extra + ["--timings"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(timed.status == 0, "\(timed.stderr)")
        #expect(timed.stdout == plain.stdout)
        let lines = timed.stderr.split(separator: "\n").filter { $0.hasPrefix("timing: ") }
        #expect(lines.first?.hasPrefix("timing: read-fences ") == true, "\(timed.stderr)")
        #expect(lines.last?.hasPrefix("timing: total ") == true, "\(timed.stderr)")
        for line in lines.dropLast() {
            #expect(line.contains(" s, ") && line.hasSuffix(" MiB resident"), "\(line)")
        }
        #expect(!plain.stderr.contains("timing:"))
    }
}
