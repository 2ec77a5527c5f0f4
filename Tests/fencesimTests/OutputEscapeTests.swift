import Foundation
import Testing

/// Nothing a scenario says places an output outside the folder the user named (issue 21): a
/// `name` that would is refused at its line, for a whole run and for a shard's part, and
/// nothing is written beside or above the output folder.
@Suite struct OutputEscapeTests {
    @Test(arguments: [["run"], ["run", "--shard", "1/2"]])
    func aNameCannotLeaveTheOutputFolder(command: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        try "time,lat,lon\n2026-01-01T00:00:00Z,47.39,8.5\n2026-01-01T00:00:10Z,47.39,8.5001\n"
            .write(to: dir.appendingPathComponent("trace.csv"), atomically: true, encoding: .utf8)
        try
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"id": "a", "radius": 50}, "geometry": {"type": "Point", "coordinates": [8.5, 47.39]}}]}"#
            .write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        try "traces: [trace.csv]\nfences: fences.geojson\nname: ../escaped\n"
            .write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out/sub")
        let result = try CLI.run(command + ["s.yaml", "--out", out.path], in: dir)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("s.yaml:3:"), "\(result.stderr)")
        #expect(result.stderr.contains("name becomes part of output file names"), "\(result.stderr)")
        let written = try FileManager.default.subpathsOfDirectory(atPath: dir.path).filter { $0.contains("escaped") }
        #expect(written.isEmpty, "\(written)")
    }

    /// `check --update` writes the golden log at `expected:`; a path that leaves the scenario's
    /// folder is refused at that line before anything runs, and nothing is written.
    @Test(arguments: ["../escaped.jsonl", "golden/../../escaped.jsonl", "/tmp/fencesim-escaped-golden.jsonl", "golden/"])
    func aGoldenCannotLeaveTheScenarioFolder(expected: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "time,lat,lon\n2026-01-01T00:00:00Z,47.39,8.5\n2026-01-01T00:00:10Z,47.39,8.5001\n"
            .write(to: folder.appendingPathComponent("trace.csv"), atomically: true, encoding: .utf8)
        try
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"id": "a", "radius": 50}, "geometry": {"type": "Point", "coordinates": [8.5, 47.39]}}]}"#
            .write(to: folder.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        try "traces: [trace.csv]\nfences: fences.geojson\nexpected: \"\(expected)\"\n"
            .write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["check", "scenarios/s.yaml", "--update"], in: dir)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("s.yaml:3:11: error: expected \"\(expected)\" cannot be the golden log"), "\(result.stderr)")
        #expect(result.stderr.contains("must be a file inside the scenario's folder"), "\(result.stderr)")
        let written = try FileManager.default.subpathsOfDirectory(atPath: dir.path).filter {
            $0.contains("escaped") || $0.hasSuffix(".jsonl")
        }
        #expect(written.isEmpty, "\(written)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/fencesim-escaped-golden.jsonl"))
    }

    /// The default golden, and an `expected:` that stays inside, are written where they say.
    @Test func aGoldenInsideTheFolderIsWritten() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "time,lat,lon\n2026-01-01T00:00:00Z,47.39,8.5\n2026-01-01T00:00:10Z,47.39,8.5001\n"
            .write(to: dir.appendingPathComponent("trace.csv"), atomically: true, encoding: .utf8)
        try
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"id": "a", "radius": 50}, "geometry": {"type": "Point", "coordinates": [8.5, 47.39]}}]}"#
            .write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        try "traces: [trace.csv]\nfences: fences.geojson\nexpected: golden/./x/../x.jsonl\n"
            .write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("golden/x"), withIntermediateDirectories: true)
        let result = try CLI.run(["check", "s.yaml", "--update"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("golden/x.jsonl").path))
    }
}
