import Foundation
import Testing

@testable import Support

/// The one-pass readers a fence file's bytes mostly go through (numbers, position lists,
/// common strings, digit runs) give what the general grammar and an independent conversion give.
@Suite struct JSONFastPathTests {
    /// The value of `text` read as one JSON document.
    func value(_ text: String) throws -> JSONNode {
        try JSONParser.withCursor(SourceText(file: "t.json", bytes: Array(text.utf8))) { (c: inout JSONCursor) throws(JSONCursor.Failure) in
            try c.parseValue()
        }
    }

    /// Random number texts of the shapes RFC 8259 allows: signs, integers up to 22 digits,
    /// fractions up to 24 digits, exponents, and leading zeros only as "0" itself.
    static func numberTexts(count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        func digits(_ n: Int, leadingNonZero: Bool) -> String {
            var text = ""
            for k in 0..<n {
                let d = (leadingNonZero && k == 0) ? 1 + Int(rng.next() % 9) : Int(rng.next() % 10)
                text += String(d)
            }
            return text
        }
        var texts: [String] = []
        for _ in 0..<count {
            var text = rng.next() % 3 == 0 ? "-" : ""
            let intLength = Int(rng.next() % 23)
            text += intLength == 0 ? "0" : digits(intLength, leadingNonZero: true)
            if rng.next() % 4 != 0 { text += "." + digits(1 + Int(rng.next() % 24), leadingNonZero: false) }
            if rng.next() % 6 == 0 {
                text += (rng.next() % 2 == 0 ? "e" : "E") + ["", "+", "-"][Int(rng.next() % 3)] + String(rng.next() % 30)
            }
            texts.append(text)
        }
        return texts + [
            "0", "-0", "0.0", "-0.0", "1", "123456789012345678", "1234567890123456789", "9007199254740993",
            "9007199254740993.0", "0.1", "0.30000000000000004", "-122.1004545", "37.9073590", "1e22", "1e23",
            "123456789.12345678", "1.7976931348623157e308", "4.9e-324", "0.0000000000000000000001",
        ]
    }

    /// Numbers: integers of up to 18 digits as exact integers, everything else as the correctly
    /// rounded double (Foundation's conversion is the independent reference), sign of zero
    /// included.
    @Test func numbersMatchAnIndependentConversion() throws {
        for text in JSONFastPathTests.numberTexts(count: 20_000, seed: 11) {
            let node = try value(text)
            let isInteger = !text.contains(".") && !text.lowercased().contains("e")
            let digitCount = text.filter(\.isNumber).count
            if isInteger && digitCount <= 18 {
                guard case .int(let i) = node.value else {
                    Issue.record("\(text) read as \(node.value)")
                    continue
                }
                #expect(i == Int64(text)!, "\(text)")
            } else {
                guard case .double(let d) = node.value else {
                    Issue.record("\(text) read as \(node.value)")
                    continue
                }
                let expected = Double(text)!
                #expect(d.bitPattern == expected.bitPattern, "\(text): \(d) against \(expected)")
            }
        }
    }

    /// What the grammar refuses is refused, at the same place as before the one-pass reader.
    @Test(arguments: [("01", 0), ("-", 1), ("1.", 2), ("-.5", 1), ("1e", 2), ("1e+", 3), ("00.5", 0)])
    func malformedNumbersAreRefused(_ text: String, offset: Int) {
        do {
            _ = try value(text)
            Issue.record("\(text) was read")
        } catch {
            #expect("\(error)".hasPrefix("t.json:1:\(offset + 1): error:"), "\(text): \(error)")
        }
    }

    /// The positions the one-pass reader hands out, or `nil` when it declines.
    func fastPositions(_ text: String) throws -> [[Double]]? {
        try JSONParser.withCursor(SourceText(file: "t.json", bytes: Array(text.utf8))) {
            (c: inout JSONCursor) throws(JSONCursor.Failure) -> [[Double]]? in
            var out: [[Double]] = []
            let start = c.position
            guard c.readNumberPairs({ out.append([$0, $1]) }) else { return nil }
            #expect(c.position > start)
            try c.expectEnd()
            return out
        }
    }

    /// The first two numbers of each position, read with the general grammar.
    func generalPositions(_ text: String) throws -> [[Double]] {
        guard let positions = try value(text).elements else { return [] }
        return positions.map { position in (position.elements ?? []).prefix(2).map { $0.number ?? .nan } }
    }

    /// Random position lists, with whitespace anywhere, two to four numbers a position and every
    /// shape of number: what the one-pass reader accepts it reads as the grammar does, bit for
    /// bit, and it declines what it does not handle (exponents, long digit runs) rather than
    /// reading it otherwise.
    @Test func positionListsReadAsTheGrammarReadsThem() throws {
        var rng = SplitMix64(seed: 5)
        let all = JSONFastPathTests.numberTexts(count: 3_000, seed: 7)
        let cheap = all.filter(JSONFastPathTests.oneCheapConversion)
        let other = all.filter { !JSONFastPathTests.oneCheapConversion($0) }
        #expect(cheap.count > 500 && other.count > 500)
        let spaces = ["", "", "", " ", "\n", " \t", "\r\n  "]
        func space() -> String { spaces[Int(rng.next() % UInt64(spaces.count))] }
        var accepted = 0
        var declined = 0
        for _ in 0..<2_000 {
            var positions: [String] = []
            for _ in 0..<(1 + Int(rng.next() % 12)) {
                let count = 2 + Int(rng.next() % 3)
                // Mostly numbers the reader converts, now and then one it leaves to the grammar.
                let values = (0..<count).map { _ in
                    let pool = rng.next() % 40 == 0 ? other : cheap
                    return space() + pool[Int(rng.next() % UInt64(pool.count))] + space()
                }
                positions.append(space() + "[" + values.joined(separator: ",") + "]" + space())
            }
            let text = space() + "[" + positions.joined(separator: ",") + "]" + space()
            if let fast = try fastPositions(text) {
                accepted += 1
                let general = try generalPositions(text)
                #expect(fast.count == general.count)
                for (a, b) in zip(fast, general) {
                    #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "\(text)")
                }
            } else {
                declined += 1
            }
            // It declines exactly the lists holding a number it leaves to the general path.
            // (Split by scalars: "\r\n" is one Character.)
            let unhandled = text.unicodeScalars.split(whereSeparator: { "[], \n\r\t".unicodeScalars.contains($0) })
                .contains { !JSONFastPathTests.oneCheapConversion(String(String.UnicodeScalarView($0))) }
            #expect((try fastPositions(text) == nil) == unhandled, "\(text)")
        }
        #expect(accepted > 200 && declined > 200)
    }

    /// Whether a number's text takes the one-pass reader's conversion: no exponent, and an
    /// integer of at most 18 digits or a decimal whose at most 19 digits stay below 2^53 with at
    /// most 22 after the point.
    static func oneCheapConversion(_ text: String) -> Bool {
        if text.lowercased().contains("e") { return false }
        let parts = text.replacingOccurrences(of: "-", with: "").split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return parts[0].count <= 18 }
        let digits = parts[0] + parts[1]
        guard digits.count <= 19, parts[1].count <= 22, let mantissa = UInt64(digits) else { return false }
        return mantissa < (1 << 53)
    }

    /// Anything but a non-empty list of two-to-four-number positions is declined, for the
    /// general reader to report.
    @Test(arguments: [
        "[]", "[[]]", "[[1]]", "[[1,2,3,4,5]]", "[1, 2]", "[[1,2],]", "[[1,2] [3,4]]", "[[1,2]", "[[1,2],[3,\"4\"]]",
        "[[1,2],[3,null]]", "[[01,2]]", "[[1.,2]]", "[[1e5,2]]", "[[-,2]]", "[[1,2]]x", "{\"a\":1}", "[[1,2],[3,4]",
    ])
    func otherTextsAreDeclined(_ text: String) throws {
        // A thrown failure (text after the list) counts as declined here too.
        let result = try? fastPositions(text)
        #expect(result == nil || result! == nil, "\(text)")
    }

    /// The position the one-number-array reader hands out, or `nil` when it declines (the
    /// cursor then stands where it was).
    func fastPosition(_ text: String) throws -> [Double]? {
        try JSONParser.withCursor(SourceText(file: "t.json", bytes: Array(text.utf8))) {
            (c: inout JSONCursor) throws(JSONCursor.Failure) -> [Double]? in
            let start = c.position
            guard let (x, y) = c.readNumberPair() else {
                #expect(c.position == start)
                return nil
            }
            try c.expectEnd()
            return [x, y]
        }
    }

    /// Random single positions (a circle's centre), whitespace anywhere, two to four numbers of
    /// every shape: what the reader accepts it reads bit for bit as the grammar does, and it
    /// declines exactly the positions holding a number it leaves to the general path.
    @Test func singlePositionsReadAsTheGrammarReadsThem() throws {
        var rng = SplitMix64(seed: 8)
        let all = JSONFastPathTests.numberTexts(count: 2_000, seed: 12)
        let cheap = all.filter(JSONFastPathTests.oneCheapConversion)
        let other = all.filter { !JSONFastPathTests.oneCheapConversion($0) }
        let spaces = ["", "", " ", "\n", " \t"]
        func space() -> String { spaces[Int(rng.next() % UInt64(spaces.count))] }
        var accepted = 0
        var declined = 0
        for _ in 0..<3_000 {
            let numbers = (0..<(2 + Int(rng.next() % 3))).map { _ in
                let pool = rng.next() % 8 == 0 ? other : cheap
                return pool[Int(rng.next() % UInt64(pool.count))]
            }
            let text = space() + "[" + numbers.map { space() + $0 + space() }.joined(separator: ",") + "]" + space()
            let fast = try fastPosition(text)
            #expect((fast == nil) == numbers.contains { !JSONFastPathTests.oneCheapConversion($0) }, "\(text)")
            guard let fast else {
                declined += 1
                continue
            }
            accepted += 1
            let general = try value(text).elements?.prefix(2).map { $0.number ?? .nan } ?? []
            #expect(fast.map(\.bitPattern) == general.map(\.bitPattern), "\(text)")
        }
        #expect(accepted > 300 && declined > 300)
    }

    /// Anything but one array of two to four numbers is declined, for the general reader.
    @Test(arguments: [
        "[]", "[1]", "[1,2,3,4,5]", "[[1,2]]", "[1,2,]", "[1 2]", "[1,2", "[1,\"2\"]", "[1,null]", "[01,2]", "[1.,2]", "[1e5,2]", "1", "{}",
    ])
    func otherPositionsAreDeclined(_ text: String) throws {
        let result = try? fastPosition(text)
        #expect(result == nil || result! == nil, "\(text)")
    }

    /// The digit runs read eight bytes at a time, against a byte-by-byte reading, with bytes of
    /// 0xFA and more (whose carry the method must keep out of the run) around the digits.
    @Test func digitRunsMatchAByteByByteReading() {
        var rng = SplitMix64(seed: 9)
        let alphabet: [UInt8] =
            Array("0123456789".utf8) + Array("0123456789".utf8) + [0x2E, 0x2C, 0x5D, 0x2D, 0x2F, 0x3A, 0x20, 0x00, 0xFA, 0xFF, 0xC3, 0x65]
        for _ in 0..<100_000 {
            let bytes = (0..<8).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            var count = 0
            var value: UInt64 = 0
            while count < 8, bytes[count] >= 0x30, bytes[count] <= 0x39 {
                value = value * 10 + UInt64(bytes[count] - 0x30)
                count += 1
            }
            let found = bytes.withUnsafeBytes { DecimalParser.leadingDigits($0.baseAddress!) }
            #expect(found.count == count && found.value == value, "\(bytes)")
        }
    }

    /// The string `text` holds, read by a cursor that knows `words`.
    func string(_ text: String, _ words: JSONWords) throws -> String {
        try JSONParser.withCursor(SourceText(file: "t.json", bytes: Array(text.utf8))) { (c: inout JSONCursor) throws(JSONCursor.Failure) in
            c.words = words
            return try c.parseString()
        }
    }

    /// Member and type names come back as the same text, and a byte changed anywhere in one is
    /// not taken for it.
    @Test func commonStringsAreFoundExactly() throws {
        let words = [
            "id", "crs", "name", "type", "zone", "rank", "Point", "range", "beacon", "buffer", "radius", "weight",
            "Feature", "library", "Polygon", "features", "geometry", "metadata", "proximity", "properties",
            "LineString", "MultiPoint", "geometries", "coordinates", "MultiPolygon", "MultiLineString",
        ]
        let table = JSONWords(words)
        for word in words {
            var bytes = Array(word.utf8)
            #expect(bytes.withUnsafeBufferPointer { table.word($0.baseAddress!, $0.count) } == word)
            #expect(try string("\"\(word)\"", table) == word)
            for k in bytes.indices {
                let saved = bytes[k]
                bytes[k] = saved ^ 0x20
                let changed = String(decoding: bytes, as: UTF8.self)
                let found = bytes.withUnsafeBufferPointer { table.word($0.baseAddress!, $0.count) }
                #expect(found == nil || words.contains(changed) && found == changed, "\(changed)")
                #expect(try string("\"\(changed)\"", table) == changed)
                bytes[k] = saved
            }
        }
        #expect(try string(#""Feature\u0020""#, table) == "Feature ")
        #expect(try string(#""typé""#, table) == "typé")
    }
}

/// Numbers with a few decimals are written without Swift's float formatting: the same text as
/// Swift's shortest round-trip form (`description`), for metres to the millimetre, degrees to
/// 1e-7, and values that only look like them.
@Suite struct ShortDecimalTests {
    @Test func sameTextAsTheShortestRoundTrip() {
        var rng = SplitMix64(seed: 42)
        var values: [Double] = [
            0.001, -0.001, 0.1, 0.5, 1.25, 123.456, -60.483, 47.3700246, -122.206875, 8.5299895, 99_999_999.9999999,
            999_999_999.999, 1e-7, -1e-7, 0.0000001, 1e8 - 1e-7, 0.1 + 0.2, 1.0 / 3, 2.675, 1e-4, 1e-5,
        ]
        for _ in 0..<200_000 {
            let units = Double(Int64(bitPattern: rng.next()) % 1_000_000_000_000)
            values.append(units / 1000)
            values.append((units / 1e7).truncatingRemainder(dividingBy: 1e8))
            values.append(Double(bitPattern: rng.next() >> 2))
            values.append((rng.nextUnitDouble() - 0.5) * 400)
            let v = (rng.nextUnitDouble() - 0.5) * 2e6
            values.append((v * 1000).rounded() / 1000)
        }
        for value in values where value.isFinite && value != value.rounded() {
            let expected = "\(value)"
            let got = JSONWriter.number(value)
            #expect(got == expected, "\(value)")
            if got != expected { return }
        }
    }

    /// Integers are written two digits a step: the same text as Swift's `description`.
    @Test func integersAsSwiftWritesThem() {
        var rng = SplitMix64(seed: 7)
        var values: [Int64] = [0, 1, -1, 9, -9, 10, -10, 99, 100, 101, Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power + 1, -power, -power - 1]
        }
        for _ in 0..<100_000 {
            let bits = Int64(bitPattern: rng.next())
            values.append(bits)
            values.append(bits >> (rng.next() % 63))
        }
        for value in values {
            var out = ByteBuffer()
            out.append(UInt8(ascii: "x"))
            JSONWriter.appendInteger(value, to: &out)
            let got = out.withUnsafeBytes { String(decoding: $0.dropFirst(), as: UTF8.self) }
            #expect(got == "\(value)")
            if got != "\(value)" { return }
        }
    }
}

/// A repeated number's kept text is the text of the number given, whether it repeats the one
/// before (bit for bit), differs from it in its last bit or its sign, or is long (an exponent
/// form, never kept), in a buffer that grows as it is written.
@Suite struct RepeatedNumberTests {
    @Test func writesWhatAppendNumberWrites() {
        var rng = SplitMix64(seed: 11)
        var values: [Double] = [0, -0.0, 0, .nan, .infinity, -122.206875, -122.206875, 37.7726567, 1e-300, 1e-300, 5e-324, 5e-324, 1]
        for _ in 0..<50_000 {
            let last = values[values.count - 1]
            switch rng.next() % 6 {
            case 0, 1: values.append(last)
            case 2: values.append(last.nextUp)
            case 3: values.append(-last)
            case 4: values.append((Double(Int64(bitPattern: rng.next()) % 1_000_000_000_000) / 1e7))
            default: values.append(Double(bitPattern: rng.next()))
            }
        }
        var kept = JSONWriter.RepeatedNumber()
        var repeated = ByteBuffer(capacity: 16)
        var plain = ByteBuffer(capacity: 16)
        for value in values {
            kept.append(value, to: &repeated)
            repeated.append(UInt8(ascii: ","))
            JSONWriter.appendNumber(value, to: &plain)
            plain.append(UInt8(ascii: ","))
        }
        #expect(repeated.bytes == plain.bytes)
    }
}
