#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock time and resident memory at the end of the phases of a command, for `--timings`.
///
/// Timings go to standard error only when asked for; nothing that a run writes to its outputs
/// depends on them, so outputs stay byte-for-byte deterministic.
public final class PhaseTimer: @unchecked Sendable {
    public private(set) var phases: [(name: String, seconds: Double, residentBytes: Int?)] = []
    private let clock = ContinuousClock()
    private var mark: ContinuousClock.Instant

    public init() {
        mark = clock.now
    }

    /// Ends the current phase, naming it `name`, and starts the next one.
    public func lap(_ name: String) {
        let now = clock.now
        let d = mark.duration(to: now)
        phases.append((name, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18, PhaseTimer.residentBytes()))
        mark = now
    }

    /// One line per phase (`timing: NAME SECONDS s, RSS MiB resident`), then the total.
    public var lines: [String] {
        var out = phases.map { phase in
            "timing: \(phase.name) \(Self.format(phase.seconds)) s" + (phase.residentBytes.map { ", \($0 >> 20) MiB resident" } ?? "")
        }
        out.append("timing: total \(Self.format(phases.reduce(0) { $0 + $1.seconds })) s")
        return out
    }

    /// The resident set size of this process (Linux `/proc/self/statm`), or `nil` elsewhere.
    static func residentBytes() -> Int? {
        #if os(Linux)
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 128)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        // "size resident shared ...", in pages.
        let fields = bytes[..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }

    static func format(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        let frac = String(ms % 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
    }
}
