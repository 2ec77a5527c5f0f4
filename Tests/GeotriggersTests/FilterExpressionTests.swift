import Testing

@testable import Geotriggers

@Suite struct FilterExpressionTests {
    func accepts(_ text: String, _ values: [FixField: Double]) throws -> Bool {
        try FilterExpression(text).accepts { values[$0] }
    }

    @Test func comparisonsAndBooleans() throws {
        #expect(try accepts("accuracy <= 10 && speed < 40", [.accuracy: 10, .speed: 39]))
        #expect(try !accepts("accuracy <= 10 && speed < 40", [.accuracy: 10.5, .speed: 39]))
        #expect(try accepts("accuracy > 50 || speed >= 1", [.accuracy: 5, .speed: 1]))
        #expect(try accepts("not (speed > 3)", [.speed: 2]))
        #expect(try accepts("speed * 3.6 < 50 and horizontalaccuracy != 0", [.speed: 13, .accuracy: 3]))
        #expect(try accepts("(speed * 3.6) < 50", [.speed: 13]))
        #expect(try accepts("-course < -10", [.course: 20]))
        #expect(try accepts("true", [:]))
    }

    @Test func sqlSpellingsAndNullsOverFixes() throws {
        #expect(try accepts("speed = 3 and accuracy <> 4", [.speed: 3, .accuracy: 5]))
        #expect(try accepts("speed is null", [:]))
        #expect(try !accepts("speed is not null", [:]))
        #expect(try accepts("satellites in (4, 5, 6)", [.satellites: 5]))
        #expect(try !accepts("satellites in (4, 6)", [.satellites: 5]))
        #expect(try accepts("satellites not in (4, 6)", [.satellites: 5]))
        // Absent: neither in nor not in.
        #expect(try !accepts("satellites not in (4, 6)", [:]))
        #expect(try accepts("\"speed\" < 3", [.speed: 2]))
    }

    /// A fence's properties by name, as `FilterExpression.value(of:in:)` gives them.
    func selects(_ text: String, _ properties: [String: FilterExpression.Scalar]) throws -> Bool {
        try FilterExpression(text, over: .fences).selects { properties[$0] }
    }

    @Test func whereClausesOverFenceProperties() throws {
        let store: [String: FilterExpression.Scalar] = [
            "brand": .string("acme"), "floor": .number(3), "open": .boolean(true), "closed": .null,
            "level name": .string("mezzanine"), "in": .number(1),
        ]
        #expect(try selects("brand = 'acme' and floor >= 2", store))
        #expect(try !selects("brand = 'Acme'", store))
        #expect(try selects("brand in ('other', 'acme') AND NOT floor < 3", store))
        #expect(try selects("brand < 'b' and brand > 'a'", store))
        #expect(try selects("open = true and open != false", store))
        #expect(try !selects("open > false", store))
        #expect(try selects("closed is null and missing is null and brand is not null", store))
        #expect(try selects("\"level name\" = 'mezzanine' and \"in\" = 1", store))
        #expect(try selects("floor * 2 - 1 = 5", store))
        #expect(try selects("'it''s' = 'it''s'", store))
    }

    @Test func absentNullAndMismatchedValuesCompareFalse() throws {
        let fence: [String: FilterExpression.Scalar] = ["floor": .string("2"), "closed": .null]
        // A string is not a number: neither side of the comparison holds.
        #expect(try !selects("floor > 1", fence))
        #expect(try !selects("floor <= 1", fence))
        #expect(try !selects("closed = 1", fence))
        #expect(try !selects("closed != 1", fence))
        #expect(try !selects("missing = 'x'", fence))
        #expect(try selects("not (missing = 'x')", fence))
        #expect(try !selects("closed in (1, 2)", fence))
        #expect(try !selects("closed not in (1, 2)", fence))
        #expect(try !selects("floor + 1 = 3", fence))
    }

    @Test(arguments: [
        ("brand = 'acme", 9, "the string has no closing '"),
        ("\"brand = 'acme'", 1, "the quoted name has no closing \""),
        ("\"\" = 1", 1, "the quoted name is empty"),
        ("brand = null", 9, "is null"),
        ("brand = ", 9, "expected a value or a property"),
        ("brand", 6, "expected a comparison"),
    ])
    func whereClauseErrorsPointAtTheColumn(text: String, column: Int, message: String) {
        do {
            _ = try FilterExpression(text, over: .fences)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func missingFieldsMakeComparisonsFalse() throws {
        #expect(try !accepts("speed < 40", [:]))
        #expect(try accepts("!(speed >= 40)", [:]))
    }

    @Test(arguments: [
        ("accuracy <= ", 13, "expected a number or a fix field"),
        ("accuracy < 10 &&", 17, "expected a number"),
        ("acuracy < 10", 1, "unknown field 'acuracy'"),
        ("speed = 'fast'", 9, "fix fields are numbers"),
        ("speed == null", 10, "is null"),
        ("speed in 3", 10, "expected '('"),
        ("speed in (3, 4", 15, "expected ',' or ')'"),
        ("speed is 3", 10, "expected null after is"),
        ("speed < 3 speed", 11, "unexpected 'speed'"),
        ("speed", 6, "expected a comparison"),
        ("(speed < 3", 11, "expected ')'"),
        ("", 1, "empty"),
        ("speed < 3 # x", 11, "unexpected character '#'"),
    ])
    func errorsPointAtTheColumn(text: String, column: Int, message: String) {
        do {
            _ = try FilterExpression(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("nesting and length are bounded, with the column where the bound is crossed")
    func boundedNestingAndLength() throws {
        let depth = FilterExpression.maximumNesting
        // At the limit: parsed and evaluated.
        let deepest = String(repeating: "(", count: depth - 1) + "speed < 1" + String(repeating: ")", count: depth - 1)
        #expect(try FilterExpression(deepest).accepts { $0 == .speed ? 0 : nil })
        #expect(try FilterExpression(String(repeating: "!", count: depth) + "true").accepts { _ in nil })
        // Deeper than the nesting limit, within the token limit.
        for text in [
            String(repeating: "(", count: 1_000) + "speed < 1",
            String(repeating: "!", count: 1_000) + "true",
            "speed < " + String(repeating: "-", count: 1_000) + "1",
        ] {
            #expect(throws: FilterExpression.ParseError.self) { try FilterExpression(text) }
            do {
                _ = try FilterExpression(text)
            } catch {
                #expect(error.message.contains("nests deeper"), "\(error.message)")
                #expect(error.column <= depth + 10, "\(error)")
            }
        }
        let long = Array(repeating: "speed < 1", count: 1_000).joined(separator: " && ")
        do {
            _ = try FilterExpression(long)
            Issue.record("a filter of 4,000 tokens was accepted")
        } catch {
            #expect(error.message.contains("tokens"), "\(error.message)")
            #expect(error.column == 6_501, "\(error)")  // the 2,001st token: "speed" of the 501st term
        }
    }

    @Test func messageTemplateErrors() {
        #expect(throws: MessageTemplate.ParseError.self) { try MessageTemplate("Entered {fence.name") }
        #expect(throws: MessageTemplate.ParseError.self) { try MessageTemplate("at {fix.velocityy}") }
        #expect(throws: MessageTemplate.ParseError.self) { try MessageTemplate("{zone}") }
        #expect(throws: Never.self) { try MessageTemplate("{{literal}} {fence.colour} {fix.speed} {trace}") }
    }
}
