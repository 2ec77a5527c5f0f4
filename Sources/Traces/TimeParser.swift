import Support

/// Date and time parsing straight from bytes, for the readers' hot loops.
///
/// The grammar is the one of ``Support/Timestamp/parseISO8601(_:assumeUTC:)-(String,_)``; when
/// the fast parser refuses a value, callers ask that function for the human-readable reason.
enum TimeParser {
    /// Days since 1970-01-01 of a date, cached for the common case of many fixes on one day;
    /// and the minute of the last ISO 8601 time read in the plain layout (`YYYY-MM-DDThh:mm`,
    /// no sign and no space after the `T`), for the common case of many fixes in one minute.
    struct DayCache {
        var year = Int.min, month = 0, day = 0, days = 0
        /// Whether a minute is remembered: the first 16 bytes of that time, its day and the
        /// seconds of its hour and minute.
        var remembers = false
        var minuteText: (UInt64, UInt64) = (0, 0)
        var minuteDays = 0
        var minuteSeconds = 0

        /// The day and the seconds of the hour and minute of the time at `b[start..<end]` when it
        /// begins with the same 16 bytes as the last time remembered (``remember(_:_:days:)``).
        @inline(__always)
        func minute(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (days: Int, seconds: Int)? {
            guard remembers, end - start >= 16 else { return nil }
            let raw = UnsafeRawPointer(b + start)
            guard raw.loadUnaligned(as: UInt64.self) == minuteText.0, raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == minuteText.1
            else { return nil }
            return (minuteDays, minuteSeconds)
        }

        /// Remembers the minute of a time read whole at `b[start...]` in the plain layout, on
        /// day `days`.
        @inline(__always)
        mutating func remember(_ b: UnsafePointer<UInt8>, _ start: Int, days: Int) {
            let raw = UnsafeRawPointer(b + start)
            minuteText = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            minuteDays = days
            let hour = Int(b[start + 11] &- 0x30) * 10 + Int(b[start + 12] &- 0x30)
            let minute = Int(b[start + 14] &- 0x30) * 10 + Int(b[start + 15] &- 0x30)
            minuteSeconds = hour * 3600 + minute * 60
            remembers = true
        }

        /// The day count of a date, or `nil` when the date does not exist.
        @inline(__always)
        mutating func days(year: Int, month: Int, day: Int) -> Int? {
            if year == self.year, month == self.month, day == self.day { return days }
            guard Timestamp.isValidDate(year: year, month: month, day: day) else { return nil }
            self.year = year
            self.month = month
            self.day = day
            days = Timestamp.daysFromCivil(year: year, month: month, day: day)
            return days
        }
    }

    @inline(__always)
    private static func digits(_ b: UnsafePointer<UInt8>, _ i: Int, _ n: Int, _ end: Int) -> Int? {
        guard i + n <= end else { return nil }
        var value = 0
        for k in 0..<n {
            let d = b[i + k] &- 0x30
            if d > 9 { return nil }
            value = value * 10 + Int(d)
        }
        return value
    }

    /// Parses a fraction of a second (`.` or `,` already consumed) into nanoseconds, rounding
    /// digits beyond the ninth; returns the index after the digits.
    @inline(__always)
    static func fraction(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (nanos: Int, end: Int) {
        var i = start
        var nanos = 0
        var scale = 100_000_000
        var roundUp = false
        while i < end {
            let d = b[i] &- 0x30
            if d > 9 { break }
            if scale >= 1 {
                nanos += Int(d) * scale
                scale /= 10
            } else if i - start == 9 {
                roundUp = d >= 5
            }
            i += 1
        }
        if roundUp { nanos += 1 }
        return (nanos, i)
    }

    /// Parses an ISO-8601 date-time (`YYYY-MM-DD[T ]hh:mm[:ss[.f]][Z|±hh[:mm]]`, `/` also accepted
    /// in the date); a value without a zone is UTC (SPEC §1.1: traces are UTC).
    @inline(__always)
    static func parseISO8601(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, cache: inout DayCache) -> Timestamp? {
        var zoned = false
        return parseISO8601(b, start, end, cache: &cache, zoned: &zoned)
    }

    /// ``parseISO8601(_:_:_:cache:)``, saying in `zoned` whether the text names its zone.
    @inline(__always)
    static func parseISO8601(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, cache: inout DayCache, zoned: inout Bool) -> Timestamp? {
        zoned = false
        let days: Int
        let secondOfDay: Int
        let nanos: Int
        var i: Int
        if let known = cache.minute(b, start, end) {
            // The same date, hour and minute as the last time read whole: what the full parse
            // below reads from these 16 bytes, it read from them then.
            guard let (second, n, stop) = secondsAfterMinute(b, start + 16, end) else { return nil }
            (days, secondOfDay, nanos, i) = (known.days, known.seconds + second, n, stop)
        } else {
            i = start
            var negativeYear = false
            if i < end, b[i] == 0x2D || b[i] == 0x2B {
                negativeYear = b[i] == 0x2D
                i += 1
            }
            guard var year = digits(b, i, 4, end) else { return nil }
            if negativeYear { year = -year }
            i += 4
            guard i < end else { return nil }
            let separator = b[i]
            guard separator == 0x2D || separator == 0x2F else { return nil }
            guard let month = digits(b, i + 1, 2, end), i + 3 < end, b[i + 3] == separator,
                let day = digits(b, i + 4, 2, end)
            else { return nil }
            i += 6
            guard i < end, b[i] == 0x54 || b[i] == 0x74 || b[i] == 0x20 else { return nil }
            i += 1
            while i < end, b[i] == 0x20 { i += 1 }
            guard let (second, n, stop) = timeOfDay(b, i, end, requireColons: true),
                let d = cache.days(year: year, month: month, day: day)
            else { return nil }
            (days, secondOfDay, nanos, i) = (d, second, n, stop)
            // A colon at 13 is the plain layout's (no sign, the hour right after the `T`, the
            // minute at 14–15): a sign or a space puts a digit of the hour, a space or the `T`
            // there. A time read whole has at least 16 bytes (a date, a `T`, `hh:mm`).
            if b[start + 13] == 0x3A { cache.remember(b, start, days: days) }
        }
        var offset = 0
        if i < end {
            switch b[i] {
            case 0x5A, 0x7A:
                i += 1
                zoned = true
            case 0x2B, 0x2D:
                guard let (zone, stop) = zoneOffset(b, i, end) else { return nil }
                offset = zone
                i = stop
                zoned = true
            default:
                return nil
            }
        }
        guard i == end else { return nil }
        return Timestamp(seconds: Int64(days) * 86_400 + Int64(secondOfDay - offset), nanoseconds: Int64(nanos))
    }

    /// Parses `±hh`, `±hhmm` or `±hh:mm` into seconds east of UTC.
    static func zoneOffset(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (seconds: Int, end: Int)? {
        guard start < end else { return nil }
        let sign = b[start] == 0x2D ? -1 : 1
        guard b[start] == 0x2D || b[start] == 0x2B else { return nil }
        var i = start + 1
        // A one-digit hour (`-7`) appears in hand-written offsets.
        var hours: Int
        if let hh = digits(b, i, 2, end) {
            hours = hh
            i += 2
        } else if let h = digits(b, i, 1, end) {
            hours = h
            i += 1
        } else {
            return nil
        }
        var minutes = 0
        if i < end, b[i] == 0x3A { i += 1 }
        if i < end, ByteClass.isDigit(b[i]) {
            guard let mm = digits(b, i, 2, end) else { return nil }
            minutes = mm
            i += 2
        }
        guard hours <= 23, minutes <= 59 else { return nil }
        return (sign * (hours * 3600 + minutes * 60), i)
    }

    /// Parses a time of day: `hh:mm[:ss[.f]]`, or `hhmmss[.f]` when `requireColons` is false.
    /// - Returns: seconds since midnight, nanoseconds, and the index after the time.
    @inline(__always)
    static func timeOfDay(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, requireColons: Bool) -> (Int, Int, Int)? {
        var i = start
        guard let hour = digits(b, i, 2, end) else { return nil }
        i += 2
        var minute = 0
        var second = 0
        var nanos = 0
        if i < end, b[i] == 0x3A {
            guard let mm = digits(b, i + 1, 2, end), let (ss, n, stop) = secondsAfterMinute(b, i + 3, end) else { return nil }
            (minute, second, nanos, i) = (mm, ss, n, stop)
        } else {
            guard !requireColons, let mm = digits(b, i, 2, end), let ss = digits(b, i + 2, 2, end) else { return nil }
            minute = mm
            second = ss
            i += 4
            nanos = fractionIfAny(b, &i, end)
        }
        guard hour <= 23, minute <= 59, second <= 60 else { return nil }
        return (hour * 3600 + minute * 60 + second, nanos, i)
    }

    /// What follows the minute of `hh:mm` (`[:ss][.f]`): the second, its nanoseconds and the
    /// index after them; `nil` for a second that is not two digits or is past 60.
    @inline(__always)
    static func secondsAfterMinute(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (second: Int, nanos: Int, end: Int)? {
        var i = start
        var second = 0
        if i < end, b[i] == 0x3A {
            guard let ss = digits(b, i + 1, 2, end) else { return nil }
            second = ss
            i += 3
        }
        let nanos = fractionIfAny(b, &i, end)
        guard second <= 60 else { return nil }
        return (second, nanos, i)
    }

    /// The fraction of a second at `i` (after `.` or `,`), moving `i` past it; 0 when there is
    /// none.
    @inline(__always)
    private static func fractionIfAny(_ b: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) -> Int {
        guard i < end, b[i] == 0x2E || b[i] == 0x2C else { return 0 }
        // `222509.` (a point and no digits) is a whole second, as receivers write it.
        let (nanos, stop) = fraction(b, i + 1, end)
        i = stop
        return nanos
    }

    /// Parses a calendar date alone: `YYYY-MM-DD`, `YYYY/MM/DD`, `DD.MM.YYYY`, `YYYYMMDD`, or
    /// six digits as `YYMMDD` (Columbus V-900/V-1000 loggers; years 00–79 are 2000–2079,
    /// 80–99 are 1980–1999).
    /// - Returns: days since 1970-01-01.
    static func date(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, sixDigitOrder: SixDigitDate = .yymmdd) -> Int? {
        let n = end - start
        var year = 0, month = 0, day = 0
        if n == 10, let y = digits(b, start, 4, end), b[start + 4] == 0x2D || b[start + 4] == 0x2F,
            b[start + 7] == b[start + 4], let m = digits(b, start + 5, 2, end), let d = digits(b, start + 8, 2, end)
        {
            (year, month, day) = (y, m, d)
        } else if n == 10, let d = digits(b, start, 2, end), b[start + 2] == 0x2E, b[start + 5] == 0x2E,
            let m = digits(b, start + 3, 2, end), let y = digits(b, start + 6, 4, end)
        {
            (year, month, day) = (y, m, d)
        } else if n == 8, let y = digits(b, start, 4, end), let m = digits(b, start + 4, 2, end), let d = digits(b, start + 6, 2, end) {
            (year, month, day) = (y, m, d)
        } else if n == 6, let a = digits(b, start, 2, end), let m = digits(b, start + 2, 2, end), let c = digits(b, start + 4, 2, end) {
            let (yy, dd) = sixDigitOrder == .yymmdd ? (a, c) : (c, a)
            (year, month, day) = (yy < 80 ? 2000 + yy : 1900 + yy, m, dd)
        } else {
            return nil
        }
        guard Timestamp.isValidDate(year: year, month: month, day: day) else { return nil }
        return Timestamp.daysFromCivil(year: year, month: month, day: day)
    }

    /// How a six-digit date is ordered.
    enum SixDigitDate {
        /// Columbus loggers: `250724` is 2025-07-24.
        case yymmdd
        /// NMEA RMC: `070804` is 2004-08-07.
        case ddmmyy
    }

    /// A timestamp from an epoch number; `unit` nil picks the unit by magnitude.
    ///
    /// By magnitude (documented in ``CSVColumnMapping/TimeFormat``): below 1e11 seconds (up to
    /// year 5138), below 1e14 milliseconds, below 1e17 microseconds, otherwise nanoseconds.
    static func epoch(_ value: Double, digits: UnsafeBufferPointer<UInt8>?, unit: CSVColumnMapping.TimeFormat?) -> Timestamp? {
        guard value.isFinite else { return nil }
        let magnitude = abs(value)
        let resolved: CSVColumnMapping.TimeFormat
        if let unit, unit != .iso8601, unit != .epoch {
            resolved = unit
        } else if magnitude < 1e11 {
            resolved = .epochSeconds
        } else if magnitude < 1e14 {
            resolved = .epochMilliseconds
        } else if magnitude < 1e17 {
            resolved = .epochMicroseconds
        } else {
            resolved = .epochNanoseconds
        }
        // Integers are converted exactly (a Double cannot hold every nanosecond since 1970).
        if let digits, let integer = exactInteger(digits) {
            switch resolved {
            case .epochSeconds: return Timestamp(seconds: integer)
            case .epochMilliseconds: return Timestamp(seconds: integer / 1000, nanoseconds: (integer % 1000) * 1_000_000)
            case .epochMicroseconds: return Timestamp(seconds: integer / 1_000_000, nanoseconds: (integer % 1_000_000) * 1000)
            default: return Timestamp(seconds: integer / 1_000_000_000, nanoseconds: integer % 1_000_000_000)
            }
        }
        switch resolved {
        case .epochSeconds: return Timestamp(epochSeconds: value)
        case .epochMilliseconds: return Timestamp(epochSeconds: value / 1e3)
        case .epochMicroseconds: return Timestamp(epochSeconds: value / 1e6)
        default: return Timestamp(epochSeconds: value / 1e9)
        }
    }

    private static func exactInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var negative = false
        if i < bytes.count, bytes[i] == 0x2D || bytes[i] == 0x2B {
            negative = bytes[i] == 0x2D
            i += 1
        }
        guard i < bytes.count, bytes.count - i <= 19 else { return nil }
        var value: Int64 = 0
        while i < bytes.count {
            let d = bytes[i] &- 0x30
            if d > 9 { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(d))
            if overflow1 || overflow2 { return nil }
            value = sum
            i += 1
        }
        return negative ? -value : value
    }
}
