import Support
import Testing

/// Offsets are located the same with or without a hint, in any order.
@Suite struct SourceLocatorTests {
    /// Lines of assorted lengths, empty ones included, and text without a final newline.
    static func text(_ seed: UInt64) -> SourceText {
        var rng = SplitMix64(seed: seed)
        var bytes: [UInt8] = []
        for _ in 0..<500 {
            let length = Int(rng.next() % 4 == 0 ? 0 : rng.next() % 90)
            bytes += Array(repeating: UInt8(ascii: "x"), count: length)
            bytes.append(10)
        }
        bytes += Array("tail".utf8)
        return SourceText(file: "t.txt", bytes: bytes)
    }

    /// Where `offset` is, counted byte by byte.
    static func counted(_ bytes: [UInt8], _ offset: Int) -> (line: Int, column: Int) {
        let clamped = max(0, min(offset, bytes.count))
        var line = 1
        var column = 1
        for b in bytes[..<clamped] {
            if b == 10 { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aHintNeverChangesTheAnswer(seed: UInt64) {
        let source = Self.text(seed)
        let locator = source.locator()
        var rng = SplitMix64(seed: seed &+ 100)
        var hint = 0
        // In increasing order (as features come), then at random (hints left behind, or stale),
        // with offsets before the start and past the end.
        let rising = stride(from: -3, through: source.bytes.count + 3, by: 7).map { $0 }
        let random = (0..<400).map { _ in Int(rng.next() % UInt64(source.bytes.count + 20)) - 10 }
        for offset in rising + random {
            let expected = Self.counted(source.bytes, offset)
            let plain = locator.location(ofOffset: offset)
            let hinted = locator.location(ofOffset: offset, hint: &hint)
            #expect(plain.line == expected.line && plain.column == expected.column, "offset \(offset)")
            #expect(hinted == plain, "offset \(offset)")
            #expect(hint == expected.line - 1)
        }
        var wild = 1_000_000
        #expect(locator.location(ofOffset: 5, hint: &wild) == locator.location(ofOffset: 5))
        var negative = -4
        #expect(locator.location(ofOffset: 5, hint: &negative) == locator.location(ofOffset: 5))
    }
}
