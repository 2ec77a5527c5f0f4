import Files
import Foundation
import Support

/// Reads rules from a rules.json file or from a ZIP archive holding one, as Launch delivers them
/// (SPEC §5; research §2.6: `rules.url` points to a ZIP containing one rules.json).
///
/// Archives are read in memory and never extracted. Entries whose path escapes the archive
/// (absolute paths, `..` components: "zip slip", the Android test asset `rules_zipslip.zip`)
/// make the whole archive refused, and the uncompressed size of what is read is capped so that a
/// small archive cannot expand without bound ("zip bomb").
public enum RulesLoader {
    /// Size limits for reading rules.
    public struct Limits: Sendable {
        /// The most bytes a rules.json may have, read directly or inflated from an archive.
        public var maximumRulesBytes: Int
        /// The most bytes an archive file may have.
        public var maximumArchiveBytes: Int

        /// 64 MiB for both: the largest Adobe fixture (1,051 rules) is well under 1 MiB.
        public init(maximumRulesBytes: Int = 64 << 20, maximumArchiveBytes: Int = 64 << 20) {
            self.maximumRulesBytes = maximumRulesBytes
            self.maximumArchiveBytes = maximumArchiveBytes
        }
    }

    /// Reads and decodes the rules file or archive at `path`.
    ///
    /// - Parameters:
    ///   - path: a rules.json, or a ZIP archive (recognised by its signature, whatever its name).
    ///   - platform: whose tolerance to apply while decoding (see ``RuleSet/decode(_:platform:)``).
    ///   - limits: size caps.
    /// - Throws: ``FencesimError`` `.missingInput` when the file cannot be opened, `.io` when
    ///   reading fails, `.badData` (located) for a bad archive or bad rules; locations inside an
    ///   archive read `archive.zip!rules.json:line:col`.
    public static func load(path: String, platform: RulesPlatform = .docs, limits: Limits = Limits()) throws(FencesimError) -> RuleSet {
        let file = try ChunkedFile(path: path)
        defer { file.close() }
        // Read at most one byte past the larger limit, so an oversized input is refused without
        // being read whole; `parse` applies the limit that fits what the bytes turn out to be.
        let cap = max(limits.maximumRulesBytes, limits.maximumArchiveBytes)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= cap {
            let n = try file.read(into: &chunk)
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        if bytes.count > cap {
            throw FencesimError(
                .badData, "file is larger than the \(cap)-byte limit for rules and rules archives", at: SourceLocation(file: path))
        }
        return try parse(bytes, file: path, platform: platform, limits: limits)
    }

    /// Decodes rules held in memory: rules.json text or a ZIP archive's bytes.
    ///
    /// - Parameter file: the name used in locations.
    public static func parse(_ bytes: [UInt8], file: String, platform: RulesPlatform = .docs, limits: Limits = Limits())
        throws(FencesimError) -> RuleSet
    {
        if RulesArchive.isArchive(bytes) {
            guard bytes.count <= limits.maximumArchiveBytes else {
                throw FencesimError(
                    .badData, "archive of \(bytes.count) bytes is larger than the \(limits.maximumArchiveBytes)-byte limit",
                    at: SourceLocation(file: file))
            }
            let entry = try RulesArchive.readRules(bytes, file: file, maximumBytes: limits.maximumRulesBytes)
            return try RuleSet.decode(SourceText(file: "\(file)!\(entry.path)", bytes: entry.bytes), platform: platform)
        }
        guard bytes.count <= limits.maximumRulesBytes else {
            throw FencesimError(
                .badData, "rules file of \(bytes.count) bytes is larger than the \(limits.maximumRulesBytes)-byte limit",
                at: SourceLocation(file: file))
        }
        return try RuleSet.decode(SourceText(file: file, bytes: bytes), platform: platform)
    }
}
