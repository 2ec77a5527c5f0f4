import Foundation
import Support

/// The zone of local times written without one: a fixed offset from UTC or an IANA zone
/// (`Europe/Zurich`, whose offset follows daylight saving time).
public enum LocalTimeZone: Sendable, Hashable, CustomStringConvertible {
    /// Seconds east of UTC.
    case offset(Int)
    /// An IANA time-zone identifier.
    case named(String)

    /// Parses `UTC`, `Z`, `±hh`, `±hh:mm`, `±hhmm` or an IANA zone name.
    ///
    /// - Returns: `nil` for text that is none of these (an unknown zone name).
    public init?(parsing text: String) {
        let trimmed = text.trimmingSpaces()
        switch trimmed.uppercased() {
        case "UTC", "Z", "GMT":
            self = .offset(0)
            return
        default:
            break
        }
        if let first = trimmed.first, first == "+" || first == "-" {
            let bytes = Array(trimmed.utf8)
            let parsed: (seconds: Int, end: Int)? = bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return nil }
                return TimeParser.zoneOffset(base, 0, buffer.count)
            }
            guard let (seconds, end) = parsed, end == bytes.count else { return nil }
            self = .offset(seconds)
            return
        }
        guard TimeZone(identifier: trimmed) != nil else { return nil }
        self = .named(trimmed)
    }

    /// `+02:00` or the zone's name.
    public var description: String {
        switch self {
        case .named(let name):
            return name
        case .offset(let seconds):
            let sign = seconds < 0 ? "-" : "+"
            let minutes = abs(seconds) / 60
            let hh = minutes / 60 < 10 ? "0\(minutes / 60)" : "\(minutes / 60)"
            let mm = minutes % 60 < 10 ? "0\(minutes % 60)" : "\(minutes % 60)"
            return "\(sign)\(hh):\(mm)"
        }
    }

    /// The Foundation zone of a named zone, made once per read.
    var resolved: TimeZone? {
        if case .named(let name) = self { return TimeZone(identifier: name) }
        return nil
    }

    /// The UTC instant of a local wall-clock time read as if it were UTC; `resolved` is
    /// ``resolved``.
    func utc(fromLocal local: Timestamp, resolved: TimeZone?) -> Timestamp {
        Timestamp(seconds: local.seconds - Int64(offset(atLocal: local.seconds, resolved: resolved)), nanoseconds: Int64(local.nanoseconds))
    }

    private func offset(atLocal seconds: Int64, resolved: TimeZone?) -> Int {
        switch self {
        case .offset(let offset):
            return offset
        case .named:
            guard let zone = resolved else { return 0 }
            // The offset at the instant the local time would be with the offset of the local
            // time read as UTC; a second look settles times near a transition.
            let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
            return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds - Int64(guess))))
        }
    }
}
