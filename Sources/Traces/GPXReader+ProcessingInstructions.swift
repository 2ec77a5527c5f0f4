import Support

extension GPXReader {
    /// Refuses a processing instruction that has a target and no data (`<?x?>`), located at its
    /// `<?`.
    ///
    /// libxml2 reports such an instruction with a null data pointer, which FoundationXML hands to
    /// `strlen`: fencesim crashed on a 212-byte file beginning `<?x?>` (found by fuzzing;
    /// `Fuzz/regressions/gpx`). A GPX file has no use for one. A `<?` inside a comment or a CDATA
    /// section is text and is skipped. UTF-16 and UTF-32 documents are scanned by code unit.
    ///
    /// - Complexity: O(n) in the file's size.
    /// - Throws: ``Support/FencesimError`` `.badData` at the instruction.
    static func checkProcessingInstructions(_ bytes: [UInt8], path: String) throws(FencesimError) {
        let units = asciiUnits(bytes)
        let n = units.count
        func starts(_ pattern: [UInt8], at k: Int) -> Bool {
            k + pattern.count <= n && units[k..<(k + pattern.count)].elementsEqual(pattern)
        }
        /// The index just past the first `terminator` at or after `k`, or the end.
        func skip(past terminator: [UInt8], from k: Int) -> Int {
            var j = k
            while j < n, !starts(terminator, at: j) { j += 1 }
            return min(n, j + terminator.count)
        }
        let commentStart = Array("<!--".utf8), commentEnd = Array("-->".utf8)
        let cdataStart = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
        let instructionEnd = Array("?>".utf8)
        var i = 0
        while i + 1 < n {
            guard units[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            switch units[i + 1] {
            case UInt8(ascii: "!") where starts(commentStart, at: i):
                i = skip(past: commentEnd, from: i + commentStart.count)
            case UInt8(ascii: "!") where starts(cdataStart, at: i):
                i = skip(past: cdataEnd, from: i + cdataStart.count)
            case UInt8(ascii: "?"):
                var j = i + 2
                while j < n, isNameUnit(units[j]) { j += 1 }
                if j > i + 2, starts(instructionEnd, at: j) {
                    let target = String(decoding: units[(i + 2)..<j], as: UTF8.self)
                    throw FencesimError(
                        .badData, "the processing instruction <?\(target)?> has no data; fencesim does not read such instructions",
                        at: SourceText(file: path, bytes: units).location(ofOffset: i))
                }
                i = j
            default:
                i += 1
            }
        }
    }

    /// Whether a code unit can be part of a processing instruction's target as this check reads
    /// it: ASCII name characters and anything beyond ASCII.
    private static func isNameUnit(_ unit: UInt8) -> Bool {
        switch unit {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    /// The document as one byte per code unit: the bytes themselves for UTF-8 and single-byte
    /// encodings; for UTF-16 and UTF-32 (told by a byte-order mark or a `<` of that width), each
    /// unit's ASCII value, or 0x80 for a unit beyond ASCII. Lines and columns of the result are
    /// those of the document's characters (outside the astral planes).
    static func asciiUnits(_ bytes: [UInt8]) -> [UInt8] {
        let width: Int
        let low: Int
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) {
            (width, low) = (4, 3)
        } else if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) {
            (width, low) = (4, 0)
        } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0x00, 0x3C]) {
            (width, low) = (2, 1)
        } else if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0x3C, 0x00]) {
            (width, low) = (2, 0)
        } else {
            return bytes
        }
        var units: [UInt8] = []
        units.reserveCapacity(bytes.count / width)
        var k = 0
        while k + width <= bytes.count {
            var ascii = bytes[k + low] < 0x80
            for b in 0..<width where b != low && bytes[k + b] != 0 { ascii = false }
            units.append(ascii ? bytes[k + low] : 0x80)
            k += width
        }
        return units
    }
}
