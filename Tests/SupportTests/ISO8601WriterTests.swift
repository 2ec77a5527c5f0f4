import Testing

@testable import Support

/// ``Support/Timestamp/ISO8601Writer`` remembers the minute it last wrote; whatever it wrote
/// before, a time must come out exactly as ``Support/Timestamp/appendISO8601(fractionDigits:to:)``
/// writes it.
@Suite struct ISO8601WriterTests {
    @Test(arguments: 0..<6)
    func writesWhatAppendISO8601Writes(seed: UInt64) {
        var random = SplitMix64(seed: 0x1508 + seed)
        var writer = Timestamp.ISO8601Writer()
        // Around 1970, in a drive's range, at the ends of the years with four digits, and
        // beyond them (a sign or a fifth digit).
        let anchors: [Int64] = [
            0, 1_767_225_600, 253_402_300_740, -62_167_219_200, -62_167_219_260, 253_402_300_799, Timestamp.earliest.seconds,
        ]
        var seconds = anchors[0]
        var sameMinute = 0
        var lastText = ""
        for _ in 0..<30_000 {
            switch random.next() % 8 {
            case 0: seconds = anchors[Int(random.next() % UInt64(anchors.count))] + Int64(random.next() % 200) - 100
            case 1: seconds -= Int64(random.next() % 120)
            default: seconds += Int64(random.next() % 3)
            }
            // Nanoseconds that round up into the next second (and minute) now and then.
            let nanos: Int64 =
                random.next() % 4 == 0 ? 999_500_000 + Int64(random.next() % 500_000) : Int64(random.next() % 1_000_000_000)
            let t = Timestamp(seconds: seconds, nanoseconds: nanos)
            var expected = ByteBuffer()
            t.appendISO8601(fractionDigits: 3, to: &expected)
            var got = ByteBuffer()
            got.append(UInt8(ascii: "x"))  // not at the start of the buffer
            writer.append(t, to: &got)
            let text = got.withUnsafeBytes { String(decoding: $0.dropFirst(), as: UTF8.self) }
            let reference = expected.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            #expect(text == reference, "\(seconds) s \(nanos) ns")
            if text.count == 24, lastText.count == 24, text.prefix(17) == lastText.prefix(17) { sameMinute += 1 }
            lastText = text
        }
        // Most times follow one of the same minute: the remembered minute is exercised.
        #expect(sameMinute > 10_000)
    }
}
