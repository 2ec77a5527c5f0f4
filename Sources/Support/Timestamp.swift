/// An instant in UTC with nanosecond resolution, valid for any year from -9999 to 9999.
///
/// Stored as whole seconds since 1970-01-01T00:00:00Z plus a nanosecond part in `0..<1e9`, so
/// equality and ordering are exact (traces carry years such as 1234 and 4096, beyond the range of
/// a 64-bit nanosecond count). The engine only ever gets time from traces and scenarios; nothing in
/// fencesim's libraries reads the clock.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Whole seconds since the Unix epoch (negative before 1970).
    public private(set) var seconds: Int64
    /// Nanoseconds within the second, `0..<1_000_000_000`.
    public private(set) var nanoseconds: Int32

    /// The first instant fencesim reads: -9999-01-01T00:00:00Z.
    public static let earliest = Timestamp(seconds: -377_705_116_800)
    /// The last whole second fencesim reads: 9999-12-31T23:59:59Z.
    public static let latest = Timestamp(seconds: 253_402_300_799)
    /// Seconds from ``earliest`` to ``latest``, about 20,000 years: no duration between two
    /// instants fencesim reads is longer, so a longer duration in a setting (a time-to-live, a
    /// re-trigger time) is refused rather than carried into arithmetic that would overflow.
    public static let spanSeconds = Double(latest.seconds - earliest.seconds)

    /// Creates a timestamp, normalising `nanoseconds` into `0..<1e9`.
    public init(seconds: Int64, nanoseconds: Int64 = 0) {
        var s = seconds
        var n = nanoseconds
        s += n / 1_000_000_000
        n %= 1_000_000_000
        if n < 0 {
            n += 1_000_000_000
            s -= 1
        }
        self.seconds = s
        self.nanoseconds = Int32(n)
    }

    /// Creates a timestamp from fractional seconds since the epoch, rounded to the nearest
    /// nanosecond. Returns `nil` for non-finite or out-of-range values.
    public init?(epochSeconds value: Double) {
        guard value.isFinite, abs(value) < 4e11 else { return nil }
        let whole = value.rounded(.down)
        let nanos = ((value - whole) * 1e9).rounded()
        self.init(seconds: Int64(whole), nanoseconds: Int64(nanos))
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// Seconds from `other` to `self` (positive when `self` is later).
    public func seconds(since other: Timestamp) -> Double {
        Double(seconds - other.seconds) + Double(Int64(nanoseconds) - Int64(other.nanoseconds)) * 1e-9
    }

    /// Whole nanoseconds from `other` to `self`; exact for spans shorter than about 292 years.
    public func nanoseconds(since other: Timestamp) -> Int64 {
        (seconds - other.seconds) &* 1_000_000_000 &+ Int64(nanoseconds) - Int64(other.nanoseconds)
    }

    /// This instant moved by `interval` seconds, rounded to the nearest nanosecond.
    public func adding(seconds interval: Double) -> Timestamp {
        let whole = interval.rounded(.down)
        let nanos = ((interval - whole) * 1e9).rounded()
        return Timestamp(seconds: seconds + Int64(whole), nanoseconds: Int64(nanoseconds) + Int64(nanos))
    }

    /// This instant moved by a whole number of nanoseconds.
    public func adding(nanoseconds interval: Int64) -> Timestamp {
        Timestamp(seconds: seconds, nanoseconds: Int64(nanoseconds) + interval)
    }

    /// Seconds since the epoch as a `Double` (about 0.2 µs resolution today).
    public var epochSeconds: Double { Double(seconds) + Double(nanoseconds) * 1e-9 }

    /// ISO-8601 UTC with milliseconds, e.g. `2026-01-01T00:00:00.000Z` (SPEC §6.6).
    public var description: String { iso8601(fractionDigits: 3) }
}
