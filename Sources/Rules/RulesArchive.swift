import Foundation
import Support
import ZIPFoundation

/// Finds and reads rules.json inside a ZIP archive held in memory (research §2.6).
enum RulesArchive {
    /// The name of the rules file inside a Launch rules archive.
    static let rulesFileName = "rules.json"

    /// Whether `bytes` start with a ZIP signature (a local file header, or the end record of an
    /// empty archive).
    static func isArchive(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4B
            && ((bytes[2] == 0x03 && bytes[3] == 0x04) || (bytes[2] == 0x05 && bytes[3] == 0x06))
    }

    /// Reads the archive's rules.json: the entry `rules.json` at the root, or else the only entry
    /// named `rules.json` anywhere in the archive.
    ///
    /// - Throws: ``FencesimError`` `.badData` located at the archive for an unreadable archive,
    ///   an entry that escapes the archive, no or several candidate rules.json, an entry larger
    ///   than `maximumBytes` once inflated, or a corrupt entry.
    static func readRules(_ bytes: [UInt8], file: String, maximumBytes: Int) throws(FencesimError) -> (path: String, bytes: [UInt8]) {
        let location = SourceLocation(file: file)
        let entryData = try checkStructure(bytes, at: location)
        let archive: Archive
        do {
            archive = try Archive(data: Data(bytes), accessMode: .read)
        } catch {
            throw FencesimError(.badData, "not a readable ZIP archive: \(error)", at: location)
        }
        var candidates: [Entry] = []
        for entry in archive {
            let path = entry.path
            if let reason = escapeReason(path) {
                throw FencesimError(.badData, "archive entry \"\(path)\" \(reason); refusing the archive (zip slip)", at: location)
            }
            let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
            if name == rulesFileName && entry.type != .directory { candidates.append(entry) }
        }
        let chosen: Entry
        if let root = candidates.first(where: { $0.path == rulesFileName }) {
            chosen = root
        } else if candidates.count == 1, let only = candidates.first {
            chosen = only
        } else if candidates.isEmpty {
            throw FencesimError(.badData, "the archive holds no \(rulesFileName)", at: location)
        } else {
            throw FencesimError(
                .badData,
                "the archive holds several \(rulesFileName) and none at its root: \(candidates.map(\.path).sorted().joined(separator: ", "))",
                at: location)
        }
        guard chosen.type == .file else {
            throw FencesimError(.badData, "archive entry \"\(chosen.path)\" is not a regular file", at: location)
        }
        // The declared size can lie; it is checked first to refuse honest giants early, and the
        // inflated bytes are counted as they come, which is what bounds the work.
        if chosen.uncompressedSize > UInt64(maximumBytes) {
            throw FencesimError(
                .badData,
                "archive entry \"\(chosen.path)\" inflates to \(chosen.uncompressedSize) bytes, more than the \(maximumBytes)-byte limit (zip bomb?)",
                at: location)
        }
        if let data = entryData.first(where: { String(decoding: $0.name, as: UTF8.self) == chosen.path }) {
            try checkInflates(data, in: bytes, maximumBytes: maximumBytes, at: location)
        }
        var out: [UInt8] = []
        var exceeded = false
        do {
            _ = try archive.extract(chosen, skipCRC32: false) { chunk in
                guard out.count + chunk.count <= maximumBytes else {
                    exceeded = true
                    throw Refusal()
                }
                out.append(contentsOf: chunk)
            }
        } catch {
            if exceeded {
                throw FencesimError(
                    .badData, "archive entry \"\(chosen.path)\" inflates to more than the \(maximumBytes)-byte limit (zip bomb?)",
                    at: location)
            }
            throw FencesimError(.badData, "cannot read archive entry \"\(chosen.path)\": \(error)", at: location)
        }
        return (chosen.path, out)
    }

    /// Why an entry path escapes the archive, or `nil` when it stays inside.
    static func escapeReason(_ path: String) -> String? {
        if path.hasPrefix("/") || path.hasPrefix("\\") { return "has an absolute path" }
        let bytes = Array(path.utf8)
        if bytes.count >= 2, bytes[1] == UInt8(ascii: ":"), (65...90).contains(bytes[0] & 0xDF) { return "has a drive-letter path" }
        let components = path.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        if components.contains("..") { return "climbs out with \"..\"" }
        return nil
    }

    private struct Refusal: Error {}
}
