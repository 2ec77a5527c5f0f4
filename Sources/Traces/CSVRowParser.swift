import Foundation
import Support

/// Parses CSV data rows into fix candidates for a given ``CSVLayout`` (the hot loop of
/// ``CSVReader``): fields are located in place and numbers and times parsed from bytes.
struct CSVRowParser {
    private let delimiter: UInt8
    private let fieldsNeeded: Int
    private let latitude: Int
    private let longitude: Int
    private let time: Int
    private let date: Int
    private let utcOffset: Int
    private let accuracy: Int
    private let hdop: Int
    private let speed: Int
    private let course: Int
    private let altitude: Int
    private let satellites: Int
    private let segment: Int
    /// The trace column (-1: none).
    private let trace: Int
    /// Rows whose trace column holds anything else are skipped unseen (``TraceSelection``).
    private let selectedTrace: [UInt8]?
    /// The column whose changes start a new segment: the segment column, else the trace column.
    private let group: Int
    private let latitudeHemisphere: Int
    private let longitudeHemisphere: Int
    private let speedUnit: CSVColumnMapping.SpeedUnit
    private let altitudeFactor: Double
    private let timeFormat: CSVColumnMapping.TimeFormat?
    private let spans: UnsafeMutablePointer<Int>
    private var cache = TimeParser.DayCache()
    /// The zone of times written without one (`nil`: UTC), and its Foundation zone.
    private let timeZone: LocalTimeZone?
    private let resolvedZone: Foundation.TimeZone?
    /// Times read without a zone (and without a UTC offset column).
    private(set) var zonelessTimes = 0
    private var segmentIndex = 0
    private var lastGroup: [UInt8] = []
    /// Segments met so far (1 once a row has been read, more when a segment column changes).
    private(set) var segmentsSeen = 0
    /// Where the quoted field that the line before ended inside was opened: the lines up to the
    /// one that closes it belong to a record already refused there.
    private var openQuotedField: (line: Int, column: Int)?

    init(layout: CSVLayout, selection: TraceSelection? = nil, timeZone: LocalTimeZone? = nil) {
        self.timeZone = timeZone
        resolvedZone = timeZone?.resolved
        delimiter = layout.delimiter
        fieldsNeeded = max(layout.fieldsNeeded, 1)
        func index(_ field: CSVColumnMapping.Field) -> Int { layout.column[field] ?? -1 }
        latitude = index(.latitude)
        longitude = index(.longitude)
        time = index(.time)
        date = index(.date)
        utcOffset = index(.utcOffset)
        accuracy = index(.accuracy)
        hdop = index(.hdop)
        speed = index(.speed)
        course = index(.course)
        altitude = index(.altitude)
        satellites = index(.satellites)
        segment = index(.segment)
        trace = index(.trace)
        selectedTrace = trace >= 0 ? selection.map { Array($0.id.utf8) } : nil
        group = segment >= 0 ? segment : layout.traceStartsSegments ? trace : -1
        latitudeHemisphere = index(.latitudeHemisphere)
        longitudeHemisphere = index(.longitudeHemisphere)
        speedUnit = layout.speedUnit
        altitudeFactor = layout.altitudeFactor
        timeFormat = layout.timeFormat
        spans = UnsafeMutablePointer<Int>.allocate(capacity: 2 * fieldsNeeded)
    }

    /// Frees the field buffer; the parser is unusable afterwards.
    func deallocate() {
        spans.deallocate()
    }

    /// Parses one line into `candidate`; returns whether `candidate.fix` is to be delivered
    /// (`false` for blank, comment and dropped rows).
    @inline(__always)
    mutating func parse(
        _ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, line: Int, into candidate: inout FixCandidate, sink: inout FixSink
    ) -> Bool {
        if let open = openQuotedField {
            // Each such line is refused too, so that under --lenient none vanishes unsaid (a
            // stray quote would otherwise take the rest of the file with it).
            if Self.closesQuote(b, start, end) { openQuotedField = nil }
            sink.rejectRecord(
                kind: "quoted-newline",
                "the line continues the quoted field opened at line \(open.line), column \(open.column): quoted newlines are not supported",
                line: line, column: 1)
            return false
        }
        var s = start
        while s < end, ByteClass.isSpace(b[s]) { s += 1 }
        if s == end || b[s] == 0x23 { return false }
        var openQuote = -1
        let count = FieldSplitter.split(b, start, end, delimiter: delimiter, into: spans, limit: fieldsNeeded, openQuote: &openQuote)
        if openQuote >= 0 {
            // Refused at the opening quote, not as a short row at the continuation line.
            sink.rejectRecord(
                kind: "quoted-newline", "a quoted field is not closed on its line: quoted newlines are not supported",
                line: line, column: openQuote - start + 1)
            openQuotedField = (line, openQuote - start + 1)
            return false
        }
        if let selectedTrace {
            let (fs, fe) = trace < count ? (spans[2 * trace], spans[2 * trace + 1]) : (0, 0)
            if !UnsafeBufferPointer(start: b + fs, count: fe - fs).elementsEqual(selectedTrace) { return false }
        }
        if group >= 0 { updateSegment(b, count: count) }
        if segmentsSeen == 0 { segmentsSeen = 1 }
        candidate = FixCandidate(line: line, column: 1, segment: segmentIndex)
        return parseFields(b, start, end, count: count, line: line, into: &candidate, sink: &sink)
    }

    @inline(__always)
    private mutating func parseFields(
        _ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, count: Int, line: Int, into candidate: inout FixCandidate, sink: inout FixSink
    ) -> Bool {
        let lat = coordinate(latitude, hemisphere: latitudeHemisphere, isLatitude: true, b, start, end, count, &candidate, &sink)
        candidate.fix.latitude = lat
        let lon = coordinate(longitude, hemisphere: longitudeHemisphere, isLatitude: false, b, start, end, count, &candidate, &sink)
        candidate.fix.longitude = lon
        if time >= 0 { parseTime(b, start, count, &candidate, &sink) }
        if accuracy >= 0, let value = number(accuracy, "accuracy", .accuracy, b, start, count, line, &sink) {
            candidate.reportedAccuracy = value
            candidate.accuracyColumn = spans[2 * accuracy] - start + 1
        }
        if hdop >= 0 { candidate.fix.hdop = number(hdop, "hdop", .plain, b, start, count, line, &sink) }
        if speed >= 0 { candidate.fix.speedMetersPerSecond = number(speed, "speed", .speed, b, start, count, line, &sink) }
        if course >= 0 { candidate.fix.courseDegrees = number(course, "course", .course, b, start, count, line, &sink) }
        if altitude >= 0 {
            let meters = number(altitude, "altitude", .altitude, b, start, count, line, &sink)
            // A value implies the field exists, so its span may be read.
            candidate.fix.altitudeMeters =
                meters == nil ? nil : sink.checkedAltitude(meters, line: line, column: spans[2 * altitude] - start + 1)
        }
        if satellites >= 0, satellites < count {
            candidate.satellites = satelliteCount(b, spans[2 * satellites], spans[2 * satellites + 1], start, line, &sink)
        }
        return sink.accept(&candidate)
    }

    /// Whether `b[start..<end]` holds a quote that is not doubled: the end of a quoted field
    /// begun on an earlier line.
    private static func closesQuote(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            if b[i] == 0x22 {
                if i + 1 < end, b[i + 1] == 0x22 {
                    i += 2
                    continue
                }
                return true
            }
            i += 1
        }
        return false
    }

    @inline(__always)
    private mutating func updateSegment(_ b: UnsafePointer<UInt8>, count: Int) {
        let (fs, fe) = group < count ? (spans[2 * group], spans[2 * group + 1]) : (0, 0)
        let value = UnsafeBufferPointer(start: b + fs, count: fe - fs)
        if segmentsSeen == 0 {
            lastGroup = Array(value)
            return
        }
        if !value.elementsEqual(lastGroup) {
            lastGroup = Array(value)
            segmentIndex += 1
            segmentsSeen += 1
        }
    }

    /// The trace column's value in a data row (`nil` for blank, comment and quoted-newline lines),
    /// for ``CSVReader``'s pass that lists a file's traces.
    mutating func traceID(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> String? {
        var s = start
        while s < end, ByteClass.isSpace(b[s]) { s += 1 }
        if s == end || b[s] == 0x23 { return nil }
        var openQuote = -1
        let count = FieldSplitter.split(b, start, end, delimiter: delimiter, into: spans, limit: fieldsNeeded, openQuote: &openQuote)
        guard openQuote < 0, trace >= 0 else { return nil }
        guard trace < count else { return "" }
        let fs = spans[2 * trace]
        return String(decoding: UnsafeBufferPointer(start: b + fs, count: spans[2 * trace + 1] - fs), as: UTF8.self)
    }

    @inline(__always)
    private func field(_ b: UnsafePointer<UInt8>, _ index: Int) -> String {
        let fs = spans[2 * index]
        return ByteClass.text(UnsafeBufferPointer(start: b + fs, count: spans[2 * index + 1] - fs))
    }

    // MARK: Coordinates

    /// `mutating` though it changes nothing of the parser: called from the mutating row parse,
    /// a non-mutating method is given a copy of the whole parser (305 bytes, a `memcpy` per
    /// call, four per row: 1.7 % of an event-log replay's instructions).
    @inline(__always)
    private mutating func coordinate(
        _ index: Int, hemisphere: Int, isLatitude: Bool, _ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ count: Int,
        _ c: inout FixCandidate, _ sink: inout FixSink
    ) -> Double {
        let name = isLatitude ? "latitude" : "longitude"
        guard index < count else {
            c.coordinatesReported = true
            sink.reject(
                &c, kind: "invalid-coordinate", "the row has \(count) field\(count == 1 ? "" : "s"), so no \(name) (column \(index + 1))",
                column: end - start + 1)
            return .nan
        }
        let fs = spans[2 * index]
        let fe = spans[2 * index + 1]
        let column = fs - start + 1
        if isLatitude { c.latitudeColumn = column } else { c.longitudeColumn = column }
        if fs == fe {
            c.coordinatesReported = true
            sink.reject(&c, kind: "invalid-coordinate", "\(name) is empty", column: column)
            return .nan
        }
        var p = fs
        var sign: Double? = nil
        // A leading hemisphere letter (`N49.07`), not the `N` of `NaN`.
        if p + 1 < fe, ByteClass.isDigit(b[p + 1]) || b[p + 1] == 0x20 || b[p + 1] == 0x2E,
            let letterSign = Self.hemisphereSign(b[p], isLatitude: isLatitude)
        {
            sign = letterSign
            p += 1
            while p < fe, ByteClass.isSpace(b[p]) { p += 1 }
        }
        var value: Double
        var stop: Int
        if let (v, e) = DecimalParser.parsePrefix(b, p, fe) {
            value = v
            stop = e
        } else {
            c.coordinatesReported = true
            sink.reject(&c, kind: "invalid-coordinate", "\(name) '\(field(b, index))' is not a number", column: column)
            return .nan
        }
        if stop < fe {
            while stop < fe, ByteClass.isSpace(b[stop]) { stop += 1 }
            if stop + 1 == fe, sign == nil, let letterSign = Self.hemisphereSign(b[stop], isLatitude: isLatitude) {
                sign = letterSign
            } else {
                c.coordinatesReported = true
                sink.reject(&c, kind: "invalid-coordinate", "\(name) '\(field(b, index))' is not a number", column: column)
                return .nan
            }
        }
        if hemisphere >= 0, hemisphere < count {
            let hs = spans[2 * hemisphere]
            if hs < spans[2 * hemisphere + 1] {
                guard let letterSign = Self.hemisphereSign(b[hs], isLatitude: isLatitude), hs + 1 == spans[2 * hemisphere + 1] else {
                    c.coordinatesReported = true
                    sink.reject(
                        &c, kind: "invalid-coordinate",
                        "\(isLatitude ? "N/S" : "E/W") field '\(field(b, hemisphere))' is not a hemisphere letter",
                        column: hs - start + 1)
                    return .nan
                }
                sign = letterSign
            }
        }
        if let sign { value = sign * abs(value) }
        return value
    }

    @inline(__always)
    private static func hemisphereSign(_ byte: UInt8, isLatitude: Bool) -> Double? {
        switch ByteClass.lower(byte) {
        case 0x6E: isLatitude ? 1 : nil  // n
        case 0x73: isLatitude ? -1 : nil  // s
        case 0x65: isLatitude ? nil : 1  // e
        case 0x77: isLatitude ? nil : -1  // w
        default: nil
        }
    }

    // MARK: Time

    @inline(__always)
    private mutating func parseTime(_ b: UnsafePointer<UInt8>, _ start: Int, _ count: Int, _ c: inout FixCandidate, _ sink: inout FixSink) {
        guard time < count else { return }
        let fs = spans[2 * time]
        let fe = spans[2 * time + 1]
        guard fs < fe else { return }
        c.timeColumn = fs - start + 1
        var parsed: Timestamp?
        var zoned = false
        if date >= 0 {
            parsed = dateAndTime(b, fs, fe, count, zoned: &zoned)
            if parsed == nil {
                let dateText = date < count ? field(b, date) : ""
                sink.reject(
                    &c, kind: "bad-time", "date '\(dateText)' and time '\(field(b, time))' do not make a valid date-time",
                    column: date < count ? spans[2 * date] - start + 1 : c.timeColumn)
                return
            }
        } else {
            if timeFormat == nil || timeFormat == .iso8601 {
                parsed = TimeParser.parseISO8601(b, fs, fe, cache: &cache, zoned: &zoned)
            }
            if parsed == nil, timeFormat != .iso8601, let value = DecimalParser.parse(b, fs, fe) {
                parsed = TimeParser.epoch(value, digits: UnsafeBufferPointer(start: b + fs, count: fe - fs), unit: timeFormat)
                zoned = true  // an epoch is UTC
            }
            if parsed == nil {
                sink.reject(&c, kind: "bad-time", timeMessage(b, fs, fe), column: c.timeColumn)
                return
            }
        }
        if utcOffset >= 0, utcOffset < count, let local = parsed {
            let os = spans[2 * utcOffset]
            let oe = spans[2 * utcOffset + 1]
            if os < oe {
                guard let (offset, stop) = TimeParser.zoneOffset(b, os, oe), stop == oe else {
                    sink.reject(&c, kind: "bad-time", "UTC offset '\(field(b, utcOffset))' is not ±hh:mm", column: os - start + 1)
                    return
                }
                parsed = Timestamp(seconds: local.seconds - Int64(offset), nanoseconds: Int64(local.nanoseconds))
                zoned = true
            }
        }
        if !zoned, let local = parsed {
            zonelessTimes += 1
            if let timeZone { parsed = timeZone.utc(fromLocal: local, resolved: resolvedZone) }
        }
        c.time = parsed
    }

    private mutating func dateAndTime(_ b: UnsafePointer<UInt8>, _ fs: Int, _ fe: Int, _ count: Int, zoned: inout Bool) -> Timestamp? {
        // A full date-time in the time column wins over the date column.
        if let full = TimeParser.parseISO8601(b, fs, fe, cache: &cache, zoned: &zoned) { return full }
        guard date < count else { return nil }
        let ds = spans[2 * date]
        let de = spans[2 * date + 1]
        guard let days = TimeParser.date(b, ds, de), let (second, nanos, stop) = TimeParser.timeOfDay(b, fs, fe, requireColons: false),
            stop == fe
        else { return nil }
        return Timestamp(seconds: Int64(days) * 86_400 + Int64(second), nanoseconds: Int64(nanos))
    }

    private func timeMessage(_ b: UnsafePointer<UInt8>, _ fs: Int, _ fe: Int) -> String {
        let text = String(decoding: UnsafeBufferPointer(start: b + fs, count: fe - fs), as: UTF8.self)
        if let (_, _, stop) = TimeParser.timeOfDay(b, fs, fe, requireColons: true), stop == fe {
            return "time '\(text)' is a time of day without a date (no date column)"
        }
        switch timeFormat {
        case .iso8601?:
            break
        case nil:
            break
        default:
            return "time '\(text)' is not an epoch number"
        }
        if case .failure(let failure) = Timestamp.parseISO8601(text) {
            return "time '\(text)' is not an ISO-8601 date-time or an epoch number: \(failure.message)"
        }
        return "time '\(text)' is out of range"
    }

    // MARK: Other numbers

    enum Quantity { case plain, accuracy, speed, course, altitude }

    /// `mutating` for the reason ``coordinate(_:hemisphere:isLatitude:_:_:_:_:_:_:)`` is.
    @inline(__always)
    private mutating func number(
        _ index: Int, _ name: String, _ quantity: Quantity, _ b: UnsafePointer<UInt8>, _ start: Int, _ count: Int, _ line: Int,
        _ sink: inout FixSink
    ) -> Double? {
        guard index < count else { return nil }
        let fs = spans[2 * index]
        let fe = spans[2 * index + 1]
        guard fs < fe else { return nil }
        guard let (value, stop) = DecimalParser.parsePrefix(b, fs, fe) else {
            sink.rejectValue(kind: "bad-value", "\(name) '\(field(b, index))' is not a number", line: line, column: fs - start + 1)
            return nil
        }
        if stop == fe {
            switch quantity {
            case .speed: return speedUnit.metersPerSecond(value)
            case .altitude: return value * altitudeFactor
            default: return value
            }
        }
        var u = stop
        while u < fe, ByteClass.isSpace(b[u]) { u += 1 }
        let unit = String(decoding: UnsafeBufferPointer(start: b + u, count: fe - u), as: UTF8.self)
        switch quantity {
        case .speed:
            if let suffixUnit = CSVLayout.speedUnit(unit) { return suffixUnit.metersPerSecond(value) }
        case .altitude:
            if let altitudeUnit = CSVLayout.altitudeUnit(unit) { return value * altitudeUnit.meters }
        case .accuracy:
            if unit == "m" { return value }
        case .course:
            if unit == "°" || unit.lowercased() == "deg" { return value }
        case .plain:
            break
        }
        sink.rejectValue(kind: "bad-value", "\(name) '\(field(b, index))' has an unknown unit '\(unit)'", line: line, column: u - start + 1)
        return nil
    }

    private func satelliteCount(_ b: UnsafePointer<UInt8>, _ fs: Int, _ fe: Int, _ start: Int, _ line: Int, _ sink: inout FixSink) -> Int? {
        guard fs < fe else { return nil }
        // `11(11)`: used (in view), as MTK loggers write it.
        var k = fs
        var value = 0
        while k < fe, ByteClass.isDigit(b[k]), value < 1_000_000 {
            value = value * 10 + Int(b[k] - 0x30)
            k += 1
        }
        guard k > fs, k == fe || b[k] == 0x28 || b[k] == 0x2F || b[k] == 0x20 || b[k] == 0x2E else {
            let text = ByteClass.text(UnsafeBufferPointer(start: b + fs, count: fe - fs))
            sink.rejectValue(kind: "bad-value", "satellites '\(text)' is not a count", line: line, column: fs - start + 1)
            return nil
        }
        return value
    }
}
