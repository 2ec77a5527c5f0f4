import Dispatch
import Support

#if canImport(Glibc)
import CLinux
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written as it is produced, that appears at its path complete or not at all: the bytes
/// go to a temporary file in the same directory (`.<name>.tmp-<pid>-XXXXXX`), which
/// ``commit()`` flushes to disk and renames over the path; ``discard()`` (or a failed write or
/// commit) removes it, and a previous file at the path stays untouched until the commit.
///
/// Bytes are gathered in chunks of ``chunkBytes``. A file that outgrows one chunk is written
/// behind: a thread of its own writes full chunks (at most ``chunksInFlight`` of them wait) and
/// asks the kernel to start writing them to disk, while the producer renders the next ones; the
/// flush at ``commit()`` then finds little left to do. A write error on that thread is thrown by
/// the next ``write(_:)`` or by ``commit()``. Memory stays at a few chunks whatever the size.
///
/// On Linux, on a local disk (ext4, XFS, Btrfs), the full chunks are written with direct I/O
/// (`O_DIRECT`): from the chunk to the device, past the page cache, and the last, partial chunk
/// through it. The commit flushes the file to disk in any case, so the device's time is spent
/// either way; what direct I/O leaves out is copying every byte into page-cache pages the kernel
/// first has to find, which was the whole of a large report's write phase (272 MB: 0.37–0.6 s on
/// one thread, 0.18 s direct) and pushed as much of other files out of the cache. Other file
/// systems get every chunk through the page cache: a network file system would send direct
/// writes to its server one at a time, and tmpfs keeps the pages in memory either way; so does
/// a local one that refuses direct I/O (when asked, or at the first direct write).
///
/// A process killed while writing (SIGKILL, power loss) leaves the temporary file behind; the
/// next writer of the same path removes such leftovers whose process no longer exists, so they
/// never accumulate. Not thread-safe: one producer at a time.
public final class AtomicFileWriter: ByteSink {
    /// The size of the chunks bytes are gathered in.
    public static let chunkBytes = 1 << 20
    /// Full chunks that may wait for the writing thread before the producer waits for it.
    public static let chunksInFlight = 3
    /// Bytes written between two requests to start writing them to disk.
    static let writebackBytes = 1 << 24
    /// What direct I/O needs of a write's memory, offset and length (a page: the logical block
    /// size of disks is 512 or 4096 bytes); chunks are allocated at this alignment.
    static let directAlignment = 4096

    public let path: String
    private var fd: Int32
    private let temporaryPath: String
    /// The chunk being filled, and how much of it is.
    private var chunk: UnsafeMutableRawBufferPointer
    private var filled = 0
    /// The thread writing full chunks, once a file outgrows one.
    private var behind: WriteBehind?
    /// Bytes the commit found written with direct I/O (for tests).
    package private(set) var directBytes: Int64 = 0

    /// Creates the temporary file next to `path`.
    ///
    /// - Throws: ``FencesimError`` `.io` when it cannot be created (a missing folder, no
    ///   permission).
    public init(path: String) throws(FencesimError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let folder = directory.isEmpty ? "/" : directory
        FileIO.removeAbandonedTemporaryFiles(in: folder, base: base)
        var template = Array("\(folder)/.\(base).tmp-\(getpid())-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw FencesimError(
                .io, "cannot create a temporary file next to \(path): \(FileIO.errnoText())", at: SourceLocation(file: path))
        }
        self.fd = fd
        temporaryPath = String(cString: template.map { UInt8(bitPattern: $0) } + [])
        chunk = .allocate(byteCount: AtomicFileWriter.chunkBytes, alignment: AtomicFileWriter.directAlignment)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(FencesimError) {
        precondition(fd >= 0, "a write after commit or discard")
        guard var from = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = min(left, chunk.count - filled)
            (chunk.baseAddress! + filled).copyMemory(from: from, byteCount: n)
            filled += n
            from += n
            left -= n
            if filled == chunk.count { try handOver() }
        }
    }

    /// Gives the full chunk to the writing thread (started now when there is none) and takes an
    /// empty one.
    private func handOver() throws(FencesimError) {
        let behind = self.behind ?? WriteBehind(fd: fd)
        self.behind = behind
        try pass(to: behind)
    }

    /// Queues the chunk on `behind`, which owns it from then on, and takes an empty one.
    private func pass(to behind: WriteBehind) throws(FencesimError) {
        let next = behind.take(chunk, count: filled)
        chunk = next ?? .allocate(byteCount: AtomicFileWriter.chunkBytes, alignment: AtomicFileWriter.directAlignment)
        filled = 0
        if next == nil { try fail(behind.failure ?? EIO) }
    }

    /// Discards the file and throws the error of a write that failed with `code`.
    private func fail(_ code: Int32) throws(FencesimError) -> Never {
        let reason = String(cString: strerror(code))
        discard()
        throw FencesimError(.io, "cannot write \(path): \(reason)", at: SourceLocation(file: path))
    }

    /// Flushes the file to disk and renames it over ``path``.
    public func commit() throws(FencesimError) {
        precondition(fd >= 0, "a commit after commit or discard")
        if let behind {
            if filled > 0 { try pass(to: behind) }
            if let code = behind.finish() { try fail(code) }
            directBytes = behind.directBytes
            self.behind = nil
        } else if filled > 0, let code = FileIO.writeAll(fd, UnsafeRawBufferPointer(rebasing: chunk[..<filled])) {
            try fail(code)
        }
        filled = 0
        var ok = fsync(fd) == 0
        var reason = ok ? "" : FileIO.errnoText()
        // mkstemp creates 0600; give the file the usual permissions for a user-written output.
        fchmod(fd, 0o644)
        if Glibc.close(fd) != 0, ok {
            ok = false
            reason = FileIO.errnoText()
        }
        fd = -1
        if ok, rename(temporaryPath, path) != 0 {
            ok = false
            reason = FileIO.errnoText()
        }
        guard ok else {
            unlink(temporaryPath)
            throw FencesimError(.io, "cannot write \(path): \(reason)", at: SourceLocation(file: path))
        }
    }

    /// Removes the temporary file; the path is left as it was.
    public func discard() {
        guard fd >= 0 else { return }
        _ = behind?.finish()
        behind = nil
        Glibc.close(fd)
        fd = -1
        unlink(temporaryPath)
    }

    deinit {
        discard()
        chunk.deallocate()
    }
}

/// The thread of an ``AtomicFileWriter`` that writes full chunks in order, with a ring of
/// ``AtomicFileWriter/chunksInFlight`` + 1 chunks between it and the producer (semaphores order
/// every hand-over both ways; the ring, the spare chunks and the first failure sit behind one
/// lock).
private final class WriteBehind: @unchecked Sendable {
    typealias Item = (chunk: UnsafeMutableRawBufferPointer, count: Int)

    /// What the producer and the thread share.
    struct Shared {
        /// Chunks handed over and not written yet, as a ring; `nil` ends the thread.
        var ring: [Item?]
        var put = 0
        var get = 0
        /// Empty chunks the producer may take.
        var spare: [UnsafeMutableRawBufferPointer] = []
        /// The errno of the first failed write; then nothing more is written.
        var failure: Int32?
        /// Bytes written with direct I/O, once the thread has ended.
        var directBytes: Int64 = 0
    }

    private let fd: Int32
    private let shared: PthreadLock<Shared>
    private let ready = DispatchSemaphore(value: 0)
    private let room: DispatchSemaphore
    private let done = DispatchSemaphore(value: 0)
    /// Producer-side: whether ``finish()`` has run, and whether chunks are written by
    /// ``take(_:count:)`` itself (no thread could be started).
    private var finished = false
    private var inline = false
    private var inlineFailure: Int32?

    init(fd: Int32) {
        self.fd = fd
        shared = PthreadLock(Shared(ring: Array(repeating: nil, count: AtomicFileWriter.chunksInFlight + 1)))
        room = DispatchSemaphore(value: AtomicFileWriter.chunksInFlight)
        // The thread holds the writer until it ends (``finish()`` waits for that).
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                let writer = Unmanaged<WriteBehind>.fromOpaque(context!).takeRetainedValue()
                writer.run()
                return nil
            }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            // No thread: the chunks are written as they are handed over.
            Unmanaged<WriteBehind>.fromOpaque(context).release()
            inline = true
        }
    }

    /// The errno of the first failed write, or `nil`.
    var failure: Int32? { inline ? inlineFailure : shared.withLock { $0.failure } }

    /// Bytes written with direct I/O, after ``finish()``.
    var directBytes: Int64 { shared.withLock { $0.directBytes } }

    /// Queues `count` bytes of `chunk` (which the thread owns from now on) and returns an empty
    /// chunk, waiting while ``AtomicFileWriter/chunksInFlight`` chunks are queued; `nil` when a
    /// write has failed.
    func take(_ chunk: UnsafeMutableRawBufferPointer, count: Int) -> UnsafeMutableRawBufferPointer? {
        if inline {
            if inlineFailure == nil { inlineFailure = FileIO.writeAll(fd, UnsafeRawBufferPointer(rebasing: chunk[..<count])) }
            return inlineFailure == nil ? chunk : nil
        }
        room.wait()
        let failed = shared.withLock { s -> Bool in
            s.ring[s.put] = (chunk, count)
            s.put = (s.put + 1) % s.ring.count
            return s.failure != nil
        }
        ready.signal()
        if failed { return nil }
        return shared.withLock { $0.spare.popLast() }
            ?? .allocate(byteCount: AtomicFileWriter.chunkBytes, alignment: AtomicFileWriter.directAlignment)
    }

    /// Waits until every queued chunk is written and the thread has ended; the errno of a failed
    /// write, or `nil`.
    func finish() -> Int32? {
        guard !finished, !inline else { return failure }
        finished = true
        room.wait()
        shared.withLock { s in
            s.ring[s.put] = nil
            s.put = (s.put + 1) % s.ring.count
        }
        ready.signal()
        done.wait()
        return shared.withLock { s in
            for chunk in s.spare { chunk.deallocate() }
            s.spare = []
            return s.failure
        }
    }

    private func run() {
        var written: Int64 = 0
        var synced: Int64 = 0
        var io = DirectIO()
        #if os(Linux)
        io.refused = fencesim_on_local_disk(fd) == 0
        #else
        io.refused = true
        #endif
        while true {
            ready.wait()
            let (item, failed) = shared.withLock { s -> (Item?, Bool) in
                let item = s.ring[s.get]
                s.get = (s.get + 1) % s.ring.count
                return (item, s.failure != nil)
            }
            guard let (chunk, count) = item else {
                shared.withLock { $0.directBytes = io.bytes }
                room.signal()
                done.signal()
                return
            }
            if !failed {
                let alignment = AtomicFileWriter.directAlignment
                if let code = io.write(
                    fd, UnsafeRawBufferPointer(rebasing: chunk[..<count]), direct: count % alignment == 0 && written % Int64(alignment) == 0
                ) {
                    shared.withLock { $0.failure = code }
                } else {
                    written += Int64(count)
                    if written - synced >= AtomicFileWriter.writebackBytes {
                        // Start writing these pages to disk now; the flush at commit waits for
                        // them. (Direct writes leave none in the cache.)
                        #if os(Linux)
                        if !io.on { _ = fencesim_start_writeback(fd, synced, written - synced) }
                        #endif
                        synced = written
                    }
                }
            }
            shared.withLock { $0.spare.append(chunk) }
            room.signal()
        }
    }
}

/// Direct I/O on a file being written behind: whether `O_DIRECT` is set now, whether it is not
/// to be asked for (a file system that refused it, or one it does not pay on), and how many
/// bytes went that way.
private struct DirectIO {
    var on = false
    var refused = false
    var bytes: Int64 = 0

    /// Writes `bytes` at the file's offset, directly when `direct` (the caller has found the
    /// memory, offset and length aligned) and the file system takes it, else through the page
    /// cache. A direct write refused with `EINVAL` (some file systems accept the flag and not
    /// the write; a short write leaves the rest unaligned) is written again through the cache.
    ///
    /// - Returns: the errno of a failed write, or `nil`.
    mutating func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, direct: Bool) -> Int32? {
        #if os(Linux)
        let wanted = direct && !refused
        if wanted != on {
            if fencesim_set_direct(fd, wanted ? 1 : 0) == 0 {
                on = wanted
            } else if wanted {
                refused = true
            } else {
                return errno
            }
        }
        #endif
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                #if os(Linux)
                if errno == EINVAL, on {
                    refused = true
                    guard fencesim_set_direct(fd, 0) == 0 else { return errno }
                    on = false
                    continue
                }
                #endif
                return errno
            }
            if on { self.bytes += Int64(n) }
            offset += n
        }
        return nil
    }
}
