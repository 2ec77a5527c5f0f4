import Support

extension TraceFormat {
    /// Detects the format of the trace at `path`: content first, extension second.
    ///
    /// Content: XML (after any byte-order mark, UTF-8 or UTF-16) is GPX; a first sentence such
    /// as `$GPRMC,` (after `#` comment lines) is NMEA; `Geolife trajectory` is PLT; JSON is refused
    /// (a Google Takeout location history is not a fix log). Other text goes by the extension
    /// (``init(fileExtensionOf:)``) and is CSV when the extension says nothing. gzip is looked
    /// through.
    ///
    /// - Throws: ``Support/FencesimError``: `.missingInput` when the file cannot be opened;
    ///   `.badData` for a directory, an empty file, binary data, or unsupported JSON.
    public static func detect(path: String) throws(FencesimError) -> TraceFormat {
        let source = try ByteSource(path: path)
        let scanner = LineScanner(source: source)
        return try detect(path: path, sample: scanner.peek())
    }

    static func detect(path: String, sample: [UInt8]) throws(FencesimError) -> TraceFormat {
        let sample = sample.prefix(Sniffer.sampleSize)
        let verdict = sample.withUnsafeBufferPointer { Sniffer.sniff($0) }
        switch verdict {
        case .format(let format):
            return format
        case .text:
            return TraceFormat(fileExtensionOf: path) ?? .csv
        case .empty:
            throw FencesimError(.badData, "empty file: there is no trace in it", at: SourceLocation(file: path, line: 1, column: 1))
        case .blank:
            throw FencesimError(.badData, "the file holds only white space, no trace", at: SourceLocation(file: path, line: 1, column: 1))
        case .takeout(let kind):
            throw FencesimError(
                .badData,
                "this is a Google Takeout \(kind) JSON file, not a fix log: it holds place visits and activity segments, not a time-ordered sequence of GPS fixes, and is not supported (convert the raw location history to GPX or CSV)",
                at: SourceLocation(file: path, line: 1, column: 1))
        case .json:
            throw FencesimError(
                .badData, "this is JSON, which is not a supported trace format (use GPX, CSV, NMEA 0183 or GeoLife PLT)",
                at: SourceLocation(file: path, line: 1, column: 1))
        case .binary(let offset, let byte):
            var line = 1
            var column = 1
            for k in 0..<min(offset, sample.count) {
                if sample[k] == 0x0A {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            let hex = String(byte, radix: 16, uppercase: true)
            throw FencesimError(
                .badData, "binary data (byte 0x\(hex.count == 1 ? "0" + hex : hex)), not a GPX, CSV, NMEA or PLT trace",
                at: SourceLocation(file: path, line: line, column: column))
        }
    }
}

/// Content sniffing for ``TraceFormat/detect(path:)``.
enum Sniffer {
    static let sampleSize = 64 * 1024

    enum Verdict: Equatable {
        case format(TraceFormat)
        /// Text with no strong signature: the extension decides.
        case text
        case empty
        case blank
        case takeout(String)
        case json
        case binary(offset: Int, byte: UInt8)
    }

    static func sniff(_ sample: UnsafeBufferPointer<UInt8>) -> Verdict {
        let n = sample.count
        guard n > 0 else { return .empty }
        // UTF-16, with or without a byte-order mark: only XML is plausible.
        if n >= 2 {
            let (a, b) = (sample[0], sample[1])
            if (a == 0xFF && b == 0xFE) || (a == 0xFE && b == 0xFF) || (a == 0x3C && b == 0) || (a == 0 && b == 0x3C) {
                return .format(.gpx)
            }
        }
        var i = 0
        if n >= 3, sample[0] == 0xEF, sample[1] == 0xBB, sample[2] == 0xBF { i = 3 }
        while i < n, ByteClass.isSpace(sample[i]) { i += 1 }
        guard i < n else { return .blank }
        switch sample[i] {
        case 0x3C:  // <
            return .format(.gpx)
        case 0x7B, 0x5B:  // { [
            return sniffJSON(sample)
        default:
            break
        }
        // Control bytes other than white space (NUL pads Columbus logger fields) mean binary.
        var controls = 0
        var firstControl: (Int, UInt8)?
        for k in 0..<n {
            let byte = sample[k]
            if (byte < 0x20 && !ByteClass.isSpace(byte)) || byte == 0x7F {
                controls += 1
                if firstControl == nil { firstControl = (k, byte) }
            }
        }
        if let (offset, byte) = firstControl, controls * 100 > n {
            return .binary(offset: offset, byte: byte)
        }
        // Latin-1 text has a few bytes that are not UTF-8; binary data has many.
        if let offset = firstInvalidUTF8(sample) {
            var high = 0
            for k in 0..<n where sample[k] >= 0x80 { high += 1 }
            if high * 10 > n { return .binary(offset: offset, byte: sample[offset]) }
        }
        // The first line that is not blank and not a `#` comment.
        var lineStart = i
        while lineStart < n {
            var lineEnd = lineStart
            while lineEnd < n, sample[lineEnd] != 0x0A { lineEnd += 1 }
            var s = lineStart
            while s < lineEnd, ByteClass.isSpace(sample[s]) { s += 1 }
            if s < lineEnd, sample[s] != 0x23 {
                return sniffLine(UnsafeBufferPointer(rebasing: sample[s..<lineEnd]))
            }
            lineStart = lineEnd + 1
        }
        return .text
    }

    private static func sniffLine(_ line: UnsafeBufferPointer<UInt8>) -> Verdict {
        if startsWith(line, "Geolife trajectory") { return .format(.plt) }
        var body = line
        if startsWith(body, "---,") { body = UnsafeBufferPointer(rebasing: body[4...]) }
        // `$` + talker and sentence (5 letters or digits, `$PUBX` style too) + `,`.
        if body.count >= 7, body[0] == 0x24 || body[0] == 0x21 {
            var k = 1
            while k < body.count, k <= 6, (body[k] >= 0x41 && body[k] <= 0x5A) || ByteClass.isDigit(body[k]) { k += 1 }
            if k >= 5, k < body.count, body[k] == 0x2C { return .format(.nmea) }
        }
        return .text
    }

    private static func sniffJSON(_ sample: UnsafeBufferPointer<UInt8>) -> Verdict {
        let text = String(decoding: sample, as: UTF8.self)
        if text.contains("\"timelineObjects\"") || text.contains("\"placeVisit\"") || text.contains("\"activitySegment\"")
            || text.contains("\"semanticSegments\"")
        {
            return .takeout("Semantic Location History")
        }
        if text.contains("\"locations\"") && text.contains("latitudeE7") {
            return .takeout("Location History (Records)")
        }
        return .json
    }

    private static func startsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let p = prefix.utf8Start
        for k in 0..<count where bytes[k] != p[k] { return false }
        return true
    }

    /// What a sequence cut by the end of the bytes is: valid (the end of a sample of a longer
    /// file) or not (a whole document).
    enum CutSequence {
        case valid, invalid
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence (RFC
    /// 3629: no overlong forms, no surrogates, nothing past U+10FFFF); the one check of trace
    /// format detection and of GPX documents.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, cutAtEnd: CutSequence = .valid) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            for k in 1..<length {
                if i + k >= n { return cutAtEnd == .valid ? nil : i }
                let c = bytes[i + k]
                if k == 1 ? (c < low || c > high) : (c & 0xC0 != 0x80) { return i }
            }
            i += length
        }
        return nil
    }
}
