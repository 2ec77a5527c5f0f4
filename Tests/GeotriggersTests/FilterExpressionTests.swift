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

    @Test func missingFieldsMakeComparisonsFalse() throws {
        #expect(try !accepts("speed < 40", [:]))
        #expect(try accepts("!(speed >= 40)", [:]))
    }

    @Test(arguments: [
        ("accuracy <= ", 13, "expected a number or a fix field"),
        ("accuracy < 10 &&", 17, "expected a number"),
        ("acuracy < 10", 1, "unknown field 'acuracy'"),
        ("speed = 3", 7, "use =="),
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
        for text in [String(repeating: "(", count: 1_000) + "speed < 1",
                     String(repeating: "!", count: 1_000) + "true",
                     "speed < " + String(repeating: "-", count: 1_000) + "1"] {
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
