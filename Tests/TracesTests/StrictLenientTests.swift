import Support
import Testing

@testable import Traces

/// Strict versus lenient reading on real files with backward and duplicate times (SPEC §1.1).
@Suite(
    "Strict and lenient reading of real traces", .enabled(if: TestData.isAvailable, "the shared data (../shared/data) is absent; skipped"))
struct StrictLenientTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var path: String
        var firstProblemLine: Int
        var firstMessage: String
        var testDescription: String { path }
    }

    static let cases: [Case] = [
        // CoreGPX: a 7.5 h iOS recording with 127 repeated times.
        Case(
            path: "CoreGPX/Example/Tests/GPXTest-TrackPointOnly.gpx", firstProblemLine: 13,
            firstMessage: "time 2018-11-29T01:49:00Z is the same as that of the previous fix (line 9)"),
        // Mojstrovka: every point has the same bogus 1901 time (one written with fewer digits).
        Case(
            path: "gpxpy/test_files/Mojstrovka.gpx", firstProblemLine: 16,
            firstMessage: "time 1901-12-13T20:45:52.207Z is earlier than 1901-12-13T20:45:52.2073437Z of the previous fix (line 12)"),
        // Google Maps export, newest first: every step goes back.
        Case(
            path: "trackintel/examples/data/google_trajectory.csv", firstProblemLine: 3,
            firstMessage: "time 2012-12-18T21:29:34Z is earlier than 2012-12-18T21:30:35Z of the previous fix (line 2)"),
        Case(path: "trackintel/examples/data/posmo_trajectory.csv", firstProblemLine: 0, firstMessage: "is earlier than"),
        Case(
            path: "gpsbabel/reference/v900_advanced_mode.csv", firstProblemLine: 8,
            firstMessage: "time 2009-02-04T06:26:22Z is earlier than 2009-02-04T06:38:26Z of the previous fix (line 7)"),
    ]

    @Test("strict refuses with one located error holding every problem", arguments: cases)
    func strict(_ c: Case) throws {
        let path = TestData.path(c.path)
        let error = try #require(TestData.error(reading: path))
        #expect(error.code == .badData)
        #expect(error.code.exitStatus == 65)
        #expect(error.message.contains(c.firstMessage))
        if c.firstProblemLine > 0 {
            #expect(error.location?.line == c.firstProblemLine)
            #expect(error.description.hasPrefix("\(path):\(c.firstProblemLine):"))
        }
        // Every further problem is related (up to 50), then counted.
        let lenient = try TestData.read(path, TraceReadOptions(lenient: true)).statistics
        let problems = lenient.droppedCount
        let errors = error.related.filter { $0.severity == .error }
        #expect(errors.count == min(problems - 1, FixSink.relatedLimit))
        #expect(errors.allSatisfy { $0.location?.line != nil && ["time-backwards", "duplicate-time"].contains($0.kind ?? "") })
        if problems - 1 > FixSink.relatedLimit {
            #expect(
                error.related.contains { $0.severity == .note && $0.message == "and \(problems - 1 - FixSink.relatedLimit) more problems" })
        }
        #expect(error.fullDescription.split(separator: "\n").count == error.related.count + 1)
    }

    @Test("lenient drops and counts each bad fix with a located warning", arguments: cases)
    func lenient(_ c: Case) throws {
        let row = try #require(ManifestRow.row(c.path))
        let (fixes, stats) = try TestData.read(TestData.path(c.path), TraceReadOptions(lenient: true))
        #expect(stats.fixesAccepted + stats.droppedCount == row.points)
        #expect(fixes.count == stats.fixesAccepted)
        #expect(stats.timeBacksteps == row.timeBacksteps)
        for kind in stats.dropped.keys {
            #expect(stats.warningCounts[kind] == stats.dropped[kind], "every drop has a warning: \(kind)")
        }
        #expect(
            stats.warnings.filter { stats.dropped[$0.kind ?? ""] != nil }.allSatisfy {
                $0.location?.line != nil && $0.message.hasSuffix("; fix dropped")
            })
        // What remains is strictly increasing in time.
        let times = fixes.compactMap(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("newest-first Google export: 415 backward steps, one fix kept")
    func newestFirst() throws {
        let (fixes, stats) = try TestData.read(
            TestData.path("trackintel/examples/data/google_trajectory.csv"), TraceReadOptions(lenient: true))
        #expect(stats.timeBacksteps == 415)
        #expect(stats.dropped == ["time-backwards": 415])
        #expect(fixes.count == 1)
        #expect(stats.accuracySources == [.reported: 1])
    }

    @Test("CoreGPX: duplicates dropped; the \"3,790 km/h\" jump (3,780 km/h on the WGS84 geodesic) flagged, not dropped")
    func coreGPXJump() throws {
        let (fixes, stats) = try TestData.read(
            TestData.path("CoreGPX/Example/Tests/GPXTest-TrackPointOnly.gpx"), TraceReadOptions(lenient: true))
        #expect(stats.dropped == ["duplicate-time": 127])
        #expect(stats.duplicateTimes == 127)
        #expect(fixes.count == 4142 - 127)
        let jumps = stats.warnings.filter { $0.kind == "implausible-jump" }
        #expect(jumps.count == stats.warningCounts["implausible-jump"])
        // The worst: 3150 m in 3 s between lines 12121 and 12125. The shared README's 3,790 km/h is
        // a spherical estimate; the WGS84 geodesic gives 3780 km/h.
        let kmh = jumps.compactMap { warning -> Int? in
            guard let open = warning.message.lastIndex(of: "("), let space = warning.message[open...].firstIndex(of: " ") else {
                return nil
            }
            return Int(warning.message[warning.message.index(after: open)..<space])
        }
        #expect(kmh.max().map { (3700...3900).contains($0) } == true, "\(jumps.map(\.description))")
        #expect(jumps.contains { $0.message.contains("3150.1 m in 3.0 s since line 12121 implies 1050.0 m/s (3780 km/h)") })
        #expect(jumps.allSatisfy { $0.location?.line != nil && $0.message.contains("m/s") })
        // Strict mode flags the same jumps, as warnings, when it gets that far: a higher limit silences them.
        let relaxed = try TestData.read(
            TestData.path("CoreGPX/Example/Tests/GPXTest-TrackPointOnly.gpx"), TraceReadOptions(lenient: true, maximumSpeed: 2000)
        ).statistics
        #expect(relaxed.warningCounts["implausible-jump"] == nil)
    }
}
