import Foundation
import Support
import Testing

@testable import EventPipeline
@testable import Execution
@testable import Regression
@testable import Scenarios

/// SPEC §6.7: shards' partial logs merged are exactly the log of a single run.
@Suite struct ShardMergeTests {
    static let fences = """
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"id": "A", "radius": 50, "zone": "za", "name": "Store A"}, "geometry": {"type": "Point", "coordinates": [8.5, 47.39]}},
        {"type": "Feature", "properties": {"id": "B", "radius": 40, "zone": "zb"}, "geometry": {"type": "Point", "coordinates": [8.503, 47.3902]}},
        {"type": "Feature", "properties": {"id": "C", "zone": "zb"}, "geometry": {"type": "Polygon", "coordinates": [[[8.5045, 47.3895], [8.5055, 47.3895], [8.5055, 47.3905], [8.5045, 47.3905], [8.5045, 47.3895]]]}}
        ]}
        """

    /// A scenario of `count` traces walking east past the fences, each a little different, with
    /// dwell and messages so that events carry many fields.
    static func scenario(traces count: Int) throws -> (dir: URL, scenario: String) {
        var traces: [String: String] = [:]
        var names: [String] = []
        for k in 0..<count {
            let name = "t\(k).csv"
            names.append(name)
            traces[name] = ScenarioHarness.walk(
                from: 8.4975 + 0.0001 * Double(k), latitude: 47.39 + 0.00003 * Double(k % 3),
                step: 0.00025 + 0.00002 * Double(k), count: 40 + 3 * k,
                start: "2026-01-01T09:0\(k % 10):00Z", interval: 7 + Double(k % 4))
        }
        // Written out of name order on purpose: the run's order is the scenario's.
        let listed = names.reversed().map { "\"\($0)\"" }.joined(separator: ", ")
        let yaml = """
            name: shards
            traces: [\(listed)]
            fences: fences.geojson
            geotrigger: {feed: accuracy, dwell: 20, message: "{event.type} {fence.name}"}
            zones: [{id: za, checkOut: true}, {id: zb, checkOut: true, minimumRetriggerTime: 60}]
            """
        return try ScenarioHarness.folder(fences: fences, traces: traces, yaml: yaml)
    }

    /// Runs every shard of `shards`, writes each partial log as text and reads it back.
    static func parts(_ runner: ScenarioRunner, shards: Int) throws -> [PartialEventLog] {
        let traces = runner.scenario.traces
        var parts: [PartialEventLog] = []
        for k in 0..<shards {
            let shard = try Shard(index: k, count: shards)
            let positions = shard.positions(of: traces.count)
            let outcomes = try runner.run(positions.map { traces[$0] })
            let part = PartialEventLog(
                scenario: runner.scenario.name, run: "run-of-the-test", shard: shard, traceCount: traces.count,
                outcomes: outcomes, positions: positions)
            let text = part.text
            parts.append(
                try PartialEventLog.parse(
                    SourceText(file: PartialEventLog.fileName(scenario: "shards", shard: shard), bytes: Array(text.utf8))))
        }
        return parts
    }

    @Test(arguments: [(7, 3), (6, 3), (8, 4), (2, 3)])
    func mergedShardsEqualASingleRunByteForByte(traces: Int, shards: Int) throws {
        let (_, path) = try Self.scenario(traces: traces)
        let runner = try ScenarioRunner(scenario: try ScenarioReader.read(path: path), workers: 2)
        let single = try ScenarioRunner.events(of: try runner.run())
        #expect(single.count >= 12 * traces, "a scenario with few events proves little (\(single.count))")
        #expect(Set(single.map(\.type.rawValue)).isSuperset(of: ["enter", "exit", "dwell", "checkin", "checkout"]))
        let parts = try Self.parts(runner, shards: shards)
        // Any order of parts.
        let merged = try EventLogMerge.merge(parts.reversed())
        for format in EventLogFormat.allCases {
            #expect(format.render(merged) == format.render(single), "\(format) differs")
        }
    }

    @Test func shardsSplitTracesByPositionModuloN() throws {
        let shard = try Shard(parsing: "1/3")
        #expect(shard.positions(of: 7) == [1, 4])
        #expect((0..<7).filter(shard.contains) == [1, 4])
        #expect(shard.description == "1/3")
        #expect(PartialEventLog.fileName(scenario: "demo", shard: shard) == "demo.events.part-1-of-3.jsonl")
        for bad in ["3/3", "-1/3", "1", "a/b", "0/0", "1/3/4", ""] {
            #expect(throws: FencesimError.self, "\(bad)") { try Shard(parsing: bad) }
        }
    }

    @Test func aMissingRepeatedOrForeignShardIsRefused() throws {
        let (_, path) = try Self.scenario(traces: 6)
        let runner = try ScenarioRunner(scenario: try ScenarioReader.read(path: path), workers: 2)
        let parts = try Self.parts(runner, shards: 3)
        #expect {
            try EventLogMerge.merge([parts[0], parts[2]])
        } throws: { error in
            let e = try #require(error as? FencesimError)
            return e.code.exitStatus == 65 && e.message.contains("shard 1/3") && e.message.contains("missing")
        }
        #expect {
            try EventLogMerge.merge([parts[0], parts[1], parts[2], parts[1]])
        } throws: { error in
            (error as? FencesimError)?.message.contains("given twice") == true
        }
        var foreign = parts[2]
        foreign.scenario = "other"
        #expect {
            try EventLogMerge.merge([parts[0], parts[1], foreign])
        } throws: { error in
            (error as? FencesimError)?.message.contains("scenario \"other\"") == true
        }
        // The same scenario's name, another run (other settings or inputs): refused at the part.
        var otherRun = parts[1]
        otherRun.run = "another-run"
        #expect {
            try EventLogMerge.merge([parts[0], otherRun, parts[2]])
        } throws: { error in
            let e = try #require(error as? FencesimError)
            return e.code.exitStatus == 65 && e.message.contains("another run") && e.location?.file == otherRun.file
        }
        // A part of the version before run digests is refused, with what to do.
        let old = parts[0].text.replacingOccurrences(of: "\"version\":2", with: "\"version\":1")
        #expect {
            try PartialEventLog.parse(SourceText(file: "old.jsonl", bytes: Array(old.utf8)))
        } throws: { error in
            (error as? FencesimError)?.message.contains("run its shard again") == true
        }
    }

    @Test func aTruncatedOrForeignPartialLogIsALocatedError() throws {
        let (_, path) = try Self.scenario(traces: 6)
        let runner = try ScenarioRunner(scenario: try ScenarioReader.read(path: path), workers: 2)
        let text = try Self.parts(runner, shards: 3)[0].text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let truncated = lines.dropLast(3).joined(separator: "\n") + "\n"
        #expect {
            try PartialEventLog.parse(SourceText(file: "p.jsonl", bytes: Array(truncated.utf8)))
        } throws: { error in
            let e = try #require(error as? FencesimError)
            return e.code.exitStatus == 65 && e.message.contains("truncated") && e.location?.file == "p.jsonl"
        }
        // A plain event log (no shard header) is not a partial log.
        let plain = lines.dropFirst().joined(separator: "\n")
        #expect {
            try PartialEventLog.parse(SourceText(file: "p.jsonl", bytes: Array(plain.utf8)))
        } throws: { error in
            let e = try #require(error as? FencesimError)
            return e.message.contains("not a partial event log") && e.location?.line == 1
        }
    }
}
