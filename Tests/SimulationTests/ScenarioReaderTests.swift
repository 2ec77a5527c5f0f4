import Fences
import Foundation
import Geotriggers
import Support
import Testing

@testable import Scenarios

@Suite struct ScenarioReaderTests {
    let fences =
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"id": "a", "radius": 50, "zone": "z1"}, "geometry": {"type": "Point", "coordinates": [8.53, 47.37]}}]}"#
    let trace = "time,lat,lon\n2026-01-01T00:00:00Z,47.37,8.53\n"

    func scenario(_ yaml: String) throws -> (URL, String) {
        let dir = try Paths.temporaryDirectory()
        try Paths.write(fences, "fences.geojson", in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("traces"), withIntermediateDirectories: true)
        try Paths.write(trace, "traces/b.csv", in: dir)
        try Paths.write(trace, "traces/a.csv", in: dir)
        return (dir, try Paths.write(yaml, "s.yaml", in: dir))
    }

    func expectError(
        _ yaml: String, code: Int32 = 65, line: Int, column: Int? = nil, _ message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let (_, path) = try scenario(yaml)
        do {
            let s = try ScenarioReader.read(path: path)
            Issue.record("expected an error, read \(s.name)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code.exitStatus == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.location?.file == path, sourceLocation: sourceLocation)
            #expect(error.location?.line == line, "\(error)", sourceLocation: sourceLocation)
            if let column { #expect(error.location?.column == column, "\(error)", sourceLocation: sourceLocation) }
            #expect(error.message.contains(message), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    /// A scenario's name becomes part of output file names: it cannot place a file outside the
    /// folder the user named (issue 21).
    @Test(arguments: ["../escaped", "a/b", "/abs/x", "..", ".", "tab\there", String(repeating: "n", count: 201)])
    func namesThatWouldLeaveTheOutputFolderAreRefused(name: String) throws {
        let quoted = name.replacingOccurrences(of: "\t", with: "\\t")
        try expectError(
            """
            traces: [traces/*.csv]
            name: "\(quoted)"
            fences: fences.geojson
            """, line: 2, "name becomes part of output file names")
    }

    @Test func readsEveryKey() throws {
        let (dir, path) = try scenario(
            """
            name: downtown
            traces: [traces/*.csv]
            fences: fences.geojson
            crs: auto
            geotrigger:
              feed: accuracy
              relationship: contains-intersects
              buffer: 5
              notify: enter
              initialTrigger: none
              filter: "accuracy <= 50"
              dwell: 300
              debounce: {enterAfter: 2, exitAfter: "3 fixes"}
              maxGap: 60
              gapPolicy: interpolate
              message: "Entered {fence.name}"
            zones:
              - id: z1
                name: Stores
                checkOut: true
                minimumRetriggerTime: 600
                customData: {brand: acme}
                schedule: [{at: "2026-01-01T10:00:00Z", enabled: false}, {at: "2026-01-01T11:00:00Z", enabled: true}]
                conditions:
                  speed: {min: 0, max: 15}
                  travelPath: [a]
            places: {signals: checkins, membershipTTL: 3600, expiry: lazy, platform: docs, regionBudget: 20}
            sessions: [{launch: "2026-01-01T09:00:00Z"}]
            rules: rules.json
            rulesPlatform: ios
            degrade: {resample: 10, noise: 1.0, dropout: 0.05, seed: 42}
            truth: trace
            expected: expected/downtown.jsonl
            """)
        let s = try ScenarioReader.read(path: path)
        #expect(s.name == "downtown")
        #expect(s.traces.map(\.label) == ["traces/a.csv", "traces/b.csv"])
        #expect(s.fencesPath == dir.appendingPathComponent("fences.geojson").path)
        #expect(s.crs == nil)
        let settings = s.geotrigger.applied(to: GeotriggerSettings())
        #expect(settings.feed == .accuracy)
        #expect(settings.relationship == .containsIntersects)
        #expect(settings.bufferMeters == 5)
        #expect(settings.notify == .enter)
        #expect(settings.initialTrigger == .none)
        #expect(settings.filter?.text == "accuracy <= 50")
        #expect(settings.dwellSeconds == 300)
        #expect(settings.enterAfter == .seconds(2))
        #expect(settings.exitAfter == .fixes(3))
        #expect(settings.maxGapSeconds == 60)
        #expect(settings.gapPolicy == .interpolate)
        #expect(settings.message?.text == "Entered {fence.name}")
        #expect(s.zones.map(\.id) == ["z1"])
        let zone = s.zones[0].zone
        #expect(zone.minimumRetriggerSeconds == 600)
        #expect(zone.schedule.count == 2)
        #expect(zone.isEnabled(at: try Timestamp.parseISO8601("2026-01-01T09:59:59Z").get()))
        #expect(!zone.isEnabled(at: try Timestamp.parseISO8601("2026-01-01T10:00:00Z").get()))
        #expect(zone.isEnabled(at: try Timestamp.parseISO8601("2026-01-01T11:00:00Z").get()))
        #expect(zone.conditions.speed == ZoneConditions.Range(minimum: 0, maximum: 15))
        #expect(zone.conditions.travelPath == ["a"])
        #expect(JSONWriter.string(try #require(zone.customData)) == #"{"brand":"acme"}"#)
        #expect(s.notYetSimulated.isEmpty)
        let places = try #require(s.places)
        #expect(places.signals == .checkins)
        #expect(places.configuration.membershipTTL == 3600)
        #expect(places.configuration.regionBudget == 20)
        #expect(s.sessions.map(\.launch) == [try Timestamp.parseISO8601("2026-01-01T09:00:00Z").get()])
        #expect(s.sessions.map(\.nearbyLookup) == [false])
    }

    @Test func jsonScenariosAreAccepted() throws {
        let (_, path) = try scenario(#"{"traces": ["traces/a.csv"], "fences": "fences.geojson", "crs": "EPSG:32632"}"#)
        let s = try ScenarioReader.read(path: path)
        #expect(s.crs?.description == "EPSG:32632")
    }

    @Test func unknownKeyIsLocated() throws {
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\nfeeds: point\n", line: 3, column: 1, "unknown scenario key \"feeds\"")
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\ngeotrigger:\n  feed: point\n  bufer: 3\n", line: 5, column: 3,
            "unknown geotrigger setting \"bufer\"")
        try expectError("traces: [traces/a.csv]\nfences: fences.geojson\nplaces: {ttl: 5}\n", line: 3, "unknown places key \"ttl\"")
    }

    @Test func missingFilesExit66() throws {
        try expectError(
            "traces: [traces/missing.csv]\nfences: fences.geojson\n", code: 66, line: 1, column: 10,
            "trace traces/missing.csv does not exist")
        try expectError(
            "traces: [traces/a.csv]\nfences: nope.geojson\n", code: 66, line: 2, column: 9, "fence file nope.geojson does not exist")
        try expectError("traces: [traces/*.gpx]\nfences: fences.geojson\n", code: 66, line: 1, "does not exist")
    }

    @Test func fenceChangesAreAPathToAnExistingFile() throws {
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\nfenceChanges: nope.jsonl\n", code: 66, line: 3, column: 15,
            "fence changes file nope.jsonl does not exist")
        try expectError("traces: [traces/a.csv]\nfences: fences.geojson\nfenceChanges: [a, b]\n", line: 3, "fenceChanges must be a path")
        let (dir, path) = try scenario("traces: [traces/a.csv]\nfences: fences.geojson\nfenceChanges: changes.jsonl\n")
        try Paths.write(
            #"{"time": "2026-01-01T00:00:10Z", "action": "replace", "id": "a", "geometry": {"type": "Point", "coordinates": [8.54, 47.37]}}"#
                + "\n",
            "changes.jsonl", in: dir)
        let scenario = try ScenarioReader.read(path: path)
        #expect(scenario.fenceChangesPath == dir.appendingPathComponent("changes.jsonl").path)
        // The replacement keeps the replaced fence's properties (its radius and zone).
        let fences = try scenario.readFences(options: FenceReadOptions())
        #expect(fences.fences.map(\.id) == ["a", "a"])
        #expect(fences.fences[1].kind == .circle(radiusMeters: 50) && fences.fences[1].zone == "z1")
        #expect(fences.fences[0].validity?.until == fences.fences[1].validity?.from)
    }

    @Test func badValuesAreLocated() throws {
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\ngeotrigger: {feed: walk}\n", line: 3, column: 20,
            "feed must be one of point, accuracy, found \"walk\"")
        try expectError("traces: [traces/a.csv]\nfences: fences.geojson\ngeotrigger:\n  dwell: soon\n", line: 4, "dwell must be a number")
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\ngeotrigger:\n  debounce: {enterAfter: \"3 laps\"}\n", line: 4, "\"N fixes\"")
        try expectError("traces: [traces/a.csv]\nfences: fences.geojson\ncrs: \"+proj=nonsense\"\n", line: 3, "crs:")
        try expectError("fences: fences.geojson\n", line: 1, "no \"traces\"")
    }

    @Test func badFilterPointsAtItsColumn() throws {
        // The expression starts at column 12 (after the quote); its '#' is at its column 14.
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\ngeotrigger:\n  filter: \"accuracy < 5 # 2\"\n", line: 4, column: 25,
            "filter: unexpected character '#'")
        // Plain (unquoted) scalars start at their own column.
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\ngeotrigger:\n  filter: speed = 'fast'\n", line: 4, column: 19,
            "fix fields are numbers")
    }

    @Test func fenceFilesAreAPathAListOrNamedSets() throws {
        let head = "traces: [traces/a.csv]\n"
        let (_, one) = try scenario(head + "fences: fences.geojson\n")
        #expect(try ScenarioReader.read(path: one).fenceFiles.map(\.set) == [nil])
        let (_, list) = try scenario(head + "fences: [fences.geojson, fences.geojson]\n")
        #expect(try ScenarioReader.read(path: list).fenceFiles.count == 2)
        let (_, sets) = try scenario(head + "fences: {stores: fences.geojson, depots: fences.geojson}\n")
        #expect(try ScenarioReader.read(path: sets).fenceFiles.map(\.set) == ["stores", "depots"])
        try expectError(head + "fences: []\n", line: 2, "fences is empty")
        try expectError(head + "fences: 5\n", line: 2, "fences must be a path to a GeoJSON file, a list of them, or a map")
        try expectError(head + "fences: [fences.geojson, 7]\n", line: 2, "a fence file must be a path")
        try expectError(head + "fences: {\"a/b\": fences.geojson}\n", line: 2, "without '/'")
        try expectError(
            head + "fences:\n  stores: fences.geojson\n  depots: nowhere.geojson\n", code: 66, line: 4,
            "fence file nowhere.geojson does not exist")
    }

    @Test func whereSelectsFencesOnlyUnderTheScenarioGeotrigger() throws {
        // A bad clause points at its column: the unterminated string at column 13 of the clause.
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\ngeotrigger:\n  where: \"brand = 'acme\"\n", line: 4, column: 19,
            "where: the string has no closing '")
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\ngeotrigger:\n  where: 5\n", line: 4, "where must be a string expression")
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\ngeotrigger:\n  level: fixes\n", line: 4, "level must be one of none, intervals"
        )
        // A zone's settings apply to fences already selected.
        try expectError(
            "traces: [traces/a.csv]\nfences: fences.geojson\nzones:\n  - id: z1\n    geotrigger: {where: \"floor > 1\"}\n", line: 5,
            "where selects the fences a geotrigger watches")
    }

    @Test func zoneErrors() throws {
        let head = "traces: [traces/a.csv]\nfences: fences.geojson\nzones:\n"
        try expectError(head + "  - {id: z1}\n  - {id: z1}\n", line: 5, "duplicate zone id \"z1\"")
        try expectError(head + "  - {id: z1, minimumRetriggerTime: -5}\n", line: 4, "must not be negative")
        try expectError(head + "  - {id: z1, minimumRetriggerTime: soon}\n", line: 4, "minimumRetriggerTime must be a number of seconds")
        try expectError(
            head
                + "  - id: z1\n    schedule: [{at: \"2026-01-01T10:00:00Z\", enabled: false}, {at: \"2026-01-01T09:00:00Z\", enabled: true}]\n",
            line: 5, "time order")
        try expectError(head + "  - {id: z1, colour: red}\n", line: 4, "unknown zone key \"colour\"")
        try expectError(head + "  - {id: z1, conditions: {speed: {min: 20, max: 10}}}\n", line: 4, "min is above max")
        try expectError(
            head + "  - {id: z1, conditions: {timeWindows: [{days: [funday], from: \"08:00\", to: \"18:00\"}]}}\n", line: 4, "unknown day")
        try expectError(head + "  - {id: z1, conditions: {timeWindows: [{from: \"8am\", to: \"18:00\"}]}}\n", line: 4, "HH:MM")
        try expectError(
            head + "  - {id: z1, conditions: {timeWindows: [{from: \"08:00\", to: \"18:00\", timezone: Mars/Olympus}]}}\n", line: 4,
            "unknown time zone")
        try expectError(head + "  - {id: z1, conditions: {percentageCrossed: {percent: 150}}}\n", line: 4, "percent in (0, 100]")
        try expectError(head + "  - {id: z1, conditions: {travelDirection: northbound}}\n", line: 4, "left-to-right or right-to-left")
    }

    @Test func yamlSyntaxErrorsAreLocated() throws {
        try expectError("traces: [traces/a.csv\nfences: fences.geojson\n", line: 2, "YAML")
        try expectError("traces: [traces/a.csv]\ntraces: [traces/b.csv]\nfences: fences.geojson\n", line: 1, "duplicate key")
    }

    @Test("aliases that expand without bound are refused, not walked")
    func billionLaughs() throws {
        var yaml =
            "name: laughs\ntraces: [traces/a.csv]\nfences: fences.geojson\ndegrade:\n  l0: &l0 [lol,lol,lol,lol,lol,lol,lol,lol,lol,lol]\n"
        for level in 1...9 {
            yaml += "  l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ",") + "]\n"
        }
        try expectError(yaml, line: 5, "expands to more than")
    }
}
