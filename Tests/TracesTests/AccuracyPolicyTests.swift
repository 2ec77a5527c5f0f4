import Support
import Testing

@testable import Traces

/// The accuracy policy (SPEC §1.1): reported accuracy, else HDOP × UERE, else the default, and
/// which rule applied is recorded.
@Suite("Accuracy policy")
struct AccuracyPolicyTests {
    static let csv = """
        lat,lon,time,accuracy,hdop
        1,2,2020-01-01T00:00:00Z,4.5,2
        1,2,2020-01-01T00:00:01Z,,2
        1,2,2020-01-01T00:00:02Z,,
        1,2,2020-01-01T00:00:03Z,0.0,3
        1,2,2020-01-01T00:00:04Z,-1,
        1,2,2020-01-01T00:00:05Z,,0

        """

    @Test("reported wins, then hdop × UERE, then the default; the rule is recorded")
    func policy() throws {
        let path = TestData.write(Self.csv, named: "accuracy.csv")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.map(\.accuracyMeters) == [4.5, 10, 10, 15, 10, 10])
        #expect(fixes.map(\.accuracySource) == [.reported, .hdop, .default, .hdop, .default, .default])
        #expect(stats.accuracySources == [.reported: 1, .hdop: 2, .default: 3])
        // A non-positive reported accuracy (POSMO writes 0.0) falls back, with a warning.
        #expect(stats.warningCounts == ["accuracy-not-positive": 2, "hdop-not-positive": 1])
        #expect(
            stats.warnings[0].description == "\(path):5:26: warning: reported accuracy 0.0 m is not positive; using hdop × UERE (15.0 m)")
        #expect(fixes[0].hdop == 2)
    }

    @Test("UERE and default accuracy options are honoured")
    func options() throws {
        let path = TestData.write(Self.csv, named: "accuracy.csv")
        let (fixes, _) = try TestData.read(path, TraceReadOptions(uere: 3, defaultAccuracy: 25))
        #expect(fixes.map(\.accuracyMeters) == [4.5, 6, 25, 9, 25, 25])
    }

    @Test("GPX: Apple Health hAcc is reported and wins over hdop; hdop × UERE otherwise")
    func gpx() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg>
            <trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time><hdop>4</hdop><extensions><hAcc>3.25</hAcc><vAcc>9</vAcc></extensions></trkpt>
            <trkpt lat="1" lon="2"><time>2020-01-01T00:00:01Z</time><hdop>4</hdop></trkpt>
            <trkpt lat="1" lon="2"><time>2020-01-01T00:00:02Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        let path = TestData.write(text, named: "accuracy.gpx")
        let (fixes, stats) = try TestData.read(path, TraceReadOptions(uere: 6))
        #expect(fixes.map(\.accuracyMeters) == [3.25, 24, 10])
        #expect(fixes.map(\.accuracySource) == [.reported, .hdop, .default])
        #expect(stats.accuracySources == [.reported: 1, .hdop: 1, .default: 1])
    }

    @Test("NMEA: GGA HDOP × UERE")
    func nmea() throws {
        let text = """
            $GPRMC,032908.379,A,4231.8291,N,08807.3033,W,0.17,138.92,070804,,*12
            $GPGGA,032908.379,4231.8291,N,08807.3033,W,1,05,1.6,209.8,M,-34.2,M,0.0,0000*46

            """
        let path = TestData.write(text, named: "accuracy.nmea")
        let (fixes, _) = try TestData.read(path)
        #expect(fixes.count == 1)
        #expect(fixes[0].accuracySource == .hdop)
        #expect(fixes[0].accuracyMeters == 1.6 * 5)
    }

    @Test(
        "real data: Apple Watch export reports accuracy; MTK logger has HDOP; a bare track gets the default",
        .enabled(if: TestData.isAvailable, "the shared data (../shared/data) is absent; skipped"))
    func realData() throws {
        let apple = try TestData.read(TestData.path("togeojson/test/data/apple_watch_route.gpx")).statistics
        #expect(apple.accuracySources == [.reported: 44])
        let mtk = try TestData.read(TestData.path("gpsbabel/reference/track/mtk_logger_m241.csv"), TraceReadOptions(lenient: true))
            .statistics
        #expect(mtk.accuracySources == [.hdop: mtk.fixesAccepted])
        let bare = try TestData.read(TestData.path("gpsbabel/reference/track/tracks.gpx")).statistics
        #expect(bare.accuracySources == [.default: 64])
        let posmo = try TestData.read(TestData.path("trackintel/examples/data/posmo_trajectory.csv"), TraceReadOptions(lenient: true))
            .statistics
        #expect(posmo.warningCounts["accuracy-not-positive"] == posmo.accuracySources[.default])
    }
}
