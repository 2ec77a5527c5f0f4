import Files
import Foundation
import Support

/// What identifies a sharded run, so that `merge` takes only parts of one run: a 128-bit digest
/// (two 64-bit FNV-1a hashes with different offsets, in hex) of what the caller adds: for
/// `run`, `report` and `sweep --shard`, fencesim's version, the command, the shard count, the
/// command-line settings that change results, the scenario's, fences' and truth's bytes, and
/// each trace's label, size and bytes.
///
/// A digest, not a proof: it catches parts of runs with other settings, inputs or versions (a
/// different `degrade.seed`, an edited fence file or trace). It is no protection against
/// forgery.
public struct RunDigest: Hashable, Sendable {
    public private(set) var low: UInt64 = 0xcbf2_9ce4_8422_2325
    public private(set) var high: UInt64 = 0x6c62_272e_07bb_0142

    public init() {}

    /// Adds `bytes`, then a separator.
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { mix(byte) }
        mix(0xff)
        mix(0x00)
    }

    /// Adds `text`'s UTF-8 bytes, then a separator.
    public mutating func add(_ text: String) {
        add(text.utf8)
    }

    /// Adds the bytes of the file at `path`, read in chunks.
    ///
    /// - Throws: ``Support/FencesimError`` `.missingInput` or `.io` when it cannot be read.
    public mutating func addFile(_ path: String) throws(FencesimError) {
        let file = try ChunkedFile(path: path)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try file.read(into: &buffer)
            if n == 0 { break }
            for k in 0..<n { mix(buffer[k]) }
        }
        mix(0xff)
        mix(0x00)
    }

    @inline(__always)
    private mutating func mix(_ byte: UInt8) {
        low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        high = (high ^ UInt64(byte ^ 0x5a)) &* 0x0000_0100_0000_01b3
    }

    /// 32 hex digits.
    public var hex: String {
        String(format: "%016llx%016llx", high, low)
    }
}
