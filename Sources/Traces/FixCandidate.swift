import Support

/// A point as a reader parsed it, before validation, the accuracy policy and the strict/lenient
/// decision of ``FixSink``.
///
/// It holds the ``Fix`` being built (so that accepting it copies nothing) plus what validation
/// needs: the reported accuracy, where each value sits on its line, and the first problem.
struct FixCandidate {
    var fix: Fix
    var reportedAccuracy: Double?
    /// The kind of the first problem a reader found in this point; the point will be dropped.
    var rejection: String?
    /// The reader already reported the coordinates (unparsable or empty); skip range checks.
    var coordinatesReported = false
    // 1-based columns, 0 when unknown (kept small: this struct is built once per row).
    private var columnStorage: Int32 = 0
    private var latitudeColumnStorage: Int32 = 0
    private var longitudeColumnStorage: Int32 = 0
    private var timeColumnStorage: Int32 = 0
    private var accuracyColumnStorage: Int32 = 0

    @inline(__always)
    init(line: Int, column: Int? = nil, segment: Int = 0) {
        fix = Fix(time: nil, latitude: .nan, longitude: .nan, line: line, segment: segment)
        self.column = column
    }

    var latitude: Double {
        get { fix.latitude }
        set { fix.latitude = newValue }
    }
    var longitude: Double {
        get { fix.longitude }
        set { fix.longitude = newValue }
    }
    var time: Timestamp? {
        get { fix.time }
        set { fix.time = newValue }
    }
    var hdop: Double? {
        get { fix.hdop }
        set { fix.hdop = newValue }
    }
    var speed: Double? {
        get { fix.speedMetersPerSecond }
        set { fix.speedMetersPerSecond = newValue }
    }
    var course: Double? {
        get { fix.courseDegrees }
        set { fix.courseDegrees = newValue }
    }
    var altitude: Double? {
        get { fix.altitudeMeters }
        set { fix.altitudeMeters = newValue }
    }
    var satellites: Int? {
        get { fix.satellites }
        set { fix.satellites = newValue }
    }
    var line: Int {
        get { fix.line }
        set { fix.line = newValue }
    }
    var segment: Int {
        get { fix.segment }
        set { fix.segment = newValue }
    }

    /// Where the point starts on its line, for messages about the whole point.
    var column: Int? {
        get { Self.get(columnStorage) }
        set { columnStorage = Self.set(newValue) }
    }
    var latitudeColumn: Int? {
        get { Self.get(latitudeColumnStorage) }
        set { latitudeColumnStorage = Self.set(newValue) }
    }
    var longitudeColumn: Int? {
        get { Self.get(longitudeColumnStorage) }
        set { longitudeColumnStorage = Self.set(newValue) }
    }
    var timeColumn: Int? {
        get { Self.get(timeColumnStorage) }
        set { timeColumnStorage = Self.set(newValue) }
    }
    var accuracyColumn: Int? {
        get { Self.get(accuracyColumnStorage) }
        set { accuracyColumnStorage = Self.set(newValue) }
    }

    @inline(__always)
    private static func get(_ value: Int32) -> Int? { value == 0 ? nil : Int(value) }

    @inline(__always)
    private static func set(_ value: Int?) -> Int32 {
        guard let value, value > 0 else { return 0 }
        return Int32(clamping: value)
    }
}
