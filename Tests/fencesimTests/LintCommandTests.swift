import Foundation
import Testing

/// `fencesim lint` through the built binary (SPEC §6.4).
@Suite struct LintCommandTests {
    /// At 47.39° N: `strip` is a 0.000135° × 0.0018° rectangle (about 10 m east–west by 200 m
    /// north–south), `kerb` a 3 m circle, and `a`/`b` two 50 m circles 60 m apart in zone z1.
    static let fences = """
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"id": "strip"}, "geometry": {"type": "Polygon", "coordinates": [[[8.5, 47.39], [8.500135, 47.39], [8.500135, 47.3918], [8.5, 47.3918], [8.5, 47.39]]]}},
        {"type": "Feature", "properties": {"id": "kerb", "radius": 3}, "geometry": {"type": "Point", "coordinates": [8.51, 47.39]}},
        {"type": "Feature", "properties": {"id": "a", "radius": 50, "zone": "z1"}, "geometry": {"type": "Point", "coordinates": [8.52, 47.39]}},
        {"type": "Feature", "properties": {"id": "b", "radius": 50, "zone": "z1"}, "geometry": {"type": "Point", "coordinates": [8.5208, 47.39]}}
        ]}
        """

    static func folder() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try fences.write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func narrowFenceAt30MetresPerSecondIsAnErrorWithExit1() throws {
        let dir = try Self.folder()
        let r = try CLI.run(["lint", "fences.geojson", "--speed", "30", "--interval", "1"], in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(r.stdout)")
        #expect(lines[0].hasPrefix("fences.geojson:2:1: error: fence \"strip\" is 10"), "\(lines[0])")
        #expect(lines[0].hasSuffix("[narrow]"))
        #expect(lines[1].hasPrefix("fences.geojson:3:1: error: circle fence \"kerb\" is 6 m across"))
        #expect(lines[2].hasPrefix("fences.geojson:3:1: warning: circle fence \"kerb\" has a radius of 3 m"))
        #expect(lines[3].hasPrefix("fences.geojson:5:1: warning: fence \"b\" overlaps fence \"a\" (fences.geojson:4:1)"))
        #expect(r.stderr.contains("4 fences: 2 errors, 2 warnings"))
    }

    @Test func onlyWarningsExit0() throws {
        let dir = try Self.folder()
        let r = try CLI.run(["lint", "fences.geojson", "--speed", "5", "--interval", "1"], in: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stdout.contains("error:"))
        #expect(r.stdout.contains("warning: circle fence \"kerb\""))
    }

    @Test func jsonOutputIsOneDocumentWithStableKeys() throws {
        let dir = try Self.folder()
        let r = try CLI.run(["lint", "fences.geojson", "--speed", "30", "--interval", "1", "--json"], in: dir)
        #expect(r.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["errors"] as? Int == 2)
        #expect(object["warnings"] as? Int == 2)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String ?? "" } == ["narrow", "narrow", "tiny-circle", "zone-overlap"])
        #expect(findings.map { $0["line"] as? Int ?? 0 } == [2, 3, 3, 5])
        #expect(
            r.stdout.hasPrefix(
                #"{"file":"fences.geojson","fences":4,"motions":[{"source":"--speed/--interval","speed":30,"interval":1,"gap":30}],"errors":2"#
            ))
    }

    @Test func badAndMissingInputExit65And66() throws {
        let dir = try Self.folder()
        try "{\"type\": \"FeatureCollection\", \"features\": [\n{\"type\": \"Feature\", \"properties\": {}, \"geometry\": null}\n]}"
            .write(to: dir.appendingPathComponent("bad.geojson"), atomically: true, encoding: .utf8)
        let bad = try CLI.run(["lint", "bad.geojson", "--speed", "30", "--interval", "1"], in: dir)
        #expect(bad.status == 65)
        #expect(bad.stderr.hasPrefix("bad.geojson:2:"), "\(bad.stderr)")
        let missing = try CLI.run(["lint", "nope.geojson"], in: dir)
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nope.geojson"))
        let missingTrace = try CLI.run(["lint", "fences.geojson", "--traces", "nope.gpx"], in: dir)
        #expect(missingTrace.status == 66)
        let usage = try CLI.run(["lint", "fences.geojson", "--speed", "30"], in: dir)
        #expect(usage.status == 64)
    }

    @Test func invalidGeometryIsAnErrorFindingNotAFailedRead() throws {
        let dir = try CLI.temporaryDirectory()
        let bowtie = """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"id": "bowtie"}, "geometry": {"type": "Polygon", "coordinates": [[[8.5, 47.39], [8.501, 47.391], [8.501, 47.39], [8.5, 47.391], [8.5, 47.39]]]}}
            ]}
            """
        try bowtie.write(to: dir.appendingPathComponent("f.geojson"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "f.geojson"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("f.geojson:2:1: error: fence \"bowtie\" has invalid geometry (Self-intersection"), "\(r.stdout)")
        let repaired = try CLI.run(["lint", "f.geojson", "--make-valid"], in: dir)
        #expect(repaired.status == 0, "\(repaired.stdout)")
        #expect(repaired.stdout.contains("warning: fence \"bowtie\" has invalid geometry"))
    }

    /// A route straight north through the strip's long side would never cross it; this one runs
    /// east across it, synthesized with noise as a phone would report it.
    static let route = """
        {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[8.49, 47.3905], [8.53, 47.3905]]}}
        """

    @Test func tracesGiveTheirObservedSpeedAndInterval() throws {
        let dir = try Self.folder()
        try Self.route.write(to: dir.appendingPathComponent("route.geojson"), atomically: true, encoding: .utf8)
        for (name, speed, interval, noise) in [("fast.gpx", "30", "1", "2"), ("slow.gpx", "1.4", "5", "0")] {
            let synth = try CLI.run(
                ["synth", "route.geojson", "--speed", speed, "--interval", interval, "--noise", noise, "--seed", "3", "--out", name],
                in: dir)
            #expect(synth.status == 0, "\(synth.stderr)")
        }
        let fast = try CLI.run(["lint", "fences.geojson", "--traces", "fast.gpx", "slow.gpx", "--json"], in: dir)
        #expect(fast.status == 1, "\(fast.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(fast.stdout.utf8)) as? [String: Any])
        let motions = try #require(object["motions"] as? [[String: Any]])
        #expect(motions.map { $0["source"] as? String ?? "" } == ["p90 of trace fast.gpx", "p90 of trace slow.gpx"])
        let fastSpeed = try #require(motions.first?["speed"] as? Double)
        // Noise of 2 m on 30 m steps: the 90th percentile is a few m/s above 30.
        #expect(fastSpeed > 30 && fastSpeed < 37, "\(fastSpeed)")
        #expect(motions.first?["interval"] as? Double == 1)
        let narrow = try #require((object["findings"] as? [[String: Any]])?.first)
        #expect(narrow["fence"] as? String == "strip")
        #expect(narrow["source"] as? String == "p90 of trace fast.gpx")
        // Walking, a 10 m strip is wide enough (the kerb circle is 6 m across: still narrow at 7 m).
        let slow = try CLI.run(["lint", "fences.geojson", "--traces", "slow.gpx"], in: dir)
        #expect(!slow.stdout.contains("\"strip\""), "\(slow.stdout)")
        #expect(slow.stderr.contains("note: p90 of trace slow.gpx:"))
    }

    @Test func scenarioGivesFencesBuffersAndTraces() throws {
        let dir = try Self.folder()
        try Self.route.write(to: dir.appendingPathComponent("route.geojson"), atomically: true, encoding: .utf8)
        _ = try CLI.run(["synth", "route.geojson", "--speed", "30", "--interval", "1", "--out", "fast.gpx"], in: dir)
        try "traces: [fast.gpx]\nfences: fences.geojson\ngeotrigger: {buffer: 13}\n"
            .write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        // A 13 m buffer makes the strip 36 m wide and the kerb circle 32 m across.
        let r = try CLI.run(["lint", "--scenario", "s.yaml"], in: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stdout.contains("[narrow]"))
        let unbuffered = try CLI.run(["lint", "--scenario", "s.yaml", "--buffer", "0"], in: dir)
        #expect(unbuffered.status == 1)
        #expect(unbuffered.stdout.contains("fence \"strip\""))
    }
}
