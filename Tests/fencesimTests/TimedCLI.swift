import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `fencesim` binary with a time limit, for inputs that might hang it (issue 8).
///
/// Unlike ``CLI/run(_:in:)`` the output goes to files, not pipes, so a child that writes a lot to
/// both streams cannot block, and a child still running at the deadline is killed (SIGKILL) and
/// reported as timed out rather than hanging the test run.
enum TimedCLI {
    struct Result {
        var status: Int32
        /// The signal that ended the process, when it did not exit by itself.
        var signal: Int32?
        var timedOut: Bool
        var seconds: Double
        /// The child's peak resident memory (VmHWM) at the last look before it ended, in KiB; 0
        /// when it ended before the first look.
        var peakKiB: Int
        var stdout: String
        var stderr: String

        /// One line for test failure messages.
        var summary: String {
            let how = timedOut ? "timed out" : signal.map { "killed by signal \($0)" } ?? "exit \(status)"
            return "\(how) after \(String(format: "%.1f", seconds)) s; stderr: \(stderr.prefix(600))"
        }
    }

    /// Multiplies every time limit: 1 normally; `make sanitize` sets `FENCESIM_TIME_SCALE` for
    /// its slower binaries.
    static let timeScale = ProcessInfo.processInfo.environment["FENCESIM_TIME_SCALE"].flatMap { Double($0) } ?? 1

    /// Runs `fencesim arguments` in `directory` (the package root by default), killing it after
    /// `timeout` seconds (times ``timeScale``).
    static func run(
        _ arguments: [String], in directory: URL? = nil, timeout: Double = 20,
        environment: [String: String]? = nil
    ) throws -> Result {
        let timeout = timeout * timeScale
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? CLI.packageRoot
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let start = Date()
        try process.run()
        var timedOut = false
        var peakKiB = 0
        while process.isRunning {
            peakKiB = max(peakKiB, highWaterMark(process.processIdentifier))
            if Date().timeIntervalSince(start) > timeout {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(20_000)
        }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        let signal: Int32? = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        return Result(
            status: process.terminationStatus, signal: signal, timedOut: timedOut, seconds: seconds, peakKiB: peakKiB,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }

    /// The peak resident set size of a running process, from `/proc/PID/status` (Linux), in KiB.
    static func highWaterMark(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
