import Foundation
import Support
import Testing

/// Check-ins in scenario runs (issue 4): the engine's events of every fix go through the zone's
/// check-in machine and the log shows what came out, with its provenance.
@Suite struct CheckInPipelineTests {
    typealias H = ScenarioHarness

    /// A circle "shop" (50 m) at 8.5 E in zone z1, walked through west to east at 15 m per 10 s:
    /// enter at fix 7, exit at fix 14.
    static let shop = H.collection([H.circle("shop", longitude: 8.5, radius: 50, extra: #", "zone": "z1""#)])
    static let through = H.walk(from: 8.498, step: 0.0002, count: 20)

    @Test func checkinAndCheckoutLinesCarryZoneAndProvenance() throws {
        let (_, path) = try H.folder(
            fences: Self.shop, traces: ["t.csv": Self.through],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones:
                  - {id: z1, name: Shops, checkOut: true, customData: {brand: acme, tier: 2}}
                """)
        let run = try H.run(path)
        let lines = run.jsonl.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(
            lines[0].hasPrefix(
                #"{"time":"2026-01-01T09:01:10.000Z","seq":0,"trace":"t.csv","type":"enter","fence":"shop","zone":"z1","fix":7"#))
        #expect(
            lines[1]
                == #"{"time":"2026-01-01T09:01:10.000Z","seq":1,"trace":"t.csv","type":"checkin","fence":"shop","zone":"z1","zoneName":"Shops","customData":{"brand":"acme","tier":2},"trigger":"enter","fix":7,"distance":-4.7,"accuracy":5,"willCheckOut":true}"#
        )
        #expect(lines[2].contains(#""type":"exit","fence":"shop""#))
        #expect(
            lines[3]
                == #"{"time":"2026-01-01T09:02:20.000Z","seq":3,"trace":"t.csv","type":"checkout","fence":"shop","zone":"z1","zoneName":"Shops","customData":{"brand":"acme","tier":2},"trigger":"exit","fix":14,"distance":10.401,"accuracy":5,"checkInTime":"2026-01-01T09:01:10.000Z","dwellSeconds":70,"dwellMinutes":1}"#
        )
        // The position of a check-in is its geotrigger event's.
        #expect(run.events[1].longitude == run.events[0].longitude && run.events[1].latitude == run.events[0].latitude)
    }

    @Test func minimumRetriggerSuppressionIsLogged() throws {
        // In at 10 s, out at 30 s, in again at 50 s and at 700 s: the zone's 600 s run from the
        // check-out at 30 s, so the enter at 50 s is suppressed and the one at 700 s checks in.
        let trace = H.path([(0, 8.498), (10, 8.5), (20, 8.5), (30, 8.502), (40, 8.502), (50, 8.5), (60, 8.502), (690, 8.502), (700, 8.5)])
        let (_, path) = try H.folder(
            fences: Self.shop, traces: ["t.csv": trace],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: z1, checkOut: true, minimumRetriggerTime: 600}]
                """)
        let run = try H.run(path)
        let derived = run.events.filter { [.checkin, .checkout, .suppressed].contains($0.type) }
        #expect(
            derived.map { "\($0.type.rawValue) \($0.time) \(H.text($0, "reason"))" } == [
                "checkin 2026-01-01T09:00:10.000Z -",
                "checkout 2026-01-01T09:00:30.000Z -",
                "suppressed 2026-01-01T09:00:50.000Z mrt",
                "checkin 2026-01-01T09:11:40.000Z -",
            ])
        #expect(
            H.text(derived[2], "message")
                == "minimum re-trigger time of 600 s since the last check-out at 2026-01-01T09:00:30.000Z runs until 2026-01-01T09:10:30.000Z"
        )
        #expect(H.text(derived[2], "zone") == "z1")
        // The suppressed exit of the blocked visit does not check out (nothing was checked in).
        #expect(run.events.filter { $0.type == .checkout }.count == 1)
    }

    @Test func undeclaredZoneIsALocatedError() throws {
        let fences = H.collection([
            H.circle("shop", longitude: 8.5, radius: 50, extra: #", "zone": "z1""#),
            H.circle("kiosk", longitude: 8.51, radius: 50, extra: #", "zone": "z9""#),
            H.circle("stand", longitude: 8.52, radius: 50, extra: #", "zone": "z8""#),
        ])
        let (dir, path) = try H.folder(
            fences: fences, traces: ["t.csv": Self.through],
            yaml: """
                traces: [t.csv]
                fences: fences.geojson
                zones: [{id: z1}]
                """)
        do {
            _ = try H.run(path)
            Issue.record("an undeclared zone must be an error")
        } catch let error as FencesimError {
            #expect(error.code.exitStatus == 65)
            #expect(error.location?.file == dir.appendingPathComponent("fences.geojson").path)
            #expect(error.location?.line == 3)
            #expect(error.location?.column != nil)
            #expect(error.message == #"fence "kiosk" belongs to zone "z9", which is not declared"#)
            // Every further problem is listed with it.
            #expect(error.related.map(\.message) == [#"fence "stand" belongs to zone "z8", which is not declared"#])
        }
    }

    @Test func zonesNamedByFencesAreImplicitWhenNoneAreDeclared() throws {
        let fences = H.collection([
            H.circle("shop", longitude: 8.5, radius: 50, extra: #", "zone": "stores""#),
            H.circle("plain", longitude: 8.5008, radius: 30),
        ])
        let (_, path) = try H.folder(fences: fences, traces: ["t.csv": Self.through], yaml: "traces: [t.csv]\nfences: fences.geojson\n")
        let run = try H.run(path)
        #expect(run.pipeline.findings.map(\.kind) == ["implicit-zone"])
        #expect(run.pipeline.findings[0].message.contains(#"zone "stores""#))
        #expect(run.pipeline.checkIns.zones.map(\.id) == ["stores", "default"])
        let derived = run.events.filter { [.checkin, .checkout].contains($0.type) }
        // Two zones, so the overlapping circles both check in and out (default rules).
        #expect(
            derived.map { "\($0.type.rawValue) \(H.text($0, "fence")) \(H.text($0, "zone"))" } == [
                "checkin shop stores", "checkin plain default", "checkout shop stores", "checkout plain default",
            ])
    }

    @Test func demoCheckInScenarioShowsOneRulePerZone() throws {
        let run = try H.run(Paths.repository("scenarios/demo-checkins.yaml"))
        let derived = run.events.filter {
            [.checkin, .checkout, .suppressed].contains($0.type) && $0.field("zone") != nil && $0.field("trigger") != nil
        }
        #expect(
            derived.map { "\($0.time) \($0.type.rawValue) \(H.text($0, "fence")) \(H.text($0, "reason")) \(H.text($0, "willCheckOut"))" }
                == [
                    "2026-01-01T00:00:00.000Z checkin depot - false",
                    "2026-01-01T00:01:50.000Z checkin store-a-kerb - true",
                    "2026-01-01T00:01:52.000Z suppressed store-a checkedIn -",
                    "2026-01-01T00:01:58.000Z checkout store-a-kerb - -",
                    "2026-01-01T00:04:26.000Z checkin fuel - true",
                    "2026-01-01T00:04:42.000Z checkout fuel - -",
                    "2026-01-01T00:05:32.000Z suppressed store-b mrt -",
                    "2026-01-01T00:07:20.728Z checkin bridge - false",
                    "2026-01-01T00:09:14.000Z suppressed depot mrt -",
                ])
    }

    @Test func runsAreByteIdenticalWhateverTheWorkers() throws {
        let fences = H.collection([
            H.circle("a", longitude: 8.5, radius: 50, extra: #", "zone": "z1""#),
            H.circle("b", longitude: 8.5006, radius: 40, extra: #", "zone": "z1""#),
            H.circle("c", longitude: 8.501, radius: 30, extra: #", "zone": "z2""#),
        ])
        var traces: [String: String] = [:]
        for k in 0..<6 {
            traces["t\(k).csv"] = H.walk(from: 8.498 + Double(k) * 0.0001, step: 0.00015 + Double(k) * 0.00002, count: 40)
        }
        let (_, path) = try H.folder(
            fences: fences, traces: traces,
            yaml: """
                traces: ["t*.csv"]
                fences: fences.geojson
                zones:
                  - {id: z1, minimumRetriggerTime: 30, customData: {k: v}}
                  - {id: z2, checkOut: false}
                places: {expiry: strict, membershipTTL: 20}
                sessions: [{launch: "2026-01-01T09:00:30Z", terminate: "2026-01-01T09:02:00Z", nearbyLookup: true}, {launch: "2026-01-01T09:04:00Z"}]
                """)
        let one = try H.run(path, workers: 1).jsonl
        let again = try H.run(path, workers: 1).jsonl
        let two = try H.run(path, workers: 2).jsonl
        #expect(one == again)
        #expect(one == two)
        #expect(one.contains(#""type":"checkin""#) && one.contains(#""type":"places.entry""#) && one.contains(#""type":"places.expired""#))
    }
}
