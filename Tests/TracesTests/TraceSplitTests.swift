import Support
import Testing

@testable import Traces

/// A CSV holding several devices: one trace per value of its trace column, read one at a time.
@Suite("Traces of a multi-device CSV")
struct TraceSplitTests {
    /// Two devices whose rows alternate (each row's time is another device's time too).
    static let interleaved = """
        uid,lat,lon,time
        a,47.0,8.0,2026-01-01T00:00:00Z
        b,48.0,9.0,2026-01-01T00:00:00Z
        a,47.0001,8.0,2026-01-01T00:00:01Z
        b,48.0001,9.0,2026-01-01T00:00:01Z
        a,47.0002,8.0,2026-01-01T00:00:02Z

        """

    @Test("an id column splits the file; interleaved rows are each read with their own trace")
    func interleavedRowsSplit() throws {
        let path = TestData.write(Self.interleaved, named: "devices.csv")
        let split = try #require(try TraceReader.traces(path: path))
        #expect(split.column == "uid")
        #expect(split.traces.map(\.id) == ["a", "b"])
        #expect(split.traces.map(\.rows) == [3, 2])
        #expect(split.traces.map(\.interleaved) == [true, true])
        #expect(split.traces[0].firstLine == 2 && split.traces[0].lastLine == 6)
        var options = TraceReadOptions()
        options.selection = split.traces[0]
        let (a, aStats) = try TestData.read(path, options)
        #expect(a.map(\.latitude) == [47.0, 47.0001, 47.0002])
        #expect(aStats.pointsRead == 3)
        options.selection = split.traces[1]
        let (b, _) = try TestData.read(path, options)
        #expect(b.map(\.latitude) == [48.0, 48.0001])
        #expect(b.map(\.line) == [3, 5])
    }

    @Test("--columns trace=NAME names the column; a file with one id, or none, is one trace")
    func mappedColumnAndSingleTrace() throws {
        let cars = TestData.write("car,lat,lon,time\nx,1,2,10\nx,1,2,11\ny,1,2,10\n", named: "cars.csv")
        #expect(try TraceReader.traces(path: cars) == nil)
        var options = TraceReadOptions()
        options.csv.mapping = try CSVColumnMapping(parsing: "trace=car")
        #expect(try TraceReader.traces(path: cars, options: options)?.traces.map(\.id) == ["x", "y"])
        let one = TestData.write("device,lat,lon,time\nx,1,2,10\nx,1,2,11\n", named: "one.csv")
        #expect(try TraceReader.traces(path: one) == nil)
        let gpx = TestData.write("<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>", named: "t.gpx")
        #expect(try TraceReader.traces(path: gpx) == nil)
    }

    @Test("a detected id column that changes on every row numbers rows: not devices")
    func rowNumbersAreNotDevices() throws {
        let path = TestData.write("id,lat,lon,time\n1,1,2,10\n2,1,2,11\n3,1,2,12\n", named: "rows.csv")
        #expect(try TraceReader.traces(path: path) == nil)
        // Read whole, the column does not cut the trace into one segment per row.
        let (fixes, _) = try TestData.read(path)
        #expect(fixes.count == 3)
    }

    @Test("trajectory_id wins over a row id")
    func trajectoryOverRowID() throws {
        let path = TestData.write(
            "X;Y;fid;id;trajectory_id;t\n8;47;1;1;1;2020-01-01 00:00:00+00\n8;47;2;2;1;2020-01-01 00:00:01+00\n8;47;3;3;2;2019-01-01 00:00:00+00\n",
            named: "mp.csv")
        let split = try #require(try TraceReader.traces(path: path))
        #expect(split.column == "trajectory_id")
        #expect(split.traces.map(\.rows) == [2, 1])
    }
}

@Suite("Row numbers in a long CSV")
struct RowNumberColumnTests {
    @Test("a column whose first 10,000 rows all differ numbers rows, even if a later value repeats")
    func longRowNumberColumn() throws {
        var rows = ["id,lat,lon,time"]
        for k in 0..<10_050 { rows.append("\(k % 10_040),1,2,\(k)") }
        let path = TestData.write(rows.joined(separator: "\n") + "\n", named: "numbered.csv")
        #expect(try TraceReader.traces(path: path) == nil)
        var options = TraceReadOptions()
        options.csv.mapping = try CSVColumnMapping(parsing: "trace=id")
        #expect(try TraceReader.traces(path: path, options: options)?.traces.count == 10_040)
    }
}

@Suite("Reading one trace of a long multi-device CSV")
struct TraceSeekTests {
    /// Three devices of 40,000 rows each, grouped: the second and third start megabytes in,
    /// past several 1 MiB chunks, and rows straddle chunk ends.
    static func text(lineEnd: String, byteOrderMark: Bool) -> String {
        var rows = [(byteOrderMark ? "\u{FEFF}" : "") + "vehicle,lat,lon,time"]
        for (d, device) in ["north", "centre", "south"].enumerated() {
            for k in 0..<40_000 {
                rows.append("\(device),\(10 + d).\(String(format: "%07d", k)),20.5,\(1_000_000 + k)")
            }
        }
        return rows.joined(separator: lineEnd) + lineEnd
    }

    @Test("a plain file read from each id's first row gives what reading from the start gives", arguments: [("\n", false), ("\r\n", true)])
    func seekMatchesAScan(lineEnd: String, byteOrderMark: Bool) throws {
        let text = Self.text(lineEnd: lineEnd, byteOrderMark: byteOrderMark)
        let plain = TestData.write(text, named: "fleet.csv")
        let gzipped = TestData.write(Gzip.compress(Array(text.utf8)), named: "fleet.csv.gz")
        let split = try #require(try TraceReader.traces(path: plain))
        #expect(split.traces.map(\.id) == ["north", "centre", "south"])
        #expect(split.traces.allSatisfy { !$0.interleaved })
        let zipped = try #require(try TraceReader.traces(path: gzipped))
        #expect(zipped.traces.map(\.firstOffset) == split.traces.map(\.firstOffset))
        for (d, selection) in split.traces.enumerated() {
            var options = TraceReadOptions()
            options.selection = selection
            let (fixes, statistics) = try TestData.read(plain, options)
            #expect(fixes.count == 40_000)
            #expect(statistics.pointsRead == 40_000)
            #expect(fixes.first?.latitude == Double(10 + d))
            #expect(fixes.last?.latitude == Double("\(10 + d).0039999"))
            #expect(fixes.first?.line == selection.firstLine)
            #expect(fixes.last?.line == selection.lastLine)
            // gzip cannot seek: it is inflated from the start, to the same fixes.
            options.selection = zipped.traces[d]
            let (inflated, _) = try TestData.read(gzipped, options)
            #expect(inflated == fixes)
        }
    }
}
