import Testing

@testable import Traces

/// One UTF-8 check for format detection and GPX documents (issue 26: there were two, and the
/// detection's let overlong forms and surrogates through).
@Suite struct UTF8CheckTests {
    static func first(_ bytes: [UInt8], _ cut: Sniffer.CutSequence = .valid) -> Int? {
        bytes.withUnsafeBufferPointer { Sniffer.firstInvalidUTF8($0, cutAtEnd: cut) }
    }

    @Test func wellFormedAndNot() {
        #expect(Self.first(Array("time,lat,lon é ✓ 𝄞".utf8)) == nil)
        #expect(Self.first([0x41, 0xC0, 0x80]) == 1)  // an overlong NUL
        #expect(Self.first([0x41, 0x42, 0xED, 0xA0, 0x80]) == 2)  // a surrogate
        #expect(Self.first([0xF4, 0x90, 0x80, 0x80]) == 0)  // past U+10FFFF
        #expect(Self.first([0x41, 0x80]) == 1)  // a continuation byte alone
        // A sequence cut by the end: the end of a sample, or the end of a document.
        #expect(Self.first([0x41, 0xE2, 0x9C]) == nil)
        #expect(Self.first([0x41, 0xE2, 0x9C], .invalid) == 1)
        #expect(GPXReader.firstInvalidUTF8([0x41, 0xE2, 0x9C]) == 1)
    }
}
