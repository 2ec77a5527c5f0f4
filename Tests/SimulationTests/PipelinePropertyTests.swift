import Foundation
import Support
import Testing

@testable import EventPipeline

/// Invariants of check-ins and Places on seeded random fences, zones and walks.
@Suite struct PipelinePropertyTests {
    typealias H = ScenarioHarness

    /// PropertyTests' random fences, each put in zone z0, z1 or z2 by its number.
    static func zonedFences(seed: UInt64) -> String {
        var text = PropertyTests.randomFences(seed: seed, count: 30)
        for k in (0..<30).reversed() {
            text = text.replacingOccurrences(of: #""id":"f\#(k)""#, with: #""id":"f\#(k)","zone":"z\#(k % 3)""#)
        }
        return text
    }

    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func checkInsAndCheckOutsAlternatePerZone(seed: UInt64) throws {
        var traces: [String: String] = [:]
        for k in 0..<3 {
            traces["t\(k).csv"] = PropertyTests.csv(PropertyTests.randomWalk(seed: seed * 10 + UInt64(k), count: 300))
        }
        let (_, path) = try H.folder(
            fences: Self.zonedFences(seed: seed), traces: traces,
            yaml: """
                traces: ["t*.csv"]
                fences: fences.geojson
                geotrigger: {gapPolicy: \(seed % 2 == 0 ? "report" : "interpolate"), feed: \(seed % 3 == 0 ? "accuracy" : "point")}
                zones:
                  - {id: z0, minimumRetriggerTime: 60}
                  - {id: z1, checkOut: false, minimumRetriggerTime: 30}
                  - {id: z2}
                places: {}
                """)
        let run = try H.run(path)
        var open: [String: LogEvent] = [:]
        var checkIns = 0
        for e in run.events where e.type == .checkin || e.type == .checkout {
            let key = "\(e.trace) \(H.text(e, "zone"))"
            if e.type == .checkin {
                checkIns += 1
                #expect(open[key] == nil, "\(key): a check-in while checked in: \(EventLogFormat.jsonl.render([e]))")
                if H.text(e, "willCheckOut") == "true" { open[key] = e } else { open[key] = nil }
                #expect(H.text(e, "willCheckOut") == String(H.text(e, "zone") != "z1" && H.text(e, "trigger") != "cross"))
            } else {
                let checkIn = try #require(open[key], "\(key): a check-out without a check-in: \(EventLogFormat.jsonl.render([e]))")
                #expect(H.text(checkIn, "fence") == H.text(e, "fence"))
                #expect(H.text(e, "checkInTime") == checkIn.time.description)
                if case .double(let dwell)? = e.field("dwellSeconds") {
                    #expect(dwell == e.time.seconds(since: checkIn.time))
                } else {
                    Issue.record("a check-out without dwellSeconds")
                }
                open[key] = nil
            }
        }
        #expect(checkIns > 0)
        // Places sees exactly the check-ins and check-outs of POI fences (circles), in order.
        let circles = Set(run.pipeline.places?.catalog.pois.map(\.id) ?? [])
        let fed = run.events.filter { ($0.type == .checkin || $0.type == .checkout) && circles.contains(H.text($0, "fence")) }
        let processed = run.events.filter { $0.type == .placesEntry || $0.type == .placesExit }
        #expect(
            fed.map { "\($0.trace) \($0.time) \(H.text($0, "fence"))" } == processed.map { "\($0.trace) \($0.time) \(H.text($0, "poi"))" })
        // The log is in time order within each trace.
        for trace in Set(run.events.map(\.trace)) {
            let times = run.events.filter { $0.trace == trace }.map(\.time)
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }
}
