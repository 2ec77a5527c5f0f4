import Foundation
import Testing

/// Inputs that were read into a different answer without a word (issue 21), through the command
/// line. The refusals are cases of the bad-input corpus; what must still be read, and read
/// whole, is checked here.
@Suite("Silent wrong answers (issue 21)")
struct SilentAnswerTests {
    static let folder = BadInput.folder

    @Test("a GeoLife PLT with a 2-line header keeps its first rows: the visit at the start is seen")
    func shortPLTHeader() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("events.jsonl")
        let result = try CLI.run(["replay", "plt/short-header.plt", "--fences", "good/fences.geojson", "--out", out.path], in: Self.folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("short-header.plt:3:1: warning: the GeoLife header ends at line 2, not line 6"), "\(result.stderr)")
        let events = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        // 20 rows, the first 4 inside fence "a": an enter and an exit (4 rows were lost before).
        #expect(events.filter { $0.contains("\"enter\"") }.count == 1, "\(events)")
        #expect(events.filter { $0.contains("\"exit\"") }.count == 1, "\(events)")
        let inspect = try CLI.run(["inspect", "plt/short-header.plt"], in: Self.folder)
        #expect(inspect.stdout.contains("20"), "\(inspect.stdout)")
    }

    @Test("duplicate CSV column names mapped by number are not ambiguous")
    func duplicateColumnsMappedByNumber() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("events.jsonl")
        let result = try CLI.run(
            [
                "replay", "csv/duplicate-columns.csv", "--columns", "lat=2,lon=3,time=1", "--fences", "good/fences.geojson",
                "--out", out.path,
            ], in: Self.folder)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
