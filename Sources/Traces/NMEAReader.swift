import Support

/// Reads NMEA 0183 logs: `RMC` and `GGA` sentences from any talker (`$GP`, `$GN`, `$GL`,
/// `$GA`, `$BD`, ...), every other sentence ignored.
///
/// Rules (they reproduce the shared data MANIFEST for every NMEA file in it):
/// - Lines are trimmed; blank lines and `#` comments are skipped (gpsd captures start with
///   them); a GISTEQ `---,` prefix is dropped. Any other line that is not a `$` sentence is a
///   `bad-sentence`.
/// - The checksum (`*hh`, XOR of the bytes between `$` and `*`) is verified. A mismatch, or a
///   missing checksum after sentences that had one (a truncated line), is a `bad-checksum`:
///   strict → error; lenient → warning, sentence skipped.
/// - An RMC with status other than `A`, or a GGA with fix quality 0 or empty, is an invalid fix
///   (receivers emit them while acquiring): counted in `skipped["invalid-fix"]`, not a point, not
///   a problem. A time of day that is not `hhmmss[.f]` (spaces around it are trimmed, `222509.`
///   is whole) or an RMC date that is not `ddmmyy` is `bad-time`: strict → error; lenient →
///   warning; the sentence is skipped (it is not a point).
/// - RMC sentences define the fixes: date + time of day (years 80–99 are 1980–1999, 00–79 are
///   2000–2079), position, speed (knots → m/s) and course. A GGA with the same time of day is
///   merged into its RMC, in either order, adding altitude, HDOP and satellites; the fix keeps
///   the RMC's position and starts at the earlier line.
/// - Before any RMC sentence has been seen (whatever its status), each valid GGA is a fix on its
///   own, without time (it has no date): GGA-only logs give untimed fixes, and a log that opens
///   with a GGA before its first RMC gets one untimed fix first. Once an RMC has been seen, a GGA
///   whose RMC never comes (within the next four GGAs) is counted in `skipped["unpaired-gga"]`.
/// - Times keep their fraction (millisecond logs step backwards where sentences are out of
///   order; MANIFEST counts those steps at whole seconds).
enum NMEAReader {
    fileprivate struct Pending {
        var candidate: FixCandidate
        var timeOfDay: Int64
    }

    fileprivate struct GGAData {
        var timeOfDay: Int64
        var line: Int
        var altitude: Double?
        var hdop: Double?
        var satellites: Int?
    }

    static func read(
        path: String, scanner: LineScanner, options: TraceReadOptions, onFix: (Fix) throws(FencesimError) -> Void
    ) throws(FencesimError) -> TraceStatistics {
        var sink = FixSink(file: path, options: options, format: .nmea, dialect: "NMEA 0183")
        var state = State()
        let spans = UnsafeMutablePointer<Int>.allocate(capacity: 2 * 32)
        defer { spans.deallocate() }
        do throws(FencesimError) {
            try scanner.forEachLine { b, start, end, line throws(FencesimError) -> Bool in
                for fix in state.line(b, start, end, line: line, spans: spans, sink: &sink) {
                    try onFix(fix)
                }
                return true
            }
            for fix in state.finish(sink: &sink) {
                try onFix(fix)
            }
        } catch {
            throw sink.fatal(error)
        }
        if sink.holdsNoRecords {
            throw FencesimError(
                .badData, "no fixes: the file holds no RMC or GGA sentence, so there is no trace in it",
                at: SourceLocation(file: path, line: 1, column: 1))
        }
        return try sink.finish()
    }

    private struct State {
        var rmcSeen = false
        var hadChecksum = false
        var pendingRMC: Pending?
        var pendingGGAs: [GGAData] = []
        var out: [Fix] = []

        mutating func finish(sink: inout FixSink) -> [Fix] {
            out.removeAll(keepingCapacity: true)
            if var pending = pendingRMC {
                pendingRMC = nil
                if let fix = sink.submit(&pending.candidate) { out.append(fix) }
            }
            for _ in pendingGGAs { sink.skip("unpaired-gga") }
            pendingGGAs.removeAll()
            return out
        }

        mutating func line(
            _ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, line: Int, spans: UnsafeMutablePointer<Int>, sink: inout FixSink
        ) -> [Fix] {
            out.removeAll(keepingCapacity: true)
            var s = start
            var e = end
            while s < e, ByteClass.isSpace(b[s]) { s += 1 }
            while e > s, ByteClass.isSpace(b[e - 1]) { e -= 1 }
            if s == e || b[s] == 0x23 { return out }
            if e - s >= 4, b[s] == 0x2D, b[s + 1] == 0x2D, b[s + 2] == 0x2D, b[s + 3] == 0x2C { s += 4 }
            guard b[s] == 0x24 else {
                if b[s] == 0x21 { return out }  // `!` AIS encapsulation: not position fixes
                sink.rejectRecord(
                    kind: "bad-sentence", "not an NMEA sentence: '\(ByteClass.text(UnsafeBufferPointer(start: b + s, count: e - s)))'",
                    line: line, column: s - start + 1)
                return out
            }
            // Checksum.
            var bodyEnd = e
            var star = e - 1
            while star > s, b[star] != 0x2A { star -= 1 }
            if star > s {
                bodyEnd = star
                var computed: UInt8 = 0
                for k in (s + 1)..<star { computed ^= b[k] }
                guard star + 3 <= e, let high = NMEAReader.hex(b[star + 1]), let low = NMEAReader.hex(b[star + 2]) else {
                    sink.rejectRecord(
                        kind: "bad-checksum", "the checksum after '*' is not two hex digits", line: line, column: star - start + 1)
                    return out
                }
                let given = high << 4 | low
                guard given == computed else {
                    sink.rejectRecord(
                        kind: "bad-checksum",
                        "checksum mismatch: the sentence says *\(NMEAReader.hexText(given)) but its bytes give *\(NMEAReader.hexText(computed))",
                        line: line, column: star - start + 1)
                    return out
                }
                hadChecksum = true
            } else if hadChecksum {
                sink.rejectRecord(
                    kind: "bad-checksum", "the sentence has no checksum (the line may be truncated)", line: line, column: e - start + 1)
                return out
            }
            let count = FieldSplitter.split(b, s + 1, bodyEnd, delimiter: 0x2C, into: spans, limit: 32)
            let addressStart = spans[0]
            let addressEnd = spans[1]
            guard addressEnd - addressStart >= 5 else { return out }
            let t0 = b[addressEnd - 3], t1 = b[addressEnd - 2], t2 = b[addressEnd - 1]
            if t0 == 0x52, t1 == 0x4D, t2 == 0x43 {  // RMC
                rmc(b, start, count, line, spans, &sink)
            } else if t0 == 0x47, t1 == 0x47, t2 == 0x41 {  // GGA
                gga(b, start, count, line, spans, &sink)
            }
            return out
        }

        private mutating func rmc(
            _ b: UnsafePointer<UInt8>, _ start: Int, _ count: Int, _ line: Int, _ spans: UnsafeMutablePointer<Int>, _ sink: inout FixSink
        ) {
            rmcSeen = true
            func field(_ k: Int) -> (Int, Int) { k < count ? (spans[2 * k], spans[2 * k + 1]) : (0, 0) }
            let (ss, se) = field(2)
            guard se - ss == 1, b[ss] == 0x41 else {
                sink.skip("invalid-fix")
                return
            }
            guard let timeOfDay = NMEAReader.timeOfDay(b, field(1), start, line, &sink) else { return }
            let (ds, de) = field(9)
            guard ds < de, let days = TimeParser.date(b, ds, de, sixDigitOrder: .ddmmyy) else {
                let text = ByteClass.text(UnsafeBufferPointer(start: b + ds, count: de - ds))
                sink.rejectRecord(
                    kind: "bad-time", "RMC date '\(text)' is not ddmmyy", line: line, column: count > 9 ? ds - start + 1 : nil)
                return
            }
            var c = FixCandidate(line: line, column: 1)
            c.time = Timestamp(seconds: Int64(days) * 86_400, nanoseconds: timeOfDay)
            NMEAReader.position(b, field(3), field(4), field(5), field(6), start, &c, &sink)
            c.speed = NMEAReader.number(b, field(7), "speed", start, line, &sink).map {
                CSVColumnMapping.SpeedUnit.knots.metersPerSecond($0)
            }
            c.course = NMEAReader.number(b, field(8), "course", start, line, &sink)
            if var pending = pendingRMC {
                pendingRMC = nil
                if let fix = sink.submit(&pending.candidate) { out.append(fix) }
            }
            if let match = pendingGGAs.firstIndex(where: { $0.timeOfDay == timeOfDay }) {
                let gga = pendingGGAs.remove(at: match)
                NMEAReader.merge(gga, into: &c)
                if let fix = sink.submit(&c) { out.append(fix) }
            } else {
                pendingRMC = Pending(candidate: c, timeOfDay: timeOfDay)
            }
        }

        private mutating func gga(
            _ b: UnsafePointer<UInt8>, _ start: Int, _ count: Int, _ line: Int, _ spans: UnsafeMutablePointer<Int>, _ sink: inout FixSink
        ) {
            func field(_ k: Int) -> (Int, Int) { k < count ? (spans[2 * k], spans[2 * k + 1]) : (0, 0) }
            let (qs, qe) = field(6)
            guard qs < qe, !(qe - qs == 1 && b[qs] == 0x30) else {
                sink.skip("invalid-fix")
                return
            }
            guard let timeOfDay = NMEAReader.timeOfDay(b, field(1), start, line, &sink) else { return }
            var data = GGAData(timeOfDay: timeOfDay, line: line)
            data.satellites = NMEAReader.number(b, field(7), "satellites", start, line, &sink).flatMap {
                $0 >= 0 && $0 < 1000 ? Int($0) : nil
            }
            data.hdop = NMEAReader.number(b, field(8), "hdop", start, line, &sink)
            data.altitude = sink.checkedAltitude(
                NMEAReader.number(b, field(9), "altitude", start, line, &sink),
                line: line, column: field(9).0 - start + 1)
            if !rmcSeen {
                // No date yet: a fix of its own, without time.
                var c = FixCandidate(line: line, column: 1)
                NMEAReader.position(b, field(2), field(3), field(4), field(5), start, &c, &sink)
                NMEAReader.merge(data, into: &c)
                if let fix = sink.submit(&c) { out.append(fix) }
                return
            }
            if var pending = pendingRMC, pending.timeOfDay == timeOfDay {
                pendingRMC = nil
                NMEAReader.merge(data, into: &pending.candidate)
                if let fix = sink.submit(&pending.candidate) { out.append(fix) }
                return
            }
            pendingGGAs.append(data)
            if pendingGGAs.count > 4 {
                pendingGGAs.removeFirst()
                sink.skip("unpaired-gga")
            }
        }
    }

    fileprivate static func merge(_ gga: GGAData, into c: inout FixCandidate) {
        c.altitude = gga.altitude
        c.hdop = gga.hdop
        c.satellites = gga.satellites
        c.line = min(c.line, gga.line)
    }

    /// Nanoseconds since midnight of an `hhmmss[.f]` field, or `nil` after reporting `bad-time`.
    fileprivate static func timeOfDay(_ b: UnsafePointer<UInt8>, _ span: (Int, Int), _ start: Int, _ line: Int, _ sink: inout FixSink)
        -> Int64?
    {
        let (fs, fe) = span
        if fs < fe, let (second, nanos, stop) = TimeParser.timeOfDay(b, fs, fe, requireColons: false), stop == fe, second < 86_400 {
            return Int64(second) * 1_000_000_000 + Int64(nanos)
        }
        let text = ByteClass.text(UnsafeBufferPointer(start: b + fs, count: fe - fs))
        sink.rejectRecord(kind: "bad-time", "time of day '\(text)' is not hhmmss[.sss]", line: line, column: fs > 0 ? fs - start + 1 : nil)
        return nil
    }

    /// Reads `ddmm.mmmm,N,dddmm.mmmm,E` into the candidate, reporting unreadable values.
    fileprivate static func position(
        _ b: UnsafePointer<UInt8>, _ lat: (Int, Int), _ ns: (Int, Int), _ lon: (Int, Int), _ ew: (Int, Int), _ start: Int,
        _ c: inout FixCandidate, _ sink: inout FixSink
    ) {
        c.latitude = coordinate(b, lat, ns, isLatitude: true, start, &c, &sink)
        c.longitude = coordinate(b, lon, ew, isLatitude: false, start, &c, &sink)
    }

    fileprivate static func coordinate(
        _ b: UnsafePointer<UInt8>, _ span: (Int, Int), _ hemisphere: (Int, Int), isLatitude: Bool, _ start: Int,
        _ c: inout FixCandidate, _ sink: inout FixSink
    ) -> Double {
        let name = isLatitude ? "latitude" : "longitude"
        let (fs, fe) = span
        let column = fs - start + 1
        if isLatitude { c.latitudeColumn = column } else { c.longitudeColumn = column }
        guard fs < fe else {
            c.coordinatesReported = true
            sink.reject(&c, kind: "invalid-coordinate", "\(name) is empty", column: column)
            return .nan
        }
        let text = { ByteClass.text(UnsafeBufferPointer(start: b + fs, count: fe - fs)) }
        guard let value = DecimalParser.parse(b, fs, fe), value.isFinite, value >= 0 else {
            c.coordinatesReported = true
            sink.reject(&c, kind: "invalid-coordinate", "\(name) '\(text())' is not ddmm.mmmm", column: column)
            return .nan
        }
        let degrees = (value / 100).rounded(.towardZero)
        let minutes = value - degrees * 100
        guard minutes < 60 else {
            c.coordinatesReported = true
            sink.reject(&c, kind: "invalid-coordinate", "\(name) '\(text())' has \(minutes) minutes", column: column)
            return .nan
        }
        var result = degrees + minutes / 60
        let (hs, he) = hemisphere
        if hs < he {
            switch (ByteClass.lower(b[hs]), isLatitude) {
            case (0x6E, true), (0x65, false): break
            case (0x73, true), (0x77, false): result = -result
            default:
                c.coordinatesReported = true
                sink.reject(
                    &c, kind: "invalid-coordinate",
                    "\(isLatitude ? "N/S" : "E/W") field '\(ByteClass.text(UnsafeBufferPointer(start: b + hs, count: he - hs)))' is not a hemisphere",
                    column: hs - start + 1)
                return .nan
            }
        }
        return result
    }

    fileprivate static func number(
        _ b: UnsafePointer<UInt8>, _ span: (Int, Int), _ name: String, _ start: Int, _ line: Int, _ sink: inout FixSink
    ) -> Double? {
        let (fs, fe) = span
        guard fs < fe else { return nil }
        if let value = DecimalParser.parse(b, fs, fe) { return value }
        sink.rejectValue(
            kind: "bad-value", "\(name) '\(ByteClass.text(UnsafeBufferPointer(start: b + fs, count: fe - fs)))' is not a number",
            line: line, column: fs - start + 1)
        return nil
    }

    fileprivate static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    fileprivate static func hexText(_ value: UInt8) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
    }
}
