import Fences
import Foundation
import Support
import Testing

@testable import EventPipeline
@testable import Scenarios

/// Rules in scenario runs (issue 5, rules half): rules evaluated on the Places response, Edge and
/// geotrigger events of a run, tokens, shared states, the client-side profile, history, chaining,
/// platforms and determinism.
@Suite struct RulesPipelineTests {
    typealias H = ScenarioHarness

    /// `trigger consequence-id detail` of each rule line of `trace`.
    static func rules(_ events: [LogEvent], trace: String? = nil) -> [String] {
        events.filter { $0.type == .rule && (trace == nil || $0.trace == trace) }.map { e in
            let consequence = e.field("consequence")
            let id = consequence.flatMap { JSONNode($0).member("id")?.string } ?? "-"
            let detail = consequence.flatMap { JSONNode($0).member("detail")?.value }.map(JSONWriter.string) ?? "-"
            return "\(H.text(e, "trigger")) \(id) \(detail)"
        }
    }

    /// The `~cachebust` values a trace draws, computed here from the documented recipe
    /// (``Simulation/RulesSettings/traceSeed(for:)``): SplitMix64 seeded with seed XOR FNV-1a-64 of
    /// the label, whose first output seeds the trace's generator; each value is a rejection-sampled
    /// draw below 10^8 - 1, plus 1 (iOS and docs: 1..<10^8).
    static func cachebusts(seed: UInt64, label: String, count: Int) -> [String] {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in label.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 1_099_511_628_211
        }
        var mixer = SplitMix64(seed: seed ^ hash)
        var rng = SplitMix64(seed: mixer.next())
        let bound: UInt64 = 99_999_999
        let limit = UInt64.max - UInt64.max % bound
        var out: [String] = []
        while out.count < count {
            let draw = rng.next()
            if draw < limit { out.append(String(1 + draw % bound)) }
        }
        return out
    }

    // MARK: - the seed 001 scenario with rules

    @Test func seed001RulesFireOnEntryWithPOITokensPlacesStateAndTheProfile() throws {
        let run = try H.run(Paths.repository("scenarios/places-seed001-rules.yaml"))
        let apart = "../traces/places-apart.csv"
        let overlap = "../traces/places-overlap.csv"
        let cbApart = Self.cachebusts(seed: 0, label: apart, count: 2)
        let cbOverlap = Self.cachebusts(seed: 0, label: overlap, count: 2)
        // Hand-checked: 2026-01-01T09:00:45Z is 1767225600 + 9 h 45 s = 1767258045; the POI names
        // "POI A"/"POI B" are URL-encoded; Current POI is read from the Places state after the
        // entry; the tally in the profile is written by the csp on the response event and read
        // back on the Edge event that follows it.
        #expect(
            Self.rules(run.events, trace: apart) == [
                #"Geotrigger checkin checkin-postback {"templateurl":"https://collect.example.com/checkin?fence=A-apart&zone=Non-intersecting%20POIs&at=2026-01-01T09:00:45.000Z&fix=9","templatebody":"","contenttype":"","timeout":2}"#,
                #"responseprocessregionevent poi-entry-postback {"templateurl":"https://collect.example.com/poi-entry?poi=POI%20A&id=A-apart&library=seed001-apart&current=A-apart&t=1767258045&cb=\#(cbApart[0])","templatebody":"","contenttype":"","timeout":2}"#,
                #"responseprocessregionevent count-poi-entries {"operation":"write","key":"poientries","value":"I"}"#,
                #"Location Tracking Event welcome-url {"url":"https://example.com/welcome?poi=POI%20A&entries=I"}"#,
                #"Geotrigger checkin checkin-postback {"templateurl":"https://collect.example.com/checkin?fence=B-apart&zone=Non-intersecting%20POIs&at=2026-01-01T09:03:15.000Z&fix=39","templatebody":"","contenttype":"","timeout":2}"#,
                // The history holds the check-out of A-apart: the historical rule fires.
                #"Geotrigger checkin checkin-after-leaving-a {"action":"checkin after leaving POI A","contextdata":{"fence":"B-apart","leftA":"yes"}}"#,
                #"responseprocessregionevent poi-entry-postback {"templateurl":"https://collect.example.com/poi-entry?poi=POI%20B&id=B-apart&library=seed001-apart&current=B-apart&t=1767258195&cb=\#(cbApart[1])","templatebody":"","contenttype":"","timeout":2}"#,
                #"responseprocessregionevent count-poi-entries {"operation":"write","key":"poientries","value":"II"}"#,
                #"Location Tracking Event welcome-url {"url":"https://example.com/welcome?poi=POI%20B&entries=II"}"#,
            ])
        // Entering B-overlap while A-overlap (rank 1) is entered: the Places state after the
        // entry still has A-overlap current. The other trace's profile and history are its own.
        #expect(
            Self.rules(run.events, trace: overlap) == [
                #"Geotrigger checkin checkin-postback {"templateurl":"https://collect.example.com/checkin?fence=A-overlap&zone=Overlapping%20POI%20A&at=2026-01-01T09:00:40.000Z&fix=8","templatebody":"","contenttype":"","timeout":2}"#,
                #"responseprocessregionevent poi-entry-postback {"templateurl":"https://collect.example.com/poi-entry?poi=POI%20A&id=A-overlap&library=seed001-first&current=A-overlap&t=1767258040&cb=\#(cbOverlap[0])","templatebody":"","contenttype":"","timeout":2}"#,
                #"responseprocessregionevent count-poi-entries {"operation":"write","key":"poientries","value":"I"}"#,
                #"Location Tracking Event welcome-url {"url":"https://example.com/welcome?poi=POI%20A&entries=I"}"#,
                #"Geotrigger checkin checkin-postback {"templateurl":"https://collect.example.com/checkin?fence=B-overlap&zone=Overlapping%20POI%20B&at=2026-01-01T09:01:40.000Z&fix=20","templatebody":"","contenttype":"","timeout":2}"#,
                #"responseprocessregionevent poi-entry-postback {"templateurl":"https://collect.example.com/poi-entry?poi=POI%20B&id=B-overlap&library=seed001-second&current=A-overlap&t=1767258100&cb=\#(cbOverlap[1])","templatebody":"","contenttype":"","timeout":2}"#,
                #"responseprocessregionevent count-poi-entries {"operation":"write","key":"poientries","value":"II"}"#,
                #"Location Tracking Event welcome-url {"url":"https://example.com/welcome?poi=POI%20B&entries=II"}"#,
            ])
        // Each rule line follows the line of the event it fired on, at its instant, with its
        // fence or POI, and says which rule fired where.
        for (k, e) in run.events.enumerated() where e.type == .rule {
            let behind = run.events[..<k].last { $0.type != .rule }
            #expect(behind?.time == e.time)
            #expect([LogEvent.EventType.checkin, .placesEntry].contains(behind?.type))
            #expect(H.text(e, "fence") == H.text(try #require(behind), "fence"))
            #expect(H.text(e, "poi") == H.text(try #require(behind), "poi"))
            #expect(H.text(e, "message").hasPrefix("rule "))
            #expect(H.text(e, "message").contains("../rules/places-seed001.json:"))
        }
        // The other lines are those of the scenario without rules (but for their seq).
        let plain = try H.run(Paths.repository("scenarios/places-seed001.yaml"))
        func line(_ event: LogEvent) -> String {
            var unnumbered = event
            unnumbered.seq = 0
            return EventLogFormat.jsonl.render([unnumbered])
        }
        #expect(run.events.filter { $0.type != .rule }.map(line) == plain.events.map(line))
    }

    // MARK: - geotrigger events

    /// A POI "shop" (50 m at 8.5 E) in zone z1, with a custom property.
    static let shop = H.collection([
        H.circle("shop", longitude: 8.5, radius: 50, extra: #", "name": "Shop", "zone": "z1", "brand": "acme""#)
    ])
    /// In at 10 s, out at 30 s, in at 50 s, out at 60 s.
    static let inOutIn = H.path([(0, 8.498), (10, 8.5), (20, 8.5), (30, 8.502), (40, 8.502), (50, 8.5), (60, 8.502)])

    /// A rules.json with one rule per `(conditions, consequences)`, the conditions AND-ed.
    static func rulesJSON(_ rules: [(conditions: [String], consequences: [String])]) -> String {
        let items = rules.map { rule in
            #"{"condition": {"type": "group", "definition": {"logic": "and", "conditions": [\#(rule.conditions.joined(separator: ", "))]}}, "consequences": [\#(rule.consequences.joined(separator: ", "))]}"#
        }
        return "{\"version\": 1, \"rules\": [\n" + items.joined(separator: ",\n") + "\n]}\n"
    }

    static func matcher(_ key: String, _ matcher: String, _ values: String) -> String {
        #"{"type": "matcher", "definition": {"key": "\#(key)", "matcher": "\#(matcher)", "values": \#(values)}}"#
    }

    static func consequence(_ id: String, _ type: String, _ detail: String) -> String {
        #"{"id": "\#(id)", "type": "\#(type)", "detail": \#(detail)}"#
    }

    /// Runs `yaml` in a folder with `shop`, the traces and `rules.json`.
    static func run(rules: String, traces: [String: String] = ["t.csv": inOutIn], yaml: String, workers: Int = 1) throws -> H.Run {
        let (dir, path) = try H.folder(fences: shop, traces: traces, yaml: yaml)
        try Paths.write(rules, "rules.json", in: dir)
        return try H.run(path, workers: workers)
    }

    @Test func checkInsAreGeotriggerEventsWithTheDocumentedData() throws {
        let rules = Self.rulesJSON([
            (
                [
                    Self.matcher("~type", "eq", #"["com.fencesim.eventType.geotrigger"]"#),
                    Self.matcher("~source", "eq", #"["com.adobe.eventSource.responseContent"]"#),
                ],
                [Self.consequence("all", "pb", #"{"templatebody": "{%~all_json%}"}"#)]
            )
        ])
        let run = try Self.run(
            rules: rules,
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: z1, name: Shops, customData: {brand: acme}}]
                rules: rules.json
                """)
        let bodies = run.events.filter { $0.type == .rule }.map { e -> String in
            let detail = JSONNode(e.field("consequence") ?? .null).member("detail")
            return detail?.member("templatebody")?.string ?? "-"
        }
        // enter, checkin, exit, checkout, enter, checkin, exit, checkout: every notified engine
        // event and every check-in/out.
        let kinds = try bodies.map { try #require(JSONParser.parse($0).member("type")?.string) }
        #expect(kinds == ["enter", "checkin", "exit", "checkout", "enter", "checkin", "exit", "checkout"])
        let checkin = try JSONParser.parse(bodies[1])
        #expect(checkin.member("trace")?.string == "t.csv")
        #expect(checkin.member("time")?.string == "2026-01-01T09:00:10.000Z")
        #expect(checkin.member("timestamp")?.number == 1_767_258_010_000)
        let fence = try #require(checkin.member("fence"))
        #expect(fence.member("id")?.string == "shop")
        #expect(fence.member("name")?.string == "Shop")
        #expect(fence.member("kind")?.string == "circle")
        #expect(fence.member("zone")?.string == "z1")
        #expect(fence.member("properties")?.member("brand")?.string == "acme")
        let zone = try #require(checkin.member("zone"))
        #expect(zone.member("id")?.string == "z1")
        #expect(zone.member("name")?.string == "Shops")
        #expect(zone.member("customData")?.member("brand")?.string == "acme")
        #expect(checkin.member("latitude")?.number == 47.39)
        #expect(checkin.member("longitude")?.number == 8.5)
        let fix = try #require(checkin.member("fix"))
        #expect(fix.member("index")?.number == 1)
        #expect(fix.member("time")?.string == "2026-01-01T09:00:10.000Z")
        #expect(fix.member("accuracy")?.number == 5)
        #expect(fix.member("distance")?.number ?? 0 < 0)
        #expect(checkin.member("trigger")?.string == "enter")
        #expect(checkin.member("willCheckOut")?.bool == true)
        #expect(
            checkin.members?.map(\.key) == [
                "type", "trace", "time", "timestamp", "fence", "zone", "latitude", "longitude", "fix", "trigger", "willCheckOut",
            ])
        // The engine's enter has the zone from the scenario's declaration and the feed.
        let enter = try JSONParser.parse(bodies[0])
        #expect(enter.member("zone")?.member("name")?.string == "Shops")
        #expect(enter.member("fix")?.member("feed")?.string == "point")
        let checkout = try JSONParser.parse(bodies[3])
        #expect(checkout.member("dwellSeconds")?.number == 20)
        #expect(checkout.member("checkInTime")?.string == "2026-01-01T09:00:10.000Z")
    }

    /// Seed 004: in-app messages are first-one-wins. Two rules show a message on each check-in:
    /// each rule line says which one the app shows (`shown` in the consequence, and the message).
    @Test func inAppMessagesAreMarkedShownOrNot() throws {
        let onCheckIn = [
            Self.matcher("~type", "eq", #"["com.fencesim.eventType.geotrigger"]"#), Self.matcher("type", "eq", #"["checkin"]"#),
        ]
        let rules = Self.rulesJSON([
            (onCheckIn, [Self.consequence("welcome", "iam", #"{"html": "welcome.html"}"#)]),
            (
                onCheckIn,
                [
                    Self.consequence("promo", "iam", #"{"html": "promo.html"}"#),
                    Self.consequence("ping", "pb", #"{"templateurl": "https://example.com"}"#),
                ]
            ),
        ])
        let run = try Self.run(
            rules: rules,
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: z1}]
                rules: rules.json
                """)
        let lines = run.events.filter { $0.type == .rule }
        func shown(_ e: LogEvent) -> String {
            let consequence = JSONNode(e.field("consequence") ?? .null)
            return "\(consequence.member("id")?.string ?? "-") \(consequence.member("shown").map { JSONWriter.string($0.value) } ?? "-")"
        }
        // Two check-ins, each firing welcome (shown), promo (not shown) and ping (no mark).
        #expect(lines.map(shown) == ["welcome true", "promo false", "ping -", "welcome true", "promo false", "ping -"])
        #expect(
            H.text(lines[1], "message").hasSuffix(
                #"not shown: in-app messages are first-one-wins, and "welcome" of rule 1 is shown for this event"#))
        #expect(H.text(lines[0], "message").contains("shown: the first of the 2 in-app messages this event fires"))
        #expect(!H.text(lines[2], "message").contains("shown"))
        // The table output carries the same mark.
        let table = EventLogFormat.table.render(run.events)
        #expect(table.contains(#""html":"promo.html"},"shown":false}"#), "\(table)")
    }

    @Test func historyCountsCheckInsAndEdgeEntriesButNotTheEventItself() throws {
        // Check-ins are recorded with the mask type + fence.id; Edge events with theirs. Neither
        // counts itself: the hub records an event after the rules ran on it.
        let checkins = #"{"events": [{"type": "checkin", "fence.id": "shop"}], "searchType": "any", "#
        let entries =
            #"{"events": [{"xdm.eventType": "location.entry", "xdm.placeContext.POIinteraction.poiDetail.poiID": "shop"}], "searchType": "any", "#
        let rules = Self.rulesJSON([
            (
                [
                    Self.matcher("type", "eq", #"["checkin"]"#),
                    #"{"type": "historical", "definition": \#(checkins)"matcher": "eq", "value": 0}}"#,
                ],
                [Self.consequence("first-checkin", "pb", #"{"at": "{%time%}"}"#)]
            ),
            (
                [
                    Self.matcher("type", "eq", #"["checkin"]"#),
                    #"{"type": "historical", "definition": \#(checkins)"matcher": "eq", "value": 1}}"#,
                ],
                [Self.consequence("second-checkin", "pb", #"{"at": "{%time%}"}"#)]
            ),
            (
                [
                    Self.matcher("xdm.eventType", "eq", #"["location.entry"]"#),
                    #"{"type": "historical", "definition": \#(entries)"matcher": "ge", "value": 1}}"#,
                ],
                [Self.consequence("entered-before", "pb", #"{"poi": "{%xdm.placeContext.POIinteraction.poiDetail.poiID%}"}"#)]
            ),
        ])
        let run = try Self.run(
            rules: rules,
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: z1}]
                places: {signals: checkins}
                rules: rules.json
                """)
        #expect(
            Self.rules(run.events) == [
                #"Geotrigger checkin first-checkin {"at":"2026-01-01T09:00:10.000Z"}"#,
                #"Geotrigger checkin second-checkin {"at":"2026-01-01T09:00:50.000Z"}"#,
                #"Location Tracking Event entered-before {"poi":"shop"}"#,
            ])
        let again = try #require(run.events.first { $0.type == .rule && H.text($0, "trigger") == "Location Tracking Event" })
        #expect(again.time == (try Timestamp.parseISO8601("2026-01-01T09:00:50Z").get()))
    }

    @Test func addAndModChangeTheEventThatDispatchCopiesAndChainsStopAfterOneLevel() throws {
        let rules = Self.rulesJSON([
            // On the Edge entry: attach a key, overwrite the event type, then dispatch a copy.
            (
                [Self.matcher("~type", "eq", #"["com.adobe.eventType.edge"]"#)],
                [
                    Self.consequence(
                        "attach", "add",
                        #"{"eventdata": {"marker": "{%xdm.placeContext.POIinteraction.poiDetail.poiID%}", "xdm": {"eventType": "not-overwritten"}}}"#
                    ),
                    Self.consequence("modify", "mod", #"{"eventdata": {"xdm": {"eventType": "modified"}}}"#),
                    Self.consequence(
                        "copy", "dispatch", #"{"type": "com.example.copy", "source": "com.example.request", "eventdataaction": "copy"}"#),
                    // Conditions and tokens see the event as it arrived.
                    Self.consequence("as-arrived", "pb", #"{"eventType": "{%xdm.eventType%}", "marker": "{%marker%}"}"#),
                ]
            ),
            // On the copy: the data as add/mod left it; its own dispatch goes nowhere.
            (
                [Self.matcher("~type", "eq", #"["com.example.copy"]"#)],
                [
                    Self.consequence("seen-copy", "url", #"{"url": "https://example.com/?m={%marker%}&t={%xdm.eventType%}"}"#),
                    Self.consequence(
                        "again", "dispatch", #"{"type": "com.example.copy", "source": "com.example.request", "eventdataaction": "copy"}"#),
                ]
            ),
        ])
        let run = try Self.run(
            rules: rules, traces: ["t.csv": H.path([(0, 8.498), (10, 8.5)])],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                places: {signals: geotrigger}
                rules: rules.json
                """)
        #expect(
            Self.rules(run.events) == [
                #"Location Tracking Event as-arrived {"eventType":"location.entry","marker":""}"#,
                #"Dispatch Consequence Result seen-copy {"url":"https://example.com/?m=shop&t=modified"}"#,
            ])
        let warning = try #require(run.events.first { $0.type == .warning && H.text($0, "reason") == "rules-consequence-ignored" })
        #expect(H.text(warning, "trigger") == "Dispatch Consequence Result")
        #expect(H.text(warning, "message").contains("chains stop after one dispatch"))
        #expect(H.text(warning, "message").hasPrefix("rules.json:"))
    }

    // MARK: - platforms

    /// A rule on the Places entry response that reads Last Exited POI, missing on a first entry.
    static let divergentRules = rulesJSON([
        (
            [
                matcher("regioneventtype", "eq", #"["entry"]"#),
                matcher("~state.com.adobe.module.places/lastexitedpoi.regionid", "ne", #"["nowhere"]"#),
            ],
            [consequence("first-entry", "pb", #"{"poi": "{%triggeringregion.regionid%}", "ts": "{%~timestampu%}"}"#)]
        )
    ])

    @Test("a missing key with ne: true on iOS, false on Android and in docs", arguments: [("ios", 2), ("android", 1), ("docs", 1)])
    func platformsDivergeInARun(platform: String, fired: Int) throws {
        let run = try Self.run(
            rules: Self.divergentRules,
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                places: {signals: geotrigger}
                rules: rules.json
                rulesPlatform: \(platform)
                """)
        let lines = Self.rules(run.events)
        #expect(lines.count == fired)
        // The second entry (after the exit at 30 s) has a Last Exited POI on every platform.
        #expect(lines.last == #"responseprocessregionevent first-entry {"poi":"shop","ts":"1767258050"}"#)
    }

    // MARK: - determinism

    @Test func logsAreTheSameAcrossRunsAndWorkersAndATraceDoesNotDependOnTheOthers() throws {
        let rules = Self.rulesJSON([
            (
                [Self.matcherAny()],
                [
                    Self.consequence(
                        "cb", "pb",
                        #"{"cb": "{%~cachebust%}", "t": "{%~timestampp%}", "p": "{%~state.com.adobe.module.places/currentpoi.regionid%}"}"#)
                ]
            )
        ])
        var traces: [String: String] = [:]
        for k in 0..<5 {
            traces["t\(k).csv"] = H.path([(0, 8.498), (10, 8.5), (20 + Double(k), 8.5), (40, 8.502), (50 + Double(k), 8.5)])
        }
        let yaml = """
            traces: [t*.csv]
            fences: fences.geojson
            zones: [{id: z1}]
            places: {signals: checkins}
            rules: {path: rules.json, seed: 7}
            """
        let one = try Self.run(rules: rules, traces: traces, yaml: yaml, workers: 1)
        let again = try Self.run(rules: rules, traces: traces, yaml: yaml, workers: 1)
        let two = try Self.run(rules: rules, traces: traces, yaml: yaml, workers: 2)
        #expect(one.events.filter { $0.type == .rule }.count > 20)
        #expect(one.jsonl == again.jsonl)
        #expect(one.jsonl == two.jsonl)
        // A trace run alone logs the same rule lines: its generator is seeded from its label.
        let alone = try Self.run(
            rules: rules, traces: ["t3.csv": traces["t3.csv"] ?? ""], yaml: yaml.replacingOccurrences(of: "t*.csv", with: "t3.csv"))
        #expect(Self.rules(alone.events) == Self.rules(one.events, trace: "t3.csv"))
        // The seed changes ~cachebust and nothing else.
        let reseeded = try Self.run(rules: rules, traces: traces, yaml: yaml.replacingOccurrences(of: "seed: 7", with: "seed: 8"))
        #expect(reseeded.jsonl != one.jsonl)
        #expect(reseeded.events.count == one.events.count)
        let firstCB = try #require(one.events.first { $0.type == .rule && $0.trace == "t0.csv" })
        let cb = JSONNode(firstCB.field("consequence") ?? .null).member("detail")?.member("cb")?.string
        #expect(cb == Self.cachebusts(seed: 7, label: "t0.csv", count: 1).first)
    }

    /// A matcher every event passes.
    static func matcherAny() -> String {
        matcher("~type", "ex", "[]")
    }

    // MARK: - the persisted rules state

    @Test func rulesStateRoundTripsToTheSameBytesAndRefusesCorruptFiles() throws {
        let text =
            #"{"format":"fencesim-rules-state","version":1,"userProfile":{"userprofiledata":{"a":"I","n":2}},"history":[{"time":"2026-01-01T09:00:10.123456789Z","data":{"type":"checkin","fence":{"id":"shop"}},"mask":["type","fence.id"]},{"time":"2026-01-01T08:00:00.000000000Z","data":{"k":1.5},"mask":null}]}"#
            + "\n"
        let state = try RulesDeviceState.decode(SourceText(file: "s.json", bytes: Array(text.utf8)))
        #expect(state.history.count == 2)
        #expect(state.history[0].mask == ["type", "fence.id"] && state.history[1].mask == nil)
        #expect(state.encoded() == text)
        let cases: [(text: String, column: Int, fragment: String)] = [
            (#"{"format":"fencesim-places-state","version":1}"#, 11, "not a fencesim rules state"),
            (
                #"{"format":"fencesim-rules-state","version":2,"userProfile":{"userprofiledata":{}},"history":[]}"#, 44,
                "unsupported version"
            ),
            (#"{"format":"fencesim-rules-state","version":1,"history":[]}"#, 1, "missing key \"userProfile\""),
            (
                #"{"format":"fencesim-rules-state","version":1,"userProfile":{"userprofiledata":{}},"history":[],"extra":0}"#, 96,
                "unknown key \"extra\""
            ),
            (
                #"{"format":"fencesim-rules-state","version":1,"userProfile":{"userprofiledata":[]},"history":[]}"#, 79,
                "userprofiledata must be an object"
            ),
            (
                #"{"format":"fencesim-rules-state","version":1,"userProfile":{"userprofiledata":{}},"history":[{"time":"noon","data":{},"mask":null}]}"#,
                103, "bad time"
            ),
            (
                #"{"format":"fencesim-rules-state","version":1,"userProfile":{"userprofiledata":{}},"history":[{"time":"2026-01-01T00:00:00Z","data":{},"mask":"type"}]}"#,
                142, "mask must be null or an array"
            ),
            ("{\"format\": ", 12, "JSON"),
        ]
        for (bad, column, fragment) in cases {
            do throws(FencesimError) {
                _ = try RulesDeviceState.decode(SourceText(file: "s.json", bytes: Array(bad.utf8)))
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.code == .badData)
                #expect(error.location?.file == "s.json" && error.location?.line == 1)
                #expect(error.location?.column == column, "\(error)")
                #expect(error.message.contains(fragment), "\(error)")
            }
        }
    }

    // MARK: - scenario keys

    @Test func rulesKeysAreCheckedWhereTheyAre() throws {
        func failure(_ rulesYAML: String, files: [String: String] = [:]) throws -> FencesimError {
            let (dir, path) = try H.folder(
                fences: Self.shop, traces: ["t.csv": Self.inOutIn], yaml: "traces: [t.csv]\nfences: fences.geojson\n" + rulesYAML)
            for (name, text) in files { try Paths.write(text, name, in: dir) }
            let scenario = try ScenarioReader.read(path: path)
            let fences = try FenceReader.read(path: scenario.fencesPath)
            do throws(FencesimError) {
                _ = try Pipeline(scenario: scenario, fences: fences)
            } catch {
                return error
            }
            Issue.record("no error for \(rulesYAML)")
            return FencesimError(.internalError, "none")
        }
        let missing = try failure("rules: nowhere.json\n")
        #expect(missing.code == .missingInput)
        #expect(missing.location?.line == 3 && missing.location?.column == 8)
        let platform = try failure("rules: r.json\nrulesPlatform: windows\n", files: ["r.json": #"{"version": 1, "rules": []}"#])
        #expect(platform.code == .badData && platform.location?.line == 4)
        #expect(platform.message.contains("docs, ios, android"))
        let orphan = try failure("rulesPlatform: ios\n")
        #expect(orphan.code == .badData && orphan.location?.line == 3)
        let seed = try failure("rules: {path: r.json, seed: -1}\n", files: ["r.json": #"{"version": 1, "rules": []}"#])
        #expect(seed.code == .badData && seed.location?.line == 3)
        let key = try failure("rules: {file: r.json}\n")
        #expect(key.code == .badData && key.message.contains("unknown rules key"))
        let bad = try failure(
            "rules: r.json\n",
            files: ["r.json": "{\"version\": 1,\n \"rules\": [{\"condition\": {\"type\": \"sometimes\"}, \"consequences\": []}]}"])
        #expect(bad.code == .badData)
        #expect(bad.location?.file.hasSuffix("r.json") == true && bad.location?.line == 2)
    }
}
