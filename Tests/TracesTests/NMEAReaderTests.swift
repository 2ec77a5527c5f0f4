import Support
import Testing

@testable import Traces

/// NMEA 0183: RMC/GGA merging, talkers, invalid fixes, dates.
@Suite("NMEA reader")
struct NMEAReaderTests {
    /// Appends `*hh` to a sentence body (`$` included).
    static func sentence(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8.dropFirst() { checksum ^= byte }
        let hex = String(checksum, radix: 16, uppercase: true)
        return body + "*" + (hex.count == 1 ? "0" + hex : hex)
    }

    @Test("a log of satellites in view and no position sentence holds no fixes: an error, like an empty file (issue 21)")
    func noPositionSentence() {
        let lines = [Self.sentence("$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00"), "", ""]
        let error = TestData.error(
            reading: TestData.write(lines.joined(separator: "\n"), named: "gsv.nmea"), TraceReadOptions(format: .nmea))
        #expect(error?.message == "no fixes: the file holds no RMC or GGA sentence, so there is no trace in it")
        #expect(error?.location?.line == 1)
    }

    @Test("altitude is checked like the other numbers: a GGA altitude of 1e308 is refused at its field (issue 21)")
    func altitudeRange() {
        let lines = [
            Self.sentence("$GPRMC,120000.00,A,4807.038,N,01131.000,E,10.0,90.0,230394,,,A"),
            Self.sentence("$GPGGA,120000.00,4807.038,N,01131.000,E,1,08,0.9,1e308,M,46.9,M,,"),
        ]
        let error = TestData.error(reading: TestData.write(lines.joined(separator: "\n"), named: "alt.nmea"))
        #expect(error?.message == "altitude 1e+308 m is out of range [-12000, 100000] m")
        #expect(error?.location?.line == 2)
        #expect(error?.location?.column == 50)
    }

    @Test("RMC and GGA of the same time merge, in either order; any talker")
    func merge() throws {
        let lines = [
            Self.sentence("$GNRMC,120000.00,A,4807.038,N,01131.000,E,10.0,90.0,230394,,,A"),
            Self.sentence("$GNGGA,120000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            Self.sentence("$GLGGA,120001.00,4807.040,N,01131.010,E,2,09,1.1,546.0,M,46.9,M,,"),
            Self.sentence("$GARMC,120001.00,A,4807.040,N,01131.010,E,11.0,91.0,230394,,,A"),
            Self.sentence("$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00"),
        ]
        let path = TestData.write(lines.joined(separator: "\r\n") + "\r\n", named: "merge.nmea")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.count == 2)
        #expect(fixes[0].time == Timestamp(year: 1994, month: 3, day: 23, hour: 12))
        #expect(abs(fixes[0].latitude - (48 + 7.038 / 60)) < 1e-12)
        #expect(fixes[0].speedMetersPerSecond == 10 * 1852 / 3600.0)
        #expect(fixes[0].courseDegrees == 90)
        #expect(fixes[0].altitudeMeters == 545.4)
        #expect(fixes[0].satellites == 8)
        #expect(fixes[0].hdop == 0.9)
        #expect(fixes[1].hdop == 1.1)
        #expect(fixes.map(\.line) == [1, 3])
        #expect(stats.dialect == "NMEA 0183")
        #expect(stats.pointsRead == 2)
    }

    @Test("status V and fix quality 0 are invalid fixes: counted, not points, not problems")
    func invalidFixes() throws {
        let lines = [
            Self.sentence("$GPRMC,095255.810,V,2712.6404,S,15303.1201,E,0.00,0.00,080407,,,A"),
            Self.sentence("$GPGGA,095257.809,2712.6404,S,15303.1201,E,0,00,00.0,4.0,M,42.2,M,,"),
            Self.sentence("$GPGGA,095304.802,2712.6520,S,15303.1397,E,1,00,17.0,3.0,M,42.2,M,,"),
            Self.sentence("$GPRMC,095304.802,A,2712.6520,S,15303.1397,E,0.00,133.96,080407,,,A"),
        ]
        let path = TestData.write(lines.joined(separator: "\n"), named: "acquiring.log")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.count == 1)
        #expect(fixes[0].latitude < 0)
        #expect(fixes[0].hdop == 17)
        #expect(stats.skipped == ["invalid-fix": 2])
        #expect(stats.warnings.isEmpty)
    }

    @Test("GGA before any RMC has no date: an untimed fix")
    func ggaOnly() throws {
        let lines = [
            "# a comment line, as gpsd captures have",
            Self.sentence("$GPGGA,120000,5013.0,N,01706.2,E,1,05,1.2,250.0,M,40.0,M,,"),
            Self.sentence("$GPGGA,120001,5013.1,N,01706.3,E,1,05,1.2,250.0,M,40.0,M,,"),
        ]
        let path = TestData.write(lines.joined(separator: "\n") + "\n", named: "gga.nmea")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.count == 2)
        #expect(fixes.allSatisfy { $0.time == nil })
        #expect(stats.fixesWithoutTime == 2)
        #expect(stats.pointsWithTime == 0)
    }

    @Test("receiver time formats: no fraction, a bare point, long fractions, padding")
    func timeFormats() throws {
        let lines = ["222507", "222508.", "222509.5", "222510.123456789", " 222511 "].map {
            Self.sentence("$GPRMC,\($0),A,4249.96542,S,14726.73195,E,0.013,,231019,,,A")
        }
        let path = TestData.write(lines.joined(separator: "\n"), named: "times.nmea")
        let (fixes, _) = try TestData.read(path)
        #expect(fixes.compactMap(\.time).map(\.nanoseconds) == [0, 0, 500_000_000, 123_456_789, 0])
        #expect(fixes.compactMap(\.time).map { $0.seconds % 60 } == [7, 8, 9, 10, 11])
    }

    @Test("MANIFEST rules on the real logs", .enabled(if: TestData.isAvailable, "the shared data (../shared/data) is absent; skipped"))
    func realLogs() throws {
        // The log opens with a GGA before its RMC: one untimed fix, then 154 RMC fixes.
        let nmea = try TestData.read(TestData.path("gpsbabel/reference/track/nmea")).statistics
        #expect((nmea.pointsRead, nmea.pointsWithTime, nmea.fixesWithoutTime) == (155, 154, 1))
        // Receivers' odd time fields: six malformed sentences are skipped (lenient), 16 fixes remain.
        let odd = try TestData.read(TestData.path("gpsbabel/reference/track/nmeadatetime.nmea"), TraceReadOptions(lenient: true)).statistics
        #expect(odd.pointsRead == 16)
        #expect(odd.skipped == ["bad-time": 6])
        // gpsd: 6 V RMCs and 5 quality-0 GGAs while acquiring.
        let haicom = try TestData.read(TestData.path("gpsd/test/daemon/haicom-305N.log")).statistics
        #expect(haicom.skipped == ["invalid-fix": 11])
        // Out-of-order millisecond sentences: the lone GGAs whose RMC went by are counted.
        let ms = try TestData.read(TestData.path("gpsbabel/reference/track/nmea+ms.txt"), TraceReadOptions(lenient: true)).statistics
        #expect(ms.pointsRead == 31)
        #expect(ms.skipped["unpaired-gga"] != nil)
    }
}
