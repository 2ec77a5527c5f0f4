import Foundation
import Rules
import Support
import Testing
import ZIPFoundation

/// Bad inputs: every one is refused with the right error code and a located message, and
/// nothing is written to disk while reading (archives are read in memory, never extracted).
@Suite struct RulesBadInputTests {
    /// A new empty directory for one test's archives.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fencesim-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes a ZIP archive with ZIPFoundation, entries deflated.
    static func makeArchive(in dir: URL, name: String = "rules.zip", _ entries: [(path: String, size: Int, bytes: (Int, Int) -> Data)])
        throws -> URL
    {
        let url = dir.appendingPathComponent(name)
        let archive = try Archive(url: url, accessMode: .create)
        for entry in entries {
            try archive.addEntry(
                with: entry.path, type: .file, uncompressedSize: Int64(entry.size), compressionMethod: .deflate,
                bufferSize: 1 << 20
            ) { position, size in entry.bytes(Int(position), size) }
        }
        return url
    }

    static func text(_ path: String, _ text: String) -> (path: String, size: Int, bytes: (Int, Int) -> Data) {
        let data = Data(text.utf8)
        return (path, data.count, { position, size in data.subdata(in: position..<(position + size)) })
    }

    static func zeros(_ path: String, _ count: Int) -> (path: String, size: Int, bytes: (Int, Int) -> Data) {
        (path, count, { _, size in Data(count: size) })
    }

    static let validRules =
        #"{"version": 1, "rules": [{"condition": {"type": "matcher", "definition": {"key": "~type", "matcher": "ex"}}, "consequences": [{"id": "c", "type": "pb", "detail": {}}]}]}"#

    /// Only the archive itself is in the directory after reading.
    static func expectNothingExtracted(_ dir: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let contents = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(contents.allSatisfy { $0.hasSuffix(".zip") }, "\(contents)", sourceLocation: sourceLocation)
    }

    @Test func archiveWithRulesAtTheRootOrAloneInsideLoads() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = try Self.makeArchive(
            in: dir, name: "root.zip", [Self.text("README.txt", "hi"), Self.text("rules.json", Self.validRules)])
        let set = try RulesLoader.load(path: root.path)
        #expect(set.rules.count == 1)
        #expect(set.file == root.path + "!rules.json")
        let nested = try Self.makeArchive(in: dir, name: "nested.zip", [Self.text("ADBMobileConfig-rules/rules.json", Self.validRules)])
        #expect(try RulesLoader.load(path: nested.path).file == nested.path + "!ADBMobileConfig-rules/rules.json")
        try Self.expectNothingExtracted(dir)
    }

    /// A parse error inside an archive is located as `archive.zip!rules.json:line:col`.
    @Test func badJSONInsideAnArchiveIsLocated() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makeArchive(in: dir, [Self.text("rules.json", "{\"version\": 1,\n  \"rules\": [,]}")])
        let error = #expect(throws: FencesimError.self) { try RulesLoader.load(path: url.path) }
        #expect(error?.code == .badData)
        #expect(error?.code.exitStatus == 65)
        #expect(error?.description == "\(url.path)!rules.json:2:13: error: expected a JSON value, found ','")
    }

    @Test func badJSONIsLocatedByLineAndColumn() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("rules.json")
        try Data("{\n  \"version\": 1,\n  \"rules\": [\n    {\"condition\": tru}\n  ]\n}\n".utf8).write(to: url)
        let error = #expect(throws: FencesimError.self) { try RulesLoader.load(path: url.path) }
        #expect(error?.code.exitStatus == 65)
        #expect(error?.description == "\(url.path):4:19: error: expected 'true'")
    }

    @Test func unknownConditionTypeIsLocated() throws {
        let text = """
            {"version": 1, "rules": [
              {"condition": {"type": "matches", "definition": {}}, "consequences": []}
            ]}
            """
        let error = #expect(throws: FencesimError.self) { try Fixture.rules(text, file: "r.json") }
        #expect(error?.code.exitStatus == 65)
        #expect(
            error?.description.hasPrefix("r.json:2:26: error: unknown condition type \"matches\"") == true, "\(error?.description ?? "")")
    }

    @Test func archiveWithoutRulesIsRefused() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makeArchive(in: dir, [Self.text("config.json", "{}"), Self.text("__MACOSX/._rules.json", "x")])
        let error = #expect(throws: FencesimError.self) { try RulesLoader.load(path: url.path) }
        #expect(error?.code == .badData)
        #expect(error?.description == "\(url.path): error: the archive holds no rules.json")
        let two = try Self.makeArchive(
            in: dir, name: "two.zip", [Self.text("a/rules.json", Self.validRules), Self.text("b/rules.json", Self.validRules)])
        let several = #expect(throws: FencesimError.self) { try RulesLoader.load(path: two.path) }
        #expect(several?.message.contains("several rules.json") == true)
        try Self.expectNothingExtracted(dir)
    }

    @Test(arguments: ["../rules.json", "../../etc/evil.txt", "/tmp/rules.json", "a/../../rules.json", "..\\evil.txt", "C:/evil.txt"])
    func zipSlipIsRefused(_ path: String) throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makeArchive(in: dir, [Self.text("rules.json", Self.validRules), Self.text(path, "owned")])
        let error = #expect(throws: FencesimError.self) { try RulesLoader.load(path: url.path) }
        #expect(error?.code.exitStatus == 65)
        #expect(error?.location?.file == url.path)
        #expect(error?.message.contains("archive entry \"\(path)\"") == true)
        #expect(error?.message.contains("zip slip") == true)
        try Self.expectNothingExtracted(dir)
        #expect(!FileManager.default.fileExists(atPath: dir.deletingLastPathComponent().appendingPathComponent("evil.txt").path))
    }

    /// A small archive that inflates beyond the cap (64 MiB by default) is refused.
    @Test func zipBombIsRefusedAtTheDefaultCap() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makeArchive(in: dir, [Self.zeros("rules.json", (64 << 20) + 1)])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(size < 1 << 20, "the archive is small")
        let error = #expect(throws: FencesimError.self) { try RulesLoader.load(path: url.path) }
        #expect(error?.code.exitStatus == 65)
        #expect(error?.message.contains("more than the 67108864-byte limit (zip bomb?)") == true, "\(error?.description ?? "")")
        try Self.expectNothingExtracted(dir)
    }

    /// An entry whose declared size lies is stopped while inflating, not trusted.
    @Test func lyingDeclaredSizeIsCaughtWhileInflating() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makeArchive(in: dir, [Self.zeros("rules.json", 1 << 20)])
        var bytes = [UInt8](try Data(contentsOf: url))
        // Patch the uncompressed size (offset 24) of the central directory header to 10 bytes.
        let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        let header = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == signature })
        bytes.replaceSubrange((header + 24)..<(header + 28), with: [10, 0, 0, 0])
        let limits = RulesLoader.Limits(maximumRulesBytes: 64 << 10)
        let error = #expect(throws: FencesimError.self) { try RulesLoader.parse(bytes, file: "lying.zip", limits: limits) }
        #expect(error?.code == .badData)
        #expect(error?.message.contains("zip bomb") == true, "\(error?.description ?? "")")
    }

    @Test func honestOversizedEntryIsRefusedBeforeInflating() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makeArchive(in: dir, [Self.zeros("rules.json", 4096)])
        let error = #expect(throws: FencesimError.self) {
            try RulesLoader.load(path: url.path, limits: RulesLoader.Limits(maximumRulesBytes: 1024))
        }
        #expect(error?.message.contains("inflates to 4096 bytes, more than the 1024-byte limit") == true)
    }

    @Test func corruptArchiveIsRefused() throws {
        let bytes: [UInt8] = [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 7, count: 100)
        let error = #expect(throws: FencesimError.self) { try RulesLoader.parse(bytes, file: "broken.zip") }
        #expect(error?.code == .badData)
        #expect(error?.location?.file == "broken.zip")
    }

    @Test func missingFileIs66() throws {
        let error = #expect(throws: FencesimError.self) { try RulesLoader.load(path: "/nonexistent/rules.json") }
        #expect(error?.code == .missingInput)
        #expect(error?.code.exitStatus == 66)
        #expect(error?.description.hasPrefix("/nonexistent/rules.json: error: cannot open") == true)
    }

    @Test func oversizedPlainFileIsRefused() throws {
        let bytes = Array(repeating: UInt8(ascii: " "), count: 2048)
        let error = #expect(throws: FencesimError.self) {
            try RulesLoader.parse(bytes, file: "big.json", limits: RulesLoader.Limits(maximumRulesBytes: 1024))
        }
        #expect(error?.message.contains("larger than the 1024-byte limit") == true)
    }
}
