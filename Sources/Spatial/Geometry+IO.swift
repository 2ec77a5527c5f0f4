import CGEOS

extension Geometry {
    /// Reads Well-Known Text.
    ///
    /// - Throws: ``SpatialError`` with GEOS's parse message (`ParseException: ...`).
    public convenience init(wkt: String, context: GEOSContext) throws(SpatialError) {
        // Reader and result are new objects we own; NULL on exception.
        guard let reader = GEOSWKTReader_create_r(context.handle) else { throw context.error("GEOSWKTReader_create_r") }
        defer { GEOSWKTReader_destroy_r(context.handle, reader) }
        guard let g = GEOSWKTReader_read_r(context.handle, reader, wkt) else { throw context.error("GEOSWKTReader_read_r") }
        self.init(owning: g, context: context)
    }

    /// Reads Well-Known Binary (either byte order; Z and M are kept by GEOS and dropped by
    /// ``shape``).
    ///
    /// - Throws: ``SpatialError`` with GEOS's parse message.
    public convenience init(wkb: [UInt8], context: GEOSContext) throws(SpatialError) {
        guard let reader = GEOSWKBReader_create_r(context.handle) else { throw context.error("GEOSWKBReader_create_r") }
        defer { GEOSWKBReader_destroy_r(context.handle, reader) }
        let g = wkb.withUnsafeBufferPointer { GEOSWKBReader_read_r(context.handle, reader, $0.baseAddress, $0.count) }
        guard let g else { throw context.error("GEOSWKBReader_read_r") }
        self.init(owning: g, context: context)
    }

    /// Well-Known Text with trailing zeros trimmed and up to 17 decimals.
    ///
    /// Reading the text back gives the same coordinates exactly when every coordinate is 0 or at
    /// least 0.1 in magnitude (GEOS writes fixed notation with at most 17 decimals, so smaller
    /// values keep only the digits within 17 decimals: 1e-300 is written as 0).
    public func wkt() throws(SpatialError) -> String {
        guard let writer = GEOSWKTWriter_create_r(context.handle) else { throw context.error("GEOSWKTWriter_create_r") }
        defer { GEOSWKTWriter_destroy_r(context.handle, writer) }
        // GEOS 3.11.1's trimmed writer formats each number into a 128-byte stack buffer in fixed
        // notation and overflows it (aborting the process with "stack smashing detected") for
        // |value| ≥ about 1e129. The untrimmed writer streams its digits and is safe, so it is
        // used for such geometries; their huge values are integers and still round-trip.
        let huge =
            boundingBox.map { box in
                [box.minX, box.minY, box.maxX, box.maxY].contains { $0.isFinite && abs($0) >= 1e100 }
            } ?? false
        GEOSWKTWriter_setTrim_r(context.handle, writer, huge ? 0 : 1)
        GEOSWKTWriter_setRoundingPrecision_r(context.handle, writer, 17)
        // A new string we free with GEOSFree_r; NULL on exception.
        guard let text = GEOSWKTWriter_write_r(context.handle, writer, pointer) else { throw context.error("GEOSWKTWriter_write_r") }
        defer { GEOSFree_r(context.handle, text) }
        return String(cString: text)
    }

    /// Well-Known Binary (little-endian, 2D).
    public func wkb() throws(SpatialError) -> [UInt8] {
        guard let writer = GEOSWKBWriter_create_r(context.handle) else { throw context.error("GEOSWKBWriter_create_r") }
        defer { GEOSWKBWriter_destroy_r(context.handle, writer) }
        GEOSWKBWriter_setByteOrder_r(context.handle, writer, Int32(GEOS_WKB_NDR.rawValue))
        var size = 0
        // A new buffer of `size` bytes we free with GEOSFree_r; NULL on exception.
        guard let bytes = GEOSWKBWriter_write_r(context.handle, writer, pointer, &size) else {
            throw context.error("GEOSWKBWriter_write_r")
        }
        defer { GEOSFree_r(context.handle, bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }
}
