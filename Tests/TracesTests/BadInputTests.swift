import Foundation
import Support
import Testing

@testable import Traces

/// Bad input of every kind the readers accept: each fails (or warns) with the right code, a
/// located message, and says what is wrong.
@Suite("Bad input")
struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        var bytes: [UInt8]
        var lenient = false
        var code: FencesimError.Code = .badData
        /// `line:col` (or `line`) expected right after the file name.
        var location: String
        var message: String
        var testDescription: String { name }

        init(
            _ name: String, _ file: String, _ text: String, lenient: Bool = false, code: FencesimError.Code = .badData, at location: String,
            _ message: String
        ) {
            self.init(name, file, Array(text.utf8), lenient: lenient, code: code, at: location, message)
        }

        init(
            _ name: String, _ file: String, _ bytes: [UInt8], lenient: Bool = false, code: FencesimError.Code = .badData,
            at location: String, _ message: String
        ) {
            self.name = name
            self.file = file
            self.bytes = bytes
            self.lenient = lenient
            self.code = code
            self.location = location
            self.message = message
        }
    }

    static let garbage: [UInt8] = {
        var random = SplitMix64(seed: 42)
        return (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }()

    static let cases: [Case] = [
        Case(
            "truncated XML", "truncated.gpx",
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><time>2020",
            at: "4:", "the XML ends before the document is complete"),
        Case(
            "mismatched XML tags", "mismatch.gpx", "<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"></trkseg>\n</gpx>\n",
            at: "3:", "does not match"),
        Case(
            "GPX processing instruction without data", "pi.gpx", "<?x?>\n<gpx version=\"1.1\"/>\n", at: "1:1",
            "the processing instruction <?x?> has no data"),
        Case(
            "GPX processing instruction without data, later", "pi-late.gpx",
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n  <?xml-stylesheet?></gpx>\n", at: "3:3", "<?xml-stylesheet?> has no data"),
        Case(
            "GPX processing instruction without data, UTF-16", "pi-utf16.gpx",
            [0xFF, 0xFE] + "<gpx version=\"1.1\">\n<?x?></gpx>\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, at: "2:1",
            "<?x?> has no data"),
        Case(
            "XML that is not GPX", "route.kml", "<?xml version=\"1.0\"?>\n<kml><Document/></kml>\n", at: "2:",
            "root element is <kml>, not <gpx>"),
        Case(
            "GPX point without lat", "nolat.gpx",
            "<gpx version=\"1.1\"><trk><trkseg>\n<trkpt lon=\"2\"><time>2020-01-01T00:00:00Z</time></trkpt>\n</trkseg></trk></gpx>\n",
            at: "2:", "the point has no lat attribute"),
        Case(
            "GPX undefined coordinates", "undefined.gpx",
            "<gpx version=\"1.0\">\n<trk><trkseg>\n<trkpt lat=\"undefined\" lon=\"undefined\"/>\n</trkseg></trk></gpx>\n",
            at: "3:", "latitude (lat) 'undefined' is not a number"),
        Case(
            "GPX unparsable time", "badtime.gpx",
            "<gpx version=\"1.1\"><trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><time>yesterday</time></trkpt>\n</trkseg></trk></gpx>\n",
            at: "2:", "time 'yesterday' is not an ISO-8601 date-time"),
        Case(
            "CSV without a latitude column", "missing.csv", "time,lon\n2020-01-01T00:00:00Z,5\n", at: "1:1",
            "no latitude column in the header"),
        Case(
            "CSV mapping names an absent column", "mapped.csv", "a,b\n1,2\n", at: "1:1",
            "no column 'Y' (mapped to lat) in the header; the columns are: a, b"),
        Case("CSV NaN latitude", "nan.csv", "lat,lon,time\nNaN,5,2020-01-01T00:00:00Z\n", at: "2:1", "latitude is NaN, not a number"),
        Case(
            "CSV latitude out of range", "trace.csv", "time,lon,lat\n2020-01-01T00:00:00Z,5,10\n2020-01-01T00:00:01Z,5.1,91.5\n",
            at: "3:26", "latitude 91.5 is out of range [-90, 90]"),
        Case("CSV longitude out of range", "lon.csv", "lat,lon\n10,-180.5\n", at: "2:4", "longitude -180.5 is out of range [-180, 180]"),
        Case(
            "CSV undefined coordinate", "undefined.csv", "lat;lon\nundefined;undefined\n", at: "2:1", "latitude 'undefined' is not a number"
        ),
        Case("CSV empty coordinate", "empty-field.csv", "lat,lon,time\n,5,2020-01-01T00:00:00Z\n", at: "2:1", "latitude is empty"),
        Case("CSV short row", "short.csv", "time,lat,lon\n2020-01-01T00:00:00Z,5\n", at: "2:", "no longitude (column 3)"),
        Case(
            "CSV unparsable time", "time.csv", "lat,lon,time\n1,2,yesterday\n", at: "2:5",
            "time 'yesterday' is not an ISO-8601 date-time or an epoch number"),
        Case("CSV impossible date", "date.csv", "lat,lon,time\n1,2,2021-02-30T00:00:00Z\n", at: "2:5", "time '2021-02-30T00:00:00Z'"),
        Case("CSV time of day without date", "tod.csv", "lat,lon,time\n1,2,12:00:00\n", at: "2:5", "a time of day without a date"),
        Case(
            "CSV time going backwards", "back.csv", "lat,lon,time\n1,2,2020-01-01T00:00:10Z\n1,2,2020-01-01T00:00:05Z\n",
            at: "3:5", "time 2020-01-01T00:00:05Z is earlier than 2020-01-01T00:00:10Z of the previous fix (line 2)"),
        Case(
            "CSV duplicate time", "dup.csv", "lat,lon,time\n1,2,1577836800\n1,2,1577836800\n",
            at: "3:5", "time 2020-01-01T00:00:00Z is the same as that of the previous fix (line 2)"),
        Case("CSV unparsable speed", "speed.csv", "lat,lon,speed\n1,2,fast\n", at: "2:5", "speed 'fast' is not a number"),
        Case(
            "CSV unknown unit", "unit.csv", "lat,lon,speed\n1,2,3 furlongs\n", at: "2:7",
            "speed '3 furlongs' has an unknown unit 'furlongs'"),
        Case(
            "NMEA bad checksum", "bad.nmea",
            "$GPRMC,032908.379,A,4231.8291,N,08807.3033,W,0.17,138.92,070804,,*13\n", at: "1:66",
            "checksum mismatch: the sentence says *13 but its bytes give *12"),
        Case(
            "NMEA truncated sentence", "cut.nmea",
            "$GPRMC,032908.379,A,4231.8291,N,08807.3033,W,0.17,138.92,070804,,*12\n$GPRMC,032909.379,A,4231.82", at: "2:",
            "the sentence has no checksum"),
        Case(
            "NMEA bad time of day", "time.nmea", "$GPRMC,25xx08,A,4231.8291,N,08807.3033,W,0.17,138.92,070804,,\n", at: "1:8",
            "time of day '25xx08' is not hhmmss[.sss]"),
        Case(
            "NMEA garbage line", "junk.nmea", "$GPRMC,032908.379,A,4231.8291,N,08807.3033,W,0.17,138.92,070804,,*12\nhello\n", at: "2:1",
            "not an NMEA sentence: 'hello'"),
        Case("PLT without its header", "walk.plt", "39.9,116.3,0,492,39744.12,2008-10-23,02:53:04\n", at: "1:1", "not a GeoLife PLT file"),
        Case("zero-byte file", "empty.gpx", "", at: "1:1", "empty file"),
        Case("white space only", "blank.csv", "  \n\n", at: "1:1", "only white space"),
        Case("binary garbage", "garbage.csv", garbage, at: "1:", "binary data"),
        Case("Takeout JSON", "Records.json", "{\"timelineObjects\": [{\"placeVisit\": {}}]}", at: "1:1", "not a fix log"),
        Case("other JSON", "trace.json", "[1, 2, 3]", at: "1:1", "JSON, which is not a supported trace format"),
        Case(
            "truncated gzip", "trace.csv.gz", Array(Gzip.compress(Array("lat,lon\n1,2\n".utf8)).dropLast(12)), at: "",
            "gzip data is truncated"),
    ]

    @Test("fails with a located, specific error", arguments: cases)
    func fails(_ c: Case) throws {
        let path = TestData.write(c.bytes, named: c.file)
        var options = TraceReadOptions(lenient: c.lenient)
        if c.file == "mapped.csv" {
            options.csv.mapping = CSVColumnMapping(columns: [.latitude: .name("Y"), .longitude: .name("X")])
        }
        let error = try #require(TestData.error(reading: path, options))
        #expect(error.code == c.code)
        #expect(error.message.contains(c.message), "\(error)")
        #expect(error.location?.file == path)
        #expect(error.description.hasPrefix("\(path):\(c.location)"), "\(error)")
        #expect(error.description.contains(": error: "))
    }

    @Test("a `<?x?>` in a comment or CDATA is text, and an instruction with data is read")
    func processingInstructionLookalikes() throws {
        let text = """
            <?xml version="1.0"?>
            <?xml-stylesheet href="s.css"?>
            <gpx version="1.1"><!-- <?x?> --><trk><name><![CDATA[<?y?>]]></name><trkseg>
            <trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
            </trkseg></trk></gpx>

            """
        let path = TestData.write(Array(text.utf8), named: "lookalikes.gpx")
        var fixes = 0
        _ = try TraceReader.read(path: path) { _ in fixes += 1 }
        #expect(fixes == 1)
    }

    @Test("a missing file is missing input (exit 66)")
    func missingFile() throws {
        let path = TestData.temporaryDirectory() + "/nowhere.gpx"
        let error = try #require(TestData.error(reading: path))
        #expect(error.code == .missingInput)
        #expect(error.code.exitStatus == 66)
        #expect(error.description.hasPrefix(path + ": error: cannot open"))
    }

    @Test("a directory is refused")
    func directory() throws {
        let path = TestData.temporaryDirectory()
        let error = try #require(TestData.error(reading: path))
        #expect(error.code == .badData)
        #expect(error.message.contains("directory"))
        #expect(error.location?.file == path)
    }

    @Test("strict mode reports every problem: the first as the error, up to 50 more related, then a count")
    func everyProblem() throws {
        var text = "lat,lon,time\n"
        for k in 0..<120 { text += "\(k % 2 == 0 ? "95" : "undefined"),2,2020-01-01T00:00:00Z\n" }
        let path = TestData.write(text, named: "many.csv")
        let error = try #require(TestData.error(reading: path))
        #expect(error.location?.line == 2)
        #expect(error.message == "latitude 95.0 is out of range [-90, 90]")
        let errors = error.related.filter { $0.severity == .error }
        #expect(errors.count == 50)
        #expect(errors.first?.description == "\(path):3:1: error: latitude 'undefined' is not a number")
        #expect(error.related.contains { $0.severity == .note && $0.message == "and 69 more problems" })
        #expect(error.related.last?.message.contains("120 problems refused in strict mode") == true)
    }

    @Test("strict mode delivers nothing after the first problem")
    func nothingAfterProblem() throws {
        let path = TestData.write("lat,lon\n1,2\n99,2\n3,4\n", named: "stop.csv")
        var delivered: [Int] = []
        #expect(throws: FencesimError.self) {
            _ = try TraceReader.read(path: path) { delivered.append($0.line) }
        }
        #expect(delivered == [2])
    }

    @Test("lenient mode drops each bad fix with a counted, located warning")
    func lenientDrops() throws {
        let text = """
            lat,lon,time
            1,2,2020-01-01T00:00:10Z
            NaN,2,2020-01-01T00:00:11Z
            91.5,2,2020-01-01T00:00:12Z
            undefined,2,2020-01-01T00:00:13Z
            1,2,yesterday
            1,2,2020-01-01T00:00:05Z
            1,2,2020-01-01T00:00:10Z
            1.0001,2,2020-01-01T00:00:20Z

            """
        let path = TestData.write(text, named: "mixed.csv")
        let (fixes, stats) = try TestData.read(path, TraceReadOptions(lenient: true))
        #expect(fixes.map(\.line) == [2, 9])
        #expect(stats.pointsRead == 8)
        #expect(stats.dropped == ["invalid-coordinate": 3, "bad-time": 1, "time-backwards": 1, "duplicate-time": 1])
        #expect(stats.warningCounts == stats.dropped)
        #expect(stats.warnings.map { $0.location?.line } == [3, 4, 5, 6, 7, 8])
        #expect(stats.warnings[1].description == "\(path):4:1: warning: latitude 91.5 is out of range [-90, 90]; fix dropped")
        #expect(stats.warnings[4].description.contains("is earlier than 2020-01-01T00:00:10Z of the previous fix (line 2); fix dropped"))
    }

    @Test("lenient mode keeps a fix whose optional value is unreadable, and says so")
    func lenientValue() throws {
        let path = TestData.write("lat,lon,speed,altitude\n1,2,fast,12 ft\n", named: "value.csv")
        let (fixes, stats) = try TestData.read(path, TraceReadOptions(lenient: true))
        #expect(fixes.count == 1)
        #expect(fixes[0].speedMetersPerSecond == nil)
        #expect(fixes[0].altitudeMeters == 12 * 0.3048)
        #expect(stats.warnings.map(\.description) == ["\(path):2:5: warning: speed 'fast' is not a number; value ignored"])
    }

    @Test("NMEA bad checksum in lenient mode: warned, sentence skipped")
    func nmeaChecksumLenient() throws {
        let text = """
            $GPRMC,032908.379,A,4231.8291,N,08807.3033,W,0.17,138.92,070804,,*13
            $GPRMC,032909.379,A,4231.8291,N,08807.3034,W,0.18,145.85,070804,,*17

            """
        let path = TestData.write(text, named: "lenient.nmea")
        let (fixes, stats) = try TestData.read(path, TraceReadOptions(lenient: true))
        #expect(fixes.count == 1)
        #expect(stats.pointsRead == 1)
        #expect(stats.skipped == ["bad-checksum": 1])
        #expect(stats.warnings.first?.description.hasPrefix("\(path):1:66: warning: checksum mismatch") == true)
        #expect(stats.warnings.first?.message.hasSuffix("; record skipped") == true)
    }

    @Test("a failing consumer stops the read with its error")
    func consumerError() throws {
        let path = TestData.write("lat,lon\n1,2\n3,4\n", named: "stop.csv")
        var seen = 0
        do {
            _ = try TraceReader.read(path: path) { _ throws(FencesimError) in
                seen += 1
                throw FencesimError(.io, "consumer full")
            }
            Issue.record("expected the consumer's error")
        } catch {
            #expect(error.message == "consumer full")
        }
        #expect(seen == 1)
    }
}
