import Testing

@testable import Fences
@testable import Support

/// The structural scan that finds the elements of an array for readers that take them on
/// several threads.
@Suite struct ElementRangesTests {
    /// The element texts the scan finds in `text` (a document that is an array), or `nil`.
    func elements(_ text: String) throws -> [String]? {
        let bytes = Array(text.utf8)
        let found = try JSONParser.withCursor(SourceText(file: "t.json", bytes: bytes)) {
            (c: inout JSONCursor) throws(JSONCursor.Failure) in
            try c.beginArray()
            return c.elementRanges()
        }
        guard let found else { return nil }
        #expect(bytes[found.close] == UInt8(ascii: "]"))
        return found.ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func findsEveryKindOfElement() throws {
        #expect(try elements("[]") == [])
        #expect(try elements(" [ \n ] ") == [])
        #expect(
            try elements(#"[1, -2.5e3,true ,null, "s", {"a": [1, {"b": 2}]}, [[]]]"#)
                == ["1", "-2.5e3", "true", "null", #""s""#, #"{"a": [1, {"b": 2}]}"#, "[[]]"])
    }

    @Test func bracketsAndQuotesInsideStringsDoNotCount() throws {
        #expect(try elements(#"[{"n": "a]}, {[\"x"}, "\\", "]"]"#) == [#"{"n": "a]}, {[\"x"}"#, #""\\""#, #""]""#])
    }

    /// Anything unexpected gives up, so that the streaming read reports the problem where it is.
    @Test(arguments: ["[1,, 2]", "[1 2]", "[{\"a\": 1} {\"b\": 2}]", "[\"open", "[{\"a\": [1, 2}", "[1, 2", "[,]", "[1,]x"])
    func givesUpOnMalformedArrays(_ text: String) throws {
        #expect(try elements(text) == nil)
    }

    /// Unbalanced brackets of the wrong kind are not the scan's business: it finds a range, and
    /// reading the element then fails exactly where a streaming read would.
    @Test func mismatchedBracketsAreLeftToTheGrammar() throws {
        #expect(try elements(#"[{"a": 1], 2]"#) == [#"{"a": 1]"#, "2"])
    }

    /// The ranges of `text` by the one-thread scan, and by the two-half scan split at each line
    /// break in turn.
    func bothScans(_ text: String) throws -> (one: [Range<Int>]?, split: [[Range<Int>]?]) {
        let bytes = Array(text.utf8)
        return try JSONParser.withCursor(SourceText(file: "t.json", bytes: bytes)) { (c: inout JSONCursor) throws(JSONCursor.Failure) in
            try c.beginArray()
            let one = c.elementRanges()
            var split: [[Range<Int>]?] = []
            for (k, b) in bytes.enumerated() where b == 0x0A && k > c.position {
                let found = c.elementRanges(splitAt: k)
                if let found, let one { #expect(found.close == one.close) }
                split.append(found?.ranges)
            }
            return (one?.ranges, split)
        }
    }

    /// Split anywhere (between elements, inside an element several levels deep, between a
    /// string's brackets and the next line), the two halves find the one-thread scan's ranges.
    @Test func twoHalvesFindTheSameRanges() throws {
        let documents = [
            "[\n1,\n2 ,\n  3\n]",
            "[\n  {\"type\": \"Feature\",\n   \"properties\": {\"id\": \"a],[\\\"\", \"n\": [1,\n 2]},\n   \"geometry\": {\"coordinates\": [[\n[1, 2],\n[3, 4]\n]]}\n  },\n  {\"b\": []}\n,\n\"s,}\"\n , [[[\n]]]\n]\n",
            "[{\"a\": 1},\n{\"b\": {\"c\": [1,\n2,\n3]}},\n{\"d\": \"\\\\\"}\n]   ",
        ]
        var splits = 0
        for text in documents {
            let (one, split) = try bothScans(text)
            #expect(one != nil)
            #expect(!split.isEmpty)
            for ranges in split { #expect(ranges == one, "\(text)") }
            splits += split.count
        }
        #expect(splits >= 20)
    }

    /// A generated array of a few thousand features, split at every hundredth line break.
    @Test func aLongArraySplitsLikeOneScan() throws {
        var rng = SplitMix64(seed: 3)
        var parts: [String] = []
        for k in 0..<2_000 {
            let quote = rng.next() % 5 == 0 ? "\\\"],{" : ""
            let coordinates = (0..<Int(1 + rng.next() % 6)).map { _ in "[\(rng.next() % 1000), \(rng.next() % 1000)]" }
            parts.append(
                "{\"type\":\"Feature\",\"properties\":{\"id\":\"f\(k)\(quote)\"},\n \"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[\(coordinates.joined(separator: rng.next() % 2 == 0 ? ",\n" : ","))]]}}"
            )
        }
        let text = "[" + parts.joined(separator: ",\n") + "\n]\n"
        let bytes = Array(text.utf8)
        try JSONParser.withCursor(SourceText(file: "t.json", bytes: bytes)) { (c: inout JSONCursor) throws(JSONCursor.Failure) in
            try c.beginArray()
            let one = c.elementRanges()
            #expect(one?.ranges.count == 2_000)
            let breaks = bytes.indices.filter { bytes[$0] == 0x0A }
            for k in stride(from: 0, to: breaks.count, by: 100) {
                let split = c.elementRanges(splitAt: breaks[k])
                #expect(split?.ranges == one?.ranges && split?.close == one?.close)
            }
            #expect(c.elementRanges(parallelAbove: 0)?.ranges == one?.ranges)
        }
    }

    /// What does not fit the two-half scan goes to the one-thread scan (same answer, `nil`
    /// included); text after a value still gets a range, which the reader's check that each
    /// element ends at its range's end refuses.
    @Test func malformedArraysSplitInTwo() throws {
        for text in ["[1,\n, 2]", "[\"open\n\", 2]", "[1, 2\n", "[\n]", "[1\n]", "[{\"a\": [1,\n 2}\n"] {
            let (one, split) = try bothScans(text)
            for ranges in split { #expect(ranges == one, "\(text)") }
        }
        let (one, split) = try bothScans("[1 2,\n3]")
        #expect(one == nil)
        #expect(split == [[1..<4, 6..<7]])
    }

    @Test func aCursorAtAnElementReadsIt() throws {
        let text = #"[{"a": 1}, {"b": [2, 3]}]"#
        let source = SourceText(file: "t.json", bytes: Array(text.utf8))
        let values = try JSONParser.withCursor(source) { (c: inout JSONCursor) throws(JSONCursor.Failure) -> [Int] in
            try c.beginArray()
            guard let (ranges, close) = c.elementRanges() else { return [] }
            var ends: [Int] = []
            for r in ranges {
                var e = c.cursor(at: r.lowerBound, depth: c.nestingDepth)
                _ = try e.parseValue()
                #expect(e.position == r.upperBound)
                #expect(e.nestingDepth == 1)
                ends.append(e.position)
            }
            c.finishArray(closingAt: close)
            try c.expectEnd()
            return ends
        }
        #expect(values == [9, 24])
    }
}

/// The block scan of one half (``HalfScanner/scan(from:to:)``: 64 bytes at a time as bit masks)
/// against a byte-at-a-time scan written for the test.
@Suite struct HalfScannerTests {
    /// What the half scan reports, byte by byte: a quote opens a string that the first quote
    /// not escaped (after an even number of backslashes) closes; outside strings, brackets move
    /// the depth and commas at or below the start are noted, as are closing brackets that go
    /// lower than before.
    static func oracle(_ bytes: [UInt8], from: Int, to: Int) -> HalfScan? {
        var result = HalfScan()
        var depth = 0
        var lowest = 0
        var p = from
        while p < to {
            let b = bytes[p]
            if b == UInt8(ascii: "\"") {
                var q = p + 1
                while true {
                    guard q < to else { return nil }
                    if bytes[q] == UInt8(ascii: "\\") {
                        q += 2
                        continue
                    }
                    if bytes[q] == UInt8(ascii: "\"") { break }
                    q += 1
                }
                p = q + 1
                continue
            }
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") { depth += 1 }
            if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                depth -= 1
                if depth < lowest {
                    lowest = depth
                    result.lows.append((p, depth))
                }
            }
            if b == UInt8(ascii: ","), depth <= 0 { result.commas.append((p, depth)) }
            p += 1
        }
        result.depth = depth
        return result
    }

    static func same(_ a: HalfScan?, _ b: HalfScan?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.depth == b.depth && a.commas.map(\.offset) == b.commas.map(\.offset) && a.commas.map(\.depth) == b.commas.map(\.depth)
            && a.lows.map(\.offset) == b.lows.map(\.offset) && a.lows.map(\.depth) == b.lows.map(\.depth)
    }

    /// Random texts of brackets, commas, quotes, backslashes and filler (strings that cross the
    /// 64-byte blocks, escapes at a block's first byte, runs of backslashes, unclosed strings,
    /// depths that reach zero and below), each scanned from and to random offsets.
    @Test func blocksScanAsBytesDo() throws {
        var rng = SplitMix64(seed: 11)
        let alphabet = Array("{}[],\"\\\\ a1:.-\n".utf8)
        var compared = 0
        var unclosed = 0
        for round in 0..<3_000 {
            let length = Int(rng.next() % 300)
            var bytes = (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            if round % 3 == 0 {
                // Mostly structure, few strings: long runs outside strings.
                bytes = bytes.map { $0 == UInt8(ascii: "\"") && rng.next() % 4 != 0 ? UInt8(ascii: "1") : $0 }
            }
            let from = length == 0 ? 0 : Int(rng.next() % UInt64(length + 1))
            let to = from + Int(rng.next() % UInt64(length - from + 1))
            let expected = HalfScannerTests.oracle(bytes, from: from, to: to)
            if expected == nil { unclosed += 1 }
            let found = bytes.withUnsafeBufferPointer { HalfScanner(buffer: $0).scan(from: from, to: to) }
            #expect(HalfScannerTests.same(found, expected), "\(String(decoding: bytes, as: UTF8.self)) \(from)..<\(to)")
            compared += 1
        }
        #expect(compared == 3_000)
        #expect(unclosed > 100 && unclosed < 2_900)
    }

    /// A long feature array: the blocks that only carry the depth and the ones read bit by bit
    /// agree with the bytes at every split.
    @Test func aFeatureArrayScansAsBytesDo() throws {
        var rng = SplitMix64(seed: 5)
        var text = "["
        for k in 0..<400 {
            let escape = rng.next() % 7 == 0 ? #"\"\\"# : ""
            let ring = (0..<Int(3 + rng.next() % 20)).map { _ in "[\(rng.next() % 1000).\(rng.next() % 1000), -\(rng.next() % 90)]" }
            text +=
                (k > 0 ? ",\n" : "")
                + #"{"type":"Feature","properties":{"id":"f\#(k)\#(escape)","n":[{"a":"]"}]},"geometry":{"type":"Polygon","coordinates":[[\#(ring.joined(separator: ","))]]}}"#
        }
        text += "]"
        let bytes = Array(text.utf8)
        for _ in 0..<200 {
            let from = Int(rng.next() % UInt64(bytes.count))
            let to = from + Int(rng.next() % UInt64(bytes.count - from + 1))
            let found = bytes.withUnsafeBufferPointer { HalfScanner(buffer: $0).scan(from: from, to: to) }
            #expect(HalfScannerTests.same(found, HalfScannerTests.oracle(bytes, from: from, to: to)), "\(from)..<\(to)")
        }
        let whole = bytes.withUnsafeBufferPointer { HalfScanner(buffer: $0).scan(from: 1, to: bytes.count - 1) }
        #expect(whole?.commas.count == 399)
    }
}
