import Support
import Testing

@testable import Traces

/// GeoLife PLT.
@Suite("PLT reader")
struct PLTReaderTests {
    static let header = "Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,My Track,0,0,2,8421376\n0\n"

    @Test("six header lines, then lat, lon, 0, feet, days, date, time")
    func read() throws {
        let text =
            Self.header
            + "39.984702,116.318417,0,492,39744.1201851852,2008-10-23,02:53:04\n39.984683,116.31845,0,-777,39744.1202546296,2008-10-23,02:53:10\n40.0,116.3,0,100,39744.5,,\n"
        let path = TestData.write(text, named: "20081023025304.plt")
        let (fixes, stats) = try TestData.read(path)
        #expect(stats.format == .plt)
        #expect(fixes.count == 3)
        #expect(fixes[0].line == 7)
        #expect(fixes[0].altitudeMeters == 492 * 0.3048)
        #expect(fixes[1].altitudeMeters == nil)
        #expect(fixes[0].time == Timestamp(year: 2008, month: 10, day: 23, hour: 2, minute: 53, second: 4))
        // Without date and time fields the day count (days since 1899-12-30) gives the time.
        #expect(fixes[2].time == Timestamp(year: 2008, month: 10, day: 23, hour: 12))
    }

    static let row =
        "39.984702,116.318417,0,492,39744.1201851852,2008-10-23,02:53:04\n39.984683,116.31845,0,-777,39744.1202546296,2008-10-23,02:53:10\n"

    @Test("a header cut short loses no fix: data rows are told by their shape (issue 21)", arguments: 1...5)
    func shortHeader(lines: Int) throws {
        let header = Self.header.split(separator: "\n").prefix(lines).joined(separator: "\n") + "\n"
        let path = TestData.write(header + Self.row, named: "short.plt")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.map(\.line) == [lines + 1, lines + 2])
        #expect(stats.warningCounts["short-header"] == 1)
        #expect(stats.warnings.first?.message.contains("the GeoLife header ends at line \(lines)") == true)
    }

    @Test("the full header's fifth line, which starts with two numbers, is not read as a fix")
    func fullHeaderIsNotData() throws {
        let path = TestData.write(Self.header + Self.row, named: "full.plt")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.map(\.line) == [7, 8])
        #expect(stats.warningCounts["short-header"] == nil)
    }

    @Test("a header without data rows is an error at line 1, like an empty file (issue 21)", arguments: [2, 6])
    func headerOnly(lines: Int) throws {
        let header = Self.header.split(separator: "\n").prefix(lines).joined(separator: "\n") + "\n\n\n"
        let error = TestData.error(reading: TestData.write(header, named: "empty.plt"))
        #expect(error?.message.hasPrefix("no fixes") == true)
        #expect(error?.location?.line == 1)
    }

    @Test("altitudes in feet are checked once in metres: -777 is none, 1e308 ft is refused (issue 21)")
    func altitudeRange() throws {
        let text = Self.header + "39.98,116.31,0,1e308,39744.12,2008-10-23,02:53:04\n"
        let error = TestData.error(reading: TestData.write(text, named: "alt.plt"))
        #expect(error?.message.contains("altitude 3.048e+307 m is out of range") == true)
        #expect(error?.location?.column == 16)
    }
}
