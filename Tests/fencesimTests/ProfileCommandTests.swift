import Foundation
import Testing

/// `--profile` and `profile:` on the command line (issue 25): bad names, bad profile files and
/// unsupported combinations are located errors with SPEC §7's exit codes.
@Suite struct ProfileCommandTests {
    static let fences = "traces/demo-fences.geojson"
    static let drive = "traces/demo-drive.gpx"

    @Test func unknownProfileNameIsAUsageError() throws {
        let r = try CLI.run(["replay", Self.drive, "--fences", Self.fences, "--profile", "windows-phone"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--profile: error: \"windows-phone\" is neither a built-in profile (ios-region, ios-monitor, android-geofencing)"), "\(r.stderr)")
    }

    @Test func badProfileFileIsLocated() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.yaml")
        try "platform: ios-region\nsameSide: -3\n".write(to: file, atomically: true, encoding: .utf8)
        let r = try CLI.run(["report", Self.drive, "--fences", Self.fences, "--profile", file.path])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains(file.path + ":2:11: error: sameSide must be 0 to"), "\(r.stderr)")
        try "platform: ios-region\ncolour: blue\n".write(to: file, atomically: true, encoding: .utf8)
        let unknown = try CLI.run(["replay", Self.drive, "--fences", Self.fences, "--profile", file.path])
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains(file.path + ":2:1: error:") && unknown.stderr.contains("colour"), "\(unknown.stderr)")
    }

    @Test func profileWithPlacesIsRefusedAtTheKey() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = CLI.packageRoot.path
        let scenario = dir.appendingPathComponent("s.yaml")
        try """
            name: s
            traces: [\(root)/traces/demo-drive.gpx]
            fences: \(root)/traces/demo-fences.geojson
            places: {signals: checkins}
            profile: ios-monitor
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", scenario.path])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains(scenario.path + ":5:10: error: a profile cannot be combined with places or rules yet"), "\(r.stderr)")
    }

    /// The event log of a run with a profile: deliveries and check-ins taken from them, the same
    /// bytes in every format on one and two workers.
    @Test(arguments: ["jsonl", "csv", "geojson", "table"])
    func runWithAProfileIsTheSameBytesOnAnyWorkerCount(_ format: String) throws {
        let one = try CLI.run(["run", "scenarios/demo-android.yaml", "--format", format, "--workers", "1"])
        let two = try CLI.run(["run", "scenarios/demo-android.yaml", "--format", format, "--workers", "2"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)")
        #expect(one.stdout == two.stdout)
        #expect(one.stdout.contains("delivered") && one.stdout.contains("dropped") && one.stdout.contains("duplicate"))
    }
}
