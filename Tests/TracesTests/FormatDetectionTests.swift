import Support
import Testing

@testable import Traces

/// Format detection: content first, extension second.
@Suite("Format detection")
struct FormatDetectionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var text: String
        var format: TraceFormat
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(file: "track.txt", text: "<?xml version=\"1.0\"?><gpx/>", format: .gpx),
        Case(file: "track.csv", text: "  \n<gpx version=\"1.0\"></gpx>", format: .gpx),
        Case(file: "capture.txt", text: "# gpsd capture\n$GPGGA,120000,5013.0,N,01706.2,E,1,05,1.2,250.0,M,40.0,M,,*7B\n", format: .nmea),
        Case(file: "capture.csv", text: "$GNRMC,120000.00,A,4807.038,N,01131.000,E,10.0,90.0,230394,,,A\n", format: .nmea),
        Case(file: "trip", text: "Geolife trajectory\nWGS 84\n", format: .plt),
        Case(file: "trip.log", text: "lat,lon\n1,2\n", format: .nmea),
        Case(file: "trip.plt", text: "lat,lon\n1,2\n", format: .plt),
        Case(file: "trip.gpx", text: "lat,lon\n1,2\n", format: .gpx),
        Case(file: "trip.TSV", text: "lat\tlon\n1\t2\n", format: .csv),
        Case(file: "trip.dat", text: "lat,lon\n1,2\n", format: .csv),
        Case(file: "trip.nmea.gz", text: "lat,lon\n1,2\n", format: .nmea),
    ]

    @Test("detects", arguments: cases)
    func detect(_ c: Case) throws {
        let path = TestData.write(c.text, named: c.file)
        #expect(try TraceFormat.detect(path: path) == c.format)
    }

    @Test("extensions")
    func extensions() {
        #expect(TraceFormat(fileExtensionOf: "a/b/c.GPX") == .gpx)
        #expect(TraceFormat(fileExtensionOf: "x.csv.gz") == .csv)
        #expect(TraceFormat(fileExtensionOf: "x.log") == .nmea)
        #expect(TraceFormat(fileExtensionOf: "x.plt") == .plt)
        #expect(TraceFormat(fileExtensionOf: "x.json") == nil)
        #expect(TraceFormat(fileExtensionOf: "README") == nil)
    }

    @Test("the format option overrides detection")
    func forced() throws {
        let path = TestData.write("lat,lon\n1,2\n", named: "trip.nmea")
        let (fixes, stats) = try TestData.read(path, TraceReadOptions(format: .csv))
        #expect(stats.format == .csv)
        #expect(fixes.count == 1)
    }

    @Test(
        "the Takeout JSON is refused whatever its name",
        .enabled(if: TestData.isAvailable, "the shared data (../shared/data) is absent; skipped"))
    func takeout() throws {
        do {
            _ = try TraceFormat.detect(path: TestData.path("gpsbabel/reference/googletakeout/2013/2013_MAY.json"))
            Issue.record("expected a refusal")
        } catch {
            #expect(error.message.hasPrefix("this is a Google Takeout Semantic Location History JSON file, not a fix log"))
        }
    }
}
