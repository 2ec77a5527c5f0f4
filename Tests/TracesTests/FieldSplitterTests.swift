import Support
import Testing

@testable import Traces

/// The delimiter search that reads eight bytes at a time finds what a byte-by-byte search finds,
/// and lines split into the same fields.
@Suite struct FieldSplitterTests {
    @Test func theWordSearchFindsTheFirstDelimiter() {
        var rng = SplitMix64(seed: 17)
        let alphabet: [UInt8] = Array("0123456789.-:TZ ,;\t\"".utf8) + [0x00, 0x01, 0x2B, 0x2D, 0x80, 0xFE, 0xFF]
        for _ in 0..<50_000 {
            let length = Int(rng.next() % 40)
            let bytes = (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            for delimiter in [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, 0x00, 0xFF] {
                let from = length == 0 ? 0 : Int(rng.next() % UInt64(length + 1))
                let expected = bytes[from...].firstIndex(of: delimiter) ?? length
                let found = bytes.withUnsafeBufferPointer {
                    FieldSplitter.nextDelimiter($0.baseAddress ?? UnsafePointer(bitPattern: 8)!, from, length, delimiter)
                }
                #expect(found == expected, "\(bytes) from \(from), delimiter \(delimiter)")
            }
        }
    }

    /// Fields of a line as the splitter gives them.
    func fields(_ line: String, _ delimiter: UInt8 = UInt8(ascii: ",")) -> [String] {
        let bytes = Array(line.utf8)
        let spans = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        defer { spans.deallocate() }
        return bytes.withUnsafeBufferPointer { buffer -> [String] in
            let count = FieldSplitter.split(buffer.baseAddress!, 0, buffer.count, delimiter: delimiter, into: spans, limit: 32)
            return (0..<min(count, 32)).map { k in String(decoding: buffer[spans[2 * k]..<spans[2 * k + 1]], as: UTF8.self) }
        }
    }

    @Test func linesSplitIntoTheirFields() {
        #expect(
            fields("2026-01-01T00:00:00.000Z,37.6559833,-121.9320990,10.0,0.00") == [
                "2026-01-01T00:00:00.000Z", "37.6559833", "-121.9320990", "10.0", "0.00",
            ])
        #expect(fields(" a , \"b,c\" ,,d ") == ["a", "b,c", "", "d"])
        #expect(fields("one;two;;three", UInt8(ascii: ";")) == ["one", "two", "", "three"])
        #expect(
            fields("a very long first field without any delimiter at all,x") == [
                "a very long first field without any delimiter at all", "x",
            ])
        #expect(fields("") == [""])
        #expect(fields(",,,,,,,,,,") == Array(repeating: "", count: 11))
    }
}
