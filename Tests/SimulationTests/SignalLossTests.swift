import Geotriggers
import Support
import Testing
import Traces

@testable import EventPipeline

/// Operating-system signal loss (SPEC §6.2, seed 000): a seeded share of notifications.
@Suite struct SignalLossTests {
    @Test func shareOfLostExitsAndEntries() {
        let loss = SignalLoss(exitLoss: 0.3, entryLoss: 0.1, seed: 42, trace: "drive")
        var exits = 0
        var enters = 0
        let n = 20_000
        for k in 0..<n {
            if loss.isLost(.exit, trace: "drive", fence: "f\(k % 37)", occurrence: k / 37) { exits += 1 }
            if loss.isLost(.enter, trace: "drive", fence: "f\(k % 37)", occurrence: k / 37) { enters += 1 }
        }
        #expect(abs(Double(exits) / Double(n) - 0.3) < 0.015)
        #expect(abs(Double(enters) / Double(n) - 0.1) < 0.01)
        #expect(!loss.isLost(.dwell, trace: "drive", fence: "f", occurrence: 0))
    }

    @Test func pureAndSeeded() {
        let a = SignalLoss(exitLoss: 0.5, entryLoss: 0, seed: 1, trace: "t")
        let b = SignalLoss(exitLoss: 0.5, entryLoss: 0, seed: 2, trace: "t")
        let fromA = (0..<200).map { a.isLost(.exit, trace: "t", fence: "x", occurrence: $0) }
        #expect(fromA == (0..<200).map { a.isLost(.exit, trace: "t", fence: "x", occurrence: $0) })
        #expect(fromA != (0..<200).map { b.isLost(.exit, trace: "t", fence: "x", occurrence: $0) })
        #expect((0..<200).allSatisfy { !a.isLost(.enter, trace: "t", fence: "x", occurrence: $0) })
        #expect(SignalLoss(Degradation(), trace: "t") == nil)
    }

    @Test func applyTurnsLostNotificationsIntoSuppressedEvents() {
        var loss = SignalLoss(exitLoss: 1, entryLoss: 0, seed: 0, trace: "t")
        let t = Timestamp(seconds: 0)
        func event(_ kind: GeotriggerEvent.Kind, notified: Bool = true) -> GeotriggerEvent {
            GeotriggerEvent(
                kind: kind, time: t, fence: 0, fixIndex: 1, fixTime: t, feed: .point, feedRadius: 0, distance: 1, accuracy: 5,
                notified: notified, longitude: 0, latitude: 0)
        }
        var events = [event(.enter), event(.exit), event(.dwell), event(.passthrough), event(.exit, notified: false)]
        loss.apply(&events, fences: ["a"])
        #expect(events.map(\.kind) == [.enter, .suppressed, .dwell, .passthrough, .exit])
        #expect(events[1].reason == "exitLoss")
    }
}
