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

    @Test func messageTemplateErrors() {
        #expect(throws: MessageTemplate.ParseError.self) { try MessageTemplate("Entered {fence.name") }
        #expect(throws: MessageTemplate.ParseError.self) { try MessageTemplate("at {fix.velocityy}") }
        #expect(throws: MessageTemplate.ParseError.self) { try MessageTemplate("{zone}") }
        #expect(throws: Never.self) { try MessageTemplate("{{literal}} {fence.colour} {fix.speed} {trace}") }
    }
}
