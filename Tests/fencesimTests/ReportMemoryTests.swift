import Foundation
import Testing

/// A report holds no trace in memory (issue 20): its fixes stream to the replay, through the
/// degradation, and to the ground truth. Laps of a 2 km circle past three fences, 100,000 fixes
/// and four times as many: the longer report's peak resident memory is within 16 MiB of the
/// shorter one's (holding the trace and its degraded feed took about 90 MB more), with the same
/// laps scored.
@Suite struct ReportMemoryTests {
    /// `count` fixes a second apart, at 10 m/s around a 2 km circle near Zürich.
    static func laps(count: Int) -> String {
        var text = "time,lat,lon,accuracy\n"
        text.reserveCapacity(count * 48)
        let t0 = 1_767_225_600.0
        let formatter = ISO8601DateFormatter()
        for k in 0..<count {
            let angle = Double(k) * 10 / 2000
            let lat = 47.38 + 2000 * sin(angle) / 111_132
            let lon = 8.54 + 2000 * cos(angle) / (111_320 * cos(47.38 * .pi / 180))
            text += formatter.string(from: Date(timeIntervalSince1970: t0 + Double(k)))
            text += "," + String(format: "%.7f,%.7f", lat, lon) + ",5\n"
        }
        return text
    }

    static let fences = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"east","radius":150},"geometry":{"type":"Point","coordinates":[8.5665,47.38]}},
        {"type":"Feature","properties":{"id":"north","radius":150},"geometry":{"type":"Point","coordinates":[8.54,47.398]}},
        {"type":"Feature","properties":{"id":"far","radius":150},"geometry":{"type":"Point","coordinates":[8.70,47.50]}}
        ]}
        """

    @Test func aLongerTraceDoesNotGrowTheReport() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fences = dir.appendingPathComponent("fences.geojson")
        try Self.fences.write(to: fences, atomically: true, encoding: .utf8)
        var peaks: [Int] = []
        var visits: [Int] = []
        for count in [100_000, 400_000] {
            let trace = dir.appendingPathComponent("laps-\(count).csv")
            try Self.laps(count: count).write(to: trace, atomically: true, encoding: .utf8)
            let json = dir.appendingPathComponent("report-\(count).json")
            let result = try TimedCLI.run(
                [
                    "report", trace.path, "--fences", fences.path, "--degrade", "noise=0.5,dropout=0.1,seed=3",
                    "--json", json.path, "--quiet",
                ], timeout: 600)
            #expect(result.status == 0, "\(result.stderr)")
            peaks.append(result.peakKiB)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            let overall = try #require(report["overall"] as? [String: Any])
            visits.append(try #require(overall["truthVisits"] as? Int))
        }
        // Not vacuous: the laps pass the fences, four times as often in the longer trace.
        #expect(visits[0] > 50 && visits[1] >= 4 * visits[0] - 2, "truth visits \(visits)")
        #expect(peaks[0] > 0 && peaks[1] <= peaks[0] + 16 * 1024, "peak resident memory \(peaks) KiB")
    }
}
