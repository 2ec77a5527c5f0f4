import Support
import Testing

@testable import Traces

/// Every file of the shared data's MANIFEST.tsv, read and compared with the independent counts.
@Suite("MANIFEST oracle", .enabled(if: TestData.isAvailable, "the shared data (../shared/data) is absent; skipped"))
struct ManifestOracleTests {
    /// Files that are deliberately broken or not fix logs, and why they must fail with a located error.
    static let refused: [String: String] = [
        "togeojson/test/data/bad.gpx":
            "every point has lat/lon \"undefined\" (MANIFEST counts them as 0 points): strict reading refuses the trace at the first invalid coordinate",
        "gpsbabel/reference/googletakeout/2013/2013_MAY.json":
            "a Google Takeout Semantic Location History (visits and activity segments) is not a fix log and is refused",
    ]

    /// Counts MANIFEST computes differently from fencesim, with the reason; checked separately.
    static let backstepsAtWholeSeconds: Set<String> = [
        // Its RMC times have milliseconds and are out of order in three places (58.5 → 58.0,
        // 59.75 → 59.25, 03.75 → 02.25); MANIFEST compared whole seconds, where only 03 → 02 steps back.
        "gpsbabel/reference/track/nmea+ms.txt"
    ]

    @Test("MANIFEST row reads with the oracle's counts", arguments: ManifestRow.all.filter { refused[$0.path] == nil })
    func row(_ row: ManifestRow) throws {
        let path = TestData.path(row.path)
        // A file of no point is no trace (issue 21), strict or lenient: a located error.
        if row.points == 0 {
            for options in [TraceReadOptions(), TraceReadOptions(lenient: true)] {
                let error = try #require(TestData.error(reading: path, options))
                #expect(error.code == .badData)
                #expect(error.message.hasPrefix("no fixes"), "\(error)")
                #expect(error.location?.line != nil)
            }
            return
        }
        // Lenient reading keeps every point's counts, whatever its times; strict must agree with it.
        let (fixes, stats) = try TestData.read(path, TraceReadOptions(lenient: true))
        #expect(stats.pointsRead == row.points, "points")
        #expect(stats.pointsWithTime == row.pointsWithTime, "points with time")
        if Self.backstepsAtWholeSeconds.contains(row.path) {
            #expect(stats.timeBacksteps == 3)
            #expect(stats.dropped["time-backwards"] != nil)
            // The same RMC times cut to whole seconds step back once, as MANIFEST counts.
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let seconds = text.split(whereSeparator: \.isNewline).compactMap { line -> Int? in
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                guard fields.count > 2, fields[0].hasSuffix("RMC"), fields[2] == "A" else { return nil }
                return Int(fields[1].prefix(6))
            }
            let steps = zip(seconds, seconds.dropFirst()).filter { $1 < $0 }.count
            #expect(steps == row.timeBacksteps, "backsteps at whole seconds")
        } else {
            #expect(stats.timeBacksteps == row.timeBacksteps, "time backsteps")
        }
        #expect(stats.fixesAccepted + stats.droppedCount == row.points, "accepted + dropped = points")
        #expect(fixes.count == stats.fixesAccepted)
        if let box = row.boundingBox {
            let read = try #require(stats.pointsBoundingBox)
            #expect(read.isClose(to: box, tolerance: 1e-5), "bbox \(read) vs \(box)")
        } else {
            #expect(stats.pointsBoundingBox == nil)
        }
        #expect((stats.pointsTimeSpan?.lowerBound.wholeSecondText ?? "") == row.timeStart, "time start")
        #expect((stats.pointsTimeSpan?.upperBound.wholeSecondText ?? "") == row.timeEnd, "time end")

        // Format and GPX structure.
        switch row.format.split(separator: " ").first ?? "" {
        case "GPX":
            #expect(stats.format == .gpx)
            #expect(stats.dialect == row.format.replacingOccurrences(of: " None", with: ""))
            #expect(stats.tracks == row.tracks, "trk")
            #expect(stats.segments == row.segments, "trkseg")
            #expect(stats.routes == row.routes, "rte")
            #expect(stats.waypoints == row.waypoints, "wpt")
        case "CSV": #expect(stats.format == .csv)
        case "NMEA": #expect(stats.format == .nmea)
        case "GeoLife": #expect(stats.format == .plt)
        default: Issue.record("unexpected MANIFEST format \(row.format)")
        }

        // Strict reading succeeds exactly when lenient reading dropped nothing.
        if stats.droppedCount == 0 && stats.skipped.keys.allSatisfy({ ["invalid-fix", "unpaired-gga"].contains($0) }) {
            let strict = try TestData.read(path)
            #expect(strict.statistics == stats)
            #expect(strict.fixes == fixes)
        } else {
            let error = try #require(TestData.error(reading: path))
            #expect(error.code == .badData)
            #expect(error.location?.line != nil, "strict errors are located: \(error)")
            #expect(error.description.hasPrefix(path + ":"))
        }
    }

    @Test("Deliberately broken or unsupported files fail with a located error", arguments: refused.keys.sorted())
    func refusedFile(_ relative: String) throws {
        let path = TestData.path(relative)
        let error = try #require(TestData.error(reading: path))
        #expect(error.code == .badData)
        #expect(error.location?.file == path)
        #expect(error.location?.line != nil)
        if relative.hasSuffix(".json") {
            #expect(error.message.contains("not a fix log"))
            #expect(error.message.contains("Takeout"))
        } else {
            #expect(error.message.contains("undefined"))
            #expect(error.description.contains("bad.gpx:5:"))
        }
    }

    @Test("bad.gpx in lenient mode: every point dropped as an invalid coordinate, none delivered")
    func badGPXLenient() throws {
        let (fixes, stats) = try TestData.read(TestData.path("togeojson/test/data/bad.gpx"), TraceReadOptions(lenient: true))
        #expect(fixes.isEmpty)
        #expect(stats.pointsRead == 3)
        #expect(stats.dropped == ["invalid-coordinate": 3])
        #expect(stats.warningCounts["invalid-coordinate"] == 6)
        #expect(stats.warningCounts["bad-value"] == 1)  // <ele>bad data</ele>
    }
}
