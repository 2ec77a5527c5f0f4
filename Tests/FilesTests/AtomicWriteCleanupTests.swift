import Foundation
import Support
import Testing

@testable import Files

/// Temporary files left by a writer that was killed (issue 8): the next atomic write of the same
/// output removes those of dead processes and nothing else.
@Suite struct AtomicWriteCleanupTests {
    @Test func removesLeftoversOfDeadWritersOnly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fencesim-cleanup-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 99999999 is above any Linux pid_max (at most 2^22): no such process.
        let dead = ".out.jsonl.tmp-99999999-AbC123"
        let live = ".out.jsonl.tmp-1-XyZ789"  // pid 1 always exists
        let legacy = ".out.jsonl.tmp-Qw3rTy"  // the old name, without a pid: not ours to judge
        let otherOutput = ".other.jsonl.tmp-99999999-AbC123"
        for name in [dead, live, legacy, otherOutput] {
            FileManager.default.createFile(atPath: "\(dir)/\(name)", contents: Data("partial".utf8))
        }
        try FileIO.writeAtomically("complete\n", to: "\(dir)/out.jsonl")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == [live, otherOutput, legacy, "out.jsonl"].sorted())
        #expect(try FileIO.readAll("\(dir)/out.jsonl") == Array("complete\n".utf8))
    }

    /// Names are matched as bytes: a name with characters of several bytes is cleaned as an
    /// ASCII one, and a longer name that merely starts like the output's is left alone.
    @Test func matchesNamesOfSeveralByteCharacters() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fencesim-cleanup-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dead = ".réunion-été.csv.tmp-99999999-AbC123"
        let live = ".réunion-été.csv.tmp-1-XyZ789"
        let longer = ".réunion-été.csv.tmp-99999999-AbC1234"  // seven characters: not a temporary name
        for name in [dead, live, longer] {
            FileManager.default.createFile(atPath: "\(dir)/\(name)", contents: Data("partial".utf8))
        }
        try FileIO.writeAtomically("complete\n", to: "\(dir)/réunion-été.csv")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == [live, longer, "réunion-été.csv"].sorted())
    }
}
