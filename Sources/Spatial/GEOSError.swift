/// A failure reported by GEOS or PROJ, carrying the library's own message.
public struct SpatialError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `GEOSBuffer_r`.
    public var function: String
    /// The library's message (GEOS error handler text, PROJ errno string), or a description.
    public var message: String

    public init(function: String, message: String) {
        self.function = function
        self.message = message
    }

    public var description: String { "\(function): \(message)" }
}
