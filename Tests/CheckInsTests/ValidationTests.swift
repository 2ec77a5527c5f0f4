import CheckIns
import Fences
import Geotriggers
import Spatial
import Support
import Testing

/// Zones and fences that do not fit together are located errors (SPEC §3, issue 4 "Bad input").
@Suite struct ValidationTests {
    @Test func fenceNamingAnUndeclaredZone() throws {
        var bench = Bench()
        bench.zones = [Zone(id: "known")]
        bench.fence("ok", zone: "known")
        bench.fence("lost", zone: "nowhere")
        let error = try #require(throws: FencesimError.self) { try bench.machine() }
        #expect(error.code == .badData)
        #expect(error.code.exitStatus == 65)
        #expect(error.message.contains("\"lost\""))
        #expect(error.message.contains("\"nowhere\""))
        #expect(error.location == SourceLocation(file: "bench.geojson", line: 3, column: 5))
        #expect(error.description.hasPrefix("bench.geojson:3:5: error: "))
    }

    @Test func everyProblemIsReported() throws {
        let here = SourceLocation(file: "scenario.yaml", line: 7, column: 3)
        var bench = Bench()
        bench.zones = [
            Zone(id: "z", minimumRetriggerSeconds: -1, location: here),
            Zone(id: "z", location: SourceLocation(file: "scenario.yaml", line: 12, column: 3)),
            Zone(id: "p", conditions: ZoneConditions(percentageCrossed: .init(percent: 150), travelPath: ["a", "elsewhere"])),
        ]
        bench.fence("a", zone: "p")
        bench.fence("elsewhere", zone: "z")
        let error = try #require(throws: FencesimError.self) { try bench.machine() }
        #expect(error.location == here)
        #expect(error.message.contains("minimumRetriggerTime"))
        let messages = error.related.map(\.message)
        #expect(messages.contains { $0.contains("duplicate zone id \"z\"") })
        #expect(messages.contains { $0.contains("percent") })
        #expect(messages.contains { $0.contains("travelPath names fence \"elsewhere\"") })
    }

    @Test func scheduleOutOfOrder() throws {
        var bench = Bench()
        bench.zones = [
            Zone(
                id: "z",
                schedule: [
                    Zone.ScheduleEntry(at: World.start.adding(seconds: 10), enabled: false),
                    Zone.ScheduleEntry(at: World.start, enabled: true),
                ])
        ]
        #expect(throws: FencesimError.self) { try bench.machine() }
    }

    @Test func defaultZoneCanBeNamedOrDeclared() throws {
        var bench = Bench()
        bench.fence("implicit")
        bench.fence("explicit", zone: Zone.defaultZoneID)
        bench.fence("explicit-too", zone: Zone.defaultZoneID)
        var machine = try bench.machine()
        // The fence without a zone checks in on its own; the two naming the default zone share it.
        #expect(machine.zones.map(\.id) == [Zone.defaultZoneID, Zone.defaultZoneID])
        var out = machine.feedEach([
            bench.event(.enter, "implicit", t: 0), bench.event(.enter, "explicit", t: 1),
            bench.event(.enter, "explicit-too", t: 2),
        ])
        #expect(summary(out) == ["checkin:implicit", "checkin:explicit", "suppressed(checkedIn):explicit-too"])
        #expect(out.allSatisfy { $0.zoneID == Zone.defaultZoneID })

        // A declared zone with the default id takes in the fences without a zone: one zone again.
        bench.zones = [Zone(id: Zone.defaultZoneID, name: "Everywhere", checkOut: false)]
        machine = try bench.machine()
        #expect(machine.zones.map(\.id) == [Zone.defaultZoneID])
        out = machine.feedEach([bench.event(.enter, "implicit", t: 0), bench.event(.enter, "explicit", t: 1)])
        #expect(out.first?.zoneName == "Everywhere")
        #expect(out.first?.willCheckOut == false)
        #expect(summary(out) == ["checkin:implicit", "checkin:explicit"])
    }

    @Test func declaredZonesKeepTheirOrder() throws {
        var bench = Bench()
        bench.zones = [Zone(id: "b"), Zone(id: "a")]
        bench.fence("x", zone: "a")
        bench.fence("y")
        #expect(try bench.machine().zones.map(\.id) == ["b", "a", Zone.defaultZoneID])
    }
}
