#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Support

/// Writing to standard output and standard error without buffering surprises, and turning
/// library errors into SPEC §7 exit codes.
enum Terminal {
    /// Writes `text` to standard output as is.
    static func out(_ text: String) {
        write(text, to: 1)
    }

    /// Writes a line to standard error.
    static func err(_ line: String) {
        write(line + "\n", to: 2)
    }

    /// Ends the process with `status` at once, without freeing what is still allocated (output
    /// is written unbuffered, so nothing is lost).
    static func exitNow(_ status: Int32 = 0) -> Never {
        exit(status)
    }

    /// Writes every byte to file descriptor `fd`, retrying short writes. A closed pipe (for
    /// example `| head`) ends the write quietly.
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
