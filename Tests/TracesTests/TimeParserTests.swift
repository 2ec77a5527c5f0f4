import Support
import Testing

@testable import Traces

/// The readers' ISO 8601 parser remembers the minute of the last time it read whole
/// (``TimeParser/DayCache``): a time that begins with the same 16 bytes is read from its
/// second on. Whatever was read before, a time must parse exactly as it does with nothing
/// remembered, which is the full parse.
@Suite("Time parser")
struct TimeParserTests {
    struct Parsed: Equatable {
        var time: Timestamp?
        var zoned: Bool
    }

    static func parse(_ text: [UInt8], cache: inout TimeParser.DayCache) -> Parsed {
        var zoned = false
        let time = text.withUnsafeBufferPointer { buffer -> Timestamp? in
            // A copy with a byte after the end: the parser must not read it.
            let padded = UnsafeMutablePointer<UInt8>.allocate(capacity: buffer.count + 1)
            defer { padded.deallocate() }
            if let base = buffer.baseAddress { padded.initialize(from: base, count: buffer.count) }
            padded[buffer.count] = UInt8(ascii: "9")
            return TimeParser.parseISO8601(padded, 0, buffer.count, cache: &cache, zoned: &zoned)
        }
        return Parsed(time: time, zoned: zoned)
    }

    /// Times that share their first 16 bytes with the one before, and times that differ from
    /// it in one byte anywhere (a digit, a separator, a sign, a space, a NUL, a zone letter),
    /// read in sequence with one cache, against each read with a fresh cache.
    @Test(arguments: 0..<8)
    func rememberedMinuteReadsAsTheFullParse(seed: UInt64) {
        var random = SplitMix64(seed: 0x7133 + seed)
        let bases =
            [
                "2026-01-01T00:00:00.000Z", "2026-01-01T23:59:60Z", "2026/02/28T12:30", "2026-01-01T12:30.5Z",
                "2026-01-01T12:30:15+02:00", "2026-01-01t12:30:15-0530", "2026-01-01 12:30:15,25", "-0044-03-15T12:00:00Z",
                "+2026-01-01T00:00:00Z", "2026-01-01T  12:30:15Z", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
            ].map { Array($0.utf8) } + [[UInt8](repeating: 0, count: 16) + Array(":00Z".utf8)]
        let alphabet = Array("0123456789-/:T t.,Z+z".utf8) + [0, 0x80, 0xFF]
        var cache = TimeParser.DayCache()
        var previous = bases[0]
        var accepted = 0
        var remembered = 0
        for _ in 0..<20_000 {
            var text: [UInt8]
            switch random.next() % 4 {
            case 0:
                text = bases[Int(random.next() % UInt64(bases.count))]
            case 1:
                // The previous time's first 16 bytes (or fewer), then another tail.
                let tail = bases[Int(random.next() % UInt64(bases.count))]
                text = Array(previous.prefix(16)) + Array(tail.dropFirst(min(tail.count, 16)))
            default:
                text = random.next() % 2 == 0 ? previous : bases[Int(random.next() % UInt64(bases.count))]
                for _ in 0..<Int(random.next() % 3) where !text.isEmpty {
                    let at = Int(random.next() % UInt64(text.count))
                    switch random.next() % 4 {
                    case 0: text.remove(at: at)
                    case 1: text.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                    default: text[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                    }
                }
            }
            let before = cache
            var fresh = TimeParser.DayCache()
            let expected = TimeParserTests.parse(text, cache: &fresh)
            let got = TimeParserTests.parse(text, cache: &cache)
            #expect(got == expected, "\(String(decoding: text, as: UTF8.self)) after \(String(decoding: previous, as: UTF8.self))")
            if expected.time != nil { accepted += 1 }
            if before.remembers, before.minute(text, 0, text.count) != nil { remembered += 1 }
            previous = text
        }
        // The sequences exercise both the remembered minute and the full parse.
        #expect(accepted > 5_000)
        #expect(remembered > 2_000)
    }

    /// What the fast parser accepts, the reference grammar accepts as the same instant.
    @Test func acceptedTimesMatchTheReferenceGrammar() {
        var cache = TimeParser.DayCache()
        for text in [
            "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:01.000Z", "2026-01-01T00:01:00Z", "2026-01-01T23:59:60Z",
            "2026-01-01T12:30", "2026-01-01T12:30:15+02:00", "2026-01-01T12:30:15.123456789Z", "2026-01-01T12:30:15.1234567896Z",
        ] {
            let fast = TimeParserTests.parse(Array(text.utf8), cache: &cache)
            guard case .success(let reference) = Timestamp.parseISO8601(text) else {
                Issue.record("the reference refuses \(text)")
                continue
            }
            #expect(fast.time == reference, "\(text)")
        }
    }
}
