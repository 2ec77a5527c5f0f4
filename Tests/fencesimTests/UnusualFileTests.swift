import Foundation
import Testing

/// What a replay says about a CSV it can only half understand: no time column, speeds in km/h,
/// times without a zone.
@Suite struct UnusualFileTests {
    static let fences = ["--fences", "traces/demo-fences.geojson"]

    static func write(_ text: String, named name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [["replay"], ["report", "--quiet"]])
    func noTimeColumnNamesTheColumnsSeen(_ command: [String]) throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.write("lat,lon,when\n47.37,8.54,1\n47.38,8.54,2\n", named: "untimed.csv", in: folder)
        for lenient in [[], ["--lenient"]] {
            let result = try CLI.run([command[0], path] + command.dropFirst() + Self.fences + lenient)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("\(path):1:1: error: no time column in the header"), "\(result.stderr)")
            #expect(result.stderr.contains("the columns are: 'lat', 'lon', 'when'"), "\(result.stderr)")
            #expect(result.stderr.contains("--columns time=NAME"), "\(result.stderr)")
        }
        let mapped = try CLI.run(["replay", path, "--columns", "time=when:s", "--summary"] + Self.fences)
        #expect(mapped.status == 0, "\(mapped.stderr)")
    }

    @Test func inspectStillDescribesAnUntimedFile() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.write("lat,lon,when\n47.37,8.54,1\n47.38,8.54,2\n", named: "untimed.csv", in: folder)
        let result = try CLI.run(["inspect", path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func speedsInKilometresPerHourAreSuspected() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 10 m/s of motion, speed written as 36 (km/h).
        var rows = ["lat,lon,time,speed"]
        for k in 0..<60 { rows.append(String(format: "%.7f,8.54,%d,36.0", 47.37 + Double(k) * 10 / 111_195, 1_000 + k)) }
        let path = try Self.write(rows.joined(separator: "\n") + "\n", named: "kmh.csv", in: folder)
        let result = try CLI.run(["replay", path, "--summary"] + Self.fences)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(path): warning: reported speeds look like km/h"), "\(result.stderr)")
        #expect(result.stderr.contains("--columns speed=NAME:kmh"), "\(result.stderr)")
        let declared = try CLI.run(["replay", path, "--summary", "--columns", "speed=speed:kmh"] + Self.fences)
        #expect(!declared.stderr.contains("look like km/h"), "\(declared.stderr)")
    }

    @Test(.enabled(if: CLI.sharedData != nil, "needs ../shared/data (transbigdata traj2.csv); skipped when absent"))
    func shenzhenTaxiSpeedsAreKilometresPerHour() throws {
        guard let data = CLI.sharedData else { return }
        let path = data.appendingPathComponent("transbigdata/src/transbigdata/tests/data/traj2.csv").path
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("skipped: \(path) is absent")
            return
        }
        let result = try CLI.run(["inspect", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("speed-unit 1"), "\(result.stdout)")
        #expect(result.stdout.contains("reported speeds look like km/h"), "\(result.stdout)")
    }

    @Test func timesWithoutAZoneAreSaidOnceAndTakeATimezone() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.write(
            "lat,lon,time\n47.37,8.54,2026-07-01 08:00:00\n47.3701,8.54,2026-07-01 08:00:10\n", named: "local.csv", in: folder)
        let utc = try CLI.run(["replay", path, path, "--format", "csv"] + Self.fences)
        #expect(utc.status == 0, "\(utc.stderr)")
        let notes = utc.stderr.components(separatedBy: "without a zone")
        #expect(notes.count == 2, "said once: \(utc.stderr)")
        #expect(utc.stderr.contains("read as UTC") && utc.stderr.contains("--timezone"), "\(utc.stderr)")
        // Zurich in July is UTC+2: the 08:00 fix is at 06:00Z.
        let fences = folder.appendingPathComponent("f.geojson").path
        try """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"here","radius":50},"geometry":{"type":"Point","coordinates":[8.54,47.37]}}]}
        """.write(toFile: fences, atomically: true, encoding: .utf8)
        let zurich = try CLI.run(["replay", path, "--fences", fences, "--format", "csv", "--timezone", "Europe/Zurich"])
        #expect(zurich.status == 0, "\(zurich.stderr)")
        #expect(zurich.stdout.contains("2026-07-01T06:00:00.000Z"), "\(zurich.stdout)")
        let offset = try CLI.run(["replay", path, "--fences", fences, "--format", "csv", "--timezone", "+02:00"])
        #expect(offset.stdout == zurich.stdout)
        let bad = try CLI.run(["replay", path, "--fences", fences, "--timezone", "Mars/Olympus"])
        #expect(bad.status == 64, "\(bad.stderr)")
        let zoned = try CLI.run(["replay", "traces/places-apart.csv", "--summary"] + Self.fences)
        #expect(!zoned.stderr.contains("without a zone"), "\(zoned.stderr)")
    }
}
