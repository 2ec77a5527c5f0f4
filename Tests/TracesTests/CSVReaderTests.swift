import Support
import Testing

@testable import Traces

/// CSV layouts: column mappings, delimiters, epoch units, hemispheres, units, dialects, gzip.
@Suite("CSV reader")
struct CSVReaderTests {
    // MARK: Column mapping text

    @Test("a mapping parses from command-line text")
    func mappingParse() throws {
        let mapping = try CSVColumnMapping(parsing: "lat=Y, lon=X ,time=t,speed=SPEED:kmh,altitude=3:ft,accuracy=\"acc, m\"")
        #expect(mapping.columns[.latitude] == .name("Y"))
        #expect(mapping.columns[.longitude] == .name("X"))
        #expect(mapping.columns[.time] == .name("t"))
        #expect(mapping.columns[.speed] == .name("SPEED"))
        #expect(mapping.columns[.altitude] == .index(3))
        #expect(mapping.speedUnit == .kilometersPerHour)
        #expect(mapping.altitudeUnit == .feet)
        #expect(mapping.columns[.accuracy] == .name("acc, m"))
    }

    @Test("mapping aliases, quoted names, time formats and the header switch")
    func mappingVariants() throws {
        let mapping = try CSVColumnMapping(
            parsing: "latitude=2,lng=1,time=\"Lcl Time\":iso8601,date=\"Lcl Date\",utcoffset=UTCOfst,speed=GndSpd:kn,header=yes")
        #expect(mapping.columns[.latitude] == .index(2))
        #expect(mapping.columns[.longitude] == .index(1))
        #expect(mapping.columns[.time] == .name("Lcl Time"))
        #expect(mapping.columns[.date] == .name("Lcl Date"))
        #expect(mapping.columns[.utcOffset] == .name("UTCOfst"))
        #expect(mapping.timeFormat == .iso8601)
        #expect(mapping.speedUnit == .knots)
        #expect(mapping.hasHeader == true)
        #expect(try CSVColumnMapping(parsing: "lat=1,lon=2,time=3:ms,header=no").timeFormat == .epochMilliseconds)
    }

    struct BadMapping: Sendable, CustomTestStringConvertible {
        var text: String
        var column: Int
        var message: String
        var testDescription: String { text }
    }

    static let badMappings: [BadMapping] = [
        BadMapping(text: "lattitude=Y", column: 1, message: "unknown field 'lattitude'"),
        BadMapping(text: "lat=Y,lon", column: 10, message: "expected '=' after 'lon'"),
        BadMapping(text: "lat=Y,lon=", column: 11, message: "no column given for 'lon'"),
        BadMapping(text: "lat=Y,lon=X,speed=S:furlongs", column: 21, message: "unknown speed unit 'furlongs'"),
        BadMapping(text: "lat=0,lon=1", column: 5, message: "column index must be 1 or more"),
        BadMapping(text: "lat=Y,lat=Z", column: 7, message: "field 'lat' is mapped twice"),
        BadMapping(text: "lat=Y:kmh", column: 7, message: "field 'lat' takes no unit"),
        BadMapping(text: "", column: 1, message: "the column mapping is empty"),
        BadMapping(text: "lat=\"Y", column: 5, message: "unterminated quoted column name"),
        BadMapping(text: "time=t:fortnights", column: 8, message: "unknown time format 'fortnights'"),
    ]

    @Test("bad mapping text fails with the column of the problem", arguments: badMappings)
    func mappingErrors(_ bad: BadMapping) throws {
        do {
            _ = try CSVColumnMapping(parsing: bad.text)
            Issue.record("expected an error for \(bad.text)")
        } catch {
            #expect(error.code == .usage)
            #expect(error.code.exitStatus == 64)
            #expect(error.message.contains(bad.message), "\(error)")
            #expect(error.description.hasPrefix("--columns:1:\(bad.column): error: "), "\(error)")
        }
    }

    // MARK: Mapping in use

    @Test("an explicit mapping overrides header detection")
    func mappingOverrides() throws {
        // The header has lat/lon, but the mapping points at the corrected columns.
        let text = "lat,lon,lat_fixed,lon_fixed,when,date\n0,0,48.1,11.5,1577836800,x\n0,0,48.2,11.6,1577836801,y\n"
        let path = TestData.write(text, named: "override.csv")
        var options = TraceReadOptions()
        options.csv.mapping = try CSVColumnMapping(parsing: "lat=lat_fixed,lon=4,time=when")
        let (fixes, _) = try TestData.read(path, options)
        #expect(fixes.map(\.latitude) == [48.1, 48.2])
        #expect(fixes.map(\.longitude) == [11.5, 11.6])
        #expect(fixes.map { $0.time?.seconds } == [1_577_836_800, 1_577_836_801])
        // Without the mapping the header's own lat/lon are used, and `date` is taken as the time.
        let error = try #require(TestData.error(reading: path))
        #expect(error.message == "time 'x' is not an ISO-8601 date-time or an epoch number: expected 4 digits of year")
        let (plain, _) = try TestData.read(path, TraceReadOptions(lenient: true))
        #expect(plain.isEmpty)
    }

    @Test("a file without header is read by column numbers")
    func headerless() throws {
        let path = TestData.write("1577836800123,48.1,11.5,7\n1577836801123,48.2,11.6,8\n", named: "bare.csv")
        var options = TraceReadOptions()
        options.csv.mapping = try CSVColumnMapping(parsing: "time=1,lat=2,lon=3,accuracy=4")
        let (fixes, stats) = try TestData.read(path, options)
        #expect(fixes.count == 2)
        #expect(fixes[0].line == 1)
        #expect(fixes[0].time == Timestamp(seconds: 1_577_836_800, nanoseconds: 123_000_000))
        #expect(fixes[1].accuracyMeters == 8)
        #expect(stats.pointsRead == 2)
    }

    @Test("speed and altitude units from the mapping")
    func mappingUnits() throws {
        let path = TestData.write("lat,lon,SPEED,ALT\n1,2,36,100\n", named: "units.csv")
        var options = TraceReadOptions()
        options.csv.mapping = try CSVColumnMapping(parsing: "speed=SPEED:kmh,altitude=ALT:ft")
        let (fixes, _) = try TestData.read(path, options)
        #expect(fixes[0].speedMetersPerSecond == 36 / 3.6)
        #expect(fixes[0].altitudeMeters == 100 * 0.3048)
    }

    // MARK: Delimiters and headers

    @Test("the delimiter is detected", arguments: [",", ";", "\t", "|"])
    func delimiter(_ delimiter: String) throws {
        let text =
            ["Latitude", "Longitude", "Timestamp"].joined(separator: delimiter) + "\n"
            + ["48.1", "11.5", "2020-01-01T00:00:00Z"].joined(separator: delimiter) + "\n"
        let path = TestData.write(text, named: "delimited.txt")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.count == 1)
        #expect(fixes[0].latitude == 48.1)
        #expect(stats.format == .csv)
        #expect(stats.dialect == "CSV " + (delimiter == "\t" ? "tab" : "'\(delimiter)'"))
    }

    @Test("an explicit delimiter wins over detection")
    func explicitDelimiter() throws {
        // Detection would pick ',' (three of them in the header against two ';').
        let path = TestData.write("lat;lon;a,b,c,d\n1;2;x\n", named: "semi.csv")
        let (fixes, _) = try TestData.read(path, TraceReadOptions(csv: CSVOptions(delimiter: UInt8(ascii: ";"))))
        #expect(fixes.map(\.longitude) == [2])
        #expect(throws: FencesimError.self) { try TestData.read(path) }
    }

    @Test("header names are case-insensitive and trimmed; quotes, comments and blank lines are skipped")
    func headerNames() throws {
        let text = """
            # exported by a test
            # second comment

             "LAT" , "Lng" ,"DateTime","Horizontal_Accuracy","Bearing","Elevation","Sats"
            "48.1","11.5","2020-01-01 10:00:00+02:00","5","90","500","7"

            # a comment between rows
            48.2,11.6,2020-01-01T08:00:01Z,,,,

            """
        let path = TestData.write(text, named: "names.csv")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.count == 2)
        #expect(fixes[0].time == Timestamp(year: 2020, month: 1, day: 1, hour: 8))
        #expect(fixes[0].accuracyMeters == 5)
        #expect(fixes[0].courseDegrees == 90)
        #expect(fixes[0].altitudeMeters == 500)
        #expect(fixes[0].satellites == 7)
        #expect(fixes[0].line == 5)
        #expect(fixes[1].line == 8)
        #expect(stats.pointsRead == 2)
    }

    // MARK: Times

    struct EpochCase: Sendable, CustomTestStringConvertible {
        var value: String
        var format: CSVColumnMapping.TimeFormat?
        var seconds: Int64
        var nanoseconds: Int32
        var testDescription: String { "\(value) \(format?.rawValue ?? "auto")" }
    }

    static let epochCases: [EpochCase] = [
        EpochCase(value: "1767225600", format: nil, seconds: 1_767_225_600, nanoseconds: 0),
        EpochCase(value: "1767225600.25", format: nil, seconds: 1_767_225_600, nanoseconds: 250_000_000),
        EpochCase(value: "1767225600123", format: nil, seconds: 1_767_225_600, nanoseconds: 123_000_000),
        EpochCase(value: "1767225600123456", format: nil, seconds: 1_767_225_600, nanoseconds: 123_456_000),
        EpochCase(value: "1767225600123456789", format: nil, seconds: 1_767_225_600, nanoseconds: 123_456_789),
        EpochCase(value: "1767225600", format: .epochMilliseconds, seconds: 1_767_225, nanoseconds: 600_000_000),
        EpochCase(value: "86400", format: .epochSeconds, seconds: 86_400, nanoseconds: 0),
        EpochCase(value: "86400000000", format: .epochMicroseconds, seconds: 86_400, nanoseconds: 0),
        EpochCase(value: "86400000000000", format: .epochNanoseconds, seconds: 86_400, nanoseconds: 0),
    ]

    @Test("epoch times: unit by magnitude, or as the mapping says", arguments: epochCases)
    func epoch(_ c: EpochCase) throws {
        let path = TestData.write("lat,lon,timestamp\n1,2,\(c.value)\n", named: "epoch.csv")
        var options = TraceReadOptions()
        if let format = c.format {
            options.csv.mapping = CSVColumnMapping(timeFormat: format)
        }
        let (fixes, _) = try TestData.read(path, options)
        #expect(fixes.first?.time == Timestamp(seconds: c.seconds, nanoseconds: Int64(c.nanoseconds)))
    }

    @Test("an ISO time refused when the mapping says epoch")
    func forcedEpoch() throws {
        let path = TestData.write("lat,lon,time\n1,2,2020-01-01T00:00:00Z\n", named: "forced.csv")
        var options = TraceReadOptions()
        options.csv.mapping = CSVColumnMapping(timeFormat: .epochSeconds)
        let error = try #require(TestData.error(reading: path, options))
        #expect(error.message == "time '2020-01-01T00:00:00Z' is not an epoch number")
    }

    @Test("separate date and time columns, and a UTC offset column")
    func dateAndTime() throws {
        let text = """
              Lcl Date, Lcl Time, UTCOfst, Latitude, Longitude, GndSpd, AltMSL
            2014-03-29, 22:50:22,  -07:00, 40.2171326, -111.7177124, 10.0, 1000.0

            """
        let path = TestData.write(text, named: "local.csv")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes[0].time == Timestamp(year: 2014, month: 3, day: 30, hour: 5, minute: 50, second: 22))
        let knots: Double = 10 * 1852 / 3600
        #expect(fixes[0].speedMetersPerSecond == knots)  // G1000 GndSpd is in knots
        #expect(fixes[0].altitudeMeters == 1000 * 0.3048)  // and AltMSL in feet
        #expect(stats.dialect == "CSV ',' Garmin G1000")
    }

    @Test("date forms: YYYY/MM/DD, YYMMDD (Columbus), DD.MM.YYYY; time forms: hh:mm:ss.sss, hhmmss")
    func dateForms() throws {
        let text = """
            DATE,TIME,LAT,LON
            2013/04/30,14:23:57,1,2
            250724,173418,1,2
            24.07.2025,17:34:19.500,1,2

            """
        let path = TestData.write(text, named: "dates.csv")
        let (fixes, _) = try TestData.read(path)
        #expect(
            fixes.map(\.time) == [
                Timestamp(year: 2013, month: 4, day: 30, hour: 14, minute: 23, second: 57),
                Timestamp(year: 2025, month: 7, day: 24, hour: 17, minute: 34, second: 18),
                Timestamp(year: 2025, month: 7, day: 24, hour: 17, minute: 34, second: 19, nanosecond: 500_000_000),
            ])
    }

    // MARK: Values

    @Test("hemisphere letters suffixed, prefixed or in their own columns; unit suffixes; NUL and space padding")
    func hemispheresAndUnits() throws {
        let text =
            "INDEX,LAT,N/S,LON,E/W,HEIGHT,SPEED,NSAT\n"
            + "1  ,41.5,S,12.25,W,374.812 m,0.865 km/h,11(12)\n"
            + "2\0\0,41.5 ,N, 12.25,E ,12 ft,3 kn,9\n"
        let path = TestData.write(text, named: "hemi.csv")
        let (fixes, _) = try TestData.read(path)
        #expect(fixes.map(\.latitude) == [-41.5, 41.5])
        #expect(fixes.map(\.longitude) == [-12.25, 12.25])
        let altitudes: [Double?] = [374.812, 12 * 0.3048]
        let speeds: [Double?] = [0.865 / 3.6, 3.0 * 1852 / 3600]
        #expect(fixes.map(\.altitudeMeters) == altitudes)
        #expect(fixes.map(\.speedMetersPerSecond) == speeds)
        #expect(fixes.map(\.satellites) == [11, 9])
        let suffixed = TestData.write("LATITUDE N/S,LONGITUDE E/W\n49.0733336N,125.7648551W\nS33.5,E151.2\n", named: "suffix.csv")
        let (more, _) = try TestData.read(suffixed)
        #expect(more.map(\.latitude) == [49.0733336, -33.5])
        #expect(more.map(\.longitude) == [-125.7648551, 151.2])
    }

    @Test("Columbus and MTK loggers write SPEED in km/h")
    func loggerSpeed() throws {
        let columbus = TestData.write(
            "INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING\n1,T,250724,173418,49.0733336N,125.7648551W,38,36,90\n",
            named: "V1000.CSV")
        let (c, cs) = try TestData.read(columbus)
        #expect(c[0].speedMetersPerSecond == 10)
        #expect(c[0].courseDegrees == 90)
        #expect(cs.dialect == "CSV ',' Columbus V-900/V-1000")
        let mtk = TestData.write(
            "INDEX,RCR,DATE,TIME,VALID,LATITUDE,N/S,LONGITUDE,E/W,HEIGHT,SPEED,\n1,T,2005/05/01,10:12:47,Unknown,51.311770,N,12.413179,E,146,18.0,\n",
            named: "mtk.csv")
        let (m, ms) = try TestData.read(mtk)
        #expect(m[0].speedMetersPerSecond == 5)
        #expect(ms.dialect == "CSV ',' MTK logger")
    }

    @Test("a trajectory column starts a new segment at each change")
    func segments() throws {
        let text =
            "X;Y;trajectory_id;t\n1;2;a;2020-01-01 00:00:00+00\n1;2;a;2020-01-01 00:00:01+00\n1;2;b;2020-01-01 00:00:02+00\n1;2;c;2020-01-01 00:00:03+00\n"
        let path = TestData.write(text, named: "segments.csv")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.map(\.segment) == [0, 0, 1, 2])
        #expect(stats.segments == 3)
        #expect(fixes.map(\.latitude) == [2, 2, 2, 2])  // Y is the latitude when X is there too
    }

    // MARK: gzip

    @Test("a .gz input is inflated on the fly, member after member")
    func gzip() throws {
        let first = Array("lat,lon,time\n1,2,2020-01-01T00:00:00Z\n".utf8)
        let second = Array("1,2.5,2020-01-01T00:00:01Z\n".utf8)
        let path = TestData.write(Gzip.compress(first) + Gzip.compress(second), named: "trace.csv.gz")
        let (fixes, stats) = try TestData.read(path)
        #expect(fixes.map(\.longitude) == [2, 2.5])
        #expect(stats.dialect == "CSV ',' (gzip)")
        #expect(try TraceFormat.detect(path: path) == .csv)
        // The magic bytes decide, not the name.
        let renamed = TestData.write(Gzip.compress(first), named: "trace.txt")
        #expect(try TestData.read(renamed).fixes.count == 1)
    }

    @Test("a large gzip input crosses chunk boundaries")
    func largeGzip() throws {
        var text = "time,lat,lon\n"
        for k in 0..<60_000 { text += "\(1_767_225_600 + k),\(Double(k % 9000) / 100),\(Double(k % 17000) / 100)\n" }
        let path = TestData.write(Gzip.compress(Array(text.utf8)), named: "large.csv.gz")
        var count = 0
        var last: Fix?
        let stats = try TraceReader.read(path: path) { fix in
            count += 1
            last = fix
        }
        #expect(count == 60_000)
        #expect(stats.pointsRead == 60_000)
        #expect(last?.line == 60_001)
        #expect(last?.latitude == Double(59_999 % 9000) / 100)
    }
}
