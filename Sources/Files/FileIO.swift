import Dispatch
import Support

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
