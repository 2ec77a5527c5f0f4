/// How to read a trace: the format, strictness, accuracy policy and CSV layout (SPEC §1.1).
public struct TraceReadOptions: Sendable, Hashable {
    /// The format to read, overriding detection; `nil` detects it (content first, then extension).
    public var format: TraceFormat?
    /// `false` (strict, the default): invalid coordinates, unparsable times, time going backwards
    /// and duplicate times are errors. `true`: each becomes a counted, located warning and the
    /// offending fix is dropped.
    public var lenient: Bool
    /// User equivalent range error in metres: accuracy = HDOP × UERE when no accuracy is reported.
    public var uere: Double
    /// Accuracy in metres when a fix has neither a reported accuracy nor an HDOP.
    public var defaultAccuracy: Double
    /// Implied speed in metres per second above which a jump between consecutive fixes is
    /// flagged as implausible (a warning in either mode; the fix is kept).
    public var maximumSpeed: Double
    /// Delimiter and column mapping for CSV input.
    public var csv: CSVOptions
    /// Whether every fix needs a time (a replay): a CSV without a time column is then refused at
    /// its header, naming the columns it has.
    public var requiresTime = false
    /// The zone of CSV times written without one (`2026-01-01 08:00:00`, or a date and a time
    /// of day without a UTC offset column); `nil` reads them as UTC.
    public var timeZone: LocalTimeZone?
    /// Read only this trace of a file that holds several (see ``TraceReader/traces(path:options:)``);
    /// `nil` reads every row.
    public var selection: TraceSelection?

    /// Creates options; the defaults are strict reading, UERE 5 m, default accuracy 10 m and a
    /// 100 m/s implausible-jump threshold.
    public init(
        format: TraceFormat? = nil, lenient: Bool = false, uere: Double = 5, defaultAccuracy: Double = 10,
        maximumSpeed: Double = 100, csv: CSVOptions = CSVOptions()
    ) {
        self.format = format
        self.lenient = lenient
        self.uere = uere
        self.defaultAccuracy = defaultAccuracy
        self.maximumSpeed = maximumSpeed
        self.csv = csv
    }
}
