import Foundation
import Support
import Testing

@testable import EventPipeline
@testable import Regression
@testable import Scenarios

/// SPEC §6.5: golden logs read back, event diffs, JUnit XML.
@Suite struct RegressionCheckTests {
    static func time(_ text: String) -> Timestamp {
        (try? Timestamp.parseISO8601(text).get()) ?? Timestamp(seconds: 0)
    }

    static func event(_ t: String, _ trace: String, _ type: LogEvent.EventType, _ fields: [(String, JSONValue)]) -> LogEvent {
        LogEvent(time: time(t), trace: trace, type: type, fields: fields)
    }

    static let golden: [LogEvent] = [
        event("2026-01-01T09:00:10Z", "a.csv", .enter, [("fence", .string("A")), ("fix", .int(1)), ("distance", .meters(3.25))]),
        event("2026-01-01T09:00:40Z", "a.csv", .exit, [("fence", .string("A")), ("fix", .int(4)), ("distance", .meters(2))]),
        event("2026-01-01T09:01:00Z", "a.csv", .enter, [("fence", .string("B")), ("fix", .int(6))]),
        event("2026-01-01T09:00:05Z", "b.csv", .enter, [("fence", .string("A")), ("fix", .int(0))]),
    ]

    static func recorded(_ events: [LogEvent], file: String = "golden.jsonl") throws -> [RecordedEvent] {
        let text = EventLogFormat.jsonl.render(
            Replayer.merge(
                events.map { e in
                    var o = Replayer.Outcome(input: TraceInput(path: e.trace))
                    o.events = [e]
                    return o
                }))
        return try EventLogReader.parse(SourceText(file: file, bytes: Array(text.utf8)))
    }

    /// Two large logs that differ everywhere (past the alignment limit, every event a change)
    /// are paired by subject in one pass (issue 21: each expected event looked through every
    /// actual one, and `check` of such goldens did not end), as the first unused actual event
    /// of the same subject, in order.
    @Test func largeDifferentLogsArePairedInOnePass() {
        let n = 40_000
        let base = Timestamp(seconds: 1_767_225_600)
        let golden = (0..<n).map { k in
            RecordedEvent(
                event: LogEvent(
                    time: base.adding(seconds: Double(k)), trace: "t.csv", type: k % 2 == 0 ? .enter : .exit,
                    fields: [("fence", .string("F\(k % 500)")), ("fix", .int(Int64(k)))]), line: k + 1)
        }
        let actual = (0..<n).map { k in
            LogEvent(
                time: base.adding(seconds: Double(k) + 0.5), trace: "t.csv", type: k % 2 == 0 ? .enter : .exit,
                fields: [("fence", .string("F\(k % 500)")), ("fix", .int(Int64(k)))])
        }
        let diff = EventDiff.compare(expected: golden, actual: actual)
        #expect(diff.count == n)
        guard case .changed(let expected, _, let paired, let fields)? = diff.traces.first?.changes.first else {
            Issue.record("the first difference is not a change")
            return
        }
        #expect(expected.time == base && paired.time == base.adding(seconds: 0.5))
        #expect(fields.map(\.key) == ["time"])
    }

    @Test func aLogReadBackEqualsItself() throws {
        let golden = try Self.recorded(Self.golden)
        #expect(golden.map(\.line) == [1, 2, 3, 4])
        #expect(golden.map(\.event.seq) == [0, 1, 2, 3])
        #expect(EventDiff.compare(expected: golden, actual: Self.golden).isEmpty)
        // seq does not matter.
        let renumbered = Self.golden.map { e in
            var e = e
            e.seq = 99
            return e
        }
        #expect(EventDiff.compare(expected: golden, actual: renumbered).isEmpty)
    }

    @Test func missingExtraAndChangedEventsPerTraceFieldByField() throws {
        let golden = try Self.recorded(Self.golden)
        var actual = Self.golden
        // a.csv: the exit of A comes 4 s later from another fix, B is not entered, C is.
        actual[1] = Self.event(
            "2026-01-01T09:00:44Z", "a.csv", .exit, [("fence", .string("A")), ("fix", .int(5)), ("distance", .meters(2))])
        actual[2] = Self.event("2026-01-01T09:01:30Z", "a.csv", .enter, [("fence", .string("C")), ("fix", .int(9))])
        // b.csv unchanged; c.csv is new.
        actual.append(Self.event("2026-01-01T09:00:00Z", "c.csv", .checkin, [("fence", .string("A")), ("zone", .string("z"))]))
        let diff = EventDiff.compare(expected: golden, actual: actual)
        #expect(diff.count == 4)
        #expect(diff.traces.map(\.trace) == ["a.csv", "c.csv"])
        #expect(diff.traces[0].missing == 1 && diff.traces[0].extra == 1 && diff.traces[0].changed == 1)
        let text = diff.render()
        #expect(
            text == """
                trace a.csv: 1 missing, 1 extra, 1 changed
                  ~ changed  2026-01-01T09:00:40.000Z exit fence="A"  (golden line 2)
                      time: 2026-01-01T09:00:40.000Z -> 2026-01-01T09:00:44.000Z
                      fix: 4 -> 5
                  - missing  2026-01-01T09:01:00.000Z enter fence="B"  (golden line 3)
                  + extra    2026-01-01T09:01:30.000Z enter fence="C"
                trace c.csv: 1 extra
                  + extra    2026-01-01T09:00:00.000Z checkin fence="A"

                """)
    }

    @Test func fieldsOnlyOneSideHasAreShownAsAbsent() throws {
        let golden = try Self.recorded([Self.golden[0]])
        var changed = Self.golden[0]
        changed.fields.removeAll { $0.0 == "distance" }
        changed.fields.append(("interpolated", .bool(true)))
        let text = EventDiff.compare(expected: golden, actual: [changed]).render()
        #expect(text.contains("      distance: 3.25 -> (absent)\n"))
        #expect(text.contains("      interpolated: (absent) -> true\n"))
    }

    @Test func anEventInsertedEarlyDoesNotMarkEveryLaterOneAsChanged() throws {
        var golden: [LogEvent] = []
        for k in 0..<30 {
            golden.append(
                Self.event("2026-01-01T09:\(10 + k):00Z", "a.csv", k % 2 == 0 ? .enter : .exit, [("fence", .string("F\(k / 2)"))]))
        }
        var actual = golden
        actual.insert(Self.event("2026-01-01T09:10:30Z", "a.csv", .enter, [("fence", .string("X"))]), at: 1)
        let diff = EventDiff.compare(expected: try Self.recorded(golden), actual: actual)
        #expect(diff.count == 1)
        #expect(diff.render().contains("+ extra    2026-01-01T09:10:30.000Z enter fence=\"X\""))
    }

    @Test func renderLimitsEachTrace() throws {
        let actual = (0..<8).map { Self.event("2026-01-01T09:0\($0):00Z", "a.csv", .dwell, [("fence", .string("F"))]) }
        let text = EventDiff.compare(expected: [], actual: actual).render(limit: 3)
        #expect(text.contains("trace a.csv: 8 extra"))
        #expect(text.contains("  ... and 5 more\n"))
    }

    @Test(arguments: [
        ("{\"type\":\"FeatureCollection\",\"features\":[]}\n", 1, "it has no \"time\""),
        ("time,seq,trace,type\n", 1, "is not an event of a JSON Lines event log"),
        ("{\"time\":\"2026-01-01T09:00:00.000Z\",\"seq\":0,\"trace\":\"a\",\"type\":\"enter\"}\n[1, 2]\n", 2, "expected an object"),
        (
            "{\"time\":\"2026-01-01T09:00:00.000Z\",\"seq\":0,\"trace\":\"a\",\"type\":\"enter\"}\n\n{\"time\":\"yesterday\",\"seq\":1,\"trace\":\"a\",\"type\":\"exit\"}\n",
            3, "\"time\" must be an ISO-8601 time"
        ),
        ("{\"time\":\"2026-01-01T09:00:00.000Z\",\"seq\":0,\"trace\":\"a\",\"type\":\"teleport\"}\n", 1, "\"type\" must be an event type"),
        ("{\"time\":\"2026-01-01T09:00:00.000Z\",\"seq\":-1,\"trace\":\"a\",\"type\":\"enter\"}\n", 1, "\"seq\" must be a whole number"),
        ("{\"time\":\"2026-01-01T09:00:00.000Z\",\"seq\":0,\"trace\":\"a\",\"type\":\"enter\"\n", 1, "is not an event"),
    ])
    func aFileThatIsNotAnEventLogIsALocatedError(text: String, line: Int, message: String) throws {
        #expect {
            try EventLogReader.parse(SourceText(file: "golden.jsonl", bytes: Array(text.utf8)))
        } throws: { error in
            let e = try #require(error as? FencesimError)
            #expect(e.code.exitStatus == 65)
            #expect(e.location?.file == "golden.jsonl")
            #expect(e.location?.line == line, "\(e)")
            #expect(e.location?.column != nil, "\(e)")
            #expect(e.message.contains(message), "\(e.message)")
            return true
        }
    }

    @Test func anEmptyLogIsALogWithoutEvents() throws {
        #expect(try EventLogReader.parse(SourceText(file: "g.jsonl", bytes: [])).isEmpty)
    }

    @Test func theDefaultGoldenLogIsBesideTheScenarioUnderExpected() throws {
        let (dir, path) = try ScenarioHarness.folder(
            fences: ShardMergeTests.fences, traces: ["t.csv": ScenarioHarness.walk(from: 8.499, step: 0.0002, count: 5)],
            yaml: "name: something-else\ntraces: [t.csv]\nfences: fences.geojson\n")
        let scenario = try ScenarioReader.read(path: path)
        #expect(ScenarioCheck.goldenPath(for: scenario) == dir.appendingPathComponent("expected/s.jsonl").path)
        let withKey = try Paths.write("traces: [t.csv]\nfences: fences.geojson\nexpected: golden/x.jsonl\n", "k.yaml", in: dir)
        #expect(ScenarioCheck.goldenPath(for: try ScenarioReader.read(path: withKey)) == dir.appendingPathComponent("golden/x.jsonl").path)
    }

    @Test func aMissingGoldenLogNamesUpdate() throws {
        #expect {
            try ScenarioCheck.check([], goldenPath: "/nonexistent/expected/x.jsonl")
        } throws: { error in
            let e = try #require(error as? FencesimError)
            return e.code.exitStatus == 66 && e.message.contains("--update")
        }
    }
}
