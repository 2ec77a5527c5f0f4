import Foundation
import Testing

/// A scenario's `fences:` as a list of files (ids unique across them) or a map of named sets
/// (each set's ids prefixed with its name) watches the fences of every file (issue 27).
@Suite struct FenceSetsCommandTests {
    /// The demo fences split in two files: the depot and the stores, the rest.
    static func folder() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let data = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("traces/demo-fences.geojson"))
        let all = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let features = all["features"] as! [[String: Any]]
        func write(_ name: String, _ keep: (String) -> Bool) throws {
            let part = features.filter { keep(($0["properties"] as! [String: Any])["id"] as! String) }
            let json = try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": part], options: [.sortedKeys])
            try json.write(to: dir.appendingPathComponent(name))
        }
        try write("stores.geojson") { $0.hasPrefix("store") || $0 == "depot" }
        try write("rest.geojson") { !($0.hasPrefix("store") || $0 == "depot") }
        try write("depot-again.geojson") { $0 == "depot" }
        return dir
    }

    static func scenario(_ fences: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("s.yaml").path
        try """
        traces: [\(CLI.packageRoot.path)/traces/demo-drive.gpx]
        fences: \(fences)
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `type,fence` of each line of a CSV log.
    static func lines(_ csv: String) -> [String] {
        csv.split(separator: "\n").dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            return "\(cells[3]),\(cells[6])"
        }
    }

    @Test func aListOfFilesIsWatchedAsOneFile() throws {
        let dir = try Self.folder()
        let whole = try CLI.run([
            "run", try Self.scenario(CLI.packageRoot.appendingPathComponent("traces/demo-fences.geojson").path, in: dir), "--format", "csv",
        ])
        #expect(whole.status == 0, "\(whole.stderr)")
        let split = try CLI.run(["run", try Self.scenario("[stores.geojson, rest.geojson]", in: dir), "--format", "csv"])
        #expect(split.status == 0, "\(split.stderr)")
        // The same events: at one instant they are ordered by fence id, whatever the file.
        #expect(Self.lines(split.stdout) == Self.lines(whole.stdout))
        #expect(Self.lines(split.stdout).contains("enter,fuel") && Self.lines(split.stdout).contains("enter,store-a"))
    }

    @Test func namedSetsPrefixTheirIds() throws {
        let dir = try Self.folder()
        let result = try CLI.run([
            "run", try Self.scenario("{shops: stores.geojson, other: rest.geojson, again: depot-again.geojson}", in: dir), "--format",
            "csv",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        #expect(lines.contains("enter,shops/store-a") && lines.contains("enter,other/fuel"), "\(lines)")
        // The depot in two sets is two fences.
        #expect(lines.contains("enter,shops/depot") && lines.contains("enter,again/depot"), "\(lines)")
    }

    @Test func anIdInTwoFilesIsALocatedError() throws {
        let dir = try Self.folder()
        let result = try CLI.run(["run", try Self.scenario("[stores.geojson, depot-again.geojson]", in: dir)])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("depot-again.geojson:1"), "\(result.stderr)")
        #expect(result.stderr.contains("fence id \"depot\" is also in"), "\(result.stderr)")
    }
}
