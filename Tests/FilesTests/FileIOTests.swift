import Foundation
import Support
import Testing

@testable import Files

#if canImport(Glibc)
import CLinux
#endif

@Suite struct FileIOTests {
    func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fencesim-support-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    @Test func writesAtomicallyAndReplaces() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/out.txt"
        try FileIO.writeAtomically("first", to: path)
        try FileIO.writeAtomically("second", to: path)
        #expect(try FileIO.readAll(path) == Array("second".utf8))
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.txt"])
    }

    /// A file of several chunks is written behind by a thread of its own: whatever the sizes of
    /// the writes (one byte, odd sizes across chunk boundaries, one write larger than every
    /// chunk in flight together), the file holds exactly the bytes written, in order, and only
    /// once committed; a discarded one leaves nothing.
    @Test func writesBehindInOrder() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/big.bin"
        var expected: [UInt8] = []
        var generator = SplitMix64(seed: 42)
        let file = try AtomicFileWriter(path: path)
        var sizes = [1, 7, AtomicFileWriter.chunkBytes - 8, 1, AtomicFileWriter.chunkBytes * (AtomicFileWriter.chunksInFlight + 2) + 3]
        for _ in 0..<40 { sizes.append(Int.random(in: 1...300_000, using: &generator)) }
        for size in sizes {
            let bytes = (0..<size).map { k in UInt8(truncatingIfNeeded: expected.count + k &* 31) }
            expected += bytes
            try file.write(bytes)
        }
        #expect(expected.count > AtomicFileWriter.chunkBytes * (AtomicFileWriter.chunksInFlight + 3))
        #expect(!FileManager.default.fileExists(atPath: path))
        try file.commit()
        #expect(try FileIO.readAll(path) == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["big.bin"])
        // Every full chunk went to the device directly where the file system takes direct I/O;
        // the last, partial one through the page cache.
        let fullChunks = Int64(expected.count / AtomicFileWriter.chunkBytes * AtomicFileWriter.chunkBytes)
        #if os(Linux)
        if FileIOTests.takesDirectIO(dir) {
            #expect(file.directBytes == fullChunks)
        } else {
            #expect(file.directBytes == 0)
        }
        #else
        #expect(file.directBytes == 0)
        #endif
        #expect(fullChunks < expected.count)

        let discarded = try AtomicFileWriter(path: dir + "/gone.bin")
        try discarded.write(Array(repeating: 1, count: AtomicFileWriter.chunkBytes * 2 + 5))
        discarded.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["big.bin"])
    }

    /// A file written behind on a file system where direct I/O does not pay (tmpfs: `/dev/shm`,
    /// where there is one) goes through the page cache, with the same bytes; the writer asks for
    /// direct I/O exactly where the probe finds a local disk that takes it.
    @Test func directIOOnlyOnALocalDisk() throws {
        var folders = [try temporaryDirectory()]
        var shm: String?
        if FileManager.default.fileExists(atPath: "/dev/shm") {
            let dir = "/dev/shm/fencesim-direct-\(UUID().uuidString)"
            if (try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)) != nil {
                folders.append(dir)
                shm = dir
            }
        }
        defer { for dir in folders { try? FileManager.default.removeItem(atPath: dir) } }
        var generator = SplitMix64(seed: 11)
        let bytes = (0..<(3 * AtomicFileWriter.chunkBytes + 4321)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for dir in folders {
            let file = try AtomicFileWriter(path: dir + "/out.bin")
            try file.write(bytes)
            try file.commit()
            #expect(try FileIO.readAll(dir + "/out.bin") == bytes)
            let direct = FileIOTests.takesDirectIO(dir)
            #expect(file.directBytes == (direct ? Int64(3 * AtomicFileWriter.chunkBytes) : 0), "\(dir)")
            if dir == shm { #expect(!direct, "tmpfs is not a local disk") }
        }
    }

    /// Whether a file in `dir` is on a local disk and can be written with direct I/O (an aligned
    /// page), as the writer asks for it.
    static func takesDirectIO(_ dir: String) -> Bool {
        #if os(Linux)
        let path = dir + "/direct-probe"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return false }
        defer {
            close(fd)
            unlink(path)
        }
        guard fencesim_on_local_disk(fd) == 1 else { return false }
        let page = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 4096)
        defer { page.deallocate() }
        page.initializeMemory(as: UInt8.self, repeating: 0)
        guard fencesim_set_direct(fd, 1) == 0 else { return false }
        return write(fd, page.baseAddress, 4096) == 4096
        #else
        return false
        #endif
    }

    /// Files read whole: empty, a few bytes, several MiB (more than a read chunk), a file whose
    /// size says nothing (a /proc file reports 0) and a pipe (no size at all); and files above
    /// the size read in parts on several threads (a threshold lowered to 64 KiB here, so that
    /// the test stays small), of sizes that do and do not divide into the parts evenly.
    @Test func readsWholeFilesWhateverTheirSizeSays() throws {
        let dir = try temporaryDirectory()
        var generator = SplitMix64(seed: 7)
        let large = (0..<(3 << 20) + 12_345).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for bytes in [[], Array("x".utf8), large] {
            let path = dir + "/in-\(bytes.count).bin"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try FileIO.readAll(path) == bytes)
        }
        for size in [65_537, 80_000, 131_079] {
            let bytes = Array(large.prefix(size))
            let path = dir + "/parts-\(size).bin"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try FileIO.readAll(path, parallelAbove: 1 << 16) == bytes)
        }
        let status = try FileIO.readAll("/proc/self/status")
        #expect(String(decoding: status, as: UTF8.self).contains("Name:"))
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(Data(large.prefix(2_000_000)))
            try? handle?.close()
        }
        writer.start()
        #expect(try FileIO.readAll(fifo) == Array(large.prefix(2_000_000)))
    }

    @Test func missingFileIsMissingInput() {
        do {
            _ = try FileIO.readAll("/nonexistent/fencesim/file.gpx")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .missingInput)
            #expect(error.code.exitStatus == 66)
            #expect(error.description.hasPrefix("/nonexistent/fencesim/file.gpx: error: cannot open"))
        }
    }

    @Test func directoryIsBadData() throws {
        let dir = try temporaryDirectory()
        #expect(throws: FencesimError.self) { try FileIO.readAll(dir) }
    }

    @Test func writingIntoAMissingDirectoryIsAnIOError() {
        do {
            try FileIO.writeAtomically("x", to: "/nonexistent/fencesim/out.txt")
            Issue.record("expected an error")
        } catch {
            #expect(error.code.exitStatus == 74)
        }
    }

    @Test func seededGeneratorIsReproducible() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        let xs = (0..<100).map { _ in a.next() }
        let ys = (0..<100).map { _ in b.next() }
        #expect(xs == ys)
        var c = SplitMix64(seed: 0)
        // Reference values of SplitMix64 with seed 0 (Vigna's splitmix64.c).
        #expect(c.next() == 0xE220_A839_7B1D_CDAF)
        #expect(c.next() == 0x6E78_9E6A_A1B9_65F4)
    }
}
