/// The counts and checksums of `replay --summary` (SPEC §8; the definitions of the bench
/// README): fence number = feature index, fix index = data row.
public struct BenchSummary: Hashable, Sendable {
    public var insidePairs = 0
    public var enters = 0
    public var exits = 0
    public var enterChecksum: UInt64 = 0
    public var exitChecksum: UInt64 = 0

    static let modulus: UInt64 = 1 << 61

    public init() {}

    /// Adds one enter or exit of fence `fence` at fix `fix`.
    @inline(__always)
    public mutating func add(enter: Bool, fix: Int, fence: Int) {
        let term = (UInt64(fix) &* 1_000_003 &+ UInt64(fence)) % BenchSummary.modulus
        if enter {
            enters += 1
            enterChecksum = (enterChecksum + term) % BenchSummary.modulus
        } else {
            exits += 1
            exitChecksum = (exitChecksum + term) % BenchSummary.modulus
        }
    }

    /// Combines the summaries of several traces.
    public mutating func merge(_ other: BenchSummary) {
        insidePairs += other.insidePairs
        enters += other.enters
        exits += other.exits
        enterChecksum = (enterChecksum + other.enterChecksum) % BenchSummary.modulus
        exitChecksum = (exitChecksum + other.exitChecksum) % BenchSummary.modulus
    }

    /// `mode=... inside_pairs=... enter=... exit=... enter_checksum=... exit_checksum=...`.
    public func line(mode: String) -> String {
        "mode=\(mode) inside_pairs=\(insidePairs) enter=\(enters) exit=\(exits) enter_checksum=\(enterChecksum) exit_checksum=\(exitChecksum)"
    }
}
