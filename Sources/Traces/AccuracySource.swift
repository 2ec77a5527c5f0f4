/// Which rule of the accuracy policy (SPEC §1.1) produced a fix's horizontal accuracy.
public enum AccuracySource: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The source reported a horizontal accuracy (GPX Apple Health `hAcc`, a CSV accuracy column).
    case reported
    /// HDOP times the configured UERE (GPX `<hdop>`, NMEA GGA, a CSV HDOP column).
    case hdop
    /// Neither was available: the configured default accuracy.
    case `default`

    /// `reported`, `hdop` or `default`.
    public var description: String { rawValue }
}
