import ArgumentParser
import Files
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to standard output and standard error without buffering surprises, and turning
/// library errors into SPEC §7 exit codes.
enum Terminal {
    /// Writes `text` to standard output as is. A write that fails ends the process: quietly
    /// for a closed pipe (see ``StandardOutput``), else with a message and exit status 74, so
    /// that a full disk or a file-size limit never passes for success.
    static func out(_ text: String) {
        do throws(FencesimError) {
            try StandardOutput.shared.write(Array(text.utf8))
        } catch {
            err(error.fullDescription)
            exitNow(error.code.exitStatus)
        }
    }

    /// Writes a line to standard error.
    static func err(_ line: String) {
        write(line + "\n", to: 2)
    }

    /// Ends the process with `status` at once: standard I/O's buffers are flushed, nothing still
    /// allocated is freed and no exit handler runs (output is written unbuffered, so nothing is
    /// lost). PROJ's exit handlers, which close the database connections it caches, crashed now
    /// and then (SIGSEGV in its SQLite layer, about one failed `report` in twenty under load).
    static func exitNow(_ status: Int32 = 0) -> Never {
        fflush(nil)
        _exit(status)
    }

    /// Writes every byte to file descriptor `fd`, retrying short writes; errors are ignored
    /// (for standard error, where there is nowhere left to report them).
    static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }

    /// Lets writes past a file-size limit (`ulimit -f`) fail with EFBIG, reported as an error,
    /// instead of ending the process silently with SIGXFSZ.
    static func prepare() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Prints `error` (with its related findings) to standard error and returns the exit code to
    /// throw.
    static func report(_ error: FencesimError) -> ExitCode {
        err(error.fullDescription)
        return ExitCode(error.code.exitStatus)
    }

    /// Runs `body`, turning a thrown ``FencesimError`` into a printed message and its exit code.
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as FencesimError {
            throw report(error)
        }
    }
}

/// Standard output as a ``Support/ByteSink``: every byte written, or an error.
///
/// A closed pipe (`fencesim ... | head`) ends the process at once and quietly, as Unix tools end
/// (by SIGPIPE, which shells report as status 141): there is no reader left for the rest. Any
/// other failure (a full disk, a file-size limit, EIO) throws `.io` (exit 74).
final class StandardOutput: ByteSink, Sendable {
    static let shared = StandardOutput()

    func write(_ bytes: UnsafeRawBufferPointer) throws(FencesimError) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EPIPE { StandardOutput.endOnClosedPipe() }
                throw FencesimError(.io, "cannot write to standard output: \(String(cString: strerror(code)))")
            }
            offset += n
        }
    }

    /// Ends the process as SIGPIPE does by default.
    static func endOnClosedPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(141)
    }
}
