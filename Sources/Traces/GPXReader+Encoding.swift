import Foundation
import Support

extension GPXReader {
    /// Single-byte encodings in which every byte is a character, so that libxml2's conversion
    /// always yields UTF-8. (windows-1252 leaves five bytes undefined; see ``checkEncoding(_:path:)``.)
    static let byteTransparentEncodings: Set<String> = [
        "iso-8859-1", "iso_8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso-8859-15", "iso_8859-15", "latin-9", "latin9",
    ]

    /// Refuses a GPX document whose bytes are not UTF-8 unless it is UTF-16 or UTF-32 (a byte-order
    /// mark or a `<` of that width) or declares an encoding libxml2 turns into UTF-8 whatever the
    /// bytes.
    ///
    /// FoundationXML force-unwraps element and attribute names as UTF-8; libxml2, in the recovery
    /// mode FoundationXML asks for, can hand over the raw bytes of a name that is not, which
    /// crashed fencesim on a 5-byte file (`<\xFF\0pt`, found by fuzzing; `Fuzz/regressions/gpx`).
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` located at the first byte that is not UTF-8.
    static func checkEncoding(_ bytes: [UInt8], path: String) throws(FencesimError) {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF])
            || bytes.starts(with: [0x3C, 0x00]) || bytes.starts(with: [0x00, 0x3C])
        {
            return
        }
        guard let bad = firstInvalidUTF8(bytes) else { return }
        let declared = declaredEncoding(bytes)
        if let declared {
            if byteTransparentEncodings.contains(declared) { return }
            if declared == "windows-1252" || declared == "cp1252",
                !bytes.contains(where: { [0x81, 0x8D, 0x8F, 0x90, 0x9D].contains($0) })
            {
                return
            }
        }
        let location = SourceText(file: path, bytes: bytes).location(ofOffset: bad)
        let hex = String(bytes[bad], radix: 16, uppercase: true)
        let what =
            declared.map { "the declared encoding \"\($0)\" is not one fencesim reads from such bytes" }
            ?? "the file declares no other encoding"
        throw FencesimError(
            .badData, "byte 0x\(hex.count == 1 ? "0" + hex : hex) is not UTF-8, and \(what) (UTF-8, UTF-16, ISO-8859-1)",
            at: location)
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { Sniffer.firstInvalidUTF8($0, cutAtEnd: .invalid) }
    }

    /// The `encoding` of the XML declaration, lowercased, when the document starts with one.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard bytes.count > start + 5, bytes[start..<(start + 5)].elementsEqual("<?xml".utf8) else { return nil }
        let head = bytes[start..<min(bytes.count, start + 256)]
        guard let close = head.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: bytes[start..<close], as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[key.upperBound...].drop(while: { $0 == " " || $0 == "=" || $0 == "\t" })
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        return String(rest.prefix(while: { $0 != quote })).lowercased()
    }
}
