import Foundation
import Support

extension ZoneConditions.TimeWindow {
    /// The offset from UTC of a time-zone name at `time`, in seconds; `nil` for an unknown name.
    ///
    /// Accepts `UTC`/`Z`, fixed offsets `+hh:mm`/`-hhmm`, and IANA names from the system's time
    /// zone database.
    public static func utcOffsetSeconds(_ zone: String, at time: Timestamp) -> Int? {
        if zone == "UTC" || zone == "Z" || zone == "GMT" { return 0 }
        if let first = zone.first, first == "+" || first == "-" {
            let digits = zone.dropFirst().filter(\.isNumber)
            guard digits.count == 4 || digits.count == 2, let value = Int(digits) else { return nil }
            let hours = digits.count == 4 ? value / 100 : value
            let minutes = digits.count == 4 ? value % 100 : 0
            guard hours <= 23, minutes <= 59 else { return nil }
            return (first == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        guard let tz = TimeZone(identifier: zone) else { return nil }
        return tz.secondsFromGMT(for: Date(timeIntervalSince1970: time.epochSeconds))
    }

    /// Whether `time` falls in the window (local to its time zone).
    public func contains(_ time: Timestamp) -> Bool {
        guard let offset = Self.utcOffsetSeconds(timeZone, at: time) else { return false }
        let local = time.adding(seconds: Double(offset)).civil
        let minute = local.hour * 60 + local.minute
        if fromMinute < toMinute {
            return (days.isEmpty || days.contains(local.weekday)) && minute >= fromMinute && minute < toMinute
        }
        // Past midnight: the evening part belongs to today, the morning part to yesterday.
        if minute >= fromMinute { return days.isEmpty || days.contains(local.weekday) }
        if minute < toMinute { return days.isEmpty || days.contains((local.weekday + 6) % 7) }
        return false
    }
}
