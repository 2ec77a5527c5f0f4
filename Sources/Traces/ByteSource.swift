import CGzip
import Files
import Support

/// The bytes of a trace file, read in chunks: plain, or gzip-inflated on the fly.
///
/// A class because it owns a file descriptor and, for gzip, a zlib stream that must stay at one
/// address. gzip is recognised by its magic bytes (`1f 8b`), whatever the file is called, and
/// concatenated members are read one after another, as `gunzip` does. Not thread-safe.
final class ByteSource {
    let path: String
    private let file: ChunkedFile
    private var raw: [UInt8]
    private var rawStart = 0
    private var rawEnd = 0
    private var rawEOF = false
    /// zlib state when the file is gzip; `nil` for plain files.
    private var stream: UnsafeMutablePointer<z_stream>?
    private var streamEnded = false
    /// The file's size, when it is a regular file.
    let sizeHint: Int?

    /// Whether the file is gzip-compressed.
    var isCompressed: Bool { stream != nil }

    /// Opens `path`, looking at its first bytes to see whether it is gzip.
    ///
    /// - Throws: `.missingInput` when it cannot be opened, `.badData` for a directory or a
    ///   damaged gzip header, `.io` when reading fails.
    init(path: String, chunkSize: Int = 1 << 20) throws(FencesimError) {
        self.path = path
        file = try ChunkedFile(path: path)
        sizeHint = file.sizeHint
        // A first small read shows whether the data is gzip; plain data is then read straight
        // into the caller's chunks after handing these bytes over.
        raw = [UInt8](repeating: 0, count: 4096)
        try refillRaw()
        if rawEnd - rawStart >= 2, raw[0] == 0x1F, raw[1] == 0x8B {
            raw += [UInt8](repeating: 0, count: chunkSize - raw.count)
            let strm = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            strm.initialize(to: z_stream())
            // windowBits 15 + 32: zlib or gzip header, detected automatically.
            let status = inflateInit2_(strm, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else {
                strm.deallocate()
                throw FencesimError(.internalError, "zlib initialisation failed (\(status))", at: SourceLocation(file: path))
            }
            stream = strm
        }
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        file.close()
    }

    private func refillRaw() throws(FencesimError) {
        rawStart = 0
        rawEnd = try file.read(into: &raw)
        if rawEnd == 0 { rawEOF = true }
    }

    /// Moves to `offset` bytes from the start of a plain regular file, so that the next read
    /// starts there; `false` (nothing changed) for gzip data or a file that cannot seek.
    func seek(to offset: Int) -> Bool {
        guard stream == nil, let size = sizeHint, offset >= 0, offset <= size, file.seek(to: offset) else { return false }
        rawStart = 0
        rawEnd = 0
        rawEOF = false
        return true
    }

    /// Reads into the start of `chunk`, up to its size; returns 0 only at the end of the data.
    ///
    /// Plain files are read straight into `chunk` (no copy); gzip data is inflated into it until
    /// it is full or the data ends.
    func read(into chunk: inout [UInt8]) throws(FencesimError) -> Int {
        guard let stream else {
            if rawStart < rawEnd {
                // The bytes read at open time to look for the gzip magic, then the rest of a full
                // first chunk (format detection looks at it).
                let n = min(chunk.count, rawEnd - rawStart)
                chunk.replaceSubrange(0..<n, with: raw[rawStart..<(rawStart + n)])
                rawStart += n
                guard n < chunk.count, !rawEOF else { return n }
                var rest = [UInt8](repeating: 0, count: chunk.count - n)
                let more = try file.read(into: &rest)
                chunk.replaceSubrange(n..<(n + more), with: rest[0..<more])
                return n + more
            }
            if rawEOF { return 0 }
            return try file.read(into: &chunk)
        }
        let capacity = chunk.count
        var filled = 0
        while filled < capacity {
            let n = try chunk.withUnsafeMutableBufferPointer { buffer throws(FencesimError) -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return try inflate(stream, into: base + filled, count: capacity - filled)
            }
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    private func inflate(_ strm: UnsafeMutablePointer<z_stream>, into destination: UnsafeMutablePointer<UInt8>, count: Int)
        throws(FencesimError) -> Int
    {
        var produced = 0
        while produced == 0 {
            if rawStart == rawEnd {
                if !rawEOF { try refillRaw() }
                if rawEOF {
                    if streamEnded { return 0 }
                    throw FencesimError(
                        .badData, "the gzip data is truncated (the file ends inside a compressed stream)", at: SourceLocation(file: path))
                }
            }
            if streamEnded {
                // Another gzip member follows (concatenated .gz files are one stream to gunzip).
                inflateReset(strm)
                streamEnded = false
            }
            let status: Int32 = raw.withUnsafeMutableBufferPointer { source in
                // `raw` is never empty (it is allocated at its chunk size), so it has an address.
                guard let base = source.baseAddress else { return Z_BUF_ERROR }
                strm.pointee.next_in = base + rawStart
                strm.pointee.avail_in = UInt32(rawEnd - rawStart)
                strm.pointee.next_out = destination
                strm.pointee.avail_out = UInt32(min(count, Int(UInt32.max)))
                let status = CGzip.inflate(strm, Z_NO_FLUSH)
                rawStart = rawEnd - Int(strm.pointee.avail_in)
                produced = min(count, Int(UInt32.max)) - Int(strm.pointee.avail_out)
                return status
            }
            switch status {
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_STREAM_END:
                streamEnded = true
                if produced == 0, rawStart == rawEnd, !rawEOF { try refillRaw() }
                if produced == 0, rawStart == rawEnd, rawEOF { return 0 }
            default:
                let reason = strm.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                throw FencesimError(.badData, "the gzip data is damaged: \(reason)", at: SourceLocation(file: path))
            }
        }
        return produced
    }

    /// Reads everything that is left, appending it to `bytes`.
    func readAll(into bytes: inout [UInt8]) throws(FencesimError) {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try read(into: &chunk)
            if n == 0 { return }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}
