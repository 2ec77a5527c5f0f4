import Foundation
import Testing

/// `fencesim run --shard K/N` and `fencesim merge` through the built binary (SPEC §6.7).
@Suite struct ShardMergeCommandTests {
    /// Six walks past two POIs, listed out of name order, with Places and dwell so that events
    /// carry many fields.
    static func folder() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let fences = """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"id": "A", "radius": 50, "zone": "za"}, "geometry": {"type": "Point", "coordinates": [8.5, 47.39]}},
            {"type": "Feature", "properties": {"id": "B", "radius": 40, "zone": "zb"}, "geometry": {"type": "Point", "coordinates": [8.503, 47.3901]}}
            ]}
            """
        try fences.write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        var names: [String] = []
        for k in 0..<6 {
            var lines = ["time,lat,lon,accuracy"]
            for i in 0..<(36 + 2 * k) {
                let lon = 8.4982 + 0.00003 * Double(k) + (0.00016 + 0.00001 * Double(k)) * Double(i)
                lines.append(
                    String(
                        format: "2026-01-01T1%d:%02d:%02dZ,%.6f,%.6f,%d", k, i * 10 / 60, i * 10 % 60, 47.39 + 0.00002 * Double(k % 2), lon,
                        4 + k))
            }
            let name = "walk\(k).csv"
            names.append(name)
            try (lines.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let listed = [names[3], names[0], names[5], names[1], names[4], names[2]].joined(separator: ", ")
        try """
        name: six
        traces: [\(listed)]
        fences: fences.geojson
        geotrigger: {dwell: 30}
        zones: [{id: za}, {id: zb, minimumRetriggerTime: 120}]
        places: {signals: checkins}
        """.write(to: dir.appendingPathComponent("six.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func threeShardsMergedEqualOneRunByteForByteInEveryFormat() throws {
        let dir = try Self.folder()
        for k in 0..<3 {
            let r = try CLI.run(["run", "six.yaml", "--shard", "\(k)/3", "--out", "parts", "--workers", "1"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("parts/six.events.part-\(k)-of-3.jsonl"))
        }
        for format in ["jsonl", "csv", "geojson", "table"] {
            let single = try CLI.run(["run", "six.yaml", "--format", format], in: dir)
            #expect(single.status == 0, "\(single.stderr)")
            let merged = try CLI.run(
                [
                    "merge", "parts/six.events.part-2-of-3.jsonl", "parts/six.events.part-0-of-3.jsonl",
                    "parts/six.events.part-1-of-3.jsonl", "--format", format,
                ], in: dir)
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(merged.stdout == single.stdout, "\(format) differs")
            if format == "jsonl" {
                #expect(single.stdout.split(separator: "\n").count > 60)
                for type in ["\"enter\"", "\"dwell\"", "\"checkin\"", "\"places.entry\"", "\"places.exit\""] {
                    #expect(single.stdout.contains("\"type\":\(type)"), "no \(type) event")
                }
            }
        }
        // A folder of parts, written to a file.
        let out = try CLI.run(["merge", "parts", "--out", "merged/six.jsonl"], in: dir)
        #expect(out.status == 0, "\(out.stderr)")
        let single = try CLI.run(["run", "six.yaml"], in: dir)
        #expect(try String(contentsOf: dir.appendingPathComponent("merged/six.jsonl"), encoding: .utf8) == single.stdout)
    }

    /// Parts of two runs of the same-named scenario with different settings (another
    /// `degrade.seed`, another option) are refused (issue 21: they merged into a log of neither
    /// run); the same options in another order, or another worker count, are the same run.
    @Test func partsOfDifferentRunsAreRefused() throws {
        let dir = try Self.folder()
        let yaml = try String(contentsOf: dir.appendingPathComponent("six.yaml"), encoding: .utf8)
        try (yaml + "\ndegrade: {noise: 2, seed: 1}\n").write(to: dir.appendingPathComponent("six.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["run", "six.yaml", "--shard", "0/2", "--out", "parts", "--lenient", "--workers", "1"], in: dir).status == 0)
        try (yaml + "\ndegrade: {noise: 2, seed: 2}\n").write(to: dir.appendingPathComponent("six.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["run", "six.yaml", "--lenient", "--shard", "1/2", "--out", "parts"], in: dir).status == 0)
        let merged = try CLI.run(["merge", "parts"], in: dir)
        #expect(merged.status == 65, "\(merged.stderr)")
        #expect(merged.stderr.contains("another run of scenario \"six\""), "\(merged.stderr)")
        #expect(merged.stderr.contains("six.events.part-1-of-2.jsonl:1"), "\(merged.stderr)")
        #expect(merged.stdout.isEmpty)
        // Shard 0 again with the second settings, its options in another order: one run.
        #expect(try CLI.run(["run", "--workers", "2", "six.yaml", "--out", "parts", "--lenient", "--shard", "0/2"], in: dir).status == 0)
        let again = try CLI.run(["merge", "parts"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        // Another option that changes events is another run.
        #expect(try CLI.run(["run", "six.yaml", "--shard", "0/2", "--out", "parts"], in: dir).status == 0)
        #expect(try CLI.run(["merge", "parts"], in: dir).status == 65)
    }

    @Test func aMissingShardIsRefusedAndBadShardsAreUsageErrors() throws {
        let dir = try Self.folder()
        for k in [0, 2] {
            #expect(try CLI.run(["run", "six.yaml", "--shard", "\(k)/3", "--out", "parts"], in: dir).status == 0)
        }
        let merged = try CLI.run(["merge", "parts"], in: dir)
        #expect(merged.status == 65)
        #expect(merged.stderr.contains("shard 1/3 of scenario \"six\" is missing"), "\(merged.stderr)")
        #expect(merged.stdout.isEmpty)
        #expect(try CLI.run(["run", "six.yaml", "--shard", "3/3"], in: dir).status == 64)
        #expect(try CLI.run(["run", "six.yaml", "--shard", "one/3"], in: dir).status == 64)
        #expect(try CLI.run(["run", "six.yaml", "--shard", "0/3", "--format", "csv"], in: dir).status == 64)
        // A plain event log is not a partial log.
        _ = try CLI.run(["run", "six.yaml", "--out", "plain"], in: dir)
        let plain = try CLI.run(["merge", "plain/six.events.jsonl"], in: dir)
        #expect(plain.status == 65)
        #expect(plain.stderr.hasPrefix("plain/six.events.jsonl:1:"), "\(plain.stderr)")
    }
}
