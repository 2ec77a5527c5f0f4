import Fences
import Files
import Foundation
import Spatial
import Support
import Testing
import Traces

@testable import EventPipeline
@testable import Execution
@testable import Geotriggers
@testable import Scenarios

/// A replay cut into slices on several workers (``ParallelReplay``) writes the bytes of one
/// engine replaying each trace whole (``Replayer``), whatever the slice size and the number of
/// workers: random fences of every kind that allows slicing, random traces with gaps, jumps,
/// stops, boundary crawls and untimed fixes, both feeds, every relationship and gap policy.
@Suite struct ParallelReplayTests {
    /// A fence file around (8.53°, 47.37°) and `traces` CSV traces in `dir`.
    static func scene(seed: UInt64, traces: Int, in dir: URL) throws -> (fences: String, traces: [String]) {
        var rng = SplitMix64(seed: seed)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnitDouble() }
        // About 111 km a degree of latitude, 75 km a degree of longitude here.
        func lon(_ x: Double) -> Double { 8.53 + x / 75_000 }
        func lat(_ y: Double) -> Double { 47.37 + y / 111_000 }
        var features: [String] = []
        for j in 0..<Int(5 + rng.next() % 20) {
            let x = uniform(-600, 600), y = uniform(-600, 600)
            let id = "f\(String(format: "%03d", j))"
            switch rng.next() % 4 {
            case 0, 1:
                features.append(
                    #"{"type":"Feature","properties":{"id":"\#(id)","radius":\#(Int(uniform(10, 150)))},"geometry":{"type":"Point","coordinates":[\#(lon(x)),\#(lat(y))]}}"#
                )
            case 2:
                let w = uniform(20, 200), h = uniform(20, 200)
                let ring = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)].map { "[\(lon($0.0)),\(lat($0.1))]" }.joined(
                    separator: ",")
                let hole = [
                    (x + w / 3, y + h / 3), (x + w / 2, y + h / 3), (x + w / 2, y + h / 2), (x + w / 3, y + h / 2), (x + w / 3, y + h / 3),
                ]
                .map { "[\(lon($0.0)),\(lat($0.1))]" }.joined(separator: ",")
                features.append(
                    #"{"type":"Feature","properties":{"id":"\#(id)"},"geometry":{"type":"Polygon","coordinates":[[\#(ring)],[\#(hole)]]}}"#)
            default:
                let line = [(x, y), (x + uniform(-200, 200), y + uniform(-200, 200))].map { "[\(lon($0.0)),\(lat($0.1))]" }.joined(
                    separator: ",")
                features.append(
                    #"{"type":"Feature","properties":{"id":"\#(id)","fenceType":"line"},"geometry":{"type":"LineString","coordinates":[\#(line)]}}"#
                )
            }
        }
        let fences = dir.appendingPathComponent("fences-\(seed).geojson")
        try (#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}").write(
            to: fences, atomically: true, encoding: .utf8)
        var names: [String] = []
        for t in 0..<traces {
            var text = "time,lat,lon,accuracy\n"
            var time = 1_767_225_600.0 + Double(t) * 86_400
            var x = uniform(-700, 700), y = uniform(-700, 700)
            for k in 0..<Int(rng.next() % 400) {
                switch rng.next() % 20 {
                case 0: time += uniform(150, 900)  // a gap
                case 1: (x, y) = (uniform(-700, 700), uniform(-700, 700))  // a jump
                case 2: break  // a stop
                case 3: x += 1e-6  // a crawl
                default: (x, y) = (x + uniform(-40, 40), y + uniform(-40, 40))
                }
                time += k % 7 == 0 ? 0.5 : 1
                if rng.next() % 50 == 0 {
                    text += ",\(lat(y)),\(lon(x)),5\n"  // untimed: dropped with a warning when lenient
                    continue
                }
                let stamp = Timestamp(seconds: Int64(time), nanoseconds: Int64((time - time.rounded(.down)) * 1e9)).description
                text += "\(stamp),\(lat(y)),\(lon(x)),\(String(format: "%.1f", uniform(1, 60)))\n"
            }
            let name = dir.appendingPathComponent("trace-\(seed)-\(t).csv").path
            try text.write(toFile: name, atomically: true, encoding: .utf8)
            names.append(name)
        }
        return (fences.path, names)
    }

    @Test func slicesOnAnyNumberOfWorkersGiveTheWholeTraceLog() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var sliced = 0
        var lines = 0
        for seed in 0..<24 as Range<UInt64> {
            let (fencePath, tracePaths) = try Self.scene(seed: seed, traces: 1 + Int(seed % 3), in: dir)
            let fenceSet = try FenceReader.read(path: fencePath)
            var overrides = GeotriggerOverrides()
            overrides.feed = seed % 2 == 0 ? .point : .accuracy
            overrides.relationship = [.intersects, .contains, .containsIntersects][Int(seed % 3)]
            overrides.gapPolicy = [.ignore, .report, .interpolate][Int(seed / 3 % 3)]
            overrides.maxGapSeconds = [60, 120, 1000][Int(seed / 2 % 3)]
            overrides.initialTrigger = seed % 5 == 0 ? GeotriggerSettings.InitialTrigger.none : nil
            overrides.bufferMeters = seed % 4 == 1 ? 12 : nil
            let settings = try SettingsResolver.resolve(fenceSet, global: overrides)
            let frame = try SettingsResolver.frame(given: nil, fences: fenceSet, location: nil)
            var readOptions = TraceReadOptions()
            readOptions.lenient = true
            let inputs = tracePaths.map { TraceInput(path: $0) }
            let configuration = Replayer.Configuration(
                fences: fenceSet, frame: frame, settings: settings, readOptions: readOptions, workers: 1)
            guard ParallelReplay.applies(to: configuration) else { continue }
            sliced += 1
            for format in [EventLogFormat.jsonl, .csv] {
                let whole = MemorySink()
                let wholeWriter = EventLogWriter(format: format, sink: whole)
                let outcomes = try Replayer(configuration).run(inputs, log: OrderedEventLog(writer: wholeWriter, traces: inputs.count))
                try wholeWriter.finish()
                #expect(outcomes.allSatisfy { $0.error == nil })
                lines += whole.bytes.filter { $0 == UInt8(ascii: "\n") }.count
                for (chunkSize, workers) in [(1, 2), (7, 1), (7, 3), (50, 2)] {
                    let memory = MemorySink()
                    let writer = EventLogWriter(format: format, sink: memory)
                    let feed = ParallelSummary.Feed(inputs, readOptions: readOptions, chunkSize: chunkSize, readAhead: 3)
                    // The compiled index, handed over for a caller about to exit to leave unfreed.
                    var kept: [AnyObject] = []
                    let parts = try ParallelReplay.replay(
                        feed, configuration: configuration, workers: workers,
                        log: OrderedEventLog(writer: writer, traces: 0), keep: { kept.append($0) })
                    try writer.finish()
                    #expect(kept.count == 1 && (kept.first as? FenceIndex)?.count == fenceSet.fences.count)
                    let (got, expected) = (String(decoding: memory.bytes, as: UTF8.self), String(decoding: whole.bytes, as: UTF8.self))
                    #expect(got == expected, "seed \(seed), \(format), slices of \(chunkSize), \(workers) workers")
                    #expect(parts.map(\.engineStatistics) == outcomes.map(\.engineStatistics), "seed \(seed)")
                    #expect(parts.map { $0.warnings.map(\.description) } == outcomes.map { $0.warnings.map(\.description) }, "seed \(seed)")
                    if memory.bytes != whole.bytes { return }
                }
            }
        }
        #expect(sliced >= 12)
        #expect(lines > 1_000, "the scenes make events to compare")
    }
}
