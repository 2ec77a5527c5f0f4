import Foundation
import Support
import Testing

@testable import EventPipeline
@testable import Scenarios

/// Places in scenario runs (issue 5, Places half): signals from check-ins or from the engine,
/// sessions, nearby lookups, region budget, expiry, and state kept across runs.
@Suite struct PlacesPipelineTests {
    typealias H = ScenarioHarness

    /// `type poi current lastEntered lastExited` of each places.entry / places.exit line.
    static func table(_ events: [LogEvent], trace: String? = nil) -> [String] {
        events.filter { [.placesEntry, .placesExit].contains($0.type) && (trace == nil || $0.trace == trace) }
            .map {
                "\($0.type.rawValue) \(H.text($0, "poi")) \(H.text($0, "current")) \(H.text($0, "lastEntered")) \(H.text($0, "lastExited"))"
            }
    }

    // MARK: - seed 001

    @Test("seed 001 tables through a scenario run", arguments: ["docs", "ios", "android"])
    func seed001Tables(platform: String) throws {
        let path = Paths.repository("scenarios/places-seed001.yaml")
        let settings = try #require(try ScenarioReader.read(path: path).places).overridden(platform: platform, regionBudget: nil)
        let run = try H.run(path, places: settings)
        // "Scenario: Non-intersecting points": Enter A, Exit A, Enter B.
        #expect(
            Self.table(run.events, trace: "../traces/places-apart.csv") == [
                "places.entry A-apart A-apart A-apart null",
                "places.exit A-apart null A-apart A-apart",
                "places.entry B-apart B-apart B-apart A-apart",
            ])
        // "Scenario: Intersecting points": Enter A, Enter B (A stays current: its library ranks
        // higher), Exit A.
        #expect(
            Self.table(run.events, trace: "../traces/places-overlap.csv") == [
                "places.entry A-overlap A-overlap A-overlap null",
                "places.entry B-overlap A-overlap B-overlap null",
                "places.exit A-overlap B-overlap B-overlap A-overlap",
            ])
        // Each Places line follows the check-in or check-out behind it, at the same instant.
        for (k, e) in run.events.enumerated() where e.type == .placesEntry || e.type == .placesExit {
            let behind = run.events[k - 1]
            #expect(behind.type == (e.type == .placesEntry ? .checkin : .checkout))
            #expect(behind.time == e.time && H.text(behind, "fence") == H.text(e, "poi"))
            #expect(H.text(e, "trigger") == behind.type.rawValue)
        }
    }

    /// seed 001's two tables from a scenario that declares the POIs and Places and nothing else:
    /// no zones, no `zone` property, the default signals (check-ins). Each POI checks in on its
    /// own, so entering B while inside A reaches Places (it used to be suppressed with reason
    /// checkedIn in one shared default zone, and Places never saw B's entry).
    @Test("seed 001 tables from POIs alone", arguments: ["docs", "ios", "android"])
    func seed001TablesFromPOIsAlone(platform: String) throws {
        let pois = try String(contentsOfFile: Paths.repository("traces/places-seed001-pois.geojson"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains(#""zone":"#) }.joined(separator: "\n")
        #expect(!pois.contains("zone"))
        var traces: [String: String] = [:]
        for name in ["places-apart.csv", "places-overlap.csv"] {
            traces[name] = try String(contentsOfFile: Paths.repository("traces/" + name), encoding: .utf8)
        }
        let (_, path) = try H.folder(
            fences: pois, traces: traces,
            yaml: """
                traces: [places-apart.csv, places-overlap.csv]
                fences: fences.geojson
                places: {platform: \(platform)}
                """)
        let run = try H.run(path)
        // "Scenario: Non-intersecting points", row by row: Enter A, Exit A, Enter B.
        #expect(
            Self.table(run.events, trace: "places-apart.csv") == [
                "places.entry A-apart A-apart A-apart null",
                "places.exit A-apart null A-apart A-apart",
                "places.entry B-apart B-apart B-apart A-apart",
            ])
        // "Scenario: Intersecting points", row by row: Enter A; Enter B (A stays current, its
        // library ranks higher); Exit A (B becomes current).
        #expect(
            Self.table(run.events, trace: "places-overlap.csv") == [
                "places.entry A-overlap A-overlap A-overlap null",
                "places.entry B-overlap A-overlap B-overlap null",
                "places.exit A-overlap B-overlap B-overlap A-overlap",
            ])
        #expect(!run.events.contains { $0.type == .suppressed }, "no check-in is held back")
        #expect(run.events.filter { $0.type == .checkin }.allSatisfy { H.text($0, "zone") == "default" })
    }

    // MARK: - signals

    /// A POI "shop" (50 m at 8.5 E) in zone z1.
    static let shop = H.collection([H.circle("shop", longitude: 8.5, radius: 50, extra: #", "zone": "z1""#)])
    /// In at 10 s, out at 30 s, in at 50 s, out at 60 s, in at 700 s.
    static let inOutIn = H.path([
        (0, 8.498), (10, 8.5), (20, 8.5), (30, 8.502), (40, 8.502), (50, 8.5), (60, 8.502), (690, 8.502), (700, 8.5),
    ])

    @Test func geotriggerSignalsBypassTheZoneThatCheckinsObey() throws {
        func run(_ signals: String) throws -> [String] {
            let (_, path) = try H.folder(
                fences: Self.shop, traces: ["t.csv": Self.inOutIn],
                yaml: """
                    traces: [t.csv]
                    fences: fences.geojson
                    zones: [{id: z1, checkOut: true, minimumRetriggerTime: 600}]
                    places: {signals: \(signals)}
                    """)
            return try H.run(path).events.filter { [.placesEntry, .placesExit].contains($0.type) }
                .map { "\($0.type.rawValue) \($0.time) \(H.text($0, "trigger"))" }
        }
        // Check-ins: the re-entry at 50 s is suppressed by the re-trigger time, so Places sees
        // neither it nor its exit.
        #expect(
            try run("checkins") == [
                "places.entry 2026-01-01T09:00:10.000Z checkin",
                "places.exit 2026-01-01T09:00:30.000Z checkout",
                "places.entry 2026-01-01T09:11:40.000Z checkin",
            ])
        // Raw geotrigger events: every enter and exit.
        #expect(
            try run("geotrigger") == [
                "places.entry 2026-01-01T09:00:10.000Z enter",
                "places.exit 2026-01-01T09:00:30.000Z exit",
                "places.entry 2026-01-01T09:00:50.000Z enter",
                "places.exit 2026-01-01T09:01:00.000Z exit",
                "places.entry 2026-01-01T09:11:40.000Z enter",
            ])
    }

    // MARK: - expiry

    /// In at 10 s, out at 30 s, then outside until 300 s.
    static let inThenOut = H.path([(0, 8.498), (10, 8.5), (20, 8.5), (30, 8.502), (300, 8.502)])

    @Test func zoneWithoutCheckOutLeavesMembershipToTheTTL() throws {
        let (_, path) = try H.folder(
            fences: Self.shop, traces: ["t.csv": Self.inThenOut],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: z1, checkOut: false}]
                places: {membershipTTL: 120, expiry: strict}
                """)
        let run = try H.run(path)
        #expect(run.events.contains { $0.type == .exit })
        #expect(Self.table(run.events) == ["places.entry shop shop shop null"])
        let expired = try #require(run.events.first { $0.type == .placesExpired })
        // Strict expiry: at validUntil, entry + TTL exactly.
        #expect(expired.time.description == "2026-01-01T09:02:10.000Z")
        #expect(H.text(expired, "validUntil") == "2026-01-01T09:02:10.000Z")
        #expect(H.text(expired, "cleared") == #"{"current":"shop","lastEntered":"shop","lastExited":null}"#)
        // The entered set survives expiry, as in the SDKs.
        let state = try #require(run.outcomes[0].placesState)
        #expect(state.enteredIDs == ["shop"])
        #expect(state.currentID == nil && state.lastEnteredID == nil)
    }

    /// Seed 001's reading (`lastPOIExpiry: never`): strict expiry clears Current only, and the
    /// log line says so; Last Entered stays for the rules that read it.
    @Test func lastPOIsThatNeverExpire() throws {
        let (_, path) = try H.folder(
            fences: Self.shop, traces: ["t.csv": Self.inThenOut],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: z1, checkOut: false}]
                places: {membershipTTL: 120, expiry: strict, lastPOIExpiry: never}
                """)
        let run = try H.run(path)
        let expired = try #require(run.events.first { $0.type == .placesExpired })
        #expect(expired.time.description == "2026-01-01T09:02:10.000Z")
        #expect(H.text(expired, "cleared") == #"{"current":"shop","lastEntered":null,"lastExited":null}"#)
        #expect(H.text(expired, "message").contains("Last Entered and Last Exited never expire"))
        let state = try #require(run.outcomes[0].placesState)
        #expect(state.currentID == nil && state.lastEnteredID == "shop")
    }

    @Test func lazyExpiryHappensWhenTheAppLaunches() throws {
        let (_, path) = try H.folder(
            fences: Self.shop, traces: ["t.csv": Self.inThenOut],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: z1, checkOut: false}]
                places: {membershipTTL: 120, expiry: lazy}
                sessions: [{launch: "2026-01-01T09:00:00Z", terminate: "2026-01-01T09:01:00Z"}, {launch: "2026-01-01T09:04:00Z"}]
                """)
        let run = try H.run(path)
        // Nothing expires at validUntil (09:02:10); the second launch finds it expired.
        let expired = run.events.filter { $0.type == .placesExpired }
        #expect(expired.map(\.time.description) == ["2026-01-01T09:04:00.000Z"])
        #expect(H.text(expired[0], "validUntil") == "2026-01-01T09:02:10.000Z")
        #expect(
            run.events.filter { $0.type == .session }.map { "\($0.time) \(H.text($0, "action"))" } == [
                "2026-01-01T09:00:00.000Z launch", "2026-01-01T09:01:00.000Z terminate", "2026-01-01T09:04:00.000Z launch",
            ])
    }

    // MARK: - sessions

    /// POIs A (8.5 E) and B (8.503 E), 50 m each, about 226 m apart, each in its own zone.
    static let twoPOIs = H.collection([
        H.circle("A", longitude: 8.5, radius: 50, extra: #", "zone": "za""#),
        H.circle("B", longitude: 8.503, radius: 50, extra: #", "zone": "zb""#),
    ])
    /// Starts inside A, stays a minute, walks to B (leaving A at 90 s, entering B at 150 s).
    static let aToB = H.path([(0, 8.5), (30, 8.5), (60, 8.5), (90, 8.501), (120, 8.502), (150, 8.5028), (180, 8.503)])

    @Test func launchWithNearbyLookupReplacesTheEnteredSetWithoutEvents() throws {
        let (_, path) = try H.folder(
            fences: Self.twoPOIs, traces: ["t.csv": Self.aToB],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                geotrigger: {initialTrigger: none}
                zones: [{id: za}, {id: zb}]
                places: {signals: geotrigger}
                sessions: [{launch: "2026-01-01T09:00:20Z", nearbyLookup: true}]
                """)
        let run = try H.run(path)
        let lookup = try #require(run.events.first { $0.type == .placesLookup })
        #expect(lookup.time.description == "2026-01-01T09:00:20.000Z")
        // The fix at or just before the launch: fix 0 at 09:00:00.
        #expect(H.text(lookup, "fix") == "0")
        #expect(H.text(lookup, "entered") == #"["A"]"#)
        #expect(H.text(lookup, "joined") == #"["A"]"#)
        #expect(H.text(lookup, "nearby") == #"["A","B"]"#)
        #expect(H.text(lookup, "current") == "A" && H.text(lookup, "lastEntered") == "A")
        // No region event for the lookup; the later exit of A and entry of B are processed.
        #expect(Self.table(run.events) == ["places.exit A null A A", "places.entry B B B A"])
        #expect(!run.events.contains { H.text($0, "background") == "true" })
    }

    @Test func regionBudgetIgnoresCrossingsOfUnmonitoredPOIs() throws {
        let (_, path) = try H.folder(
            fences: Self.twoPOIs, traces: ["t.csv": Self.aToB],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: za}, {id: zb}]
                places: {regionBudget: 1}
                sessions: [{launch: "2026-01-01T09:00:00Z", nearbyLookup: true}]
                """)
        let run = try H.run(path)
        let lookup = try #require(run.events.first { $0.type == .placesLookup })
        #expect(H.text(lookup, "monitored") == #"["A"]"#)
        let ignored = run.events.filter { $0.type == .suppressed && $0.field("poi") != nil }
        #expect(ignored.map { "\(H.text($0, "poi")) \(H.text($0, "reason")) \(H.text($0, "trigger"))" } == ["B notMonitored checkin"])
        #expect(H.text(ignored[0], "message").contains(#"not among the 1 nearest POIs of the last nearby lookup"#))
        // The check-in at B happened; only Places ignored it.
        #expect(run.events.contains { $0.type == .checkin && H.text($0, "fence") == "B" })
    }

    @Test func signalsOutsideSessionsAreBackgroundLaunches() throws {
        let (_, path) = try H.folder(
            fences: Self.twoPOIs, traces: ["t.csv": Self.aToB],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: za}, {id: zb}]
                sessions: [{launch: "2026-01-01T09:01:00Z", terminate: "2026-01-01T09:02:00Z"}]
                """)
        let run = try H.run(path)
        // Entry of A at 0 s: before the session; exit of A at 90 s: in it; entry of B at 150 s:
        // after it. All processed.
        #expect(
            run.events.filter { [.placesEntry, .placesExit].contains($0.type) }.map {
                "\($0.type.rawValue) \(H.text($0, "poi")) \(H.text($0, "background"))"
            } == [
                "places.entry A true", "places.exit A -", "places.entry B true",
            ])
    }

    @Test func sessionsOutsideTheTraceAreReported() throws {
        let (_, path) = try H.folder(
            fences: Self.twoPOIs, traces: ["t.csv": Self.aToB],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: za}, {id: zb}]
                sessions:
                  - {launch: "2026-01-01T08:00:00Z", terminate: "2026-01-01T08:30:00Z", nearbyLookup: true}
                  - {launch: "2026-01-01T10:00:00Z"}
                """)
        let run = try H.run(path)
        let warnings = run.outcomes[0].warnings
        #expect(warnings.map(\.kind) == ["session-no-fix", "session-after-trace"])
        #expect(warnings.map { $0.location?.line } == [5, 6])
        #expect(warnings[1].message.contains("after the end of t.csv"))
        let launch = try #require(run.events.first { $0.type == .session })
        #expect(H.text(launch, "message") == "no fix at or before the launch, so the nearby lookup is skipped")
        #expect(!run.events.contains { $0.type == .placesLookup })
    }

    // MARK: - persistence

    @Test func stateRoundTripAcrossRuns() throws {
        let dir = try Paths.temporaryDirectory()
        try Paths.write(Self.twoPOIs, "fences.geojson", in: dir)
        // Day 1 walks from A to B; day 2 (30 minutes later) walks away from B.
        try Paths.write(Self.aToB, "day1.csv", in: dir)
        try Paths.write(H.path([(0, 8.503), (30, 8.5035), (60, 8.505)], start: "2026-01-01T09:30:00Z"), "day2.csv", in: dir)
        // Check-in state is not persisted, only Places state: day 2 feeds Places from the engine
        // so that leaving B is an exit signal.
        let first = try Paths.write(
            "traces: [day1.csv]\nfences: fences.geojson\nzones: [{id: za}, {id: zb}]\nplaces: {}\n", "day1.yaml", in: dir)
        let second = try Paths.write(
            "traces: [day2.csv]\nfences: fences.geojson\ngeotrigger: {initialTrigger: none}\nplaces: {signals: geotrigger}\n", "day2.yaml",
            in: dir)
        let statePath = dir.appendingPathComponent("device.places.json").path

        let day1 = try H.run(first)
        #expect(Self.table(day1.events) == ["places.entry A A A null", "places.exit A null A A", "places.entry B B B A"])
        let state1 = try #require(day1.outcomes[0].placesState)
        try PlacesStateFiles.text(of: state1).write(toFile: statePath, atomically: true, encoding: .utf8)
        // What is read back writes the same bytes.
        let reread = try PlacesStateFiles.load([statePath], settings: try #require(day1.scenario.places))
        #expect(PlacesStateFiles.text(of: try #require(reread[0])) == PlacesStateFiles.text(of: state1))

        // Half an hour later (within the one-hour TTL), B is still Last Entered from day 1.
        let day2 = try H.run(second, placesStates: [statePath])
        #expect(Self.table(day2.events) == ["places.exit B null B B"])
        #expect(day2.outcomes[0].placesState?.enteredIDs == [])
        // From a fresh state the same exit knows nothing of day 1.
        let fresh = try H.run(second)
        #expect(Self.table(fresh.events) == ["places.exit B null null B"])
    }

    @Test func corruptStateIsALocatedError() throws {
        let dir = try Paths.temporaryDirectory()
        let path = try Paths.write(
            "{\"format\": \"fencesim-places-state\",\n \"version\": 7,\n \"nearby\": []}\n", "bad.places.json", in: dir)
        do {
            _ = try PlacesStateFiles.load([path], settings: PlacesSettings())
            Issue.record("a corrupt state must be an error")
        } catch {
            #expect(error.code.exitStatus == 65)
            #expect(error.location?.file == path)
            #expect(error.location?.line == 2)
            #expect(error.location?.column == 13)
            #expect(error.message.contains("unsupported Places state version 7"))
        }
    }

    @Test func stateFilesPerTrace() throws {
        let traces = [
            TraceInput(path: "/data/a/monday.gpx", label: "a/monday.gpx"), TraceInput(path: "/data/a/tuesday.gpx", label: "a/tuesday.gpx"),
        ]
        #expect(try PlacesStateFiles.paths(for: Array(traces.prefix(1)), option: "/tmp/x.json") == ["/tmp/x.json"])
        #expect(
            try PlacesStateFiles.paths(for: traces, option: "/tmp/states/") == [
                "/tmp/states/monday.gpx.places.json", "/tmp/states/tuesday.gpx.places.json",
            ])
        #expect(throws: FencesimError.self) { try PlacesStateFiles.paths(for: traces, option: "/tmp/x.json") }
        do {
            _ = try PlacesStateFiles.paths(for: traces, option: "/tmp/x.json")
        } catch {
            #expect(error.code.exitStatus == 64)
            #expect(error.message.contains("give a directory"))
        }
        let clash = [TraceInput(path: "/a/day.gpx", label: "a/day.gpx"), TraceInput(path: "/b/day.gpx", label: "b/day.gpx")]
        do {
            _ = try PlacesStateFiles.paths(for: clash, option: "/tmp/states/")
            Issue.record("two traces with one file name must be refused")
        } catch {
            #expect(error.code.exitStatus == 64)
        }
    }
}
