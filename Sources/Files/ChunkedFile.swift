import Dispatch
import Support

#if canImport(Glibc)
import CLinux
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
