import Foundation
import Testing

/// `fencesim score` and `fencesim calibrate` through the built binary (issue 25): a replay's own
/// log scores exactly as report scores that replay; recorded logs in CSV and OwnTracks form;
/// hostile logs are located errors.
@Suite struct ScoreCommandTests {
    static let fences = "traces/demo-fences.geojson"
    static let drive = "traces/demo-drive.gpx"

    /// The JSON report without the lines that name the inputs (title, how truth was taken).
    static func numbers(_ path: URL) throws -> [String] {
        try String(contentsOf: path, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("  \"title\":") && !$0.hasPrefix("  \"truth\":") }
    }

    @Test(arguments: [
        [], ["--profile", "android-geofencing"], ["--profile", "ios-region"], ["--feed", "accuracy", "--gap-policy", "interpolate"],
    ])
    func scoringAReplaysLogGivesReportsNumbers(_ options: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("events.jsonl")
        let replay = try CLI.run(["replay", Self.drive, "--fences", Self.fences, "--out", log.path] + options)
        #expect(replay.status == 0, "\(replay.stderr)")
        let scored = dir.appendingPathComponent("score.json")
        let reported = dir.appendingPathComponent("report.json")
        let score = try CLI.run(["score", log.path, "--truth", Self.drive, "--fences", Self.fences, "--json", scored.path])
        #expect(score.status == 0, "\(score.stderr)")
        let report = try CLI.run(["report", Self.drive, "--fences", Self.fences, "--json", reported.path] + options)
        #expect(report.status == 0, "\(report.stderr)")
        let s = try Self.numbers(scored)
        #expect(s.count > 20)
        #expect(s == (try Self.numbers(reported)))
        // The tables too, below their first line (the title).
        // With a profile report prints the geometry view's tables after the app view's.
        let chosen = report.stdout.components(separatedBy: "\n\nfencesim accuracy report").first ?? ""
        #expect(
            score.stdout.split(separator: "\n").dropFirst(2).joined(separator: "\n")
                == chosen.split(separator: "\n").dropFirst(2).joined(separator: "\n"))
    }

    /// With a profile, report's terminal output puts the geometry view beside the app view: the
    /// geometry view's tables are those of the same report without a profile.
    @Test func reportWithAProfileShowsBothViews() throws {
        let plain = try CLI.run(["report", Self.drive, "--fences", Self.fences])
        let profiled = try CLI.run(["report", Self.drive, "--fences", Self.fences, "--profile", "ios-region"])
        #expect(plain.status == 0 && profiled.status == 0, "\(profiled.stderr)")
        let parts = profiled.stdout.components(separatedBy: "\n\nfencesim accuracy report")
        #expect(parts.count == 2)
        #expect(parts.first?.hasPrefix("fencesim accuracy report: \(Self.drive) · app view, ios-region profile") == true)
        #expect(parts.last?.hasPrefix(": \(Self.drive) · geometry view, ios-region profile") == true)
        #expect(
            parts.last?.split(separator: "\n").dropFirst().joined(separator: "\n")
                == plain.stdout.split(separator: "\n").dropFirst().joined(separator: "\n"))
        // The app view is not the engine's: iOS decides 200 m past the boundary.
        #expect(parts.first?.split(separator: "\n").dropFirst() != plain.stdout.split(separator: "\n").dropFirst())
    }

    /// A plain CSV log and an OwnTracks recording of the same events score as the replay's log.
    @Test func csvAndOwnTracksLogsScoreAsTheSameEvents() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("events.jsonl")
        #expect(try CLI.run(["replay", Self.drive, "--fences", Self.fences, "--out", log.path]).status == 0)
        var csv = "time,fence,type\n"
        var rec = ""
        for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let type = object["type"] as? String, type == "enter" || type == "exit",
                let time = object["time"] as? String, let fence = object["fence"] as? String
            else { continue }
            csv += "\(time),\(fence),\(type)\n"
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let epoch = formatter.date(from: time)?.timeIntervalSince1970 ?? 0
            rec +=
                "\(time)\t*                 \t{\"_type\":\"transition\",\"event\":\"\(type == "enter" ? "enter" : "leave")\",\"desc\":\"\(fence)\",\"tst\":\(epoch),\"lat\":47.37,\"lon\":8.53,\"acc\":5}\n"
        }
        try csv.write(to: dir.appendingPathComponent("phone.csv"), atomically: true, encoding: .utf8)
        try rec.write(to: dir.appendingPathComponent("phone.rec"), atomically: true, encoding: .utf8)
        var outputs: [[String]] = []
        for name in ["events.jsonl", "phone.csv", "phone.rec"] {
            let json = dir.appendingPathComponent("\(name).json")
            let r = try CLI.run([
                "score", dir.appendingPathComponent(name).path, "--truth", Self.drive, "--fences", Self.fences, "--json", json.path,
                "--quiet",
            ])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            // Trace names differ (the file name, or the replay's label): compare the summary.
            outputs.append(try Self.numbers(json).filter { !$0.contains("phone") && !$0.contains("demo-drive.gpx") })
        }
        #expect(outputs[0].count > 20)
        #expect(outputs[1] == outputs[0], "csv")
        #expect(outputs[2] == outputs[0], "owntracks")
    }

    @Test(arguments: [
        ("phone.csv", "time,fence,type\n2026-01-01T00:00:00Z,depot,enter\nyesterday,depot,exit\n", ":3:1: error: time must be"),
        ("phone.csv", "time,fence,type\n2026-01-01T00:00:00Z,nowhere,enter\n", ":2:22: error: unknown fence \"nowhere\""),
        ("phone.csv", "time,fence,type\n2026-01-01T00:00:00Z,depot,arrive\n", ":2:28: error: type must be enter, exit or dwell"),
        ("phone.csv", "when,where\n", ":1:1: error: a CSV device log needs a header"),
        (
            "phone.rec", "2026-01-01T00:00:00Z\t*\t{\"_type\":\"transition\",\"event\":\"enter\",\"desc\":\"moon\",\"tst\":1767225600}\n",
            ":1:69: error: line 1: region \"moon\""
        ),
        (
            "phone.rec", "2026-01-01T00:00:00Z\t*\t{\"_type\":\"location\",\"lat\":95,\"lon\":8.5,\"tst\":1767225600}\n",
            ":1:50: error: line 1: \"lat\" must be"
        ),
        ("phone.rec", "2026-01-01T00:00:00Z\t*\t{\"_type\":\"transition\",\n", ":1:"),
        ("phone.rec", "no record here\n", ":1:1: error: line 1 is not an OwnTracks record"),
        (
            "events.jsonl",
            "{\"time\":\"2026-01-01T00:00:00.000Z\",\"seq\":0,\"trace\":\"t\",\"type\":\"enter\",\"fence\":\"depot\"}\n{\"time\":1}\n",
            ":2:"
        ),
    ])
    func hostileLogsAreLocatedErrors(_ name: String, _ text: String, _ expected: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(name)
        try text.write(to: path, atomically: true, encoding: .utf8)
        let r = try CLI.run(["score", path.path, "--truth", Self.drive, "--fences", Self.fences])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains(path.path + expected), "\(r.stderr)")
    }

    /// `--simulate` replays the truth through a profile beside the recorded log: a log the same
    /// profile and seed made scores the same.
    @Test func simulatedBesideRecorded() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let profile = dir.appendingPathComponent("p.yaml")
        try "platform: android-geofencing\nexitLoss: 0.3\nseed: 5\n".write(to: profile, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("events.jsonl")
        #expect(try CLI.run(["replay", Self.drive, "--fences", Self.fences, "--profile", profile.path, "--out", log.path]).status == 0)
        let r = try CLI.run(["score", log.path, "--truth", Self.drive, "--fences", Self.fences, "--simulate", profile.path])
        #expect(r.status == 0, "\(r.stderr)")
        let parts = r.stdout.components(separatedBy: "\n\nfencesim accuracy report")
        #expect(parts.count == 2)
        #expect(parts.last?.hasPrefix(": simulated: android-geofencing profile") == true)
        #expect(parts.first?.split(separator: "\n").dropFirst(2) == parts.last?.split(separator: "\n").dropFirst(2))
        let other = try CLI.run(["score", log.path, "--truth", Self.drive, "--fences", Self.fences, "--simulate", "ios-region"])
        let otherParts = other.stdout.components(separatedBy: "\n\nfencesim accuracy report")
        #expect(otherParts.first?.split(separator: "\n").dropFirst(2) != otherParts.last?.split(separator: "\n").dropFirst(2))
    }

    @Test func calibrateWritesAProfileThatReplayReads() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("events.jsonl")
        #expect(
            try CLI.run(["replay", Self.drive, "--fences", Self.fences, "--profile", "android-geofencing", "--out", log.path]).status == 0)
        let out = dir.appendingPathComponent("fit.yaml")
        let r = try CLI.run([
            "calibrate", log.path, "--truth", Self.drive, "--fences", Self.fences, "--profile", "android-geofencing", "--out", out.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.contains("delayMean: ") && text.contains("# fitted from "))
        #expect(text.contains("regionLimit: 100  # source: https://developer.android.com"))
        let again = try CLI.run(["replay", Self.drive, "--fences", Self.fences, "--profile", out.path, "--format", "table"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("delivered"))
    }
}
