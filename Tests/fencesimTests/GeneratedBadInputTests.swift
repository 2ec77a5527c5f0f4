import Foundation
import Testing

/// The large members of the bad-input corpus (issue 8), generated at test time in a temporary
/// folder and never committed: a 1 GB line, a ZIP bomb, polygons with a million vertices, and
/// filter expressions given on the command line.
///
/// Sizes are knobs: `FENCESIM_HUGE_LINE_BYTES` (default 1 GiB, a sparse file) and
/// `FENCESIM_POLYGON_VERTICES` (default 1,000,000; `make sanitize` makes it smaller).
@Suite("Bad-input corpus, generated (issue 8)")
struct GeneratedBadInputTests {
    /// How many cases this suite adds to the corpus (counted by `BadInputCorpusTests`).
    static let count = 2 + 2 + 2 + 2 + filterCases.count + 2

    static func knob(_ name: String, _ fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? fallback
    }

    static let hugeLineBytes = knob("FENCESIM_HUGE_LINE_BYTES", 1 << 30)
    static let polygonVertices = knob("FENCESIM_POLYGON_VERTICES", 1_000_000)
    static let good = BadInput.folder.appendingPathComponent("good")

    /// Writes `header`, then a line of `count` bytes with no line break and a final LF: the first
    /// 4 MiB of the line are `filler` (well past the readers' 1 MiB line limit), the rest is a hole
    /// (a sparse file, read back as NUL bytes), so a 1 GB line costs 4 MiB of disk and no time.
    static func writeHugeLine(to url: URL, header: String, filler: UInt8, count: Int) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let head = Data(header.utf8)
        try handle.write(contentsOf: head)
        try handle.write(contentsOf: Data(repeating: filler, count: min(count, 4 << 20)))
        try handle.truncate(atOffset: UInt64(head.count + count))
        try handle.seek(toOffset: UInt64(head.count + count))
        try handle.write(contentsOf: Data([0x0A]))
    }

    @Test(
        "a 1 GB line is refused, located, without reading it into memory",
        arguments: [("huge-line.csv", "time,lat,lon\n2026-01-01T00:00:00Z,"), ("huge-line.nmea", "$GPRMC,")])
    func hugeLine(_ name: String, _ header: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent(name)
        try Self.writeHugeLine(to: trace, header: header, filler: UInt8(ascii: "7"), count: Self.hugeLineBytes)
        let out = dir.appendingPathComponent("events.jsonl")
        let result = try TimedCLI.run(
            [
                "replay", trace.path, "--fences", Self.good.appendingPathComponent("fences.geojson").path,
                "--out", out.path,
            ], timeout: BadInputCorpusTests.timeLimit)
        try BadInputCorpusTests.expect(result, .refused(65, .lineColumn), named: trace.path, outputs: [out], path: name)
        // The line scanner refuses a line past 1 MiB; the whole process stays far below the line.
        #expect(result.peakKiB < 512 * 1024, "\(name): peak RSS \(result.peakKiB) KiB for a \(Self.hugeLineBytes)-byte line")
    }

    // MARK: ZIP bomb

    /// A ZIP holding `rules.json` that inflates to `inflatedBytes` spaces, declaring `declaredSize`
    /// in its headers (a lie when smaller). The deflate stream is one fixed-Huffman block of
    /// length-258, distance-1 copies: about 1,000:1.
    static func zipBomb(inflatedBytes: Int, declaredSize: UInt32) -> [UInt8] {
        var deflated = BitWriter()
        deflated.bits(1, 1)  // BFINAL
        deflated.bits(1, 2)  // BTYPE 01: fixed Huffman
        deflated.huffman(0x30 + 0x20, 8)  // literal ' '
        for _ in 0..<((inflatedBytes - 1) / 258) {
            deflated.huffman(0b1100_0101, 8)  // length code 285: 258 bytes
            deflated.huffman(0, 5)  // distance code 0: distance 1
        }
        deflated.huffman(0, 7)  // end of block (256)
        let data = deflated.finish()
        let name = Array("rules.json".utf8)
        var zip: [UInt8] = []
        func u16(_ v: Int) { zip += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: UInt32) { zip += (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        // Local file header; the CRC is left 0: the size limit must refuse the entry first.
        u32(0x0403_4B50); u16(20); u16(0); u16(8); u16(0); u16(0x21); u32(0)
        u32(UInt32(data.count)); u32(declaredSize); u16(name.count); u16(0)
        zip += name + data
        let directoryOffset = zip.count
        u32(0x0201_4B50); u16(20); u16(20); u16(0); u16(8); u16(0); u16(0x21); u32(0)
        u32(UInt32(data.count)); u32(declaredSize); u16(name.count); u16(0); u16(0); u16(0); u16(0); u32(0); u32(0)
        zip += name
        let directorySize = zip.count - directoryOffset
        u32(0x0605_4B50); u16(0); u16(0); u16(1); u16(1); u32(UInt32(directorySize)); u32(UInt32(directoryOffset)); u16(0)
        return zip
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var filled = 0

        /// Writes `count` bits of `value`, least significant first (deflate header and extra bits).
        mutating func bits(_ value: UInt32, _ count: Int) {
            for i in 0..<count {
                current |= ((value >> i) & 1) << filled
                filled += 1
                if filled == 8 {
                    bytes.append(UInt8(current))
                    current = 0
                    filled = 0
                }
            }
        }

        /// Writes a Huffman code, most significant bit first (RFC 1951 §3.1.1).
        mutating func huffman(_ code: UInt32, _ length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { bits((code >> i) & 1, 1) }
        }

        mutating func finish() -> [UInt8] {
            if filled > 0 { bytes.append(UInt8(current)) }
            filled = 0
            current = 0
            return bytes
        }
    }

    @Test(
        "a rules ZIP bomb is refused by its size, whether its header is honest or lies",
        arguments: [("honest", UInt32(200 << 20)), ("lying", UInt32(100))])
    func zipBomb(_ kind: String, _ declared: UInt32) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let archive = dir.appendingPathComponent("bomb-\(kind).zip")
        try Data(Self.zipBomb(inflatedBytes: 200 << 20, declaredSize: declared)).write(to: archive)
        let wrapper = dir.appendingPathComponent("wrapper.yaml")
        try """
        name: zip-bomb
        traces: [\(Self.good.appendingPathComponent("trace.csv").path)]
        fences: \(Self.good.appendingPathComponent("fences.geojson").path)
        rules: \(archive.path)

        """.write(to: wrapper, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let result = try TimedCLI.run(["run", wrapper.path, "--out", out.path], timeout: BadInputCorpusTests.timeLimit)
        try BadInputCorpusTests.expect(result, .refused(65, .file), named: archive.path, outputs: [out], path: archive.lastPathComponent)
        #expect(result.stderr.contains("limit"), "\(kind): \(result.stderr.prefix(300))")
        // The 64 MiB cap on inflated rules bounds memory, not the 200 MiB the bomb holds.
        #expect(result.peakKiB < 1024 * 1024, "\(kind): peak RSS \(result.peakKiB) KiB")
    }

    // MARK: Polygons with a million vertices

    /// A FeatureCollection with one polygon of `vertices` vertices around (8.53, 47.37), written
    /// streaming: a circle of ~500 m, or (`selfIntersecting`) a star whose edges cross.
    static func writePolygon(to url: URL, vertices: Int, selfIntersecting: Bool) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"big"},"geometry":{"type":"Polygon","coordinates":[["#
        func position(_ k: Int) -> String {
            let angle = Double(k % vertices) / Double(vertices) * 2 * Double.pi
            // A star: every vertex jumps 7/16 of a turn, so consecutive edges cross.
            var a = angle
            if selfIntersecting {
                let point = Double((k % vertices) * 7 % 16)
                a = point / 16 * 2 * Double.pi + angle / 1000
            }
            let lon = 8.53 + 0.0066 * cos(a)
            let lat = 47.37 + 0.0045 * sin(a)
            return "[\(String(format: "%.9f", lon)),\(String(format: "%.9f", lat))]"
        }
        for k in 0...vertices {
            text += (k == 0 ? "" : ",") + position(k)
            if text.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        text += "]]}}]}\n"
        try handle.write(contentsOf: Data(text.utf8))
    }

    @Test(
        "a polygon with a million vertices is read and replayed, or refused with GEOS's reason, in time",
        arguments: [false, true])
    func millionVertices(_ selfIntersecting: Bool) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fences = dir.appendingPathComponent(selfIntersecting ? "star.geojson" : "circle.geojson")
        try Self.writePolygon(to: fences, vertices: Self.polygonVertices, selfIntersecting: selfIntersecting)
        let out = dir.appendingPathComponent("events.jsonl")
        // About 8 s of CPU for the debug binary; the bound only tells a hang from a loaded machine.
        let result = try TimedCLI.run(
            [
                "replay", Self.good.appendingPathComponent("trace.csv").path, "--fences", fences.path,
                "--out", out.path,
            ], timeout: 120)
        let outcome: BadInput.Outcome = selfIntersecting ? .refused(65, .lineColumn) : .accepted
        try BadInputCorpusTests.expect(result, outcome, named: fences.path, outputs: [out], path: fences.lastPathComponent)
        if !selfIntersecting {
            // The trace's middle fix is 12 m from the centre: inside the circle.
            let log = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            #expect(log.contains(#""type":"enter""#), "no enter in: \(log.prefix(300))")
        }
    }

    /// Repairing the star (issue 21): past 120 s at 2 GB, now refused by its count of crossings
    /// (`MakeValidLimitTests` shows the refusal on a 64-vertex star).
    @Test(
        "a self-intersecting polygon with a million vertices is refused, not repaired, by lint and --make-valid",
        arguments: [["lint"], ["replay", "--make-valid"]])
    func millionVertexRepair(_ command: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fences = dir.appendingPathComponent("star.geojson")
        try Self.writePolygon(to: fences, vertices: Self.polygonVertices, selfIntersecting: true)
        let out = dir.appendingPathComponent("events.jsonl")
        let arguments =
            command[0] == "lint"
            ? ["lint", fences.path]
            : command + [Self.good.appendingPathComponent("trace.csv").path, "--fences", fences.path, "--out", out.path]
        let result = try TimedCLI.run(arguments, timeout: 120)
        try BadInputCorpusTests.expect(
            result, .refused(65, .lineColumn), named: fences.path, outputs: [out], path: fences.lastPathComponent)
        #expect(result.stderr.contains("more than make-valid repairs"), "\(result.stderr.prefix(400))")
    }

    // MARK: Filter expressions on the command line

    static let filterCases: [(String, String)] = [
        ("empty", ""),
        ("dangling operator", "speed <"),
        ("unbalanced parentheses", "((((speed < 1)"),
        ("unknown field", "accuracy < nan"),
        ("garbage", "\u{1}\u{2}%$#@"),
        ("only operators", "&& || ! < >"),
    ]

    @Test("a bad --filter is a usage error pointing at its column", arguments: filterCases)
    func badFilter(_ name: String, _ expression: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("events.jsonl")
        let result = try TimedCLI.run(
            [
                "replay", "good/trace.csv", "--fences", "good/fences.geojson", "--filter", expression,
                "--out", out.path,
            ], in: BadInput.folder, timeout: BadInputCorpusTests.timeLimit)
        #expect(!result.timedOut && result.signal == nil, "\(name): \(result.summary)")
        #expect(result.status == 64, "\(name): \(result.summary)")
        #expect(result.stderr.contains("--filter") && result.stderr.contains("column "), "\(name): \(result.stderr.prefix(300))")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// 1,000 levels pass the token limit and meet the nesting limit; 100,000 meet the token limit.
    @Test("a deeply nested --filter is a usage error, not a stack overflow", arguments: [1_000, 100_000])
    func deeplyNestedFilter(_ depth: Int) throws {
        let expression = String(repeating: "!", count: depth) + "(speed < 1)"
        let result = try TimedCLI.run(
            ["replay", "good/trace.csv", "--fences", "good/fences.geojson", "--filter", expression],
            in: BadInput.folder, timeout: BadInputCorpusTests.timeLimit)
        #expect(!result.timedOut && result.signal == nil, "\(result.summary)")
        #expect(result.status == 64, "\(result.summary)")
        #expect(
            result.stderr.contains("--filter: column ")
                && result.stderr.contains(depth == 1_000 ? "nests deeper" : "tokens"), "\(result.stderr.prefix(300))")
        // The filter is quoted around the column only, not all 100,000 characters.
        #expect(result.stderr.utf8.count < 2_000, "\(result.stderr.utf8.count) bytes of error")
    }
}
