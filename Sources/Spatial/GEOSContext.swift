import CGEOS

/// Owns one GEOS context handle (`GEOS_init_r` / `GEOS_finish_r`) with error and notice handlers.
///
/// GEOS catches every C++ exception at its C boundary, passes the exception's text to the
/// context's error handler and returns its error value (NULL, 0 or 2 depending on the function;
/// each call site says which). The handler stores the text here and the failing wrapper throws it
/// as a ``SpatialError``, so a bad ring or bad WKT surfaces as, for example,
/// `GEOSWKTReader_read_r: ParseException: Expected word but encountered end of stream`.
///
/// - Important: Not thread-safe, and deliberately not `Sendable`. GEOS contexts "must only be used
///   from a single thread at a time" (libgeos#907), and sharing one across threads has produced
///   wrong predicate results (QGIS#57082). Each worker creates its own context and every geometry
///   it makes; objects from different contexts are never mixed (LibGEOS.jl#139).
public final class GEOSContext {
    /// The raw handle, for use inside `Spatial` only.
    let handle: GEOSContextHandle_t
    /// The most recent error message GEOS reported through the error handler and no wrapper has
    /// turned into a thrown error yet.
    private(set) var lastError: String?
    /// Notices GEOS reported (for example "Self-intersection at or near point 1 1" from
    /// ``Geometry/isValid``), oldest first; callers turn them into warnings. At most
    /// ``maximumNotices`` are kept.
    public private(set) var notices: [String] = []
    /// How many notices are kept before further ones are dropped (a bound, so that a long run
    /// that never takes its notices cannot grow without limit).
    public static let maximumNotices = 1000

    /// Creates a context with handlers installed.
    ///
    /// - Throws: ``SpatialError`` when GEOS cannot allocate a context.
    public init() throws(SpatialError) {
        guard let handle = GEOS_init_r() else {
            throw SpatialError(function: "GEOS_init_r", message: "GEOS could not create a context")
        }
        self.handle = handle
        // The handlers get `self` back through userdata, unretained: the handle never outlives
        // `self` because `deinit` finishes it, and every geometry keeps its context alive.
        let me = Unmanaged.passUnretained(self).toOpaque()
        GEOSContext_setErrorMessageHandler_r(
            handle,
            { message, userdata in
                guard let userdata, let message else { return }
                let context = Unmanaged<GEOSContext>.fromOpaque(userdata).takeUnretainedValue()
                context.lastError = GEOSContext.clean(message)
            }, me)
        GEOSContext_setNoticeMessageHandler_r(
            handle,
            { message, userdata in
                guard let userdata, let message else { return }
                let context = Unmanaged<GEOSContext>.fromOpaque(userdata).takeUnretainedValue()
                if context.notices.count < GEOSContext.maximumNotices {
                    context.notices.append(GEOSContext.clean(message))
                }
            }, me)
    }

    deinit {
        // Geometries, prepared geometries and trees hold their context strongly, so nothing made
        // with this handle is left to free.
        GEOS_finish_r(handle)
    }

    /// Removes and returns the notices collected so far.
    public func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    /// The error for a failed call to `function`: GEOS's own message when it set one.
    func error(_ function: String) -> SpatialError {
        defer { lastError = nil }
        return SpatialError(function: function, message: lastError ?? "GEOS reported an exception")
    }

    /// Forgets a message left by a call whose failure was not reported (a C function without an
    /// error return), so that it is not attributed to a later failure.
    @inline(__always)
    func clearError() {
        if lastError != nil { lastError = nil }
    }

    /// A GEOS message without the trailing newline some messages carry.
    private static func clean(_ message: UnsafePointer<CChar>) -> String {
        var text = Substring(String(cString: message))
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
