import Support

#if canImport(CZlib)
import CZlib  // ZIPFoundation's zlib module on Linux
#elseif canImport(zlib)
import zlib
#endif

extension RulesArchive {
    /// Where an entry's data lies, from the central directory.
    struct EntryData {
        var name: [UInt8]
        var method: Int
        var offset: Int
        var compressedSize: Int
        var crc32: UInt32
    }

    /// The most entries an archive may list: a rules ZIP holds one rules.json and a few assets.
    static let maximumEntries = 10_000

    /// Checks that every structure ZIPFoundation will read lies inside `bytes` before it reads
    /// them: the end-of-central-directory record, the central directory, each entry's local header,
    /// data and data descriptor. ZIPFoundation's in-memory archives trap (a Swift range check, so
    /// the process dies) when an offset points past the end of the data; fuzzing found it with a
    /// 774-byte archive (issue 8, `Fuzz/regressions/rules`).
    ///
    /// ZIP64 archives are refused: a rules archive is far below the 4 GiB that needs them.
    ///
    /// - Returns: where each entry's data lies.
    /// - Throws: ``FencesimError`` `.badData` at `location`, naming the structure that does not fit.
    @discardableResult
    static func checkStructure(_ bytes: [UInt8], at location: SourceLocation) throws(FencesimError) -> [EntryData] {
        func refuse(_ reason: String) -> FencesimError {
            FencesimError(.badData, "not a readable ZIP archive: \(reason)", at: location)
        }
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        func u32(_ offset: Int) -> Int { u16(offset) | u16(offset + 2) << 16 }

        // ZIPFoundation takes the last end-of-central-directory signature, scanning back from the
        // end; so does this check, so both see the same record.
        let endRecordSize = 22
        guard bytes.count >= endRecordSize else { throw refuse("too short for an end-of-central-directory record") }
        var end: Int?
        var offset = bytes.count - endRecordSize
        while offset >= 0 {
            if u32(offset) == 0x0605_4B50 {
                end = offset
                break
            }
            offset -= 1
        }
        guard let end else { throw refuse("no end-of-central-directory record") }
        if end >= 20, u32(end - 20) == 0x0706_4B50 { throw refuse("ZIP64 archives are not supported for rules") }
        let entryCount = u16(end + 10)
        let directorySize = u32(end + 12)
        let directoryOffset = u32(end + 16)
        if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            throw refuse("ZIP64 archives are not supported for rules")
        }
        guard entryCount <= maximumEntries else { throw refuse("\(entryCount) entries, more than the \(maximumEntries) allowed") }
        guard directoryOffset + directorySize <= end else {
            throw refuse("the central directory (offset \(directoryOffset), \(directorySize) bytes) does not fit before its end record")
        }

        var position = directoryOffset
        var entries: [EntryData] = []
        for index in 0..<entryCount {
            let headerSize = 46
            guard position + headerSize <= directoryOffset + directorySize, u32(position) == 0x0201_4B50 else {
                throw refuse("central directory entry \(index) is missing or cut short")
            }
            let flags = u16(position + 8)
            let method = u16(position + 10)
            let crc = UInt32(u32(position + 16))
            let compressedSize = u32(position + 20)
            let uncompressedSize = u32(position + 24)
            let nameLength = u16(position + 28)
            let extraLength = u16(position + 30)
            let commentLength = u16(position + 32)
            let localOffset = u32(position + 42)
            if compressedSize == 0xFFFF_FFFF || uncompressedSize == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF {
                throw refuse("ZIP64 archives are not supported for rules")
            }
            let name = Array(bytes[min(bytes.count, position + headerSize)..<min(bytes.count, position + headerSize + nameLength)])
            position += headerSize + nameLength + extraLength + commentLength
            guard position <= directoryOffset + directorySize else {
                throw refuse("central directory entry \(index) runs past the directory")
            }
            // The local header, its name and extra field, the data, and a data descriptor (at most
            // 16 bytes with its signature) must all lie inside the archive.
            let localHeaderSize = 30
            guard localOffset + localHeaderSize <= bytes.count, u32(localOffset) == 0x0403_4B50 else {
                throw refuse("entry \(index) points at offset \(localOffset), where there is no local header")
            }
            let dataStart = localOffset + localHeaderSize + u16(localOffset + 26) + u16(localOffset + 28)
            var dataEnd = dataStart + compressedSize
            if flags & 0x0008 != 0 { dataEnd += 16 }
            guard dataEnd <= bytes.count else {
                throw refuse("entry \(index) claims \(compressedSize) bytes of data, more than the archive holds")
            }
            entries.append(EntryData(name: name, method: method, offset: dataStart, compressedSize: compressedSize, crc32: crc))
        }
        return entries
    }

    /// Inflates an entry's deflate data once, bounded, before ZIPFoundation extracts it: on Linux
    /// ZIPFoundation loops for ever on a deflate stream that never ends (it asks for more input
    /// past the end of the archive and gets none; a 895-byte archive found by fuzzing, issue 8).
    ///
    /// - Throws: ``FencesimError`` `.badData` at `location` when the stream is damaged, ends
    ///   after the entry's data, or inflates to more than `maximumBytes`.
    static func checkInflates(_ entry: EntryData, in bytes: [UInt8], maximumBytes: Int, at location: SourceLocation) throws(FencesimError) {
        let name = String(decoding: entry.name, as: UTF8.self)
        guard entry.method == 8 else {
            guard entry.method == 0 else {
                throw FencesimError(
                    .badData, "archive entry \"\(name)\" uses compression method \(entry.method); only stored and deflate are read",
                    at: location)
            }
            return
        }
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw FencesimError(.internalError, "zlib initialisation failed", at: location)
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var produced = 0
        var status = Z_OK
        bytes.withUnsafeBufferPointer { input in
            // checkStructure put the data inside `bytes`, which is therefore not empty.
            guard let base = input.baseAddress else { return }
            // The input is only read; zlib's API takes a mutable pointer.
            stream.next_in = UnsafeMutablePointer(mutating: base + entry.offset)
            stream.avail_in = UInt32(entry.compressedSize)
            repeat {
                status = output.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                produced += output.count - Int(stream.avail_out)
            } while status == Z_OK && produced <= maximumBytes
        }
        if produced > maximumBytes {
            throw FencesimError(
                .badData, "archive entry \"\(name)\" inflates to more than the \(maximumBytes)-byte limit (zip bomb?)", at: location)
        }
        guard status == Z_STREAM_END else {
            let reason =
                status == Z_BUF_ERROR
                ? "its compressed data ends before the deflate stream does" : "its deflate data is damaged (zlib \(status))"
            throw FencesimError(.badData, "cannot read archive entry \"\(name)\": \(reason)", at: location)
        }
    }
}
