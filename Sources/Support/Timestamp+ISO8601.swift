extension Timestamp {
    /// Calendar fields of a UTC instant in the proleptic Gregorian calendar.
    public struct CivilTime: Hashable, Sendable {
        public var year: Int, month: Int, day: Int
        public var hour: Int, minute: Int, second: Int
        public var nanosecond: Int
        /// 0 = Sunday ... 6 = Saturday.
        public var weekday: Int
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (`civil_from_days`).
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Whether `day` exists in `month` of `year`.
    public static func isValidDate(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let length = month == 2 && leap ? 29 : lengths[month - 1]
        return day <= length
    }

    /// Creates a timestamp from UTC calendar fields; `nil` if a field is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0) {
        guard (-9999...9999).contains(year), Timestamp.isValidDate(year: year, month: month, day: day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (0..<1_000_000_000).contains(nanosecond)
        else { return nil }
        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        let secs = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.init(seconds: secs, nanoseconds: Int64(nanosecond))
    }

    /// The UTC calendar fields of this instant.
    public var civil: CivilTime {
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (y, m, d) = Timestamp.civilFromDays(days)
        let weekday = ((days % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday (4)
        return CivilTime(
            year: y, month: m, day: d, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60, nanosecond: Int(nanoseconds), weekday: weekday)
    }

    /// ISO-8601 in UTC with `fractionDigits` digits of fraction (0...9), rounded to nearest.
    public func iso8601(fractionDigits: Int = 3) -> String {
        var out = ByteBuffer(capacity: 32)
        appendISO8601(fractionDigits: fractionDigits, to: &out)
        return out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends ``iso8601(fractionDigits:)``'s text to `out` as ASCII bytes (the one
    /// implementation; event logs write millions of these).
    public func appendISO8601(fractionDigits: Int = 3, to out: inout ByteBuffer) {
        precondition((0...9).contains(fractionDigits))
        var unit: Int64 = 1
        for _ in 0..<(9 - fractionDigits) { unit *= 10 }
        // Round to the unit first so that .9996 s prints as the next second, not as .1000.
        let roundedNanos = (Int64(nanoseconds) + unit / 2) / unit * unit
        let t = Timestamp(seconds: seconds, nanoseconds: roundedNanos)
        let c = t.civil
        if fractionDigits == 3, c.year >= 0, c.year < 10_000 {
            // The form logs write, `yyyy-MM-ddTHH:mm:ss.SSSZ`, stored in place (in these years
            // `civil`'s fields are within their ranges: two digits each).
            return out.append(maximum: 24) { p in
                Self.store(c.year / 100, p, 0)
                Self.store(c.year % 100, p, 2)
                p.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 4, as: UInt8.self)
                Self.store(c.month, p, 5)
                p.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 7, as: UInt8.self)
                Self.store(c.day, p, 8)
                p.storeBytes(of: UInt8(ascii: "T"), toByteOffset: 10, as: UInt8.self)
                Self.store(c.hour, p, 11)
                p.storeBytes(of: UInt8(ascii: ":"), toByteOffset: 13, as: UInt8.self)
                Self.store(c.minute, p, 14)
                p.storeBytes(of: UInt8(ascii: ":"), toByteOffset: 16, as: UInt8.self)
                Self.store(c.second, p, 17)
                p.storeBytes(of: UInt8(ascii: "."), toByteOffset: 19, as: UInt8.self)
                let millis = c.nanosecond / 1_000_000
                p.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: millis / 100), toByteOffset: 20, as: UInt8.self)
                Self.store(millis % 100, p, 21)
                p.storeBytes(of: UInt8(ascii: "Z"), toByteOffset: 23, as: UInt8.self)
                return 24
            }
        }
        // At most 46 bytes (a sign, a year of 19 digits, 9 digits of fraction): room for all
        // of them at once, then the two-digit fields as single stores.
        out.reserve(48)
        if c.year < 0 { out.append(UInt8(ascii: "-")) }
        Self.pad(abs(c.year), 4, &out)
        out.append(UInt8(ascii: "-"))
        Self.twoDigits(c.month, &out)
        out.append(UInt8(ascii: "-"))
        Self.twoDigits(c.day, &out)
        out.append(UInt8(ascii: "T"))
        Self.twoDigits(c.hour, &out)
        out.append(UInt8(ascii: ":"))
        Self.twoDigits(c.minute, &out)
        out.append(UInt8(ascii: ":"))
        Self.twoDigits(c.second, &out)
        if fractionDigits > 0 {
            out.append(UInt8(ascii: "."))
            Self.pad(Int(Int64(c.nanosecond) / unit), fractionDigits, &out)
        }
        out.append(UInt8(ascii: "Z"))
    }

    /// Writes times as ``appendISO8601(fractionDigits:to:)`` does with 3 digits of fraction,
    /// remembering the text of the last minute written in the form logs write
    /// (`yyyy-MM-ddTHH:mm:`): a time of the same minute (the fixes of a drive, a second apart)
    /// is written from its second.
    public struct ISO8601Writer {
        /// The minute remembered (seconds since 1970 / 60, rounded down), `nil` for none, and
        /// its text's first 17 bytes.
        private var minute: Int64?
        private var head: (UInt64, UInt64, UInt8) = (0, 0, 0)

        public init() {}

        public mutating func append(_ t: Timestamp, to out: inout ByteBuffer) {
            // The instant written: rounded to the millisecond as appendISO8601 rounds it.
            var seconds = t.seconds
            var millis = (Int(t.nanoseconds) + 500_000) / 1_000_000
            if millis == 1000 {
                seconds += 1
                millis = 0
            }
            let m = seconds >= 0 ? seconds / 60 : -((-seconds + 59) / 60)
            if m == minute {
                let second = Int(seconds - m * 60)
                let head = self.head
                return out.append(maximum: 24) { p in
                    p.storeBytes(of: head.0, as: UInt64.self)
                    p.storeBytes(of: head.1, toByteOffset: 8, as: UInt64.self)
                    p.storeBytes(of: head.2, toByteOffset: 16, as: UInt8.self)
                    Timestamp.store(second, p, 17)
                    p.storeBytes(of: UInt8(ascii: "."), toByteOffset: 19, as: UInt8.self)
                    p.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: millis / 100), toByteOffset: 20, as: UInt8.self)
                    Timestamp.store(millis % 100, p, 21)
                    p.storeBytes(of: UInt8(ascii: "Z"), toByteOffset: 23, as: UInt8.self)
                    return 24
                }
            }
            let start = out.count
            t.appendISO8601(fractionDigits: 3, to: &out)
            // 24 bytes is the form of the years 0–9999 (others take a sign or a fifth digit).
            guard out.count - start == 24 else {
                minute = nil
                return
            }
            out.withUnsafeBytes { bytes in
                head = (
                    bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self),
                    bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self), bytes[start + 16]
                )
            }
            minute = m
        }
    }

    /// Stores `value` (0...99) as two digits at `offset` from `p`.
    @inline(__always)
    fileprivate static func store(_ value: Int, _ p: UnsafeMutableRawPointer, _ offset: Int) {
        p.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10), toByteOffset: offset, as: UInt8.self)
        p.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10), toByteOffset: offset + 1, as: UInt8.self)
    }

    /// Appends `value` (not negative) as ``pad(_:_:_:)`` pads it to two digits.
    @inline(__always)
    private static func twoDigits(_ value: Int, _ out: inout ByteBuffer) {
        guard value < 100 else { return pad(value, 2, &out) }
        out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }

    /// Appends `value` (not negative) in decimal, left-padded with zeros to `width` digits.
    @inline(__always)
    private static func pad(_ value: Int, _ width: Int, _ out: inout ByteBuffer) {
        var digits = 1
        var limit = 10
        while value >= limit, digits < 19 {
            digits += 1
            limit &*= 10
        }
        if width > digits { out.append(repeating: UInt8(ascii: "0"), count: width - digits) }
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        var v = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(v / divisor))
            v %= divisor
            divisor /= 10
        }
    }

    /// Why a time string could not be read, with the 0-based byte offset of the problem.
    public struct ParseFailure: Error, Hashable, Sendable {
        public var message: String
        public var offset: Int
    }

    /// Parses ISO-8601 / RFC 3339 date-times as they appear in traces.
    ///
    /// Accepts `YYYY-MM-DD`, then `T` or a space, `hh:mm[:ss[.fraction]]` with any number of
    /// fraction digits (kept to the nanosecond, further digits rounded), and an optional zone: `Z`,
    /// `±hh`, `±hhmm` or `±hh:mm`. A string without a zone is read as UTC when `assumeUTC` is true
    /// (traces are UTC by SPEC §1.1) and refused otherwise. Slashes are accepted as date
    /// separators (`2013/04/30`), as logger exports write them.
    public static func parseISO8601(_ text: Substring, assumeUTC: Bool = true) -> Result<Timestamp, ParseFailure> {
        var p = Scanner(bytes: Array(text.utf8))
        return p.parseDateTime(assumeUTC: assumeUTC)
    }

    /// Parses an ISO-8601 date-time in a `String` (see ``parseISO8601(_:assumeUTC:)-(Substring,_)``).
    public static func parseISO8601(_ text: String, assumeUTC: Bool = true) -> Result<Timestamp, ParseFailure> {
        parseISO8601(text[...], assumeUTC: assumeUTC)
    }

    /// Parses a date (`YYYY-MM-DD`, `YYYY/MM/DD`) and a separate time of day (`hh:mm:ss[.f]`).
    public static func parse(date: Substring, time: Substring) -> Result<Timestamp, ParseFailure> {
        parseISO8601(date + "T" + time)
    }

    struct Scanner {
        let bytes: [UInt8]
        var i = 0

        mutating func digits(_ count: Int, _ what: String) -> Result<Int, ParseFailure> {
            var value = 0
            for _ in 0..<count {
                guard i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 else {
                    return .failure(ParseFailure(message: "expected \(count) digits of \(what)", offset: i))
                }
                value = value * 10 + Int(bytes[i] - 48)
                i += 1
            }
            return .success(value)
        }

        mutating func expect(_ options: [UInt8], _ what: String) -> Result<Void, ParseFailure> {
            guard i < bytes.count, options.contains(bytes[i]) else {
                return .failure(ParseFailure(message: "expected \(what)", offset: i))
            }
            i += 1
            return .success(())
        }

        mutating func parseDateTime(assumeUTC: Bool) -> Result<Timestamp, ParseFailure> {
            do throws(ParseFailure) {
                var negativeYear = false
                if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                    negativeYear = bytes[i] == UInt8(ascii: "-")
                    i += 1
                }
                var year = try digits(4, "year").get()
                if negativeYear { year = -year }
                let sep = i < bytes.count ? bytes[i] : 0
                try expect([UInt8(ascii: "-"), UInt8(ascii: "/")], "'-' after the year").get()
                let month = try digits(2, "month").get()
                guard i < bytes.count, bytes[i] == sep else {
                    return .failure(ParseFailure(message: "expected '\(Character(UnicodeScalar(sep)))' after the month", offset: i))
                }
                i += 1
                let day = try digits(2, "day").get()
                guard Timestamp.isValidDate(year: year, month: month, day: day) else {
                    return .failure(ParseFailure(message: "no such date \(year)-\(month)-\(day)", offset: 0))
                }
                try expect([UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")], "'T' or a space between date and time").get()
                while i < bytes.count, bytes[i] == UInt8(ascii: " ") { i += 1 }
                let hour = try digits(2, "hour").get()
                try expect([UInt8(ascii: ":")], "':' after the hour").get()
                let minute = try digits(2, "minute").get()
                var second = 0
                var nanos = 0
                if i < bytes.count, bytes[i] == UInt8(ascii: ":") {
                    i += 1
                    second = try digits(2, "second").get()
                    if i < bytes.count, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        let start = i
                        var scale = 100_000_000
                        var roundUp = false
                        while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                            let d = Int(bytes[i] - 48)
                            if scale >= 1 {
                                nanos += d * scale
                                scale /= 10
                            } else if i - start == 9 {
                                roundUp = d >= 5
                            }
                            i += 1
                        }
                        guard i > start else {
                            return .failure(ParseFailure(message: "expected digits after the decimal point", offset: i))
                        }
                        if roundUp { nanos += 1 }
                    }
                }
                guard hour <= 23, minute <= 59, second <= 60 else {
                    return .failure(ParseFailure(message: "time of day \(hour):\(minute):\(second) is out of range", offset: 0))
                }
                var offsetSeconds = 0
                if i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                        i += 1
                    case UInt8(ascii: "+"), UInt8(ascii: "-"):
                        let sign = bytes[i] == UInt8(ascii: "-") ? -1 : 1
                        i += 1
                        let hh = try digits(2, "zone hours").get()
                        var mm = 0
                        if i < bytes.count, bytes[i] == UInt8(ascii: ":") { i += 1 }
                        if i < bytes.count { mm = try digits(2, "zone minutes").get() }
                        guard hh <= 23, mm <= 59 else {
                            return .failure(ParseFailure(message: "zone offset out of range", offset: i))
                        }
                        offsetSeconds = sign * (hh * 3600 + mm * 60)
                    default:
                        return .failure(ParseFailure(message: "unexpected text after the time", offset: i))
                    }
                } else if !assumeUTC {
                    return .failure(ParseFailure(message: "the time has no zone", offset: i))
                }
                guard i == bytes.count else {
                    return .failure(ParseFailure(message: "unexpected text after the time", offset: i))
                }
                let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
                let secs = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
                return .success(Timestamp(seconds: secs, nanoseconds: Int64(nanos)))
            } catch {
                return .failure(error)
            }
        }
    }
}
