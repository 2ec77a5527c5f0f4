import Testing
@testable import Support

/// The structural scan that finds the elements of an array for readers that take them on
/// several threads.
@Suite struct ElementRangesTests {
    /// The element texts the scan finds in `text` (a document that is an array), or `nil`.
    func elements(_ text: String) throws -> [String]? {
        let bytes = Array(text.utf8)
        let found = try JSONParser.withCursor(SourceText(file: "t.json", bytes: bytes)) { (c: inout JSONCursor) throws(JSONCursor.Failure) in
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
        #expect(try elements(#"[1, -2.5e3,true ,null, "s", {"a": [1, {"b": 2}]}, [[]]]"#)
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
