/// Byte classification shared by the text readers.
enum ByteClass {
    /// Space, tab, CR, LF, NUL (Columbus loggers pad fields with NULs) and the other ASCII
    /// controls that never carry meaning inside a field.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte <= 0x20 && (byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A || byte == 0 || byte == 0x0B || byte == 0x0C)
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// ASCII lower case of a letter; other bytes unchanged.
    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// A short printable rendering of bytes for messages (at most `limit` characters).
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int = 40) -> String {
        var scalars = String.UnicodeScalarView()
        var out = ""
        var decoded = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
        decoded = decoded.replacingNULs()
        for scalar in decoded.unicodeScalars.prefix(limit) { scalars.append(scalar) }
        out = String(scalars)
        if decoded.unicodeScalars.count > limit { out += "…" }
        return out
    }
}

extension String {
    fileprivate func replacingNULs() -> String {
        String(String.UnicodeScalarView(unicodeScalars.filter { $0.value != 0 }))
    }
}
