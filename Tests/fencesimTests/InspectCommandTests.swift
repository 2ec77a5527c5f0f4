import Foundation
import Testing

@Suite struct InspectCommandTests {
    @Test func inspectsTheBundledFences() throws {
        let r = try CLI.run(["inspect", "traces/demo-fences.geojson"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("fences: 5"))
        #expect(r.stdout.contains("circle: 3"))
        #expect(r.stdout.contains("line: 1"))
        #expect(r.stdout.contains("all fences valid"))
    }

    @Test func jsonOutputIsOneObjectPerFile() throws {
        let r = try CLI.run(["inspect", "--json", "traces/demo-fences.geojson", "traces/demo-fences.geojson"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(object?["fences"] as? Int == 5)
        #expect((object?["byKind"] as? [String: Int])?["area"] == 1)
    }

    @Test func badFencesExit65WithLocatedErrors() throws {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("bad.geojson")
        try #"""
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"id": "a", "radius": 5}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
        {"type": "Feature", "properties": {"id": "a", "radius": 5}, "geometry": {"type": "Point", "coordinates": [0, 0]}}
        ]}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let r = try CLI.run(["inspect", file.path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("\(file.path):3:42: error: duplicate fence id \"a\""), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func missingFileExits66AndOthersAreStillInspected() throws {
        let r = try CLI.run(["inspect", "no-such-file.geojson", "traces/demo-fences.geojson"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("no-such-file.geojson: error: cannot open"))
        #expect(r.stdout.contains("fences: 5"))
    }

    @Test func usageErrorsExit64() throws {
        let r = try CLI.run(["inspect", "--no-such-option", "x"])
        #expect(r.status == 64)
        let s = try CLI.run(["inspect", "--radius", "-3", "traces/demo-fences.geojson"])
        #expect(s.status == 64)
        #expect(s.stderr.contains("--radius"))
    }

    @Test func versionAndHelp() throws {
        #expect(try CLI.run(["--version"]).status == 0)
        let help = try CLI.run(["--help"])
        #expect(help.stdout.contains("inspect"))
        #expect(help.stdout.contains("65 bad input data"))
    }
}
