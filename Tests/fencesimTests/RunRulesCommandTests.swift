import Foundation
import Testing

/// `fencesim run` with Adobe mobile rules (issue 5, rules half), through the built binary.
@Suite struct RunRulesCommandTests {
    static func objects(_ text: String) throws -> [[String: Any]] {
        try RunPipelineCommandTests.objects(text)
    }

    /// `trigger id detail` of each rule line, detail as sorted-key JSON.
    static func rules(_ text: String, trace: String? = nil) throws -> [String] {
        try objects(text).filter { $0["type"] as? String == "rule" && (trace == nil || $0["trace"] as? String == trace) }.map { line in
            let consequence = try #require(line["consequence"] as? [String: Any])
            let detail = try JSONSerialization.data(
                withJSONObject: consequence["detail"] ?? [:], options: [.sortedKeys, .withoutEscapingSlashes])
            return "\(line["trigger"] ?? "-") \(consequence["id"] ?? "-") \(String(decoding: detail, as: UTF8.self))"
        }
    }

    /// A folder with a POI "shop" (50 m at 8.5 E), a trace in at 10 s, out at 30 s, in at 50 s,
    /// out at 60 s, and the files given.
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let fences = """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"id": "shop", "name": "Shop", "radius": 50}, "geometry": {"type": "Point", "coordinates": [8.5, 47.39]}}
            ]}
            """
        let trace = """
            time,lat,lon
            2026-01-01T09:00:00Z,47.39,8.498
            2026-01-01T09:00:10Z,47.39,8.5
            2026-01-01T09:00:20Z,47.39,8.5
            2026-01-01T09:00:30Z,47.39,8.502
            2026-01-01T09:00:40Z,47.39,8.502
            2026-01-01T09:00:50Z,47.39,8.5
            2026-01-01T09:01:00Z,47.39,8.502
            """
        try fences.write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        try trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir
    }

    static func scenario(rules: String = "rules.json", platform: String? = nil, places: Bool = true) -> String {
        var text = "traces: [t.csv]\nfences: fences.geojson\nrules: \(rules)\n"
        if let platform { text += "rulesPlatform: \(platform)\n" }
        if places { text += "places: {signals: geotrigger}\n" }
        return text
    }

    /// A rule on the Places entry response that reads Last Exited POI: missing on the first entry,
    /// so `ne` holds on iOS (a missing key is "" inside the coercion) and not on Android or in docs.
    static let divergentRules = """
        {"version": 1, "rules": [{
          "condition": {"type": "group", "definition": {"logic": "and", "conditions": [
            {"type": "matcher", "definition": {"key": "regioneventtype", "matcher": "eq", "values": ["entry"]}},
            {"type": "matcher", "definition": {"key": "~state.com.adobe.module.places/lastexitedpoi.regionid", "matcher": "ne", "values": ["nowhere"]}}]}},
          "consequences": [{"id": "entry", "type": "pb", "detail": {"templateurl": "https://example.com/?poi={%urlenc(triggeringregion.regionname)%}&t={%~timestampu%}"}}]
        }]}
        """

    // MARK: - the scenario under scenarios/

    @Test func seed001RulesScenarioIsByteIdenticalWhateverTheWorkers() throws {
        let one = try CLI.run(["run", "scenarios/places-seed001-rules.yaml", "--workers", "1"])
        let again = try CLI.run(["run", "scenarios/places-seed001-rules.yaml", "--workers", "1"])
        let two = try CLI.run(["run", "scenarios/places-seed001-rules.yaml", "--workers", "2"])
        #expect(one.status == 0 && again.status == 0 && two.status == 0, "\(one.stderr)")
        #expect(one.stdout == again.stdout)
        #expect(one.stdout == two.stdout)
        #expect(!one.stderr.contains("not simulated"), "\(one.stderr)")
        let lines = try Self.rules(one.stdout)
        #expect(lines.count == 17)
        #expect(
            lines.filter { $0.hasPrefix("Location Tracking Event welcome-url") } == [
                #"Location Tracking Event welcome-url {"url":"https://example.com/welcome?poi=POI%20A&entries=I"}"#,
                #"Location Tracking Event welcome-url {"url":"https://example.com/welcome?poi=POI%20B&entries=II"}"#,
                #"Location Tracking Event welcome-url {"url":"https://example.com/welcome?poi=POI%20A&entries=I"}"#,
                #"Location Tracking Event welcome-url {"url":"https://example.com/welcome?poi=POI%20B&entries=II"}"#,
            ])
        // Every output format takes the rule lines.
        for format in ["csv", "geojson", "table"] {
            let r = try CLI.run(["run", "scenarios/places-seed001-rules.yaml", "--format", format])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("poi-entry-postback"), "\(format)")
        }
    }

    // MARK: - platforms

    @Test func rulesPlatformOptionOverridesTheScenario() throws {
        let dir = try Self.folder(["rules.json": Self.divergentRules, "s.yaml": Self.scenario(platform: "android")])
        let scenario = dir.appendingPathComponent("s.yaml").path
        let ios = try CLI.run(["run", scenario, "--rules-platform", "ios"])
        let android = try CLI.run(["run", scenario, "--rules-platform", "android"])
        let asWritten = try CLI.run(["run", scenario])
        #expect(ios.status == 0 && android.status == 0 && asWritten.status == 0, "\(ios.stderr)\(android.stderr)")
        // iOS: both entries; Android: the second only (Last Exited exists after the exit at 30 s).
        #expect(
            try Self.rules(ios.stdout) == [
                #"responseprocessregionevent entry {"templateurl":"https://example.com/?poi=Shop&t=1767258010"}"#,
                #"responseprocessregionevent entry {"templateurl":"https://example.com/?poi=Shop&t=1767258050"}"#,
            ])
        #expect(
            try Self.rules(android.stdout) == [
                #"responseprocessregionevent entry {"templateurl":"https://example.com/?poi=Shop&t=1767258050"}"#
            ])
        #expect(asWritten.stdout == android.stdout)
        let bad = try CLI.run(["run", scenario, "--rules-platform", "windows"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--rules-platform must be one of docs, ios, android"))
        let noRules = try CLI.run(["run", "scenarios/places-seed001.yaml", "--rules-platform", "ios"])
        #expect(noRules.status == 64)
        #expect(noRules.stderr.contains("--rules-platform needs rules"))
    }

    // MARK: - bad input: exit code, location, nothing written

    /// Runs `s.yaml` of `dir` with `--out` and `--state` under `dir/out`, and checks that nothing
    /// was written there.
    static func refused(_ dir: URL, status: Int32) throws -> String {
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run(
            [
                "run", dir.appendingPathComponent("s.yaml").path, "--out", out.path,
                "--state", out.appendingPathComponent("state").path + "/",
            ], in: dir)
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(
            !FileManager.default.fileExists(atPath: out.path), "\((try? FileManager.default.subpathsOfDirectory(atPath: out.path)) ?? [])")
        return r.stderr
    }

    @Test func unknownConditionTypeIsLocatedAndWritesNothing() throws {
        let rules = """
            {"version": 1, "rules": [
              {"condition": {"type": "sometimes", "definition": {}},
               "consequences": [{"id": "c", "type": "pb", "detail": {}}]}
            ]}
            """
        let dir = try Self.folder(["rules.json": rules, "s.yaml": Self.scenario()])
        let stderr = try Self.refused(dir, status: 65)
        #expect(stderr.hasPrefix(dir.appendingPathComponent("rules.json").path + ":2:"), "\(stderr)")
        #expect(stderr.contains("error:") && stderr.contains("sometimes"), "\(stderr)")
    }

    @Test func badJSONIsLocatedAtLineAndColumn() throws {
        let dir = try Self.folder(["rules.json": "{\"version\": 1,\n  \"rules\": [,]}\n", "s.yaml": Self.scenario()])
        let stderr = try Self.refused(dir, status: 65)
        #expect(stderr.hasPrefix(dir.appendingPathComponent("rules.json").path + ":2:13: error:"), "\(stderr)")
    }

    @Test func archiveWithoutRulesJSONIsRefused() throws {
        let dir = try Self.folder(["s.yaml": Self.scenario(rules: "rules.zip")])
        try Data(ZIP.stored([("README.txt", Array("no rules here".utf8))])).write(to: dir.appendingPathComponent("rules.zip"))
        let stderr = try Self.refused(dir, status: 65)
        #expect(stderr.hasPrefix(dir.appendingPathComponent("rules.zip").path + ": error:"), "\(stderr)")
        #expect(stderr.contains("no rules.json"), "\(stderr)")
    }

    @Test func zipSlipArchiveIsRefused() throws {
        let dir = try Self.folder(["s.yaml": Self.scenario(rules: "rules.zip")])
        try Data(ZIP.stored([("rules.json", Array(Self.divergentRules.utf8)), ("../../evil.json", Array("{}".utf8))]))
            .write(to: dir.appendingPathComponent("rules.zip"))
        let stderr = try Self.refused(dir, status: 65)
        #expect(stderr.contains("rules.zip: error:") && stderr.contains("zip slip"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.deletingLastPathComponent().appendingPathComponent("evil.json").path))
    }

    @Test func missingRulesFileIsLocatedAtTheKey() throws {
        let dir = try Self.folder(["s.yaml": Self.scenario(rules: "nowhere.json")])
        let stderr = try Self.refused(dir, status: 66)
        #expect(
            stderr.hasPrefix(dir.appendingPathComponent("s.yaml").path + ":3:8: error: rules file nowhere.json does not exist"), "\(stderr)"
        )
    }

    @Test func rulesFromAnArchiveAreTheRulesOfItsRulesJSON() throws {
        let dir = try Self.folder([
            "rules.json": Self.divergentRules, "plain.yaml": Self.scenario(platform: "ios"),
            "zipped.yaml": Self.scenario(rules: "rules.zip", platform: "ios"),
        ])
        try Data(ZIP.stored([("ADBMobileConfig-rules/rules.json", Array(Self.divergentRules.utf8))])).write(
            to: dir.appendingPathComponent("rules.zip"))
        let plain = try CLI.run(["run", "plain.yaml"], in: dir)
        let zipped = try CLI.run(["run", "zipped.yaml"], in: dir)
        #expect(plain.status == 0 && zipped.status == 0, "\(zipped.stderr)")
        #expect(try Self.rules(zipped.stdout).count == 2)
        #expect(try Self.rules(zipped.stdout) == Self.rules(plain.stdout))
    }

    // MARK: - --state

    /// The rules state file of a trace, as JSON.
    static func rulesState(_ path: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
    }

    static func entries(_ state: [String: Any]) -> String? {
        ((state["userProfile"] as? [String: Any])?["userprofiledata"] as? [String: Any])?["poientries"] as? String
    }

    @Test func stateKeepsTheClientSideProfileAndTheHistoryAcrossRuns() throws {
        let dir = try CLI.temporaryDirectory()
        let state = dir.appendingPathComponent("state")
        let args = ["run", "scenarios/places-seed001-rules.yaml", "--state", state.path + "/"]
        let first = try CLI.run(args)
        #expect(first.status == 0, "\(first.stderr)")
        let apart = state.appendingPathComponent("places-apart.csv.rules-state.json")
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("places-apart.csv.places.json").path))
        let afterOne = try Self.rulesState(apart)
        #expect(afterOne["format"] as? String == "fencesim-rules-state")
        #expect(Self.entries(afterOne) == "II")
        let history = try #require(afterOne["history"] as? [[String: Any]])
        // enter, checkin, Edge entry, exit, checkout, Edge exit, enter, checkin, Edge entry.
        #expect(history.count == 9)
        #expect(
            history.compactMap { ($0["data"] as? [String: Any])?["type"] as? String } == [
                "enter", "checkin", "exit", "checkout", "enter", "checkin",
            ])
        #expect(history[2]["mask"] as? [String] == ["xdm.eventType", "xdm.placeContext.POIinteraction.poiDetail.poiID"])

        // The second run starts from the profile and history the first left.
        let second = try CLI.run(args)
        #expect(second.status == 0, "\(second.stderr)")
        let apartLines = try Self.rules(second.stdout, trace: "../traces/places-apart.csv")
        #expect(
            apartLines.filter { $0.contains("welcome-url") } == [
                #"Location Tracking Event welcome-url {"url":"https://example.com/welcome?poi=POI%20A&entries=III"}"#,
                #"Location Tracking Event welcome-url {"url":"https://example.com/welcome?poi=POI%20B&entries=IIII"}"#,
            ])
        // The first run's history is at the same simulated times: its check-out of A (09:01:50)
        // is after A's check-in (09:00:45), and a historical search ends at the triggering
        // event, so the rule still fires on B's check-in only.
        #expect(apartLines.filter { $0.contains("checkin-after-leaving-a") }.count == 1)
        let afterTwo = try Self.rulesState(apart)
        #expect(Self.entries(afterTwo) == "IIII")
        #expect((afterTwo["history"] as? [Any])?.count == 18)
        let overlap = try Self.rulesState(state.appendingPathComponent("places-overlap.csv.rules-state.json"))
        #expect(Self.entries(overlap) == "IIII")

        // A corrupt rules state is a located error and is left as it is; nothing is written.
        let corrupt =
            "{\"format\": \"fencesim-rules-state\", \"version\": 1, \"userProfile\": {\"userprofiledata\": []}, \"history\": []}\n"
        try corrupt.write(to: apart, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let refused = try CLI.run(args + ["--out", out.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix(apart.path + ":1:"), "\(refused.stderr)")
        #expect(try String(contentsOf: apart, encoding: .utf8) == corrupt)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func stateFileForOneTraceKeepsItsRulesStateBesideIt() throws {
        let rules = """
            {"version": 1, "rules": [{
              "condition": {"type": "matcher", "definition": {"key": "type", "matcher": "eq", "values": ["checkin"]}},
              "consequences": [
                {"id": "seen", "type": "pb", "detail": {"before": "{%~state.com.adobe.module.userProfile/userprofiledata.lastcheckin%}"}},
                {"id": "remember", "type": "csp", "detail": {"operation": "write", "key": "lastcheckin", "value": "{%time%}"}}]
            }]}
            """
        // No places: --state keeps the rules state only.
        let dir = try Self.folder(["rules.json": rules, "s.yaml": Self.scenario(places: false)])
        let args = ["run", "s.yaml", "--state", "device.json"]
        let first = try CLI.run(args, in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            try Self.rules(first.stdout).filter { $0.contains(" seen ") } == [
                #"Geotrigger checkin seen {"before":""}"#,
                #"Geotrigger checkin seen {"before":"2026-01-01T09:00:10.000Z"}"#,
            ])
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("device.json").path))
        let saved = try Self.rulesState(dir.appendingPathComponent("device.rules-state.json"))
        #expect(
            ((saved["userProfile"] as? [String: Any])?["userprofiledata"] as? [String: Any])?["lastcheckin"] as? String
                == "2026-01-01T09:00:50.000Z")
        let second = try CLI.run(args, in: dir)
        #expect(
            try Self.rules(second.stdout).filter { $0.contains(" seen ") }.first
                == #"Geotrigger checkin seen {"before":"2026-01-01T09:00:50.000Z"}"#)
    }
}

/// A minimal ZIP writer (stored entries, no compression) for archives made at test time,
/// including ones a normal tool refuses to make (entries climbing out with "..").
enum ZIP {
    static func stored(_ entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func u16(_ v: Int, _ into: inout [UInt8]) { into += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: UInt32, _ into: inout [UInt8]) { into += (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = crc32(entry.bytes)
            let offset = UInt32(out.count)
            u32(0x0403_4B50, &out); u16(20, &out); u16(0, &out); u16(0, &out); u16(0, &out); u16(0x21, &out)
            u32(crc, &out); u32(UInt32(entry.bytes.count), &out); u32(UInt32(entry.bytes.count), &out)
            u16(name.count, &out); u16(0, &out)
            out += name + entry.bytes
            u32(0x0201_4B50, &central); u16(20, &central); u16(20, &central); u16(0, &central); u16(0, &central)
            u16(0, &central); u16(0x21, &central)
            u32(crc, &central); u32(UInt32(entry.bytes.count), &central); u32(UInt32(entry.bytes.count), &central)
            u16(name.count, &central); u16(0, &central); u16(0, &central); u16(0, &central); u16(0, &central)
            u32(0, &central); u32(offset, &central)
            central += name
        }
        let centralOffset = UInt32(out.count)
        out += central
        u32(0x0605_4B50, &out); u16(0, &out); u16(0, &out); u16(entries.count, &out); u16(entries.count, &out)
        u32(UInt32(central.count), &out); u32(centralOffset, &out); u16(0, &out)
        return out
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
