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
        #expect(
            r.stderr.contains(
                "--profile: error: \"windows-phone\" is neither a built-in profile (ios-region, ios-monitor, android-geofencing)"),
            "\(r.stderr)")
    }

    /// The simulated operating system monitors a fence only while it exists (issue 27's fences
    /// changing over time): scenarios/demo-changes.yaml removes the depot at 00:00:30 (it comes
    /// back elsewhere at 00:08) and replaces store A while the van is near it. The profile's layer
    /// used to monitor every version of every fence for the whole drive: it delivered the
    /// removed depot's exit at 00:01:25, twice (the reopened version too), and each store A
    /// notification once per version.
    @Test(arguments: ["ios-region", "android-geofencing"])
    func aProfileMonitorsAFenceOnlyWhileItExists(profile: String) throws {
        let r = try CLI.run(["run", "scenarios/demo-changes.yaml", "--profile", profile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        var seen = Set<String>()
        var delivered = 0
        for line in r.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["type"] as? String == "delivered", let time = object["time"] as? String, let fence = object["fence"] as? String,
                let trigger = object["trigger"] as? String
            else { continue }
            delivered += 1
            // The depot exists from the start to 00:00:30 (the van is inside all along) and
            // again from 00:08, elsewhere: nothing of it is decided in between (a decision made
            // before its removal may still be delivered late).
            if fence == "depot", let decided = object["fixTime"] as? String {
                #expect(decided < "2026-01-01T00:00:30" || decided >= "2026-01-01T00:08:00", "\(line)")
            }
            // One version of a fence at a time: never the same notification twice at once
            // (a duplicate is logged as `duplicate`).
            #expect(seen.insert("\(fence) \(trigger) \(time)").inserted, "\(line)")
        }
        #expect(delivered > 0)
    }

    @Test func profileWithSummaryIsAUsageError() throws {
        let r = try CLI.run(["replay", Self.drive, "--fences", Self.fences, "--profile", "ios-region", "--summary"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--profile acts on the event log"))
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

    /// Places and the rules hear the profile's deliveries, not the engine: every check-in,
    /// Places signal and rule of a run with a profile is at the instant of a delivery, and the
    /// engine's enters (the geometry view) still stand in the log.
    @Test func placesAndRulesHearTheDeliveries() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = CLI.packageRoot.path
        var text = try String(contentsOfFile: root + "/scenarios/places-seed001-rules.yaml", encoding: .utf8)
            .replacingOccurrences(of: "../", with: root + "/")
        text += "\nprofile: {platform: android-geofencing, delayMinimum: 30, seed: 2}\n"
        let scenario = dir.appendingPathComponent("s.yaml")
        try text.write(to: scenario, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", scenario.path])
        #expect(r.status == 0, "\(r.stderr)")
        var delivered: Set<String> = []
        var engine: Set<String> = []
        var derived: [(String, String)] = []
        for line in r.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let type = object["type"] as? String, let time = object["time"] as? String, let trace = object["trace"] as? String
            else { continue }
            switch type {
            case "delivered", "duplicate": delivered.insert(trace + time)
            case "enter": engine.insert(trace + time)
            case "checkin", "checkout", "places.entry", "places.exit", "rule": derived.append((type, trace + time))
            default: break
            }
        }
        #expect(!engine.isEmpty && !delivered.isEmpty)
        #expect(derived.contains { $0.0 == "rule" } && derived.contains { $0.0 == "places.entry" })
        for (type, key) in derived { #expect(delivered.contains(key), "\(type) at \(key) is not at a delivery") }
        // At least 30 s late: no delivery shares an instant with the engine's enters.
        #expect(delivered.isDisjoint(with: engine))
    }

    /// A profile file that changes between shards makes parts of different runs: merge refuses
    /// them; the parts of one run merge into the single run's bytes.
    @Test func shardsOfARunWithAProfileFile() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = CLI.packageRoot.path
        let profile = dir.appendingPathComponent("p.yaml")
        try "platform: android-geofencing\nexitLoss: 0.5\nseed: 1\n".write(to: profile, atomically: true, encoding: .utf8)
        let scenario = dir.appendingPathComponent("s.yaml")
        try
            "name: s\ntraces: [\(root)/traces/demo-drive.gpx, \(root)/traces/demo-drive.gpx]\nfences: \(root)/traces/demo-fences.geojson\nprofile: p.yaml\n"
            .write(to: scenario, atomically: true, encoding: .utf8)
        let parts = dir.appendingPathComponent("parts").path
        #expect(try CLI.run(["run", scenario.path, "--shard", "0/2", "--out", parts]).status == 0)
        #expect(try CLI.run(["run", scenario.path, "--shard", "1/2", "--out", parts]).status == 0)
        let merged = try CLI.run(["merge", parts])
        let single = try CLI.run(["run", scenario.path])
        #expect(merged.status == 0 && single.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == single.stdout)
        #expect(single.stdout.contains("\"delivered\""))
        try "platform: android-geofencing\nexitLoss: 0.5\nseed: 2\n".write(to: profile, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["run", scenario.path, "--shard", "1/2", "--out", parts]).status == 0)
        let mixed = try CLI.run(["merge", parts])
        #expect(mixed.status == 65, "\(mixed.stderr)")
    }

    /// A sharded report with a profile scores the app view as the single run does: the merge of
    /// its parts writes the single run's JSON.
    @Test func shardedReportWithAProfile() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let parts = dir.appendingPathComponent("parts").path
        let args = ["report", Self.drive, Self.drive, "--fences", Self.fences, "--profile", "android-geofencing"]
        let single = dir.appendingPathComponent("single.json").path
        #expect(try CLI.run(args + ["--json", single, "--quiet"]).status == 0)
        for k in 0..<2 {
            let r = try CLI.run(args + ["--shard", "\(k)/2", "--out", parts])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let merged = dir.appendingPathComponent("merged.json").path
        let m = try CLI.run(["merge", parts, "--json", merged, "--quiet"])
        #expect(m.status == 0, "\(m.stderr)")
        let a = try String(contentsOfFile: single, encoding: .utf8)
        #expect(a.contains("app view, android-geofencing profile"))
        #expect(a == (try String(contentsOfFile: merged, encoding: .utf8)))
    }

    /// A report's profile file is one of its inputs: changed after the shards ran, the merge
    /// refuses their parts (65).
    @Test func shardedReportRefusesAChangedProfileFile() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let profile = dir.appendingPathComponent("p.yaml")
        try "platform: android-geofencing\nseed: 1\n".write(to: profile, atomically: true, encoding: .utf8)
        let parts = dir.appendingPathComponent("parts").path
        for k in 0..<2 {
            let r = try CLI.run([
                "report", Self.drive, Self.drive, "--fences", Self.fences, "--profile", profile.path, "--shard", "\(k)/2", "--out", parts,
            ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try CLI.run(["merge", parts, "--quiet"]).status == 0)
        try "platform: android-geofencing\nseed: 2\n".write(to: profile, atomically: true, encoding: .utf8)
        let changed = try CLI.run(["merge", parts, "--quiet"])
        #expect(changed.status == 65, "\(changed.stderr)")
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
