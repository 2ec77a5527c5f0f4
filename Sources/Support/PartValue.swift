/// How a part writes values that must come back exactly.
public enum PartValue {
    /// A double as its 16 hexadecimal bits (every bit kept, -0 and NaN included).
    public static func double(_ value: Double) -> JSONValue {
        let hex = String(value.bitPattern, radix: 16)
        return .string(String(repeating: "0", count: 16 - hex.utf8.count) + hex)
    }

    public static func double(_ value: Double?) -> JSONValue {
        value.map { double($0) } ?? .null
    }

    /// A timestamp as `[seconds, nanoseconds]`.
    public static func time(_ value: Timestamp) -> JSONValue {
        .list([.int(value.seconds), .int(Int64(value.nanoseconds))])
    }

    public static func time(_ value: Timestamp?) -> JSONValue {
        value.map { time($0) } ?? .null
    }

    /// An error of a trace: its code, message, location and related findings, so that its
    /// ``Support/FencesimError/fullDescription`` and exit status come back the same.
    public static func error(_ e: FencesimError) -> JSONValue {
        .orderedObject([
            ("code", .string(e.code.description)), ("message", .string(e.message)),
            ("file", e.location.map { .string($0.file) } ?? .null), ("line", e.location?.line.map { .int(Int64($0)) } ?? .null),
            ("column", e.location?.column.map { .int(Int64($0)) } ?? .null),
            ("related", .list(e.related.map { .string($0.description) })),
        ])
    }
}
