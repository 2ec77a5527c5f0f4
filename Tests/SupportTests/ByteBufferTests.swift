import Testing

@testable import Support

/// The byte buffer renderers write into holds exactly the bytes appended, whichever way each run
/// is copied (the overlapping small copies of 1 to 32 bytes, `memcpy` past that) and however
/// often it grows.
@Suite struct ByteBufferTests {
    /// 256 bytes, no two neighbours alike, to take runs from.
    static let source: [UInt8] = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    @Test(arguments: [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 64, 199])
    func runsOfEveryLengthAreCopiedWhole(length: Int) {
        // A starting capacity of 16 bytes makes most of these runs grow the buffer.
        var buffer = ByteBuffer(capacity: 0)
        var expected: [UInt8] = []
        for offset in [0, 1, 3] {
            let run = Array(Self.source[offset..<(offset + length)])
            buffer.append(UInt8(ascii: "|"))
            run.withUnsafeBytes { buffer.append(contentsOf: $0) }
            expected += [UInt8(ascii: "|")] + run
        }
        #expect(buffer.bytes == expected)
        #expect(buffer.count == expected.count && buffer.capacity >= expected.count)
    }

    @Test func literalsRepeatsAndOtherBuffers() {
        var buffer = ByteBuffer()
        buffer.append("time,seq")
        buffer.append(repeating: UInt8(ascii: ","), count: 3)
        buffer.append(repeating: UInt8(ascii: ","), count: 0)
        var other = ByteBuffer()
        other.append("2026-01-01T00:00:00.000Z")
        buffer.append(contentsOf: other)
        buffer.append(contentsOf: [UInt8(ascii: "!")])
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "time,seq,,,2026-01-01T00:00:00.000Z!")
    }

    @Test func insertRemoveAndStore() {
        var buffer = ByteBuffer(capacity: 0)
        buffer.append("abcdefghij")
        let digits: [UInt8] = Array("12345678901234567890".utf8)
        digits.withUnsafeBytes { buffer.insert(contentsOf: $0, at: 3) }
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "abc12345678901234567890defghij")
        buffer.storeBytes(of: UInt32(0x4443_4241).littleEndian, toByteOffset: 1, as: UInt32.self)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "aABCD345678901234567890defghij")
        buffer.removeSubrange(from: 5)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "aABCD")
        let capacity = buffer.capacity
        buffer.removeAll()
        #expect(buffer.isEmpty && buffer.capacity == capacity)
    }
}
