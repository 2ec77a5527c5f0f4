import Support
import Testing
@testable import Traces

/// GeoLife PLT.
@Suite("PLT reader")
struct PLTReaderTests {
    static let header = "Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,My Track,0,0,2,8421376\n0\n"

    @Test("six header lines, then lat, lon, 0, feet, days, date, time")
    func read() throws {
        let text = Self.header + "39.984702,116.318417,0,492,39744.1201851852,2008-10-23,02:53:04\n39.984683,116.31845,0,-777,39744.1202546296,2008-10-23,02:53:10\n40.0,116.3,0,100,39744.5,,\n"
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
}
