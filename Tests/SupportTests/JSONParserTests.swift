import Testing

@testable import Support

@Suite struct JSONParserTests {
    @Test func duplicateKeysAreKeptUnlessRefused() throws {
        let text = #"{"a": 1, "b": {"c": 2, "c": 3}}"#
        #expect(try JSONParser.parse(text).member("b")?.member("c")?.number == 3)
        let source = SourceText(file: "t.json", bytes: Array(text.utf8))
        do {
            _ = try JSONParser.withCursor(source, refusingDuplicateKeys: true) { (c: inout JSONCursor) throws(JSONCursor.Failure) in
                try c.parseValue()
            }
            Issue.record("a duplicate key was read")
        } catch {
            #expect(
                error.description
                    == #"t.json:1:24: error: duplicate key "c": the object already has a member of that name (which one counts would be a guess)"#
            )
        }
    }

    @Test(arguments: [1, 4, 5, 16, 17, 40])
    func keySetsFindEveryDuplicate(count: Int) throws {
        for repeated in 0..<count {
            var keys = JSONKeys()
            for k in 0..<count { try keys.insert("k\(k)", at: k) }
            #expect(throws: JSONCursor.Failure.self) { try keys.insert("k\(repeated)", at: count) }
            try keys.insert("new", at: count)
        }
    }

    /// Objects of every size around the members gathered on the stack
    /// (``JSONCursor/stackedMembers``) and the pairwise check (``JSONKeys/pairwiseLimit``) read
    /// every member in order with its value, nested objects their own, and refuse a key given
    /// twice wherever the two are.
    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 40])
    func objectsReadEveryMemberInOrder(count: Int) throws {
        func object(_ keys: [String]) -> String {
            "{"
                + keys.enumerated().map { k, key in
                    let value = k % 3 == 0 ? "{\"n\": \(k), \"in\": {\"m\": [\(k)]}}" : k % 3 == 1 ? "\"v\(k)\"" : "\(k)"
                    return "\"\(key)\": \(value)"
                }.joined(separator: ", ") + "}"
        }
        func read(_ text: String) throws -> JSONNode {
            let source = SourceText(file: "t.json", bytes: Array(text.utf8))
            return try JSONParser.withCursor(source, refusingDuplicateKeys: true) { (c: inout JSONCursor) throws(JSONCursor.Failure) in
                try c.parseValue()
            }
        }
        let keys = (0..<count).map { "key\($0)" }
        let text = object(keys)
        let node = try read(text)
        let members = try #require(node.members)
        #expect(members.map(\.key) == keys)
        for (k, member) in members.enumerated() {
            #expect(Array(text.utf8)[member.keyOffset] == UInt8(ascii: "\""))
            switch k % 3 {
            case 0:
                #expect(member.node.member("n")?.number == Double(k))
                #expect(member.node.member("in")?.member("m")?.elements?.first?.number == Double(k))
            case 1: #expect(member.node.string == "v\(k)")
            default: #expect(member.node.number == Double(k))
            }
        }
        // The same object inside another, and in an array beside a second one.
        let nested = try read("{\"outer\": \(text), \"after\": [\(text), \(text)]}")
        #expect(nested.member("outer")?.members?.map(\.key) == keys)
        #expect(nested.member("after")?.elements?.map { $0.members?.map(\.key) ?? [] } == [keys, keys])
        for repeated in 0..<count {
            for at in (repeated + 1)...count {
                var twice = keys
                twice.insert(keys[repeated], at: at)
                #expect(throws: FencesimError.self) { try read(object(twice)) }
            }
        }
    }

    @Test func parsesEveryValueKind() throws {
        let node = try JSONParser.parse(#"{"a": [1, -2.5, 1e3, true, false, null, "x\u00e9\n"], "b": {}}"#)
        let a = try #require(node.member("a")?.elements)
        #expect(a.count == 7)
        guard case .int(1) = a[0].value else { Issue.record("1 should be an int"); return }
        #expect(a[1].number == -2.5)
        guard case .double(1000) = a[2].value else { Issue.record("1e3 should be a double"); return }
        #expect(a[3].bool == true)
        #expect(a[5].isNull)
        #expect(a[6].string == "xé\n")
        #expect(node.member("b")?.members?.isEmpty == true)
    }

    @Test func keepsMemberOrderAndOffsets() throws {
        let text = "{\n  \"z\": 1,\n  \"a\": 2\n}"
        let source = SourceText(file: "t.json", bytes: Array(text.utf8))
        let node = try JSONParser.parse(source)
        let members = try #require(node.members)
        #expect(members.map(\.key) == ["z", "a"])
        #expect(source.location(ofOffset: members[1].keyOffset) == Support.SourceLocation(file: "t.json", line: 3, column: 3))
    }

    @Test func surrogatePairsDecode() throws {
        let node = try JSONParser.parse(#""\ud83d\ude00""#)
        #expect(node.string == "😀")
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "expected a quoted member name"),
        ("[1, 2", 1, 6, "expected ',' or ']'"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("\n\n  [01]", 3, 4, "leading zeros"),
        ("[NaN]", 1, 2, "NaN and Infinity"),
        ("\"abc", 1, 1, "unterminated string"),
        ("[1] x", 1, 5, "after the JSON value"),
        ("[\"\\q\"]", 1, 3, "invalid escape"),
        ("[\"\\ud800\"]", 1, 3, "unpaired UTF-16 surrogate"),
        ("[1e999]", 1, 2, "out of range"),
        ("", 1, 1, "expected a JSON value"),
    ])
    func locatesErrors(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try JSONParser.parse(text, file: "bad.json")
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.code == .badData)
            #expect(error.location == Support.SourceLocation(file: "bad.json", line: line, column: column), "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.description.hasPrefix("bad.json:\(line):\(column): error: "))
        }
    }

    @Test func rejectsInvalidUTF8() {
        var bytes = Array("[\"a".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"]".utf8)
        #expect(throws: FencesimError.self) { try JSONParser.parse(SourceText(file: "x", bytes: bytes)) }
    }

    @Test func refusesDeepNestingWithoutCrashing() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONParser.parse(text)
            Issue.record("expected a depth error")
        } catch {
            #expect(error.message.contains("nested deeper"))
        }
    }

    @Test func writerRoundTrips() throws {
        let text = #"{"b":[1,2.5,"q\"\\\u0001",null,true],"a":{"x":-3}}"#
        let node = try JSONParser.parse(text)
        #expect(JSONWriter.string(node.value) == text)
    }

    @Test func numbersWrittenShortest() {
        #expect(JSONWriter.number(0.1) == "0.1")
        #expect(JSONWriter.number(3) == "3")
        #expect(JSONWriter.number(-0.000001) == "-1e-06")
        #expect(JSONWriter.number(.nan) == "null")
    }
}
