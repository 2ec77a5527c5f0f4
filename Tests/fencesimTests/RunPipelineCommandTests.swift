import Foundation
import Testing

/// `fencesim run` with check-ins and Places (issues 4 and 5), through the built binary.
@Suite struct RunPipelineCommandTests {
    /// The JSON lines of a log, as objects.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// A folder with two 50 m POIs A (8.5 E) and B (8.503 E) in zones za and zb, and traces.
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let fences = """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"id": "A", "radius": 50, "zone": "za"}, "geometry": {"type": "Point", "coordinates": [8.5, 47.39]}},
            {"type": "Feature", "properties": {"id": "B", "radius": 50, "zone": "zb"}, "geometry": {"type": "Point", "coordinates": [8.503, 47.39]}}
            ]}
            """
        try fences.write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir
    }

    static let day1 = """
        time,lat,lon
        2026-01-01T09:00:00Z,47.39,8.498
        2026-01-01T09:00:30Z,47.39,8.5
        2026-01-01T09:01:00Z,47.39,8.5015
        2026-01-01T09:01:30Z,47.39,8.503
        """
    static let day2 = """
        time,lat,lon
        2026-01-01T09:20:00Z,47.39,8.503
        2026-01-01T09:20:30Z,47.39,8.505
        """
    static let scenario = """
        traces: [day.csv]
        fences: fences.geojson
        zones: [{id: za}, {id: zb}]
        places: {signals: geotrigger}
        """

    @Test func demoCheckInScenario() throws {
        let r = try CLI.run(["run", "scenarios/demo-checkins.yaml"])
        #expect(r.status == 0, "\(r.stderr)")
        let events = try Self.objects(r.stdout)
        let derived = events.filter { ["checkin", "checkout", "suppressed"].contains($0["type"] as? String) && $0["trigger"] != nil }
        #expect(
            derived.map { "\($0["type"] ?? "") \($0["fence"] ?? "") \($0["reason"] ?? "-")" } == [
                "checkin depot -", "checkin store-a-kerb -", "suppressed store-a checkedIn", "checkout store-a-kerb -",
                "checkin fuel -", "checkout fuel -", "suppressed store-b mrt", "checkin bridge -", "suppressed depot mrt",
            ])
        let checkout = try #require(derived.first { $0["type"] as? String == "checkout" })
        #expect(checkout["zoneName"] as? String == "Stores")
        #expect((checkout["customData"] as? [String: Any])?["brand"] as? String == "acme")
        #expect(checkout["dwellSeconds"] as? Int == 8)
        #expect(checkout["dwellMinutes"] as? Int == 0)
        #expect(checkout["checkInTime"] as? String == "2026-01-01T00:01:50.000Z")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
    }

    @Test func placesSeedScenarioIsTheSameWhateverTheWorkers() throws {
        let one = try CLI.run(["run", "scenarios/places-seed001.yaml", "--workers", "1"])
        let two = try CLI.run(["run", "scenarios/places-seed001.yaml", "--workers", "2"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        #expect(one.stdout == two.stdout)
        let places = try Self.objects(one.stdout).filter { ($0["type"] as? String)?.hasPrefix("places.") == true }
        #expect(
            places.map {
                "\($0["type"] ?? "") \($0["poi"] ?? "") \($0["current"] ?? "") \($0["lastEntered"] ?? "") \($0["lastExited"] ?? "")"
            } == [
                "places.entry A-apart A-apart A-apart <null>",
                "places.exit A-apart <null> A-apart A-apart",
                "places.entry B-apart B-apart B-apart A-apart",
                "places.entry A-overlap A-overlap A-overlap <null>",
                "places.entry B-overlap A-overlap B-overlap <null>",
                "places.exit A-overlap B-overlap B-overlap A-overlap",
            ])
        let table = try CLI.run(["run", "scenarios/places-seed001.yaml", "--format", "table"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("places.entry"))
    }

    @Test func undeclaredZoneExits65Located() throws {
        let dir = try Self.folder(["day.csv": Self.day1, "s.yaml": "traces: [day.csv]\nfences: fences.geojson\nzones: [{id: za}]\n"])
        let r = try CLI.run(["run", "s.yaml"], in: dir)
        #expect(r.status == 65)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix(#"fences.geojson:3:1: error: fence "B" belongs to zone "zb", which is not declared"#), "\(r.stderr)")
    }

    @Test func stateRoundTripAcrossRuns() throws {
        let dir = try Self.folder(["day.csv": Self.day1, "s.yaml": Self.scenario])
        let first = try CLI.run(["run", "s.yaml", "--state", "device.json"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let statePath = dir.appendingPathComponent("device.json").path
        let saved = try String(contentsOfFile: statePath, encoding: .utf8)
        #expect(saved.hasPrefix(#"{"format":"fencesim-places-state","version":1,"#))
        #expect(saved.contains(#""lastExited":{"id":"A""#))

        // The next run (another trace of the same device) starts from it.
        try Self.day2.write(to: dir.appendingPathComponent("day.csv"), atomically: true, encoding: .utf8)
        let second = try CLI.run(["run", "s.yaml", "--state", "device.json"], in: dir)
        #expect(second.status == 0, "\(second.stderr)")
        let exit = try #require(try Self.objects(second.stdout).first { $0["type"] as? String == "places.exit" })
        #expect(exit["poi"] as? String == "B")
        #expect(exit["lastEntered"] as? String == "B")
        #expect(exit["lastExited"] as? String == "B")
        let resaved = try String(contentsOfFile: statePath, encoding: .utf8)
        #expect(resaved != saved)
        #expect(resaved.contains(#""entered":[]"#))
    }

    @Test func corruptStateExits65AndIsLeftAlone() throws {
        let corrupt = "{\"format\": \"fencesim-places-state\", \"version\": 1, \"nearby\": [}\n"
        let dir = try Self.folder(["day.csv": Self.day1, "s.yaml": Self.scenario, "device.json": corrupt])
        let r = try CLI.run(["run", "s.yaml", "--state", "device.json", "--out", "out"], in: dir)
        #expect(r.status == 65)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("device.json:1:"), "\(r.stderr)")
        #expect(try String(contentsOfFile: dir.appendingPathComponent("device.json").path, encoding: .utf8) == corrupt)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    @Test func stateDirectoryHoldsOneFilePerTrace() throws {
        let dir = try Self.folder([
            "mon.csv": Self.day1, "tue.csv": Self.day2,
            "s.yaml": "traces: [mon.csv, tue.csv]\nfences: fences.geojson\nzones: [{id: za}, {id: zb}]\nplaces: {}\n",
        ])
        let refused = try CLI.run(["run", "s.yaml", "--state", "device.json"], in: dir)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("give a directory"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("device.json").path))
        let r = try CLI.run(["run", "s.yaml", "--state", "states/"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("states").path).sorted()
        #expect(files == ["mon.csv.places.json", "tue.csv.places.json"])
    }

    @Test func placesOptionsNeedPlaces() throws {
        let dir = try Self.folder(["day.csv": Self.day1, "s.yaml": "traces: [day.csv]\nfences: fences.geojson\n"])
        let r = try CLI.run(["run", "s.yaml", "--state", "x.json"], in: dir)
        #expect(r.status == 64)
        #expect(r.stderr.contains("--state needs Places"), "\(r.stderr)")
        let bad = try CLI.run(["run", "scenarios/places-seed001.yaml", "--places-platform", "windows"])
        #expect(bad.status == 64)
        let budget = try CLI.run(["run", "scenarios/places-seed001.yaml", "--region-budget", "1", "--places-platform", "android"])
        #expect(budget.status == 0, "\(budget.stderr)")
        // Without a nearby lookup nothing is monitored under a region budget.
        #expect(budget.stdout.contains(#""reason":"notMonitored""#))
        #expect(!budget.stdout.contains(#""type":"places.entry""#))
        #expect(budget.stderr.contains("no session runs one"), "\(budget.stderr)")
    }

    /// `--last-poi-expiry never` (seed 001: Last Entered and Last Exited have no expiration)
    /// overrides `places.lastPOIExpiry`; the default `ttl` (seed 000) clears them too.
    @Test func lastPOIExpiryOption() throws {
        let trace = Self.day1 + "\n2026-01-01T09:10:00Z,47.39,8.505\n"
        let dir = try Self.folder([
            "day.csv": trace, "s.yaml": "traces: [day.csv]\nfences: fences.geojson\nplaces: {membershipTTL: 60, expiry: strict}\n",
        ])
        func cleared(_ extra: [String]) throws -> String? {
            let r = try CLI.run(["run", "s.yaml"] + extra, in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let expired = try Self.objects(r.stdout).first { $0["type"] as? String == "places.expired" }
            guard let c = expired?["cleared"] as? [String: Any] else { return nil }
            return ["current", "lastEntered", "lastExited"].map { "\(c[$0] as? String ?? "-")" }.joined(separator: " ")
        }
        // In A at 09:00:30, out, in B at 09:01:30: membership ends at 09:02:30, inside B.
        #expect(try cleared([]) == "B B A")
        #expect(try cleared(["--last-poi-expiry", "ttl"]) == "B B A")
        #expect(try cleared(["--last-poi-expiry", "never"]) == "B - -")
        let never = try CLI.run(["run", "s.yaml", "--last-poi-expiry", "never", "--format", "table"], in: dir)
        #expect(never.stdout.contains("Last Entered and Last Exited never expire"), "\(never.stdout)")
        let bad = try CLI.run(["run", "s.yaml", "--last-poi-expiry", "forever"], in: dir)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--last-poi-expiry must be one of ttl, never"), "\(bad.stderr)")
        let noPlaces = try Self.folder(["day.csv": trace, "s.yaml": "traces: [day.csv]\nfences: fences.geojson\n"])
        let r = try CLI.run(["run", "s.yaml", "--last-poi-expiry", "never"], in: noPlaces)
        #expect(r.status == 64)
        #expect(r.stderr.contains("--last-poi-expiry needs Places"), "\(r.stderr)")
    }
}
