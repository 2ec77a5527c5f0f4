import Foundation
import Testing

/// `fencesim report --shard K/N`, `fencesim sweep --shard K/N` and `fencesim merge` of their
/// parts, through the built binary (SPEC §6.7): merged outputs are the bytes of a single run.
@Suite(.serialized) struct ShardedReportSweepTests {
    /// Six drives of the demo route of different lengths (speed and interval vary, so that the
    /// balanced assignment is not round robin), degraded with losses so that visits are missed
    /// and detected falsely, and a seventh trace that fails (a CSV header without fixes).
    static func folder(failing: Bool = true) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let route = CLI.packageRoot.appendingPathComponent("traces/demo-route.geojson").path
        let fences = CLI.packageRoot.appendingPathComponent("traces/demo-fences.geojson")
        try FileManager.default.copyItem(at: fences, to: dir.appendingPathComponent("fences.geojson"))
        var names: [String] = []
        for k in 0..<6 {
            let name = "drive\(k).gpx"
            let r = try CLI.run(
                [
                    "synth", route, "--speed", "\(7 + 2 * k)", "--interval", "\([2, 5, 1, 3, 4, 2][k])", "--noise", "3",
                    "--seed", "\(k + 1)", "--start", "2026-01-0\(k + 1)T08:00:00Z", "--out", name,
                ], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            names.append(name)
        }
        if failing {
            try "time,lat,lon\n".write(to: dir.appendingPathComponent("empty.csv"), atomically: true, encoding: .utf8)
            names.insert("empty.csv", at: 3)
        }
        try """
        name: fleet
        traces: [\(names.joined(separator: ", "))]
        fences: fences.geojson
        geotrigger: {feed: accuracy, dwell: 30, debounce: {enterAfter: 0, exitAfter: "2 fixes"}, maxGap: 120, gapPolicy: report}
        zones: [{id: depots, checkOut: true}, {id: stores, checkOut: true, minimumRetriggerTime: 600}, {id: bridges}]
        degrade: {resample: 15, noise: 2, dropout: 0.1, spikes: 0.1, exitLoss: 0.3, entryLoss: 0.3, seed: 3}
        truth: trace
        """.write(to: dir.appendingPathComponent("fleet.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    static func read(_ dir: URL, _ name: String) throws -> Data {
        try Data(contentsOf: dir.appendingPathComponent(name))
    }

    /// Runs `command` (`report` or `sweep`) with `arguments` as `shards` shards into `folder`.
    static func shards(_ command: String, _ arguments: [String], shards: Int, folder: String, in dir: URL) throws {
        for k in 0..<shards {
            let r = try CLI.run([command] + arguments + ["--shard", "\(k)/\(shards)", "--out", folder, "--workers", "1"], in: dir)
            #expect(r.status == 0, "shard \(k)/\(shards): \(r.stderr)")
        }
    }

    static func parts(_ dir: URL, _ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(folder).path).sorted().map { "\(folder)/\($0)" }
    }

    @Test(arguments: [1, 3, 4, 10])
    func mergedReportEqualsASingleRunByteForByte(shards: Int) throws {
        let dir = try Self.folder()
        let single = try CLI.run(["report", "fleet.yaml", "--html", "single.html", "--json", "single.json"], in: dir)
        // The failing trace makes the single run exit 65 with its report written.
        #expect(single.status == 65, "\(single.stderr)")
        let json = try String(decoding: Self.read(dir, "single.json"), as: UTF8.self)
        #expect(json.contains("\"status\": \"failed\""))
        // The overall numbers come first.
        func overall(_ key: String) -> Int? {
            json.range(of: "\"\(key)\": ").flatMap { r in Int(json[r.upperBound...].prefix { $0.isNumber }) }
        }
        #expect((overall("detected") ?? 0) > 0 && (overall("missed") ?? 0) > 0, "a report with no detection or no miss proves little")
        try Self.shards("report", ["fleet.yaml"], shards: shards, folder: "parts", in: dir)
        let parts = try Self.parts(dir, "parts")
        #expect(parts.count == shards)
        // Any order of parts.
        let merged = try CLI.run(["merge"] + parts.reversed() + ["--html", "merged.html", "--json", "merged.json"], in: dir)
        #expect(merged.status == 65, "\(merged.stderr)")
        #expect(try Self.read(dir, "merged.json") == Self.read(dir, "single.json"))
        #expect(try Self.read(dir, "merged.html") == Self.read(dir, "single.html"))
        #expect(merged.stdout == single.stdout)
        // Merging again (and from the folder) gives the same bytes.
        let again = try CLI.run(["merge", "parts", "--html", "again.html", "--json", "again.json", "--quiet"], in: dir)
        #expect(again.status == 65 && again.stdout.isEmpty)
        #expect(try Self.read(dir, "again.json") == Self.read(dir, "single.json"))
        #expect(try Self.read(dir, "again.html") == Self.read(dir, "single.html"))
    }

    /// A scenario with Places and check-ins: the HTML's Places timelines and check-in table come
    /// back from the parts too.
    @Test func mergedPlacesReportEqualsASingleRun() throws {
        let dir = try CLI.temporaryDirectory()
        let scenario = CLI.packageRoot.appendingPathComponent("scenarios/places-seed001.yaml").path
        let single = try CLI.run(["report", scenario, "--html", "single.html", "--json", "single.json", "--quiet"], in: dir)
        #expect(single.status == 0, "\(single.stderr)")
        let html = try String(decoding: Self.read(dir, "single.html"), as: UTF8.self)
        #expect(html.contains("Places"), "a report without its Places timeline proves little")
        try Self.shards("report", [scenario], shards: 2, folder: "parts", in: dir)
        let merged = try CLI.run(["merge", "parts", "--html", "merged.html", "--json", "merged.json", "--quiet"], in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try Self.read(dir, "merged.json") == Self.read(dir, "single.json"))
        #expect(try Self.read(dir, "merged.html") == Self.read(dir, "single.html"))
    }

    /// A scenario with an operating-system profile: shards score the app's view, as the single
    /// run does, under its title.
    @Test func mergedProfileReportEqualsASingleRun() throws {
        let dir = try CLI.temporaryDirectory()
        let scenario = CLI.packageRoot.appendingPathComponent("scenarios/demo-android.yaml").path
        let single = try CLI.run(["report", scenario, "--html", "single.html", "--json", "single.json", "--quiet"], in: dir)
        #expect(single.status == 0, "\(single.stderr)")
        let json = try String(decoding: Self.read(dir, "single.json"), as: UTF8.self)
        #expect(json.contains("app view"), "the single run scores the app's view")
        try Self.shards("report", [scenario], shards: 2, folder: "parts", in: dir)
        let merged = try CLI.run(["merge", "parts", "--html", "merged.html", "--json", "merged.json", "--quiet"], in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try Self.read(dir, "merged.json") == Self.read(dir, "single.json"))
        #expect(try Self.read(dir, "merged.html") == Self.read(dir, "single.html"))
    }

    @Test func mergedReportOfTracesGivenOnTheCommandLineEqualsASingleRun() throws {
        let dir = try Self.folder(failing: false)
        let args = [
            "drive0.gpx", "drive1.gpx", "drive2.gpx", "drive3.gpx", "--fences", "fences.geojson", "--degrade",
            "resample=10,noise=1,seed=9,exitLoss=0.4",
        ]
        // The basemap is the HTML's alone: given to the merge, not to the shards.
        let basemap = ["--basemap", "https://tile.openstreetmap.org/{z}/{x}/{y}.png"]
        let single = try CLI.run(["report"] + args + ["--json", "single.json", "--html", "single.html"] + basemap, in: dir)
        #expect(single.status == 0, "\(single.stderr)")
        #expect(try CLI.run(["report"] + args + ["--shard", "0/3", "--out", "parts"] + basemap, in: dir).status == 64)
        try Self.shards("report", args, shards: 3, folder: "parts", in: dir)
        #expect(try Self.parts(dir, "parts").allSatisfy { $0.hasPrefix("parts/report.report.part-") })
        let merged = try CLI.run(["merge", "parts", "--json", "merged.json", "--html", "merged.html"] + basemap, in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try Self.read(dir, "merged.json") == Self.read(dir, "single.json"))
        #expect(try Self.read(dir, "merged.html") == Self.read(dir, "single.html"))
        #expect(merged.stdout == single.stdout)
    }

    @Test(arguments: [2, 4, 9])
    func mergedSweepEqualsASingleRunByteForByte(shards: Int) throws {
        let dir = try Self.folder(failing: shards == 4)
        let args = ["fleet.yaml", "--vary", "buffer=0,15,40", "--vary", "resample=5,20", "--target", "recall>=0.9,precision>=0.8"]
        let single = try CLI.run(["sweep"] + args + ["--plot", "single.svg", "--json", "single.json"], in: dir)
        #expect([0, 1, 65].contains(single.status), "\(single.stderr)")
        try Self.shards("sweep", args, shards: shards, folder: "parts", in: dir)
        let parts = try Self.parts(dir, "parts")
        #expect(parts.count == shards && parts.allSatisfy { $0.contains("fleet.sweep.part-") })
        let merged = try CLI.run(["merge"] + parts.reversed() + ["--plot", "merged.svg", "--json", "merged.json"], in: dir)
        #expect(merged.status == single.status, "\(merged.stderr)")
        #expect(try Self.read(dir, "merged.json") == Self.read(dir, "single.json"))
        #expect(try Self.read(dir, "merged.svg") == Self.read(dir, "single.svg"))
        #expect(merged.stdout == single.stdout)
        #expect(single.stdout.contains("smallest setting") || single.stdout.contains("no setting meets"))
        let quiet = try CLI.run(["merge", "parts", "--quiet"], in: dir)
        let singleQuiet = try CLI.run(["sweep"] + args + ["--quiet"], in: dir)
        #expect(quiet.stdout == singleQuiet.stdout && quiet.status == singleQuiet.status)
    }

    @Test func aRetriedShardRewritesItsPartWithTheSameBytes() throws {
        let dir = try Self.folder(failing: false)
        try Self.shards("report", ["fleet.yaml"], shards: 2, folder: "parts", in: dir)
        let before = try Self.read(dir, "parts/fleet.report.part-1-of-2.jsonl")
        // An interrupted shard's leftover does not stop the retry, which replaces it whole.
        try Data("{\"fencesim\":\"partial-report\"".utf8).write(to: dir.appendingPathComponent("parts/fleet.report.part-1-of-2.jsonl"))
        let retry = try CLI.run(["report", "fleet.yaml", "--shard", "1/2", "--out", "parts", "--workers", "2"], in: dir)
        #expect(retry.status == 0, "\(retry.stderr)")
        #expect(try Self.read(dir, "parts/fleet.report.part-1-of-2.jsonl") == before)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path)
        #expect(names.count == 2, "no temporary file is left: \(names)")
    }

    /// Runs `merge` of `parts` and expects exit 65 with a message located at `file:line`.
    static func refuses(
        _ parts: [String], in dir: URL, at location: String, saying words: String, _ extra: [String] = ["--json", "r.json"]
    ) throws {
        let r = try CLI.run(["merge"] + parts + extra, in: dir)
        #expect(r.status == 65, "\(parts): \(r.stderr)")
        #expect(r.stderr.contains("\(location)") && r.stderr.contains(words), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r.json").path), "nothing is written")
    }

    @Test func mergeRefusesHostileParts() throws {
        let dir = try Self.folder(failing: false)
        try Self.shards("report", ["fleet.yaml"], shards: 3, folder: "parts", in: dir)
        let p0 = "parts/fleet.report.part-0-of-3.jsonl", p1 = "parts/fleet.report.part-1-of-3.jsonl",
            p2 = "parts/fleet.report.part-2-of-3.jsonl"
        // Missing shard.
        try Self.refuses([p0, p2], in: dir, at: "\(p0):1", saying: "shard 1/3 is missing")
        // Duplicate shard, under another name.
        try FileManager.default.copyItem(atPath: dir.appendingPathComponent(p1).path, toPath: dir.appendingPathComponent("copy.jsonl").path)
        try Self.refuses([p0, p1, "copy.jsonl", p2], in: dir, at: "copy.jsonl:1", saying: "shard 1/3 is given twice (also \(p1))")
        // Truncated: cut in the middle of its last line, or after a whole line.
        let whole = try Self.read(dir, p1)
        let lines = whole.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        #expect(lines.count >= 3, "shard 1 holds at least one trace")
        try whole.prefix(whole.count - 40).write(to: dir.appendingPathComponent("cut.jsonl"))
        try Self.refuses(
            [p0, "cut.jsonl", p2], in: dir, at: "cut.jsonl:\(lines.count - 1)", saying: "is not JSON (is the part truncated?)")
        try Data((lines.dropLast(2).map { Data($0) + Data("\n".utf8) }).joined()).write(to: dir.appendingPathComponent("short.jsonl"))
        try Self.refuses([p0, "short.jsonl", p2], in: dir, at: "short.jsonl:", saying: "the part is truncated")
        // Not a part at all.
        try Self.refuses(
            [p0, "fences.geojson", p2], in: dir, at: "fences.geojson:1", saying: "not a part of fencesim report --shard or sweep --shard")
        // A part of another run: other settings.
        try Self.shards("report", ["fleet.yaml", "--degrade", "resample=30,seed=1"], shards: 3, folder: "other", in: dir)
        try Self.refuses(
            [p0, "other/fleet.report.part-1-of-3.jsonl", p2], in: dir, at: "other/fleet.report.part-1-of-3.jsonl:1",
            saying: "is of another run")
        // A part of another shard count.
        try Self.shards("report", ["fleet.yaml"], shards: 2, folder: "two", in: dir)
        try Self.refuses(
            [p0, "two/fleet.report.part-1-of-2.jsonl", p2], in: dir, at: "two/fleet.report.part-1-of-2.jsonl:1", saying: "is of another run"
        )
        // A sweep's part among a report's.
        try Self.shards("sweep", ["fleet.yaml", "--vary", "buffer=0,10"], shards: 3, folder: "sweep", in: dir)
        try Self.refuses(
            [p0, "sweep/fleet.sweep.part-1-of-3.jsonl", p2], in: dir, at: "sweep/fleet.sweep.part-1-of-3.jsonl:1", saying: "is of a sweep")
        // The inputs changed since the shards ran.
        let fences = dir.appendingPathComponent("fences.geojson")
        try (try Data(contentsOf: fences) + Data("\n".utf8)).write(to: fences)
        try Self.refuses([p0, p1, p2], in: dir, at: "\(p0):1", saying: "changed since the shards ran")
    }

    @Test func mergeRefusesSweepPartsOfAnotherGridOrWithReplaysMissing() throws {
        let dir = try Self.folder(failing: false)
        try Self.shards("sweep", ["fleet.yaml", "--vary", "buffer=0,10"], shards: 2, folder: "a", in: dir)
        try Self.shards("sweep", ["fleet.yaml", "--vary", "buffer=0,20"], shards: 2, folder: "b", in: dir)
        let a0 = "a/fleet.sweep.part-0-of-2.jsonl", a1 = "a/fleet.sweep.part-1-of-2.jsonl"
        try Self.refuses(
            [a0, "b/fleet.sweep.part-1-of-2.jsonl"], in: dir, at: "b/fleet.sweep.part-1-of-2.jsonl:1", saying: "is of another run")
        #expect(try CLI.run(["merge", a0, a1, "--json", "ok.json"], in: dir).status == 0)
        // A trace's line with one replay left out (its header untouched).
        let url = dir.appendingPathComponent(a1)
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        object["replays"] = Array(try #require(object["replays"] as? [Any]).dropLast())
        lines[1] = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        try Self.refuses([a0, a1], in: dir, at: "\(a1):2:", saying: "1 replays for a sweep of 2 combinations")
    }

    @Test func shardOptionsAreCheckedBeforeAnythingRuns() throws {
        let dir = try Self.folder(failing: false)
        #expect(try CLI.run(["report", "fleet.yaml", "--shard", "0/2"], in: dir).status == 64)
        #expect(try CLI.run(["report", "fleet.yaml", "--shard", "2/2", "--out", "p"], in: dir).status == 64)
        #expect(try CLI.run(["report", "fleet.yaml", "--shard", "0/2", "--out", "p", "--html", "r.html"], in: dir).status == 64)
        #expect(try CLI.run(["report", "fleet.yaml", "--out", "p"], in: dir).status == 64)
        #expect(
            try CLI.run(["sweep", "fleet.yaml", "--vary", "buffer=0", "--shard", "0/2", "--out", "p", "--plot", "s.svg"], in: dir).status
                == 64)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("p").path))
        // Each kind of part takes its own output options.
        try Self.shards("report", ["fleet.yaml"], shards: 1, folder: "r", in: dir)
        try Self.shards("sweep", ["fleet.yaml", "--vary", "buffer=0"], shards: 1, folder: "s", in: dir)
        #expect(try CLI.run(["run", "fleet.yaml", "--shard", "0/1", "--out", "e"], in: dir).status == 0)
        for (folder, options) in [
            ("r", ["--out", "x.jsonl"]), ("r", ["--plot", "x.svg"]), ("s", ["--html", "x.html"]), ("s", ["--format", "csv"]),
            ("e", ["--html", "x.html"]), ("e", ["--json", "x.json"]),
        ] {
            let r = try CLI.run(["merge", folder] + options, in: dir)
            #expect(r.status == 64, "merge \(folder) \(options): \(r.stderr)")
        }
        #expect(try CLI.run(["merge", "r", "--json", "r.json", "--quiet"], in: dir).status == 0)
        #expect(try CLI.run(["merge", "e", "--out", "e.jsonl"], in: dir).status == 0)
    }
}
