import Support
import Testing

@testable import Traces

/// GPX 1.0/1.1 structure, extensions, encodings and waypoint rules.
@Suite("GPX reader")
struct GPXReaderTests {
    @Test("tracks, segments and routes in document order; extensions with or without prefixes")
    func structure() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
              <wpt lat="9" lon="9"><name>ignored: the file has track points</name></wpt>
              <trk><name>t</name>
                <trkseg>
                  <trkpt lat="48.1" lon="11.5"><ele>500.5</ele><time>2020-01-01T00:00:00Z</time><sat>7</sat>
                    <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>3.5</gpxtpx:speed><gpxtpx:course>271</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>
                  </trkpt>
                </trkseg>
                <trkseg>
                  <trkpt lat="48.2" lon="11.6"><time>2020-01-01T00:00:01.25-01:00</time><extensions><speed>4</speed><course>10</course></extensions></trkpt>
                </trkseg>
              </trk>
              <rte><rtept lat="48.3" lon="11.7"><speed>9</speed><course>20</course><extensions><speed>1</speed></extensions></rtept></rte>
            </gpx>
            """
        let path = TestData.write(text, named: "structure.gpx")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.map(\.latitude) == [48.1, 48.2, 48.3])
        #expect(fixes.map(\.segment) == [0, 1, 2])
        #expect(fixes.map(\.speedMetersPerSecond) == [3.5, 4, 9])
        #expect(fixes.map(\.courseDegrees) == [271, 10, 20])
        #expect(fixes[0].altitudeMeters == 500.5)
        #expect(fixes[0].satellites == 7)
        #expect(fixes[0].line == 7)
        #expect(fixes[1].time == Timestamp(year: 2020, month: 1, day: 1, hour: 1, second: 1, nanosecond: 250_000_000))
        #expect(fixes[2].time == nil)
        #expect(stats.dialect == "GPX 1.1")
        #expect((stats.tracks, stats.segments, stats.routes, stats.waypoints) == (1, 2, 1, 1))
        #expect((stats.pointsRead, stats.pointsWithTime, stats.fixesWithoutTime) == (3, 2, 1))
    }

    /// Several `trk` in one file (issue 22): one trace, in document order, each `trkseg` a segment
    /// of its own, numbered across the tracks, so that no movement joins the end of one track and
    /// the start of the next.
    @Test("several tracks make one trace whose segments are their trksegs")
    func severalTracks() throws {
        let text = """
            <gpx version="1.1"><trk><trkseg>
            <trkpt lat="1" lon="1"><time>2026-01-01T00:00:00Z</time></trkpt><trkpt lat="1" lon="1.001"><time>2026-01-01T00:00:01Z</time></trkpt>
            </trkseg></trk><trk><trkseg>
            <trkpt lat="2" lon="2"><time>2026-01-01T00:00:02Z</time></trkpt>
            </trkseg><trkseg>
            <trkpt lat="3" lon="3"><time>2026-01-01T00:00:03Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        let (fixes, stats) = try TestData.read(TestData.write(text, named: "tracks.gpx"))
        #expect(fixes.map(\.latitude) == [1, 1, 2, 3])
        #expect(fixes.map(\.segment) == [0, 0, 1, 2])
        #expect((stats.tracks, stats.segments) == (2, 3))
    }

    @Test("waypoints are the points of a file without tracks or routes (Xcode simulation files)")
    func waypointsOnly() throws {
        let text = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="Xcode">
                <wpt lat="37.331705" lon="-122.030237"><time>2014-09-24T14:55:37Z</time></wpt>
                <wpt lat="37.331705" lon="-122.030345"><time>2014-09-24T14:55:38Z</time></wpt>
            </gpx>
            """
        let path = TestData.write(text, named: "simulation.gpx")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.count == 2)
        #expect(fixes.map(\.line) == [3, 4])
        #expect(stats.waypoints == 2)
        #expect(stats.pointsRead == 2)
    }

    /// A valid GPX with no point is no trace (issue 21: it replayed to an empty log with exit 0,
    /// where a CSV header with no rows is refused).
    @Test("a valid GPX with no points is refused as no trace")
    func emptyGPX() throws {
        for text in [
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.0\"></gpx>\n",
            "<gpx version=\"1.1\"><trk><trkseg></trkseg></trk><rte></rte></gpx>\n",
        ] {
            let path = TestData.write(text, named: "empty.gpx")
            let error = try #require(throws: FencesimError.self) { try TestData.read(path) }
            #expect(error.code == .badData)
            #expect(error.message.hasPrefix("no fixes: the GPX has no track, route or waypoint points"), "\(error.message)")
            #expect(error.location?.line == 1)
        }
    }

    @Test(
        "an impossible <ele> is refused in strict mode and dropped with a warning under --lenient (issue 21)",
        arguments: [
            ("nan", "altitude is NaN, not a number"), ("1e999", "altitude inf m is out of range"),
            ("-1e308", "altitude -1e+308 m is out of range"), ("100001", "altitude 100001.0 m is out of range"),
        ])
    func impossibleElevation(_ ele: String, _ message: String) throws {
        let text =
            "<gpx version=\"1.1\"><trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><ele>\(ele)</ele><time>2026-01-01T00:00:00Z</time></trkpt>\n</trkseg></trk></gpx>\n"
        let path = TestData.write(text, named: "ele.gpx")
        let error = TestData.error(reading: path)
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
        #expect(error?.location?.line == 2)
        let (fixes, stats) = try TestData.read(path, TraceReadOptions(lenient: true))
        #expect(fixes.count == 1)
        #expect(fixes.first?.altitudeMeters == nil)
        #expect(stats.warnings.first?.message.hasSuffix("; value ignored") == true)
    }

    @Test("altitudes at the ends of the plausible range are kept")
    func plausibleElevation() throws {
        let text =
            "<gpx version=\"1.1\"><trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><ele>-12000</ele></trkpt><trkpt lat=\"1\" lon=\"2\"><ele>100000</ele></trkpt>\n</trkseg></trk></gpx>\n"
        let (fixes, _) = try TestData.read(TestData.write(text, named: "ele.gpx"), TraceReadOptions(lenient: true))
        #expect(fixes.map(\.altitudeMeters) == [-12_000, 100_000])
    }

    @Test("UTF-16 and byte-order marks")
    func encodings() throws {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1.5\" lon=\"2\"><name>Zürich</name></trkpt></trkseg></trk></gpx>\n"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let path = TestData.write(utf16, named: "utf16.gpx")
        let (fixes, _) = try TestData.read(path)
        #expect(fixes.map(\.latitude) == [1.5])
        let bom = TestData.write([0xEF, 0xBB, 0xBF] + Array("<gpx><wpt lat=\"3\" lon=\"4\"/></gpx>".utf8), named: "bom.gpx")
        #expect(try TestData.read(bom).fixes.map(\.longitude) == [4])
        #expect(try TraceFormat.detect(path: bom) == .gpx)
    }

    @Test("an empty <ele> or <time> is absent, not an error")
    func emptyElements() throws {
        let path = TestData.write(
            "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><ele></ele><time> </time></trkpt></trkseg></trk></gpx>",
            named: "blank.gpx")
        let (fixes, _) = try TestData.read(path)
        #expect(fixes[0].altitudeMeters == nil)
        #expect(fixes[0].time == nil)
    }

    @Test("a gzip-compressed GPX")
    func gzipped() throws {
        let text = "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/><trkpt lat=\"3\" lon=\"4\"/></trkseg></trk></gpx>"
        let path = TestData.write(Gzip.compress(Array(text.utf8)), named: "track.gpx.gz")
        #expect(try TestData.read(path).fixes.count == 2)
    }

    @Test(
        "real files: Apple Health extensions, extensions without namespaces, GPX 1.0 hdop and sat",
        .enabled(if: TestData.isAvailable, "the shared data (../shared/data) is absent; skipped"))
    func realExtensions() throws {
        let apple = try TestData.read(TestData.path("togeojson/test/data/apple_watch_route.gpx")).fixes
        #expect(apple.first?.speedMetersPerSecond == 1.310662)
        #expect(apple.first?.courseDegrees == 101.747269)
        #expect(apple.first?.accuracyMeters == 1.801682)
        let unprefixed = try TestData.read(TestData.path("gpxpy/test_files/gpx1.1_with_extensions_without_namespaces.gpx")).fixes
        #expect(unprefixed.count == 1)
        let dop = try TestData.read(TestData.path("gpsbabel/reference/dop-test.gpx")).fixes
        #expect(dop.map(\.hdop) == [50.5, 6.9, 2.0])
        #expect(dop.map(\.satellites) == [8, 8, 8])
    }
}

extension GPXReaderTests {
    @Test("an undeclared namespace prefix does not stop the read")
    func undeclaredPrefix() throws {
        let text =
            "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>2.5</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions></trkpt></trkseg></trk></gpx>"
        let path = TestData.write(text, named: "undeclared.gpx")
        let (fixes, _) = try TestData.read(path)
        #expect(fixes.map(\.speedMetersPerSecond) == [2.5])
    }
}
