import Foundation
import Testing

/// A scenario's `fenceChanges` file: fences added, removed and replaced in trace time
/// (issue 27, fences that change over time).
@Suite struct FenceChangesCommandTests {
    static let root = CLI.packageRoot

    /// A folder holding the demo drive twice (two traces), the demo fences, `changes` as
    /// changes.jsonl and a scenario naming them (with `level: intervals`).
    static func folder(changes: String) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let traces = root.appendingPathComponent("traces")
        for name in ["a.gpx", "b.gpx"] {
            try FileManager.default.copyItem(at: traces.appendingPathComponent("demo-drive.gpx"), to: dir.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(
            at: traces.appendingPathComponent("demo-fences.geojson"), to: dir.appendingPathComponent("fences.geojson"))
        try changes.write(to: dir.appendingPathComponent("changes.jsonl"), atomically: true, encoding: .utf8)
        try """
        traces: [a.gpx, b.gpx]
        fences: fences.geojson
        fenceChanges: changes.jsonl
        geotrigger: {feed: accuracy, dwell: 60, level: intervals}
        zones:
          - {id: depots, checkOut: true}
          - {id: stores, checkOut: true}
          - {id: bridges, checkOut: false}
        """.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    static var demoChanges: String {
        get throws { try String(contentsOf: root.appendingPathComponent("traces/demo-fence-changes.jsonl"), encoding: .utf8) }
    }

    @Test(arguments: ["jsonl", "csv", "geojson", "table"])
    func sameBytesOnOneAndTwoWorkers(format: String) throws {
        let dir = try Self.folder(changes: try Self.demoChanges)
        let one = try CLI.run(["run", "s.yaml", "--format", format, "--workers", "1"], in: dir)
        let two = try CLI.run(["run", "s.yaml", "--format", format, "--workers", "2"], in: dir)
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        #expect(one.stdout == two.stdout)
        for reason in ["removed", "replaced", "added"] { #expect(one.stdout.contains(reason), "\(reason)") }
        if format == "jsonl" {
            // Store A, replaced around the van, is one stretch inside per trace.
            let insideStoreA = one.stdout.split(separator: "\n").filter {
                $0.contains("\"type\":\"inside\"") && $0.contains("\"fence\":\"store-a\"")
            }
            #expect(insideStoreA.count == 2, "\(insideStoreA)")
        }
    }

    @Test func theBundledScenarioRemovesReplacesAndAdds() throws {
        let result = try CLI.run(["run", "scenarios/demo-changes.yaml", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func has(_ type: String, _ fence: String, _ reason: String) -> Bool {
            lines.contains {
                $0.contains("\"type\":\"\(type)\"") && $0.contains("\"fence\":\"\(fence)\"") && $0.contains("\"reason\":\"\(reason)\"")
            }
        }
        #expect(has("exit", "depot", "removed"))
        #expect(has("exit", "store-b", "replaced"))
        #expect(has("enter", "pop-up", "added"))
        // The fuel station, open only until 00:04 UTC, is gone before the van reaches it.
        #expect(!lines.contains { $0.contains("\"fence\":\"fuel\"") })
        // Store A, replaced around the van, is left once, and its check-in checked out.
        #expect(lines.filter { $0.contains("\"type\":\"exit\"") && $0.contains("\"fence\":\"store-a\"") }.count == 1)
        #expect(lines.contains { $0.contains("\"type\":\"checkout\"") && $0.contains("\"fence\":\"store-a\"") })
    }

    static let circle = #"{"type": "Point", "coordinates": [8.53, 47.3702]}"#

    @Test(arguments: [
        (
            "{\"time\": \"2026-01-01T00:05:00Z\", \"action\": \"remove\", \"id\": \"depot\"}\n{\"time\": \"2026-01-01T00:04:00Z\", \"action\": \"remove\", \"id\": \"fuel\"}\n",
            "changes.jsonl:2:10: error:", "earlier than the one before it"
        ),
        (
            "\n{\"time\": \"2026-01-01T00:05:00Z\", \"action\": \"remove\", \"id\": \"nowhere\"}\n", "changes.jsonl:2:1: error:",
            "no fence has that id"
        ),
        (
            "{\"time\": \"2026-01-01T00:05:00Z\", \"action\": \"replace\", \"id\": \"depot\", \"geometry\": \(circle)}\n{\"time\": \"2026-01-01T00:06:00Z\", \"action\": \"remove\", \"id\": \"depot\"}\n{\"time\": \"2026-01-01T00:07:00Z\", \"action\": \"replace\", \"id\": \"depot\", \"geometry\": \(circle)}\n",
            "changes.jsonl:3:1: error:", "cannot replace fence \"depot\""
        ),
        (
            "{\"time\": \"2026-01-01T00:05:00Z\", \"action\": \"add\", \"id\": \"depot\", \"geometry\": \(circle), \"properties\": {\"radius\": 5}}\n",
            "changes.jsonl:1:1: error:", "cannot add fence \"depot\": it exists"
        ),
        (
            "{\"time\": \"2026-01-01T00:05:00Z\", \"action\": \"add\", \"id\": \"x\", \"geometry\": {\"type\": \"Polygon\", \"coordinates\": [[[8.5, 47.3], [8.6, 47.4], [8.6, 47.3], [8.5, 47.4], [8.5, 47.3]]]}}\n",
            "changes.jsonl:1:", "fence \"x\""
        ),
        (
            "{\"time\": \"2026-01-01T00:05:00Z\", \"action\": \"move\", \"id\": \"depot\"}\n", "changes.jsonl:1:44: error:",
            "\"action\" must be add, remove or replace"
        ),
        ("{\"time\": \"2026-01-01T00:05:00Z\", \"action\": \"remove\", \"id\": \"depot\"\n", "changes.jsonl:1:", "error:"),
    ])
    func badChangeFilesAreLocatedErrors(changes: String, location: String, message: String) throws {
        let dir = try Self.folder(changes: changes)
        let result = try CLI.run(["run", "s.yaml"], in: dir)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(location), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
