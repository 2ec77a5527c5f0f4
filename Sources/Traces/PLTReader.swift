import Support

/// Reads Microsoft GeoLife `.plt` trajectories.
///
/// Six header lines (the first is `Geolife trajectory`), then one fix per line:
/// `latitude,longitude,0,altitude in feet,days since 1899-12-30,date,time` in UTC. An altitude of
/// -777 means none; others are converted to metres. The date and time fields give the time;
/// when they are empty the day count does. A header cut short ends at the first of its lines that
/// has the shape of a fix (``hasFixShape(_:count:_:)``), with a warning, so that no fix is lost.
enum PLTReader {
    static func read(
        path: String, scanner: LineScanner, options: TraceReadOptions, onFix: (Fix) throws(FencesimError) -> Void
    ) throws(FencesimError) -> TraceStatistics {
        var sink = FixSink(file: path, options: options, format: .plt, dialect: "GeoLife PLT")
        let spans = UnsafeMutablePointer<Int>.allocate(capacity: 2 * 8)
        defer { spans.deallocate() }
        // Whether a data row has been met (the header is over).
        var inData = false
        do throws(FencesimError) {
            try scanner.forEachLine { b, start, end, line throws(FencesimError) -> Bool in
                if line == 1 {
                    let text = String(decoding: UnsafeBufferPointer(start: b + start, count: end - start), as: UTF8.self).trimmingSpaces()
                    guard text == "Geolife trajectory" else {
                        throw FencesimError(
                            .badData, "not a GeoLife PLT file: the first line is '\(text.prefix(40))', not 'Geolife trajectory'",
                            at: SourceLocation(file: path, line: 1, column: 1))
                    }
                    return true
                }
                var s = start
                while s < end, ByteClass.isSpace(b[s]) { s += 1 }
                if s == end, line > 6 || inData { return true }
                let count = FieldSplitter.split(b, start, end, delimiter: 0x2C, into: spans, limit: 8)
                func field(_ k: Int) -> (Int, Int) { k < count ? (spans[2 * k], spans[2 * k + 1]) : (end, end) }
                if line <= 6, !inData {
                    // A header cut short: its data rows must not be skipped as header lines.
                    guard s < end, Self.hasFixShape(b, count: count, field) else { return true }
                    sink.warn(
                        kind: "short-header",
                        "the GeoLife header ends at line \(line - 1), not line 6: line \(line) has the shape of a fix and is read as one",
                        line: line, column: 1)
                }
                inData = true
                func text(_ k: Int) -> String {
                    let (fs, fe) = field(k)
                    return ByteClass.text(UnsafeBufferPointer(start: b + fs, count: fe - fs))
                }
                var c = FixCandidate(line: line, column: 1)
                for (k, name) in [(0, "latitude"), (1, "longitude")] {
                    let (fs, fe) = field(k)
                    let column = fs - start + 1
                    if k == 0 { c.latitudeColumn = column } else { c.longitudeColumn = column }
                    let value: Double
                    if fs == fe {
                        c.coordinatesReported = true
                        sink.reject(&c, kind: "invalid-coordinate", "\(name) is empty", column: column)
                        value = .nan
                    } else if let parsed = DecimalParser.parse(b, fs, fe) {
                        value = parsed
                    } else {
                        c.coordinatesReported = true
                        sink.reject(&c, kind: "invalid-coordinate", "\(name) '\(text(k))' is not a number", column: column)
                        value = .nan
                    }
                    if k == 0 { c.latitude = value } else { c.longitude = value }
                }
                let (as_, ae) = field(3)
                if as_ < ae {
                    if let feet = DecimalParser.parse(b, as_, ae) {
                        if feet != -777 { c.altitude = sink.checkedAltitude(feet * 0.3048, line: line, column: as_ - start + 1) }
                    } else {
                        sink.rejectValue(kind: "bad-value", "altitude '\(text(3))' is not a number", line: line, column: as_ - start + 1)
                    }
                }
                let (ds, de) = field(5)
                let (ts, te) = field(6)
                c.timeColumn = ds - start + 1
                if ds < de || ts < te {
                    if let days = TimeParser.date(b, ds, de),
                        let (second, nanos, stop) = TimeParser.timeOfDay(b, ts, te, requireColons: true),
                        stop == te
                    {
                        c.time = Timestamp(seconds: Int64(days) * 86_400 + Int64(second), nanoseconds: Int64(nanos))
                    } else {
                        sink.reject(
                            &c, kind: "bad-time", "date '\(text(5))' and time '\(text(6))' do not make a valid date-time",
                            column: c.timeColumn)
                    }
                } else {
                    let (ys, ye) = field(4)
                    if ys < ye {
                        if let days = DecimalParser.parse(b, ys, ye), let time = Timestamp(epochSeconds: (days - 25_569) * 86_400) {
                            c.time = time
                        } else {
                            sink.reject(&c, kind: "bad-time", "day count '\(text(4))' is not a number", column: ys - start + 1)
                        }
                    }
                }
                if let fix = sink.submit(&c) { try onFix(fix) }
                return true
            }
        } catch {
            throw sink.fatal(error)
        }
        if sink.holdsNoRecords {
            throw FencesimError(
                .badData, "no fixes: the GeoLife header is followed by no data rows, so there is no trace in it",
                at: SourceLocation(file: path, line: 1, column: 1))
        }
        return try sink.finish()
    }

    /// Whether a line split into `count` fields looks like a data row: seven fields, the first
    /// two numbers, a date in the sixth and a time of day in the seventh. No line of the GeoLife
    /// header has that shape (its fifth line, `0,2,255,My Track,0,0,2,8421376`, has eight fields
    /// and no date).
    static func hasFixShape(_ b: UnsafePointer<UInt8>, count: Int, _ field: (Int) -> (Int, Int)) -> Bool {
        guard count == 7 else { return false }
        let (las, lae) = field(0)
        let (los, loe) = field(1)
        let (ds, de) = field(5)
        let (ts, te) = field(6)
        guard DecimalParser.parse(b, las, lae) != nil, DecimalParser.parse(b, los, loe) != nil,
            TimeParser.date(b, ds, de) != nil, let (_, _, stop) = TimeParser.timeOfDay(b, ts, te, requireColons: true)
        else { return false }
        return stop == te
    }
}
