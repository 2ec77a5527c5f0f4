import Support
import Testing

@testable import Traces

#if canImport(Glibc)
import Glibc
#endif

/// The byte-level number parser must give exactly `strtod`'s double.
@Suite("Decimal parser")
struct DecimalParserTests {
    static func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { buffer in
            DecimalParser.parse(buffer.baseAddress!, 0, buffer.count)
        }
    }

    static func strtodValue(_ text: String) -> Double {
        text.withCString { strtod($0, nil) }
    }

    @Test("agrees with strtod bit for bit on a million seeded values")
    func exact() {
        var random = SplitMix64(seed: 2026)
        var mismatches: [String] = []
        for k in 0..<1_000_000 {
            let digits = Int(random.next() % 20) + 1
            var text = random.next() % 2 == 0 ? "-" : ""
            let point = Int(random.next() % UInt64(digits + 1))
            for d in 0..<digits {
                if d == point, d > 0 { text += "." }
                text += String(random.next() % 10)
            }
            if k % 7 == 0 { text += "e" + String(Int(random.next() % 50) - 25) }
            guard let value = Self.parse(text) else {
                mismatches.append(text)
                continue
            }
            if value.bitPattern != Self.strtodValue(text).bitPattern { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test(
        "trace-like values",
        arguments: [
            "37.7726567", "-122.2068750", "8.8", "0.00", "035.208829", "1e3", "-0.0", "12345678901234567890.5", "4.9e-324",
            "1.7976931348623157e308",
        ])
    func values(_ text: String) {
        #expect(Self.parse(text)?.bitPattern == Self.strtodValue(text).bitPattern)
    }

    @Test("words and refusals")
    func words() {
        #expect(Self.parse("NaN")?.isNaN == true)
        #expect(Self.parse("-inf") == -.infinity)
        #expect(Self.parse("Infinity") == .infinity)
        #expect(Self.parse("undefined") == nil)
        #expect(Self.parse("") == nil)
        #expect(Self.parse("1.2.3") == nil)
        #expect(Self.parse("12 m") == nil)
        #expect(Self.parse(".5") == 0.5)
        #expect(Self.parse("5.") == 5)
    }
}
