import Support
import Testing

@testable import Accuracy
@testable import EventPipeline
@testable import Reports

/// Map markers of a trace are found in one pass over its event log, however many false
/// detections need their enter's place (a search of the log for each made reports of long
/// traces quadratic).
@Suite struct MarkerTests {
    /// A sequence that counts the elements read from it.
    final class Counter: @unchecked Sendable {
        // Only this test's thread touches it.
        var reads = 0
    }

    struct CountingEvents: Sequence {
        let events: [LogEvent]
        let counter: Counter

        func makeIterator() -> AnyIterator<LogEvent> {
            var base = events.makeIterator()
            return AnyIterator {
                let next = base.next()
                if next != nil { self.counter.reads += 1 }
                return next
            }
        }
    }

    @Test(arguments: [10, 1000])
    func falseDetectionsFindTheirEnterInOnePass(count: Int) {
        let t0 = Timestamp(seconds: 1_767_225_600)
        var events: [LogEvent] = []
        var detections: [TraceScore.FalseDetection] = []
        for k in 0..<count {
            let fence = "f\(k)"
            let enter = t0.adding(seconds: Double(2 * k))
            events.append(
                LogEvent(
                    time: enter, trace: "t", type: .enter, fields: [("fence", .string(fence))],
                    longitude: Double(k), latitude: 1))
            events.append(
                LogEvent(
                    time: enter.adding(seconds: 1), trace: "t", type: .exit, fields: [("fence", .string(fence))],
                    longitude: Double(k), latitude: 2))
            detections.append(
                TraceScore.FalseDetection(
                    trace: "t", zone: "default",
                    visit: DetectedVisit(fence: k, fenceID: fence, enter: enter, exit: enter.adding(seconds: 1))))
        }
        let counter = Counter()
        let markers = AccuracyReport.markers(
            events: CountingEvents(events: events, counter: counter),
            score: TraceScore(trace: "t", durationSeconds: 1, falseDetections: detections))
        #expect(counter.reads == events.count)
        let placed = markers.filter { $0.kind == .falseDetection }
        #expect(placed.count == count)
        #expect(placed.map(\.longitude) == (0..<count).map(Double.init))
        #expect(placed.allSatisfy { $0.latitude == 1 })
    }

    /// A trace with more notifications than the map draws: the pass stops at the limit, and
    /// the markers are the first ones the whole pass would give.
    @Test func markersStopAtTheLimit() {
        let t0 = Timestamp(seconds: 1_767_225_600)
        var events: [LogEvent] = []
        for k in 0..<300 {
            events.append(
                LogEvent(
                    time: t0.adding(seconds: Double(k)), trace: "t", type: k % 2 == 0 ? .enter : .exit,
                    fields: [("fence", .string("f"))], longitude: Double(k), latitude: 1))
        }
        let counter = Counter()
        let limited = AccuracyReport.markers(events: CountingEvents(events: events, counter: counter), score: nil, limit: 100)
        #expect(limited.count == 100)
        #expect(counter.reads == 100)
        #expect(limited == Array(AccuracyReport.markers(events: events, score: nil, limit: .max).prefix(100)))
    }
}
