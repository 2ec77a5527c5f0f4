import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a ``ByteSource`` into lines without copying them: the source is read chunk by chunk
/// and each line is handed out as a range of the current chunk; only a line that straddles two
/// chunks is copied (into a small carry buffer). Memory stays bounded by the chunk size and the
/// longest line, not by the file.
///
/// Lines end at LF; a CR before it is dropped. A UTF-8 byte-order mark at the start of the file
/// is skipped. A line longer than ``maximumLineLength`` is refused as soon as it is seen, so a
/// file without line breaks (or a 1 GB line) costs at most that much memory, not the line's size.
/// A class because it owns its buffers. Not thread-safe.
final class LineScanner {
    /// The longest line handed out: far beyond any CSV, NMEA or PLT record (they are well under
    /// 1 KiB), small enough that a line is never the reason a read runs out of memory.
    static let maximumLineLength = 1 << 20

    let source: ByteSource
    private var chunk: [UInt8]
    private var count = 0
    private var position = 0
    private var carry: [UInt8] = []
    private var loaded = false
    private var eof = false
    /// The number of the last line handed out (1-based).
    private(set) var lineNumber = 0
    /// Where in the data the chunk starts (bytes from the start, after inflating gzip).
    private var chunkOffset = 0
    /// Where in the data the carried part of a line starts.
    private var carryOffset = 0
    /// Where in the data the last line handed out starts.
    private(set) var lineOffset = 0

    init(source: ByteSource, chunkSize: Int = 1 << 20) {
        self.source = source
        chunk = [UInt8](repeating: 0, count: chunkSize)
    }

    private func load() throws(FencesimError) {
        chunkOffset += count
        count = try source.read(into: &chunk)
        position = 0
        if count == 0 { eof = true }
    }

    /// The first bytes of the data (at most `limit`), consuming nothing; call before reading lines.
    func peek(limit: Int = 64 * 1024) throws(FencesimError) -> [UInt8] {
        if !loaded {
            loaded = true
            try load()
        }
        return Array(chunk[position..<min(count, position + limit)])
    }

    /// Calls `body` with each line as `(bytes, start, end, lineNumber)`; `bytes[start..<end]` is
    /// the line without its terminator, valid only during the call. `body` returns `false` to stop
    /// (a later call continues with the next line).
    func forEachLine(_ body: (UnsafePointer<UInt8>, Int, Int, Int) throws(FencesimError) -> Bool) throws(FencesimError) {
        if !loaded {
            loaded = true
            try load()
        }
        if lineNumber == 0, position == 0, count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF {
            position = 3
        }
        while true {
            if position < count {
                var stop = false
                try chunk.withUnsafeBufferPointer { buffer throws(FencesimError) in
                    // position < count, so the chunk is not empty and has an address.
                    guard let base = buffer.baseAddress else { return }
                    while position < count {
                        guard let found = memchr(base + position, 0x0A, count - position) else {
                            if carry.isEmpty { carryOffset = chunkOffset + position }
                            carry.append(contentsOf: UnsafeBufferPointer(start: base + position, count: count - position))
                            position = count
                            try checkLength(carry.count)
                            return
                        }
                        let newline = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                        let lineStart = position
                        try checkLength(carry.count + newline - lineStart)
                        position = newline + 1
                        lineNumber += 1
                        if carry.isEmpty {
                            lineOffset = chunkOffset + lineStart
                            var lineEnd = newline
                            if lineEnd > lineStart, base[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                            if try !body(base, lineStart, lineEnd, lineNumber) {
                                stop = true
                                return
                            }
                        } else {
                            carry.append(contentsOf: UnsafeBufferPointer(start: base + lineStart, count: newline - lineStart))
                            let more = try deliverCarry(body)
                            if !more {
                                stop = true
                                return
                            }
                        }
                    }
                }
                if stop { return }
                continue
            }
            if eof {
                if !carry.isEmpty {
                    lineNumber += 1
                    _ = try deliverCarry(body)
                }
                return
            }
            try load()
        }
    }

    /// Goes on from the line that starts `offset` bytes into the data, numbered `line`, when the
    /// source can seek (a plain regular file); `false` (nothing changed) otherwise.
    func seek(toOffset offset: Int, line: Int) -> Bool {
        guard source.seek(to: offset) else { return false }
        loaded = true
        eof = false
        position = 0
        count = 0
        chunkOffset = offset
        carry.removeAll(keepingCapacity: true)
        lineNumber = line - 1
        return true
    }

    /// Refuses the line being read (the one after ``lineNumber``) when it has grown past the limit.
    private func checkLength(_ length: Int) throws(FencesimError) {
        guard length > Self.maximumLineLength else { return }
        throw FencesimError(
            .badData, "line \(lineNumber + 1) is longer than \(Self.maximumLineLength) bytes (a binary file, or one without line breaks?)",
            at: SourceLocation(file: source.path, line: lineNumber + 1, column: 1))
    }

    private func deliverCarry(_ body: (UnsafePointer<UInt8>, Int, Int, Int) throws(FencesimError) -> Bool) throws(FencesimError) -> Bool {
        lineOffset = carryOffset
        if carry.last == 0x0D { carry.removeLast() }
        let line = carry
        carry.removeAll(keepingCapacity: true)
        return try line.withUnsafeBufferPointer { buffer throws(FencesimError) -> Bool in
            // An empty array may have no base address; hand out a valid pointer anyway.
            guard let base = buffer.baseAddress else {
                var empty: UInt8 = 0
                return try withUnsafePointer(to: &empty) { pointer throws(FencesimError) -> Bool in
                    try body(pointer, 0, 0, lineNumber)
                }
            }
            return try body(base, 0, buffer.count, lineNumber)
        }
    }

    /// Every byte not yet handed out: the current chunk's rest and the rest of the source.
    func readRemaining() throws(FencesimError) -> [UInt8] {
        if !loaded {
            loaded = true
            try load()
        }
        var bytes = carry + chunk[position..<count]
        carry.removeAll()
        position = count
        if !eof {
            try source.readAll(into: &bytes)
            eof = true
        }
        return bytes
    }
}
