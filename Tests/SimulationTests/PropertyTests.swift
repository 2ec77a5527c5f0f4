import Fences
import Foundation
import Geotriggers
import Spatial
import Support
import Testing
import Traces

@testable import EventPipeline
@testable import Scenarios

/// Invariants of the engine on seeded random fences and walks.
@Suite struct PropertyTests {
    /// A random fence set around (8.5°, 47.4°): circles, rectangles with and without holes, lines.
    static func randomFences(seed: UInt64, count: Int) -> String {
        var rng = SplitMix64(seed: seed)
        func r(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * rng.nextUnitDouble() }
        var features: [String] = []
        for k in 0..<count {
            let lon = r(8.49, 8.51)
            let lat = r(47.39, 47.41)
            let size = r(0.0003, 0.002)
            switch k % 4 {
            case 0:
                features.append(
                    #"{"type":"Feature","properties":{"id":"f\#(k)","radius":\#(Int(size * 60000))},"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#
                )
            case 1:
                features.append(
                    #"{"type":"Feature","properties":{"id":"f\#(k)"},"geometry":{"type":"Polygon","coordinates":[[[\#(lon),\#(lat)],[\#(lon + size),\#(lat)],[\#(lon + size),\#(lat + size)],[\#(lon),\#(lat + size)],[\#(lon),\#(lat)]]]}}"#
                )
            case 2:
                let h = size / 4
                let (a, b) = (lon + h, lat + h)
                features.append(
                    #"{"type":"Feature","properties":{"id":"f\#(k)"},"geometry":{"type":"Polygon","coordinates":[[[\#(lon),\#(lat)],[\#(lon + size),\#(lat)],[\#(lon + size),\#(lat + size)],[\#(lon),\#(lat + size)],[\#(lon),\#(lat)]],[[\#(a),\#(b)],[\#(a),\#(b + 2 * h)],[\#(a + 2 * h),\#(b + 2 * h)],[\#(a + 2 * h),\#(b)],[\#(a),\#(b)]]]}}"#
                )
            default:
                features.append(
                    #"{"type":"Feature","properties":{"id":"f\#(k)"},"geometry":{"type":"LineString","coordinates":[[\#(lon),\#(lat)],[\#(lon + size),\#(lat + size / 2)]]}}"#
                )
            }
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}"
    }

    /// A random walk as CSV, `count` fixes `interval` seconds apart at up to 30 m/s.
    static func randomWalk(seed: UInt64, count: Int, interval: Double = 5) -> [(Double, Double, Double)] {
        var rng = SplitMix64(seed: seed)
        var lon = 8.5, lat = 47.4, heading = rng.nextUnitDouble() * 360
        var out: [(Double, Double, Double)] = []
        for k in 0..<count {
            out.append((Double(k) * interval, lon, lat))
            heading += (rng.nextUnitDouble() - 0.5) * 60
            let step = rng.nextUnitDouble() * 30 * interval
            let p = Geodesic.wgs84.direct(latitude: lat, longitude: lon, azimuth: heading, distanceMeters: step)
            lat = min(47.412, max(47.388, p.latitude))
            lon = min(8.512, max(8.488, p.longitude))
        }
        return out
    }

    static func csv(_ walk: [(Double, Double, Double)]) -> String {
        let start = Timestamp(seconds: 1_767_225_600)
        return "time,lat,lon,accuracy\n"
            + walk.map { "\(start.adding(seconds: $0.0).iso8601(fractionDigits: 3)),\($0.2),\($0.1),8" }.joined(separator: "\n") + "\n"
    }

    static func replay(fences: String, traces: [String], global: GeotriggerOverrides = GeotriggerOverrides(), workers: Int = 1) throws -> (
        FenceSet, [LogEvent]
    ) {
        let dir = try Paths.temporaryDirectory()
        let set = try FenceReader.read(path: try Paths.write(fences, "fences.geojson", in: dir))
        var inputs: [TraceInput] = []
        for (k, t) in traces.enumerated() {
            inputs.append(TraceInput(path: try Paths.write(t, "t\(k).csv", in: dir), label: "t\(k)"))
        }
        let settings = try SettingsResolver.resolve(set, global: global)
        let frame = try MetricFrame.automaticDefinition(covering: try #require(set.boundingBox)).definition
        let replayer = Replayer(Replayer.Configuration(fences: set, frame: frame, settings: settings, workers: workers))
        return (set, Replayer.merge(try replayer.run(inputs)))
    }

    static func string(_ v: JSONValue?) -> String { v.map { JSONWriter.string($0) } ?? "" }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func entersAndExitsAlternatePerFence(seed: UInt64) throws {
        // Not vacuous: an engine that emits nothing must fail (issue 26).
        var enters = 0
        var exits = 0
        for feed in GeotriggerSettings.Feed.allCases {
            for relationship in GeotriggerSettings.Relationship.allCases {
                var global = GeotriggerOverrides()
                global.feed = feed
                global.relationship = relationship
                global.enterAfter = seed % 2 == 0 ? .fixes(2) : .immediate
                global.gapPolicy = .interpolate
                let (_, events) = try Self.replay(
                    fences: Self.randomFences(seed: seed, count: 40),
                    traces: [Self.csv(Self.randomWalk(seed: seed, count: 400))], global: global)
                var inside: [String: Bool] = [:]
                for e in events where e.type == .enter || e.type == .exit {
                    let fence = Self.string(e.field("fence"))
                    let was = inside[fence] ?? false
                    #expect(
                        was == (e.type == .exit),
                        "fence \(fence): \(e.type) while \(was ? "inside" : "outside") (\(feed), \(relationship)) \(EventLogFormat.jsonl.render([e]))"
                    )
                    inside[fence] = e.type == .enter
                    if e.type == .enter { enters += 1 } else { exits += 1 }
                }
                // Events are in time order.
                #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
            }
        }
        #expect(enters >= 5 && exits >= 5, "\(enters) enters and \(exits) exits over every feed and relationship")
    }

    /// Visits as (fence, interval) from enter/exit pairs and passthroughs; an open visit ends at
    /// the last fix.
    static func visits(_ events: [LogEvent], end: Timestamp) -> [String: [(Timestamp, Timestamp)]] {
        var open: [String: Timestamp] = [:]
        var out: [String: [(Timestamp, Timestamp)]] = [:]
        for e in events {
            let fence = string(e.field("fence"))
            switch e.type {
            case .enter: open[fence] = e.time
            case .exit:
                if let t = open.removeValue(forKey: fence) { out[fence, default: []].append((t, e.time)) }
            case .passthrough:
                if case .string(let a)? = e.field("enterTime"), case .string(let b)? = e.field("exitTime"),
                    case .success(let ta) = Timestamp.parseISO8601(a), case .success(let tb) = Timestamp.parseISO8601(b)
                {
                    out[fence, default: []].append((ta, tb))
                }
            default: break
            }
        }
        for (fence, t) in open { out[fence, default: []].append((t, end)) }
        return out
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func denserFixesNeverLoseAVisit(seed: UInt64) throws {
        let fences = Self.randomFences(seed: seed, count: 40)
        let sparse = Self.randomWalk(seed: seed, count: 200, interval: 10)
        // Insert three fixes on the straight segment between each pair of fixes.
        var dense: [(Double, Double, Double)] = []
        for (a, b) in zip(sparse, sparse.dropFirst()) {
            for k in 0..<4 {
                let f = Double(k) / 4
                dense.append((a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, a.2 + (b.2 - a.2) * f))
            }
        }
        if let last = sparse.last { dense.append(last) }
        let (_, sparseEvents) = try Self.replay(fences: fences, traces: [Self.csv(sparse)])
        let (_, denseEvents) = try Self.replay(fences: fences, traces: [Self.csv(dense)])
        let end = Timestamp(seconds: 1_767_225_600).adding(seconds: sparse.last?.0 ?? 0)
        let before = Self.visits(sparseEvents, end: end)
        let after = Self.visits(denseEvents, end: end)
        for (fence, intervals) in before {
            for (a, b) in intervals {
                // Every visit seen with sparse fixes overlaps a visit seen with dense fixes (within
                // a millisecond: the log keeps milliseconds).
                let found = (after[fence] ?? []).contains { $0.0.seconds(since: b) <= 0.001 && a.seconds(since: $0.1) <= 0.001 }
                #expect(found, "fence \(fence): visit \(a)–\(b) lost with denser fixes")
            }
        }
        #expect(!before.isEmpty, "the walk should meet some fences")
    }

    @Test func resultsDoNotDependOnWorkersOrFenceOrder() throws {
        let fences = Self.randomFences(seed: 21, count: 60)
        let traces = (0..<6).map { Self.csv(Self.randomWalk(seed: 100 + UInt64($0), count: 300)) }
        var global = GeotriggerOverrides()
        global.dwellSeconds = .some(20)
        let (_, one) = try Self.replay(fences: fences, traces: traces, global: global, workers: 1)
        let (_, two) = try Self.replay(fences: fences, traces: traces, global: global, workers: 2)
        let (_, four) = try Self.replay(fences: fences, traces: traces, global: global, workers: 4)
        let text = EventLogFormat.jsonl.render(one)
        #expect(!one.isEmpty)
        #expect(EventLogFormat.jsonl.render(two) == text)
        #expect(EventLogFormat.jsonl.render(four) == text)
        // The same fences in reverse order give the same log.
        let lines = fences.split(separator: "\n")
        let body = lines.dropFirst().dropLast().map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }
        let reversed = "{\"type\":\"FeatureCollection\",\"features\":[\n" + body.reversed().joined(separator: ",\n") + "\n]}"
        let (_, shuffled) = try Self.replay(fences: reversed, traces: traces, global: global, workers: 2)
        #expect(EventLogFormat.jsonl.render(shuffled) == text)
    }
}
