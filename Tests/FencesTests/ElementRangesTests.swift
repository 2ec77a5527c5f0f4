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
