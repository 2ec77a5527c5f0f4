import Fences
import Files
import Geotriggers
import Spatial
import Support
import Testing

@testable import EventPipeline

/// A trace's log (``TraceLog``) against the order it promises, worked out the slow way: every
/// line added, sorted stably at the end by its key (its time, or the last `advance` before it
/// was added when that is later) with dispatched lines before findings at one key.
@Suite struct TraceLogTests {
    static let start = Timestamp(seconds: 1_767_225_600)

    /// Random fixes, several at one instant now and then, each with lines at or before its time
    /// in any order (some before the last advance), and findings at the fix, before it, or
    /// earlier than lines already handed on.
    @Test func handsLinesOnInTheOrderItPromises() {
        for seed in 0..<200 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            var released: [Int] = []
            let log = TraceLog { released.append($0.logEvent.seq) }
            var added: [(key: Timestamp, finding: Bool, id: Int)] = []
            var floor: Timestamp?
            var time = TraceLogTests.start
            var peak = 0
            for _ in 0..<Int(20 + rng.next() % 200) {
                let previous = time
                if rng.next() % 4 != 0 { time = time.adding(seconds: Double(1 + rng.next() % 3)) }
                for _ in 0..<Int(rng.next() % 4) {
                    let finding = rng.next() % 5 == 0
                    // At the fix, between the fixes, at the previous fix, or (rarely) before it.
                    let at: Timestamp
                    switch rng.next() % 6 {
                    case 0: at = previous
                    case 1: at = previous.adding(seconds: -Double(1 + rng.next() % 3))
                    case 2: at = previous.adding(seconds: 0.5)
                    default: at = time
                    }
                    let id = added.count
                    let event = LogEvent(time: at, seq: id, trace: "t", type: finding ? .warning : .enter)
                    if finding { log.appendFinding(event) } else { log.append(event) }
                    added.append((floor.map { max($0, at) } ?? at, finding, id))
                }
                log.advance(to: time)
                floor = max(floor ?? time, time)
                peak = max(peak, log.waitingCount)
            }
            log.finish()
            let expected = added.enumerated().sorted { a, b in
                if a.element.key != b.element.key { return a.element.key < b.element.key }
                if a.element.finding != b.element.finding { return !a.element.finding }
                return a.offset < b.offset
            }.map(\.element.id)
            #expect(released == expected, "seed \(seed)")
            // Only lines of the last instant wait.
            #expect(peak <= 12, "seed \(seed)")
            if released != expected { return }
        }
    }

    /// A dispatched line at the instant the log has advanced to goes on at once; a finding there
    /// waits, since a dispatched line still to come at that instant goes before it.
    @Test func releasesDispatchedLinesAtTheInstantReached() {
        var released: [LogEvent.EventType] = []
        let log = TraceLog { released.append($0.logEvent.type) }
        let t = TraceLogTests.start
        log.append(LogEvent(time: t, trace: "t", type: .enter))
        log.advance(to: t)
        #expect(released == [.enter])
        log.appendFinding(LogEvent(time: t, trace: "t", type: .warning))
        log.advance(to: t)
        #expect(released == [.enter])
        log.append(LogEvent(time: t, trace: "t", type: .exit))
        log.advance(to: t)
        #expect(released == [.enter, .exit])
        log.advance(to: t.adding(seconds: 1))
        #expect(released == [.enter, .exit, .warning])
    }

    /// Fences for engine events: ids with a comma and a quote among them (rendered quoted in CSV
    /// and escaped in JSON), with and without zones.
    static let labels = FenceLabels(
        (0..<6).map { j in
            Fence(
                index: j, id: j == 3 ? "f,\"3\"" : "f\(j)", kind: .circle(radiusMeters: 10), shape: .point(XY(8.5, 47.4)),
                zone: j % 2 == 0 ? "z\(j % 3)" : nil, location: SourceLocation(file: "fences.geojson", line: j + 1))
        })

    /// A fix's engine events, as the engine hands them over (in time order) or, now and then, not.
    static func engineEvents(_ rng: inout SplitMix64, fix: Int, from previous: Timestamp, to time: Timestamp) -> [GeotriggerEvent] {
        var events: [GeotriggerEvent] = []
        for _ in 0..<Int(rng.next() % 4) {
            let interpolated = rng.next() % 3 == 0
            let at = interpolated ? previous.adding(seconds: time.seconds(since: previous) * rng.nextUnitDouble()) : time
            let kind: GeotriggerEvent.Kind = [.enter, .exit, .dwell, .passthrough, .cross][Int(rng.next() % 5)]
            var event = GeotriggerEvent(
                kind: kind, time: at, fence: Int(rng.next() % 6), fixIndex: fix, fixTime: time,
                feed: rng.next() % 2 == 0 ? .point : .accuracy,
                feedRadius: 12.5, distance: rng.next() % 4 == 0 ? nil : -Double(rng.next() % 5000) / 100, accuracy: 8.25,
                interpolated: interpolated, notified: rng.next() % 8 != 0, longitude: 8.5 + Double(fix) * 1e-5, latitude: 47.4)
            if kind == .passthrough {
                event.enterTime = previous
                event.exitTime = at
            }
            if kind == .dwell { event.dwellSeconds = 30 }
            if kind == .cross { event.direction = .leftToRight }
            if rng.next() % 10 == 0 { event.reason = "a reason, \"quoted\"" }
            events.append(event)
        }
        events.sort { $0.time < $1.time }
        if events.count > 1, rng.next() % 10 == 0 { events.swapAt(0, events.count - 1) }
        return events
    }

    /// An engine's events handed straight to the channel (``TraceLog/appendEngineEvents(_:fixTime:labels:trace:alone:)``)
    /// give the bytes of the same events kept as ``LogEvent``s and written one by one, in every
    /// format, whether they go straight or wait (out of order, a finding waiting, other lines
    /// still to come at the fix); and most go straight.
    @Test func engineEventsGoStraightToTheChannelAsTheyWouldAsLines() throws {
        for format in [EventLogFormat.csv, .jsonl, .geojson] {
            var straight = 0
            var total = 0
            for seed in 0..<40 as Range<UInt64> {
                var rng = SplitMix64(seed: seed)
                let streamed = MemorySink()
                let streamWriter = EventLogWriter(format: format, sink: streamed)
                let ordered = OrderedEventLog(writer: streamWriter, traces: 1)
                let channel = ordered.channel(0)
                let direct = TraceLog(channel: channel)
                var kept: [LogEvent] = []
                let lines = TraceLog { kept.append($0.logEvent) }
                total += TraceLogTests.drive(&rng, direct, lines, keptWaits: false, trace: "trace, one")
                channel.finish()
                try streamWriter.finish()
                let expected = MemorySink()
                let writer = EventLogWriter(format: format, sink: expected)
                for event in kept { try writer.append(event) }
                try writer.finish()
                #expect(
                    String(decoding: streamed.bytes, as: UTF8.self) == String(decoding: expected.bytes, as: UTF8.self),
                    "seed \(seed), \(format)")
                straight += direct.passedStraight
            }
            #expect(total > 2_000)
            #expect(straight > total / 2, "\(straight) of \(total) went straight")
        }
    }

    /// A log handed to a closure (a report's scoring) takes the same straight way: an engine's
    /// events released at once give the lines, in the order, of the same events waiting in the
    /// list for the next fix (out of order, a finding waiting, other lines still to come at the
    /// fix); and most go straight.
    @Test func engineEventsGoStraightToTheClosureInTheOrderTheyWouldWait() {
        var straight = 0
        var total = 0
        for seed in 0..<60 as Range<UInt64> {
            var rng = SplitMix64(seed: 0xC105E + seed)
            var released: [String] = []
            var waited: [String] = []
            func text(_ line: LogLine) -> String {
                let e = line.logEvent
                return "\(e.time) \(e.type) \(e.fields.map { "\($0.0)=\($0.1)" })"
            }
            let direct = TraceLog { released.append(text($0)) }
            let kept = TraceLog { waited.append(text($0)) }
            total += TraceLogTests.drive(&rng, direct, kept, keptWaits: true, trace: "t")
            #expect(released == waited, "seed \(seed)")
            #expect(kept.passedStraight == 0)
            straight += direct.passedStraight
            if released != waited { return }
        }
        #expect(total > 2_000)
        #expect(straight > total / 2, "\(straight) of \(total) went straight")
    }

    /// A random trace's fixes through two logs, then their end: at each fix its engine events
    /// (``engineEvents(_:fix:from:to:)``), alone at the fix now and then not (an `inside` line
    /// follows them then; `kept` is told they are never alone when `keptWaits`), a finding every
    /// ninth fix, and an advance to the fix. Returns the notified events handed over.
    static func drive(_ rng: inout SplitMix64, _ direct: TraceLog, _ kept: TraceLog, keptWaits: Bool, trace: String) -> Int {
        var notified = 0
        var time = TraceLogTests.start
        for fix in 0..<Int(50 + rng.next() % 150) {
            let previous = time
            time = time.adding(seconds: rng.next() % 6 == 0 ? 0 : Double(1 + rng.next() % 3))
            let events = TraceLogTests.engineEvents(&rng, fix: fix, from: previous, to: time)
            let alone = rng.next() % 7 != 0
            direct.appendEngineEvents(events, fixTime: time, labels: TraceLogTests.labels, trace: trace, alone: alone)
            kept.appendEngineEvents(events, fixTime: time, labels: TraceLogTests.labels, trace: trace, alone: alone && !keptWaits)
            for log in [direct, kept] {
                if !alone { log.append(LogEvent(time: previous, trace: trace, type: .inside, fields: [("fence", .string("f1"))])) }
                if fix % 9 == 0 {
                    log.appendFinding(LogEvent(time: time, trace: trace, type: .warning, fields: [("message", .string("gap"))]))
                }
                log.advance(to: time)
            }
            notified += events.filter(\.notified).count
        }
        direct.finish()
        kept.finish()
        return notified
    }
}
