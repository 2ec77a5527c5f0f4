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
        #expect(lines.first?.hasPrefix("timing: list-traces ") == true, "\(timed.stderr)")
        #expect(lines.dropFirst().first?.hasPrefix("timing: read-fences ") == true, "\(timed.stderr)")
        #expect(lines.last?.hasPrefix("timing: total ") == true, "\(timed.stderr)")
        for line in lines.dropLast() {
            #expect(line.contains(" s, ") && line.hasSuffix(" MiB resident"), "\(line)")
        }
        #expect(!plain.stderr.contains("timing:"))
    }

    /// Every path of a replay says every phase it went through: sliced or whole-trace,
    /// summary or event log, streamed or a table.
    @Test(arguments: [
        (["--summary"], false),
        (["--summary", "--filter", "accuracy <= 50"], false),
        (["--format", "jsonl"], true),
        (["--format", "table"], true),
        (["--format", "csv", "--dwell", "10"], true),
        (["--format", "jsonl", "--message", "{fence.id}"], true),
    ])
    func everyPathSaysEveryPhase(_ extra: [String], _ writesLog: Bool) throws {
        let timed = try CLI.run(Self.base + extra + ["--timings"])
        #expect(timed.status == 0, "\(timed.stderr)")
        let names = timed.stderr.split(separator: "\n").filter { $0.hasPrefix("timing: ") }.map { $0.split(separator: " ")[1] }
        var expected = ["list-traces", "read-fences", "resolve-settings", "index-fences", "replay"]
        if writesLog { expected.append("write-log") }
        #expect(names == (expected + ["total"]).map { Substring($0) }, "\(extra): \(timed.stderr)")
    }
}

/// `replay --summary` of several traces: the sum of each trace's summary, and a trace that
/// fails is reported with its location while no summary is printed.
@Suite struct ReplaySummaryOfSeveralTracesTests {
    static let fences = ["--fences", "traces/demo-fences.geojson"]

    static func fields(_ line: String) -> [String: UInt64] {
        var out: [String: UInt64] = [:]
        for part in line.split(separator: " ") {
            let kv = part.split(separator: "=")
            if kv.count == 2, let v = UInt64(kv[1].trimmingCharacters(in: .whitespacesAndNewlines)) { out[String(kv[0])] = v }
        }
        return out
    }

    @Test(arguments: [[], ["--crs", "+proj=tmerc +lat_0=47.37 +lon_0=8.54 +k=1 +x_0=0 +y_0=0 +ellps=WGS84"]])
    func twoTracesSumTheirSummaries(_ crs: [String]) throws {
        let one = try CLI.run(["replay", "traces/demo-drive.gpx", "--summary"] + Self.fences + crs)
        let two = try CLI.run(
            ["replay", "traces/demo-drive.gpx", "traces/demo-drive.gpx", "--summary", "--workers", "2"] + Self.fences + crs)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(two.status == 0, "\(two.stderr)")
        let a = Self.fields(one.stdout)
        let b = Self.fields(two.stdout)
        #expect(a["enter"].map { $0 > 0 } == true, "\(one.stdout)")
        for key in ["inside_pairs", "enter", "exit"] {
            #expect(b[key] == a[key].map { $0 * 2 }, "\(key): \(one.stdout) \(two.stdout)")
        }
        for key in ["enter_checksum", "exit_checksum"] {
            #expect(b[key] == a[key].map { ($0 * 2) % (1 << 61) }, "\(key)")
        }
    }

    @Test func aBrokenTraceFailsTheSummaryWithItsLocation() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fencesim-summary-broken-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.csv")
        try "time,lat,lon\n2026-01-01T00:00:00Z,47.37,8.54\n2026-01-01T00:00:01Z,north,8.54\n".write(
            to: broken, atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", "traces/demo-drive.gpx", broken.path, "--summary"] + Self.fences)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("\(broken.path):3:"), "\(r.stderr)")
    }
}
