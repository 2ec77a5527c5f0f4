import Support

/// Where a producer that knows its keys hands the fields of a log line, in ``LogEvent/fieldOrder``
/// order: into a ``LogEvent``'s fields (``LogFieldList``), or straight into the bytes of the
/// rendered line (``EventLineRenderer``), so that the fields are defined once for both.
///
/// The typed forms mean exactly the ``JSONValue`` their defaults build (a time is its ISO 8601
/// string); a sink may write them without building it.
protocol LogFieldSink: ~Copyable {
    mutating func field(_ key: LogEvent.Key, _ value: JSONValue)
    mutating func field(_ key: LogEvent.Key, string: String)
    mutating func field(_ key: LogEvent.Key, int: Int64)
    mutating func field(_ key: LogEvent.Key, number: Double)
    mutating func field(_ key: LogEvent.Key, bool: Bool)
    mutating func field(_ key: LogEvent.Key, time: Timestamp)
    /// A string field whose key is outside ``LogEvent/fieldOrder`` (after its keys; a CSV's
    /// extra column): a geotrigger's name.
    mutating func field(extra key: String, string: String)
}

extension LogFieldSink where Self: ~Copyable {
    mutating func field(_ key: LogEvent.Key, string: String) { field(key, .string(string)) }
    mutating func field(_ key: LogEvent.Key, int: Int64) { field(key, .int(int)) }
    mutating func field(_ key: LogEvent.Key, number: Double) { field(key, .double(number)) }
    mutating func field(_ key: LogEvent.Key, bool: Bool) { field(key, .bool(bool)) }
    mutating func field(_ key: LogEvent.Key, time: Timestamp) { field(key, .string(time.description)) }
}

/// The fields of a ``LogEvent``, gathered from a producer.
struct LogFieldList: LogFieldSink {
    var fields: [(String, JSONValue)] = []

    init(capacity: Int) {
        fields.reserveCapacity(capacity)
    }

    mutating func field(_ key: LogEvent.Key, _ value: JSONValue) {
        fields.append((key.name, value))
    }

    mutating func field(extra key: String, string: String) {
        fields.append((key, .string(string)))
    }
}
