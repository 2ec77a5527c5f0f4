import Dispatch

#if canImport(Glibc)
import CLinux
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing whole files with errors that map to SPEC §7 exit codes: a file that
/// cannot be opened is `.missingInput` (66), a failed read or write is `.io` (74).
public enum FileIO {
    /// Reads every byte of `path`.
    ///
    /// - Throws: ``FencesimError`` `.missingInput` when the file does not exist or cannot be opened,
    ///   `.io` when reading fails, `.badData` when it is a directory.
    public static func readAll(_ path: String) throws(FencesimError) -> [UInt8] {
        try readAll(path, parallelAbove: parallelReadBytes)
    }

    /// ``readAll(_:)`` reading files larger than `parallelAbove` bytes on several threads.
    static func readAll(_ path: String, parallelAbove: Int) throws(FencesimError) -> [UInt8] {
        let file = try ChunkedFile(path: path)
        defer { file.close() }
        // Straight into the array, without a staging buffer: a large fence file was copied
        // twice and its pages touched twice. One byte beyond the size the file had when opened
        // shows whether it has grown since; then the rest is read in growing steps.
        var out: [UInt8] = []
        var capacity = (file.sizeHint ?? 0) + 1
        var filled = 0
        while true {
            var failure: FencesimError?
            var ended = false
            let previous = out
            out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = filled
                if filled > 0 { previous.withUnsafeBufferPointer { buffer.baseAddress!.initialize(from: $0.baseAddress!, count: filled) } }
                do throws(FencesimError) {
                    if filled == 0, capacity > parallelAbove {
                        // A large file: its pages are faulted in and copied on several threads
                        // (one thread took 60 ms of a 115 MB fence file while the others
                        // waited), into transparent huge pages where the system allows them.
                        FileIO.adviseHugePages(buffer.baseAddress!, count: capacity)
                        count = try file.readInParallel(into: buffer.baseAddress!, count: capacity - 1)
                    }
                    while count < capacity {
                        let n = try file.read(into: buffer.baseAddress! + count, count: capacity - count)
                        if n == 0 {
                            ended = true
                            break
                        }
                        count += n
                    }
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            if ended { return out }
            filled = out.count
            capacity = max(capacity * 2, 1 << 16)
        }
    }

    /// Files larger than this are read on several threads.
    static let parallelReadBytes = 8 << 20

    /// Asks for transparent huge pages over the whole 2 MiB pages within `count` bytes from
    /// `start` (fewer page faults for a large buffer); nothing happens where the system does not
    /// offer them.
    static func adviseHugePages(_ start: UnsafeMutablePointer<UInt8>, count: Int) {
        #if os(Linux)
        let huge = 2 << 20
        let first = (Int(bitPattern: start) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: start) + count) & ~(huge - 1)
        if end > first { _ = madvise(UnsafeMutableRawPointer(bitPattern: first), end - first, MADV_HUGEPAGE) }
        #endif
    }

    /// Whether `path` names an existing regular file or directory.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The size in bytes of the regular file at `path`; `nil` for anything else (a pipe, a
    /// device) or when it cannot be looked at.
    public static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Whether `path` names a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Writes `bytes` to `path` atomically: the data goes to a temporary file in the same
    /// directory, is flushed, and is renamed over `path`, so a reader (or a crash) never sees a
    /// partial file and a previous good file stays until the new one is complete.
    ///
    /// The temporary file is `.<name>.tmp-<pid>-XXXXXX`. A process killed while writing (SIGKILL,
    /// power loss) leaves it behind; the next write of the same `path` removes such leftovers whose
    /// process no longer exists, so they never accumulate.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FencesimError) {
        let file = try AtomicFileWriter(path: path)
        do throws(FencesimError) {
            try file.write(bytes)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    /// One of several files written together by ``writeTogether(_:)``: its path and what writes
    /// its bytes.
    public struct Output {
        public var path: String
        public var write: (ByteSink) throws(FencesimError) -> Void

        public init(path: String, write: @escaping (ByteSink) throws(FencesimError) -> Void) {
            self.path = path
            self.write = write
        }
    }

    /// Writes files that belong together (a report's HTML and JSON): a temporary file beside
    /// every destination is made first (an unwritable folder fails before anything is written),
    /// each is written, then all are renamed into place one after the other. A failure before the
    /// renames leaves every path as it was; the window that remains is between two renames.
    ///
    /// - Returns: the paths written, in order.
    @discardableResult
    public static func writeTogether(_ outputs: [Output]) throws(FencesimError) -> [String] {
        var files: [AtomicFileWriter] = []
        for output in outputs { files.append(try AtomicFileWriter(path: output.path)) }
        for (output, file) in zip(outputs, files) { try output.write(file) }
        for file in files { try file.commit() }
        return files.map(\.path)
    }

    /// Writes a string as UTF-8, atomically (see ``writeAtomically(_:to:)-([UInt8],_)``).
    public static func writeAtomically(_ text: String, to path: String) throws(FencesimError) {
        try writeAtomically(Array(text.utf8), to: path)
    }

    /// Removes `.<base>.tmp-<pid>-XXXXXX` files in `directory` left by processes that no longer
    /// exist (killed while writing). Files of live processes, including concurrent writers of the
    /// same output, are left alone; failures are ignored (the leftovers are only clutter).
    static func removeAbandonedTemporaryFiles(in directory: String, base: String) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        let prefix = ".\(base).tmp-"
        var abandoned: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name.hasPrefix(prefix) else { continue }
            // `<pid>-XXXXXX`: six random characters after the last dash.
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.lastIndex(of: "-"), rest.distance(from: dash, to: rest.endIndex) == 7,
                let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid()
            else { continue }
            if kill(pid, 0) == -1, errno == ESRCH { abandoned.append(name) }
        }
        for name in abandoned { unlink("\(directory)/\(name)") }
    }

    /// Writes every byte of `bytes` to `fd`, retrying interrupted writes; the errno of a failed
    /// write, or `nil`.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}

/// Where bytes are written as they are produced: a file that appears whole
/// (``AtomicFileWriter``), standard output, or memory.
public protocol ByteSink: AnyObject {
    /// Writes every byte of `bytes`, or throws ``FencesimError`` `.io` located at the
    /// destination.
    func write(_ bytes: UnsafeRawBufferPointer) throws(FencesimError)
}

extension ByteSink {
    /// Writes every byte of `bytes` (see ``write(_:)-(UnsafeRawBufferPointer)``).
    public func write(_ bytes: [UInt8]) throws(FencesimError) {
        var failure: FencesimError?
        bytes.withUnsafeBytes { raw in
            do throws(FencesimError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

/// Bytes kept in memory (for rendering a whole output as one value, and for tests).
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws(FencesimError) {
        self.bytes.append(contentsOf: bytes)
    }
}

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

    public let path: String
    private var fd: Int32
    private let temporaryPath: String
    /// The chunk being filled, and how much of it is.
    private var chunk: UnsafeMutableRawBufferPointer
    private var filled = 0
    /// The thread writing full chunks, once a file outgrows one.
    private var behind: WriteBehind?

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
        chunk = .allocate(byteCount: AtomicFileWriter.chunkBytes, alignment: 16)
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
        chunk = next ?? .allocate(byteCount: AtomicFileWriter.chunkBytes, alignment: 16)
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
        return shared.withLock { $0.spare.popLast() } ?? .allocate(byteCount: AtomicFileWriter.chunkBytes, alignment: 16)
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
        while true {
            ready.wait()
            let (item, failed) = shared.withLock { s -> (Item?, Bool) in
                let item = s.ring[s.get]
                s.get = (s.get + 1) % s.ring.count
                return (item, s.failure != nil)
            }
            guard let (chunk, count) = item else {
                room.signal()
                done.signal()
                return
            }
            if !failed {
                if let code = FileIO.writeAll(fd, UnsafeRawBufferPointer(rebasing: chunk[..<count])) {
                    shared.withLock { $0.failure = code }
                } else {
                    written += Int64(count)
                    if written - synced >= AtomicFileWriter.writebackBytes {
                        // Start writing these pages to disk now; the flush at commit waits for them.
                        #if os(Linux)
                        _ = fencesim_start_writeback(fd, synced, written - synced)
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

/// A file read in chunks, for inputs too large to hold (long traces). Not thread-safe.
public final class ChunkedFile {
    public let path: String
    private var fd: Int32
    /// The file's size when it is a regular file.
    public let sizeHint: Int?

    /// Opens `path` for reading.
    public init(path: String) throws(FencesimError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let reason = String(cString: strerror(code))
            throw FencesimError(.missingInput, "cannot open: \(reason)", at: SourceLocation(file: path))
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            Glibc.close(fd)
            throw FencesimError(.badData, "is a directory, not a file", at: SourceLocation(file: path))
        }
        self.fd = fd
        sizeHint = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    /// Moves the read position to `offset` bytes from the start; whether it could (not on a pipe).
    public func seek(to offset: Int) -> Bool {
        lseek(fd, off_t(offset), SEEK_SET) == off_t(offset)
    }

    /// Reads up to `buffer.count` bytes into the start of `buffer`; returns 0 at the end.
    public func read(into buffer: inout [UInt8]) throws(FencesimError) -> Int {
        let count = buffer.count
        return try buffer.withUnsafeMutableBufferPointer { (b) throws(FencesimError) -> Int in
            try read(into: b.baseAddress!, count: count)
        }
    }

    /// Reads the first `count` bytes of the file to `pointer` in parts on several threads;
    /// returns how many were read from the start without a gap (fewer when the file is shorter
    /// now than it was), and leaves the file position there.
    func readInParallel(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws(FencesimError) -> Int {
        let parts = 8
        struct Part: @unchecked Sendable {
            let base: UnsafeMutablePointer<UInt8>
            let fd: Int32
        }
        let shared = Part(base: pointer, fd: fd)
        var got = [Int](repeating: 0, count: parts)
        var failures = [Int32](repeating: 0, count: parts)
        got.withUnsafeMutableBufferPointer { got in
            failures.withUnsafeMutableBufferPointer { failures in
                let results = (got: got, failures: failures)
                nonisolated(unsafe) let unsafeResults = results
                DispatchQueue.concurrentPerform(iterations: parts) { k in
                    let from = count * k / parts
                    let to = count * (k + 1) / parts
                    var at = from
                    while at < to {
                        let n = pread(shared.fd, shared.base + at, to - at, off_t(at))
                        if n > 0 {
                            at += n
                        } else if n == 0 {
                            break
                        } else if errno != EINTR {
                            unsafeResults.failures[k] = errno
                            break
                        }
                    }
                    unsafeResults.got[k] = at - from
                }
            }
        }
        if let code = failures.first(where: { $0 != 0 }) {
            throw FencesimError(.io, "read failed: \(String(cString: strerror(code)))", at: SourceLocation(file: path))
        }
        var total = 0
        for k in 0..<parts {
            total += got[k]
            if got[k] < count * (k + 1) / parts - count * k / parts { break }
        }
        // The sequential reads that follow go on from there.
        guard lseek(fd, off_t(total), SEEK_SET) == off_t(total) else {
            throw FencesimError(.io, "seek failed: \(String(cString: strerror(errno)))", at: SourceLocation(file: path))
        }
        return total
    }

    /// Reads up to `count` bytes to `pointer`; returns 0 at the end.
    public func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws(FencesimError) -> Int {
        while true {
            let n = Glibc.read(fd, pointer, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw FencesimError(.io, "read failed: \(String(cString: strerror(errno)))", at: SourceLocation(file: path))
        }
    }

    public func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    deinit { close() }
}
