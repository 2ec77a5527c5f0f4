import Fences
import Foundation
import Geotriggers
import Support
import Testing

@testable import Accuracy
@testable import EventPipeline
@testable import Execution
@testable import Scenarios

/// Several named geotriggers in one run (issue 27): a scenario's `geotriggers:` list, read with
/// located errors, replayed by one engine over its (geotrigger, fence) pairs.
@Suite struct GeotriggersScenarioTests {
    static let fences = ScenarioHarness.collection([
        ScenarioHarness.circle("shop", longitude: 8.55, radius: 50, extra: #", "brand": "acme""#),
        ScenarioHarness.circle("cafe", longitude: 8.56, radius: 50, extra: #", "brand": "beans""#),
    ])
    /// East along 47.39 from 8.54 to about 8.57, a fix every 10 s, 15 m apart.
    static let walk = ScenarioHarness.walk(from: 8.54, step: 0.0002, count: 150)

    /// A folder with the two fences (also as the named set `city`), two traces and `yaml`.
    static func folder(_ yaml: String, fences: String = fences) throws -> (dir: URL, scenario: String) {
        let made = try ScenarioHarness.folder(
            fences: fences, traces: ["a.csv": walk, "b.csv": ScenarioHarness.walk(from: 8.545, step: 0.0003, count: 100)],
            yaml: yaml)
        try Paths.write(fences, "city.geojson", in: made.dir)
        return made
    }

    /// The events of `fencesim run` of the scenario at `path`.
    static func run(_ path: String, workers: Int = 1) throws -> [LogEvent] {
        let scenario = try ScenarioReader.read(path: path)
        let runner = try ScenarioRunner(scenario: scenario, workers: workers)
        return try ScenarioRunner.events(of: try runner.run())
    }

    static func name(_ e: LogEvent) -> String { ScenarioHarness.text(e, Scenario.geotriggerKey) }

    // MARK: reading

    func expectError(
        _ yaml: String, line: Int, column: Int? = nil, _ message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let (_, path) = try Self.folder(yaml)
        do {
            let s = try ScenarioReader.read(path: path)
            Issue.record("expected an error, read \(s.name) with \(s.geotriggers.count) geotriggers", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code.exitStatus == 65, "\(error)", sourceLocation: sourceLocation)
            #expect(error.location?.file == path, "\(error)", sourceLocation: sourceLocation)
            #expect(error.location?.line == line, "\(error)", sourceLocation: sourceLocation)
            if let column { #expect(error.location?.column == column, "\(error)", sourceLocation: sourceLocation) }
            #expect(error.message.contains(message), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    static let head = "traces: [a.csv]\nfences: {city: city.geojson}\n"

    @Test func readsNamesSetsAndSettings() throws {
        let (_, path) = try Self.folder(
            Self.head + """
                geotriggers:
                  - name: near
                    fences: city
                    buffer: 200
                    notify: enter
                  - name: shops
                    fences: [city]
                    where: "brand = 'acme'"
                    dwell: 30
                    level: intervals
                """)
        let s = try ScenarioReader.read(path: path)
        #expect(s.geotriggers.map(\.name) == ["near", "shops"])
        #expect(s.geotriggers.map(\.sets) == [["city"], ["city"]])
        #expect(s.geotriggers[0].overrides.bufferMeters == 200 && s.geotriggers[0].overrides.notify == .enter)
        #expect(s.geotriggers[1].overrides.fencesWhere?.text == "brand = 'acme'")
        #expect(s.geotriggers[1].overrides.level == .intervals && s.geotriggers[1].overrides.dwellSeconds == .some(30))
        #expect(s.geotriggers[0].location.line == 4)
    }

    @Test func hostileGeotriggersAreLocated() throws {
        let h = Self.head
        try expectError(h + "geotrigger: {buffer: 5}\ngeotriggers:\n  - name: a\n", line: 4, column: 1, "not both")
        try expectError(h + "geotriggers:\n  - name: a\ngeotrigger: {buffer: 5}\n", line: 3, column: 1, "not both")
        try expectError(h + "geotriggers: {name: a}\n", line: 3, "must be a list of geotriggers")
        try expectError(h + "geotriggers: []\n", line: 3, "geotriggers is empty")
        try expectError(h + "geotriggers:\n  - just-a-name\n", line: 4, column: 5, "must be a mapping")
        try expectError(h + "geotriggers:\n  - buffer: 5\n", line: 4, column: 5, "needs a \"name\"")
        try expectError(h + "geotriggers:\n  - name: \"\"\n", line: 4, column: 11, "non-empty string")
        try expectError(h + "geotriggers:\n  - name: 7\n", line: 4, column: 11, "non-empty string")
        try expectError(h + "geotriggers:\n  - name: \"a\\tb\"\n", line: 4, column: 11, "control characters")
        try expectError(
            h + "geotriggers:\n  - name: a\n  - name: b\n  - name: a\n", line: 6, column: 11, "duplicate geotrigger name \"a\" (first at")
        try expectError(h + "geotriggers:\n  - name: a\n    bufer: 5\n", line: 5, column: 5, "unknown geotrigger key \"bufer\"")
        try expectError(
            h + "geotriggers:\n  - name: a\n    fences: shops\n", line: 5, column: 13,
            "unknown fence set \"shops\" (the scenario's sets are city)")
        try expectError(h + "geotriggers:\n  - name: a\n    fences: [city, city]\n", line: 5, column: 20, "named twice")
        try expectError(h + "geotriggers:\n  - name: a\n    fences: []\n", line: 5, "fences is empty")
        try expectError(h + "geotriggers:\n  - name: a\n    fences: {city: x}\n", line: 5, "set name or a list of set names")
        try expectError(
            "traces: [a.csv]\nfences: fences.geojson\ngeotriggers:\n  - name: a\n    fences: city\n", line: 5, "not a map of named sets")
        // Its settings are read as geotrigger: reads them, located at their column.
        try expectError(
            h + "geotriggers:\n  - name: a\n    where: \"brand = 'acme\"\n", line: 5, column: 21, "where: the string has no closing '")
        try expectError(h + "geotriggers:\n  - name: a\n    feed: gps\n", line: 5, column: 11, "feed must be one of")
        try expectError(h + "geotriggers:\n  - name: a\n    buffer: 1e400\n", line: 5, "out of range")
        try expectError(h + "geotriggers:\n  - name: a\n    message: \"{fence.nme\"\n", line: 5, "message:")
    }

    @Test func tooManyPairsAreRefusedAtTheGeotriggerThatPassesTheLimit() throws {
        // 1,000 fences watched by 2,001 geotriggers: 2,001,000 pairs, past the 2,000,000 limit
        // at the last geotrigger (the engine would track every pair as a fence).
        let fences = ScenarioHarness.collection(
            (0..<1000).map { ScenarioHarness.circle("f\($0)", longitude: 8.5 + Double($0) * 0.001, radius: 10) })
        let yaml = "traces: [a.csv]\nfences: fences.geojson\ngeotriggers:\n" + (0...2000).map { "  - name: g\($0)\n" }.joined()
        let (_, path) = try Self.folder(yaml, fences: fences)
        let scenario = try ScenarioReader.read(path: path)
        do {
            _ = try scenario.readFences(options: FenceReadOptions())
            Issue.record("expected the pairs to be refused")
        } catch {
            #expect(error.code.exitStatus == 65 && error.location?.line == 4 + 2000, "\(error)")
            #expect(error.message.contains("more than 2000000 (geotrigger, fence) pairs"), "\(error.message)")
        }
        // One geotrigger fewer is within it.
        #expect(
            try ScenarioReader.read(
                path: Paths.write(
                    yaml.split(separator: "\n").dropLast().joined(separator: "\n") + "\n", "fewer.yaml",
                    in: URL(fileURLWithPath: path).deletingLastPathComponent())
            )
            .readFences(options: FenceReadOptions()).fences.count == 2_000_000)
    }

    // MARK: replay

    static let twoOnOneFence = """
        traces: [a.csv]
        fences: fences.geojson
        geotriggers:
          - name: tight
            where: "brand = 'acme'"
          - name: wide
            buffer: 200
            where: "id = 'shop'"
            message: "{event.type} {fence.id}"
        """

    @Test func twoGeotriggersOnOneFenceKeepTheirOwnState() throws {
        let (_, path) = try Self.folder(Self.twoOnOneFence)
        let events = try Self.run(path)
        func engine(_ name: String) -> [String] {
            events.filter { [.enter, .exit].contains($0.type) && Self.name($0) == name }.map {
                "\($0.type.rawValue) \(ScenarioHarness.text($0, "fence")) \($0.time)"
            }
        }
        let tight = engine("tight"), wide = engine("wide")
        #expect(tight.count == 2 && wide.count == 2, "\(tight) \(wide)")
        // The wide one's buffer takes it in earlier and out later.
        let enters = events.filter { $0.type == .enter }
        let tightEnter = try #require(enters.first { Self.name($0) == "tight" }),
            wideEnter = try #require(enters.first { Self.name($0) == "wide" })
        #expect(wideEnter.time < tightEnter.time)
        #expect(ScenarioHarness.text(wideEnter, "message") == "enter shop" && tightEnter.field("message") == nil)
        // The cafe is watched by neither.
        #expect(!events.contains { ScenarioHarness.text($0, "fence") == "cafe" })
        // Check-ins see the shop once: in at the first enter, out at the last exit.
        let checkIns = events.filter { $0.type == .checkin || $0.type == .checkout }
        #expect(checkIns.map(\.type) == [.checkin, .checkout], "\(checkIns.map(\.type))")
        let exits = events.filter { $0.type == .exit }
        #expect(checkIns.first?.time == wideEnter.time && checkIns.last?.time == exits.map(\.time).max())
        #expect(checkIns.allSatisfy { $0.field(Scenario.geotriggerKey) == nil })
    }

    @Test(arguments: ["geotrigger", "checkins"])
    func placesSeesAFenceOnce(signals: String) throws {
        let (_, path) = try Self.folder(Self.twoOnOneFence + "\nplaces: {signals: \(signals)}\n")
        let events = try Self.run(path)
        #expect(events.filter { $0.type == .enter }.count == 2)
        let places = events.filter { $0.type == .placesEntry || $0.type == .placesExit }
        #expect(places.map(\.type) == [.placesEntry, .placesExit], "\(places.map(\.type))")
        // In at the wide geotrigger's enter, out at the later exit.
        #expect(places.first?.time == events.first { $0.type == .enter }?.time)
        #expect(places.last?.time == events.filter { $0.type == .exit }.map(\.time).max())
    }

    @Test func membershipPassesTheFirstEnterAndTheLastExit() throws {
        let (_, path) = try Self.folder(Self.twoOnOneFence)
        let scenario = try ScenarioReader.read(path: path)
        let fences = try scenario.readFences(options: FenceReadOptions())
        let watchers = try #require(fences.watchers)
        // The shop twice (tight, then wide): the distinct fences first.
        #expect(fences.fences.map(\.id) == ["shop", "shop"] && watchers.sharedCount == 1 && watchers.shared == [0, 0])
        #expect((0..<2).map(watchers.name(of:)) == ["tight", "wide"])
        #expect(fences.watchedOnce.fences.count == 1)
        var membership = FenceMembership(fences)
        func event(_ kind: GeotriggerEvent.Kind, _ fence: Int) -> GeotriggerEvent {
            GeotriggerEvent(
                kind: kind, time: Timestamp(seconds: 0), fence: fence, fixIndex: 0, fixTime: Timestamp(seconds: 0), feed: .point,
                feedRadius: 0, distance: nil, accuracy: 5, longitude: 0, latitude: 0)
        }
        var out: [GeotriggerEvent] = []
        func take(_ events: [GeotriggerEvent]) -> [String] {
            membership.take(events, into: &out)
            return out.map { "\($0.kind.rawValue) \($0.fence)" }
        }
        #expect(take([event(.enter, 1)]) == ["enter 0"])
        #expect(take([event(.enter, 0), event(.dwell, 1)]) == ["dwell 0"])
        #expect(take([event(.dwell, 0), event(.exit, 1)]) == [])
        #expect(take([event(.exit, 0)]) == ["exit 0"])
        // Outside both: one passthrough for the fence, the suppressed findings of its first geotrigger.
        #expect(
            take([event(.passthrough, 0), event(.passthrough, 1), event(.suppressed, 1), event(.suppressed, 0)]) == [
                "passthrough 0", "suppressed 0",
            ])
        #expect(take([event(.exit, 1)]) == [])
    }

    @Test func scoringReadsAFenceOnceFromANamedLog() throws {
        let (_, path) = try Self.folder(Self.twoOnOneFence)
        let scenario = try ScenarioReader.read(path: path)
        let fences = try scenario.readFences(options: FenceReadOptions())
        let events = try Self.run(path)
        // Read back from the log's lines (as `score` reads a log), and without the names.
        var named = Scoring.Reader(fences: fences)
        var unnamed = Scoring.Reader(fences: fences)
        for e in events {
            named.take(e)
            var plain = e
            plain.fields.removeAll { $0.0 == Scenario.geotriggerKey }
            unnamed.take(plain)
        }
        #expect(named.events.map(\.kind) == [.enter, .exit], "\(named.events.map(\.kind))")
        // Unnamed, the second enter and exit are a duplicate enter and an orphan exit.
        #expect(unnamed.events.map(\.kind) == [.enter, .enter, .exit, .exit])
        let expectedExit = events.filter { $0.type == .exit }.map(\.time).max()
        #expect(named.events.last?.time == expectedExit)
    }

    @Test func rulesReadTheGeotriggersName() throws {
        let (_, path) = try Self.folder(Self.twoOnOneFence)
        let enter = try #require(try Self.run(path).first { $0.type == .enter })
        let rule = try #require(GeotriggerRuleEvent.make(enter, fence: nil, zone: nil))
        let data = JSONWriter.string(try #require(rule.data))
        #expect(data.contains(#""geotrigger":"wide""#), "\(data)")
    }

    @Test func theNameKeyIsWrittenOnlyWithGeotriggers() throws {
        let (dir, path) = try Self.folder(Self.twoOnOneFence)
        let named = try Self.run(path)
        #expect(named.filter { [.enter, .exit].contains($0.type) }.allSatisfy { $0.field(Scenario.geotriggerKey) != nil })
        let csv = EventLogFormat.csv.render(named)
        #expect(csv.split(separator: "\n")[0].hasSuffix(",geotrigger,longitude,latitude"))
        let single = try Paths.write("traces: [a.csv]\nfences: fences.geojson\ngeotrigger: {buffer: 200}\n", "single.yaml", in: dir)
        let plain = try Self.run(single)
        #expect(!plain.isEmpty && plain.allSatisfy { $0.field(Scenario.geotriggerKey) == nil })
        for format in EventLogFormat.allCases {
            #expect(!format.render(plain).contains("geotrigger"), "\(format)")
            #expect(format.render(named).contains("geotrigger"), "\(format)")
        }
    }

    @Test func oneEntryGivesTheEventsOfTheEquivalentGeotrigger() throws {
        let settings = """
            feed: accuracy
            relationship: intersects
            dwell: 60
            debounce: {enterAfter: 0, exitAfter: "2 fixes"}
            maxGap: 120
            gapPolicy: report
            level: intervals
            message: "{event.type} {fence.name}"
            """
        let common = """
            traces: [\(Paths.repository("traces/demo-drive.gpx"))]
            fences: \(Paths.repository("traces/demo-fences.geojson"))
            fenceChanges: \(Paths.repository("traces/demo-fence-changes.jsonl"))
            zones:
              - {id: depots, name: Depots}
              - {id: stores, name: Stores, minimumRetriggerTime: 600, geotrigger: {relationship: contains-intersects}}
              - {id: bridges, name: Bridges, checkOut: false}

            """
        let indented = settings.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let dir = try Paths.temporaryDirectory()
        let one = try Paths.write(
            common + "geotrigger:\n" + settings.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n", "one.yaml", in: dir
        )
        let list = try Paths.write(common + "geotriggers:\n  - name: only\n" + indented + "\n", "list.yaml", in: dir)
        let expected = try Self.run(one)
        var named = try Self.run(list)
        #expect(named.filter { $0.field(Scenario.geotriggerKey) != nil }.count > 10)
        #expect(named.filter { $0.field(Scenario.geotriggerKey) != nil }.allSatisfy { Self.name($0) == "only" })
        for k in named.indices { named[k].fields.removeAll { $0.0 == Scenario.geotriggerKey } }
        #expect(EventLogFormat.jsonl.render(named) == EventLogFormat.jsonl.render(expected))
        #expect(expected.contains { $0.type == .inside } && expected.contains { ScenarioHarness.text($0, "reason") == "removed" })
    }

    @Test func theLogDoesNotDependOnWorkersOrFenceOrder() throws {
        let yaml = """
            traces: [a.csv, b.csv]
            fences: fences.geojson
            geotriggers:
              - name: wide
                buffer: 300
                level: intervals
              - name: tight
                dwell: 20
              - name: acme
                where: "brand = 'acme'"
                relationship: contains
            """
        let (dir, path) = try Self.folder(yaml)
        let reference = EventLogFormat.jsonl.render(try Self.run(path, workers: 1))
        #expect(reference.contains("\"geotrigger\":\"acme\"") && reference.contains("\"type\":\"inside\""))
        #expect(EventLogFormat.jsonl.render(try Self.run(path, workers: 2)) == reference)
        // The fences in the other order: the same log.
        let reversed = ScenarioHarness.collection([
            ScenarioHarness.circle("cafe", longitude: 8.56, radius: 50, extra: #", "brand": "beans""#),
            ScenarioHarness.circle("shop", longitude: 8.55, radius: 50, extra: #", "brand": "acme""#),
        ])
        try Paths.write(reversed, "fences.geojson", in: dir)
        #expect(EventLogFormat.jsonl.render(try Self.run(path, workers: 2)) == reference)
    }

    @Test func eventsOfOneInstantFollowTheGeotriggersOrder() throws {
        // Identical settings: both geotriggers enter and exit the shop at the same fixes.
        let (dir, _) = try Self.folder("traces: [a.csv]\nfences: fences.geojson\n")
        func order(_ names: [String]) throws -> [String] {
            let yaml =
                "traces: [a.csv]\nfences: fences.geojson\ngeotriggers:\n"
                + names.map { "  - {name: \($0), where: \"id = 'shop'\"}\n" }.joined()
            let path = try Paths.write(yaml, "o.yaml", in: dir)
            return try Self.run(path).filter { $0.type == .enter }.map(Self.name)
        }
        #expect(try order(["b", "a"]) == ["b", "a"])
        #expect(try order(["a", "b"]) == ["a", "b"])
    }

    @Test func aProfileIsRefusedWithGeotriggers() throws {
        let (_, path) = try Self.folder(Self.twoOnOneFence + "\nprofile: ios-region\n")
        let scenario = try ScenarioReader.read(path: path)
        #expect(throws: FencesimError.self) { try ScenarioRunner(scenario: scenario) }
        do {
            _ = try ScenarioRunner(scenario: scenario)
        } catch {
            #expect(error.location?.line == 10 && error.message.contains("not simulated with geotriggers"), "\(error)")
        }
    }

    // MARK: the golden scenario

    /// scenarios/demo-geotriggers.yaml exercises every part of issue 27, not only its golden.
    @Test func theGoldenScenarioUsesEveryPart() throws {
        let events = try Self.run(Paths.repository("scenarios/demo-geotriggers.yaml"))
        func has(_ type: LogEvent.EventType, _ fence: String, _ geotrigger: String, reason: String? = nil) -> Bool {
            events.contains {
                $0.type == type && ScenarioHarness.text($0, "fence") == fence && Self.name($0) == geotrigger
                    && (reason == nil || ScenarioHarness.text($0, "reason") == reason)
            }
        }
        // Two named sets: both prefixes.
        #expect(has(.enter, "venues/cafe", "venues") && has(.enter, "city/fuel", "approach"))
        // The where-clauses: arrivals watches the shops only, approach the stores zone only.
        #expect(!has(.enter, "city/fuel", "arrivals") && !events.contains { ScenarioHarness.text($0, "fence") == "city/depot" })
        // Two geotriggers on one fence with different settings, at different times.
        let arrivals = try #require(
            events.first { $0.type == .enter && ScenarioHarness.text($0, "fence") == "city/store-a" && Self.name($0) == "arrivals" })
        let approach = try #require(
            events.first { $0.type == .enter && ScenarioHarness.text($0, "fence") == "city/store-a" && Self.name($0) == "approach" })
        #expect(approach.time < arrivals.time)
        // Fences changing over time.
        #expect(has(.exit, "venues/kiosk", "venues", reason: "removed") && has(.enter, "venues/pop-up", "venues", reason: "added"))
        // Level intervals, per geotrigger.
        #expect(has(.inside, "city/store-a", "approach") && has(.inside, "venues/kiosk", "venues"))
        #expect(!events.contains { $0.type == .inside && Self.name($0) == "arrivals" })
        // Check-ins see each store once.
        #expect(events.filter { $0.type == .checkin && ScenarioHarness.text($0, "fence") == "city/store-a" }.count == 1)
    }
}
