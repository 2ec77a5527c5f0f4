import Files
import Foundation
import Geotriggers
import Support
import Testing

@testable import EventPipeline

/// The event log as the writer renders it, byte for byte against a slow, obviously correct
/// renderer (whole strings, a JSON tree per event, a dictionary of columns), and streamed in
/// pieces from several traces against the whole log rendered at once.
@Suite struct EventLogWriterTests {
    /// The renderer fencesim used before the writer: a JSON tree and strings per event.
    enum Oracle {
        static func json(_ value: JSONValue) -> String {
            switch value {
            case .null: return "null"
            case .bool(let b): return b ? "true" : "false"
            case .int(let i): return String(i)
            case .double(let d): return number(d)
            case .string(let s): return quote(s)
            case .array(let elements): return "[" + elements.map { json($0.value) }.joined(separator: ",") + "]"
            case .object(let members): return "{" + members.map { quote($0.key) + ":" + json($0.node.value) }.joined(separator: ",") + "}"
            }
        }

        static func number(_ value: Double) -> String {
            guard value.isFinite else { return "null" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return "\(value)"
        }

        static func quote(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }

        static func object(_ e: LogEvent) -> String {
            var members = [
                ("time", quote(e.time.description)), ("seq", String(e.seq)), ("trace", quote(e.trace)),
                ("type", quote(e.type.rawValue)),
            ]
            members += e.orderedFields.map { ($0.0, json($0.1)) }
            return "{" + members.map { quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        }

        static func render(_ events: [LogEvent], _ format: EventLogFormat) -> String {
            switch format {
            case .jsonl:
                return events.map { object($0) + "\n" }.joined()
            case .geojson:
                var out = "{\"type\":\"FeatureCollection\",\"features\":[\n"
                for (k, e) in events.enumerated() {
                    var geometry = "null"
                    if let lon = e.longitude, let lat = e.latitude {
                        geometry = "{\"type\":\"Point\",\"coordinates\":[\(number(lon)),\(number(lat))]}"
                    }
                    out += "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":\(object(e))}"
                    out += k + 1 < events.count ? ",\n" : "\n"
                }
                return out + "]}\n"
            case .csv:
                var extra: [String] = []
                for e in events {
                    for (k, _) in e.fields where !LogEvent.fieldOrder.contains(k) && !extra.contains(k) { extra.append(k) }
                }
                func cell(_ text: String) -> String {
                    // RFC 4180: quoted when it holds a comma, a quote or a line break (CR or LF,
                    // also as the one character "\r\n").
                    guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
                    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                }
                let columns = ["time", "seq", "trace", "type"] + LogEvent.fieldOrder + extra + ["longitude", "latitude"]
                var out = columns.map(cell).joined(separator: ",") + "\n"
                for e in events {
                    var row = [e.time.description, String(e.seq), e.trace, e.type.rawValue]
                    for key in LogEvent.fieldOrder + extra {
                        switch e.field(key) {
                        case nil, .null?: row.append("")
                        case .string(let s)?: row.append(s)
                        case let value?: row.append(json(value))
                        }
                    }
                    row.append(e.longitude.map(number) ?? "")
                    row.append(e.latitude.map(number) ?? "")
                    out += row.map(cell).joined(separator: ",") + "\n"
                }
                return out
            case .table:
                return EventLogFormat.table(events)
            }
        }
    }

    /// Random events: every field of SPEC's order and keys outside it, in shuffled order at times,
    /// with strings that need escaping or quoting, nested values, numbers of every kind, with and
    /// without a place.
    static func events(seed: UInt64, count: Int, traces: Int = 1) -> [[LogEvent]] {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
        let texts = [
            "", "plain", "a,b", "say \"hi\"", "line\nbreak", "cr\rlf", "crlf\r\nend", "tab\there", "\u{1}\u{1f}ctl",
            "ünïcødé ✓ 🛰️", "back\\slash", "é\u{301}", "null",
        ]
        func number() -> Double {
            pick([0, -0.0, 1, -1.5, 123.456, 1e-7, 1e15, 1e16, 123_456_789.125, .nan, .infinity, -.infinity, 0.1 + 0.2, 47.3700246])
        }
        func value(_ depth: Int) -> JSONValue {
            switch rng.next() % (depth > 1 ? 5 : 7) {
            case 0: return .string(pick(texts))
            case 1: return .double(number())
            case 2: return .int(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64))
            case 3: return .bool(rng.next() % 2 == 0)
            case 4: return .null
            case 5: return .list((0..<Int(rng.next() % 3)).map { _ in value(depth + 1) })
            default: return .orderedObject((0..<Int(rng.next() % 3)).map { _ in (pick(texts), value(depth + 1)) })
            }
        }
        let start = Timestamp(seconds: 1_767_225_600)
        return (0..<traces).map { t in
            (0..<count).map { k in
                var keys = LogEvent.fieldOrder.filter { _ in rng.next() % 4 == 0 }
                if rng.next() % 8 == 0 { keys.append(pick(["extra", "zzz", "x,y"])) }
                if rng.next() % 3 == 0 { keys.shuffle(using: &rng) }
                let fields = keys.map { ($0, value(0)) }
                let located = rng.next() % 5 != 0
                return LogEvent(
                    time: start.adding(nanoseconds: Int64(k) * 333_333_333 + Int64(rng.next() % 1000)),
                    trace: "trace \(t), \"\(pick(texts))\"",
                    type: pick(LogEvent.EventType.allCases), fields: fields,
                    longitude: located ? number() : nil, latitude: located ? number() : nil)
            }
        }
    }

    static func numbered(_ traces: [[LogEvent]]) -> [LogEvent] {
        var all = traces.flatMap { $0 }
        for k in all.indices { all[k].seq = k }
        return all
    }

    @Test(arguments: EventLogFormat.allCases)
    func theWriterRendersAsTheOracle(_ format: EventLogFormat) {
        for seed in 0..<40 as Range<UInt64> {
            let events = Self.numbered(Self.events(seed: seed, count: Int(seed % 7) * 9))
            let rendered = format.render(events)
            let expected = Oracle.render(events, format)
            #expect(rendered == expected, "seed \(seed), \(format)")
            if rendered != expected { break }
        }
    }

    /// The fields of an engine's event as fencesim built them before engine lines were rendered
    /// straight from the event (a fields array per event).
    static func legacyEngineEvent(_ line: EngineLogLine) -> LogEvent {
        let e = line.event
        var fields: [(String, JSONValue)] = []
        fields.append(("fence", .string(line.fenceID)))
        if let zone = line.zone { fields.append(("zone", .string(zone))) }
        fields.append(("fix", .int(Int64(e.fixIndex))))
        if e.fixTime != e.time { fields.append(("fixTime", .string(e.fixTime.description))) }
        fields.append(("feed", .string(e.feed.rawValue)))
        if e.feed == .accuracy { fields.append(("feedRadius", .double((e.feedRadius * 1000).rounded() / 1000))) }
        if let d = e.distance { fields.append(("distance", .double((d * 1000).rounded() / 1000))) }
        fields.append(("accuracy", .double((e.accuracy * 1000).rounded() / 1000)))
        if e.interpolated { fields.append(("interpolated", .bool(true))) }
        if let direction = e.direction { fields.append(("direction", .string(direction.rawValue))) }
        if let t = e.enterTime { fields.append(("enterTime", .string(t.description))) }
        if let t = e.exitTime { fields.append(("exitTime", .string(t.description))) }
        if let d = e.dwellSeconds { fields.append(("dwellSeconds", .double(d))) }
        if let reason = e.reason { fields.append(("reason", .string(reason))) }
        if let message = e.message { fields.append(("message", .string(message))) }
        let type: LogEvent.EventType =
            switch e.kind {
            case .enter: .enter
            case .exit: .exit
            case .dwell: .dwell
            case .cross: .cross
            case .passthrough: .passthrough
            case .suppressed: .suppressed
            }
        return LogEvent(time: e.time, trace: line.trace, type: type, fields: fields, longitude: e.longitude, latitude: e.latitude)
    }

    /// Random engine lines: every kind and optional field, numbers of every kind, strings that
    /// need escaping or quoting, times that repeat (the renderer remembers the last one) or not.
    static func engineLines(seed: UInt64, count: Int) -> [EngineLogLine] {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { rng.next() % 3 == 0 ? value() : nil }
        let texts = ["", "plain", "a,b", "say \"hi\"", "line\nbreak", "cr\rlf", "tab\there", "\u{1}ctl", "ünïcødé ✓ 🛰️", "back\\slash"]
        func number() -> Double {
            pick([
                0, -0.0, 1, -1.5, 8.8, -60.629, 123.456, 1e-7, 0.00049, 1e15, 1e16, 123_456_789.125, .nan, .infinity, 0.1 + 0.2,
                -122.206875, 37.7726567, Double(rng.next() % 100_000_000) / 1e7 - 5,
            ])
        }
        var time = Timestamp(seconds: 1_767_225_600)
        return (0..<count).map { _ in
            if rng.next() % 3 == 0 { time = time.adding(nanoseconds: Int64(rng.next() % 3_000_000_000)) }
            let fixTime = rng.next() % 4 == 0 ? time.adding(nanoseconds: Int64(rng.next() % 2_000_000_000)) : time
            let event = GeotriggerEvent(
                kind: pick(GeotriggerEvent.Kind.allCases), time: time, fence: 0, fixIndex: Int(rng.next() % 2_000_000),
                fixTime: fixTime, feed: pick(GeotriggerSettings.Feed.allCases), feedRadius: number(), distance: maybe(number()),
                accuracy: number(), interpolated: rng.next() % 2 == 0, direction: maybe(pick([.leftToRight, .rightToLeft])),
                enterTime: maybe(time.adding(nanoseconds: -Int64(rng.next() % 1_000_000_000))),
                exitTime: maybe(time.adding(nanoseconds: Int64(rng.next() % 1_000_000_000))), dwellSeconds: maybe(number()),
                reason: maybe(pick(texts)), notified: true, message: maybe(pick(texts)), longitude: number(), latitude: number())
            return EngineLogLine(
                event, fenceID: pick(["f034691", "f,1", "f \"q\"", "fence-with-a-long-identifier-\(rng.next() % 9)"]),
                zone: maybe(pick(["z076", "", "zone, \"quoted\""])), trace: pick(["t", "trace, \"1\"", "/tmp/a/trace.csv"]))
        }
    }

    /// An engine's lines, rendered from their fields as a replay writes them, are the bytes of
    /// the old renderer given the events fencesim built before, and their ``LogEvent`` (for
    /// check-ins, Places and rules) has those events' fields.
    @Test(arguments: [EventLogFormat.jsonl, .csv, .geojson])
    func engineLinesRenderAsTheOracle(_ format: EventLogFormat) throws {
        for seed in 0..<40 as Range<UInt64> {
            let lines = Self.engineLines(seed: 500 + seed, count: Int(seed % 9) * 11)
            var legacy = lines.map(Self.legacyEngineEvent)
            for k in legacy.indices { legacy[k].seq = k }
            for (line, old) in zip(lines, legacy) {
                let built = line.logEvent
                #expect(JSONWriter.string(.orderedObject(built.fields)) == JSONWriter.string(.orderedObject(old.fields)), "seed \(seed)")
                #expect(built.type == old.type && built.time == old.time && built.trace == old.trace)
            }
            let memory = MemorySink()
            let writer = EventLogWriter(format: format, sink: memory)
            let log = OrderedEventLog(writer: writer, traces: 1)
            let channel = log.channel(0)
            for line in lines { channel.append(.engine(line)) }
            channel.finish()
            #expect(log.failure == nil)
            try writer.finish()
            let rendered = String(decoding: memory.bytes, as: UTF8.self)
            let expected = Oracle.render(legacy, format)
            #expect(rendered == expected, "seed \(seed), \(format)")
            if rendered != expected { break }
        }
    }

    /// ``LogEvent/Key`` names the keys of ``LogEvent/fieldOrder`` in its order.
    /// A CSV cell needs quotes exactly when a byte-by-byte look finds a comma, a quote, a CR or
    /// an LF, wherever it is (in a whole eight-byte word or in the bytes after the last one),
    /// among bytes that differ from them by one bit or one unit.
    @Test func aCellNeedsQuotesWhenAByteByByteLookSaysSo() {
        var rng = SplitMix64(seed: 4180)
        let specials: [UInt8] = [0x2C, 0x22, 0x0A, 0x0D]
        let near: [UInt8] = [0x2B, 0x2D, 0x23, 0x21, 0x0B, 0x09, 0x0C, 0x0E, 0xAC, 0xA2, 0x8A, 0x00, 0xFF, 0x41, 0x30]
        for _ in 0..<200_000 {
            let length = Int(rng.next() % 41)
            var bytes = (0..<length).map { _ in near[Int(rng.next() % UInt64(near.count))] }
            if length > 0, rng.next() % 2 == 0 {
                bytes[Int(rng.next() % UInt64(length))] = specials[Int(rng.next() % 4)]
            }
            let expected = bytes.contains { specials.contains($0) }
            let got = bytes.withUnsafeBufferPointer { EventLineRenderer.needsQuotes($0) }
            #expect(got == expected, "\(bytes)")
            if got != expected { return }
        }
    }

    @Test func fieldKeysAreTheFieldOrder() {
        #expect(LogEvent.Key.allCases.map { "\($0)" } == LogEvent.fieldOrder)
        #expect(LogEvent.Key.allCases.map(\.rawValue) == Array(LogEvent.fieldOrder.indices))
    }

    /// Several traces' logs handed to an ``OrderedEventLog`` in pieces, finishing in any order,
    /// some spooled to temporary files: the bytes of the whole log rendered at once.
    @Test(arguments: [EventLogFormat.jsonl, .csv, .geojson])
    func tracesStreamedInAnyOrderGiveTheWholeLog(_ format: EventLogFormat) throws {
        for seed in 0..<12 as Range<UInt64> {
            let traces = Self.events(seed: 100 + seed, count: Int(seed % 4) * 40, traces: 1 + Int(seed % 5))
                .map {
                    $0.map { e -> LogEvent in
                        var e = e
                        // A streamed CSV has SPEC's columns only (events fencesim makes have no other keys).
                        if format == .csv { e.fields.removeAll { LogEvent.rank(of: $0.0) == nil } }
                        return e
                    }
                }
            let expected = format.render(Self.numbered(traces))
            let memory = MemorySink()
            let writer = EventLogWriter(format: format, sink: memory)
            let log = OrderedEventLog(writer: writer, traces: traces.count, spoolMemoryBytes: seed % 2 == 0 ? 0 : 1 << 20)
            var rng = SplitMix64(seed: seed)
            let channels = traces.indices.map { log.channel($0) }
            var next = Array(repeating: 0, count: traces.count)
            var open = Array(traces.indices)
            // Traces take turns at random, each handing on a few events, flushing at times.
            while !open.isEmpty {
                let k = open[Int(rng.next() % UInt64(open.count))]
                let n = min(traces[k].count - next[k], Int(rng.next() % 7))
                for e in traces[k][next[k]..<(next[k] + n)] { channels[k].append(.event(e)) }
                next[k] += n
                if rng.next() % 3 == 0 { channels[k].flush() }
                if next[k] == traces[k].count, rng.next() % 2 == 0 {
                    channels[k].finish()
                    open.removeAll { $0 == k }
                }
            }
            #expect(log.failure == nil)
            try writer.finish()
            #expect(String(decoding: memory.bytes, as: UTF8.self) == expected, "seed \(seed)")
        }
    }

    /// A sink that keeps only a count of bytes.
    final class CountingSink: ByteSink {
        var bytes = 0
        func write(_ bytes: UnsafeRawBufferPointer) throws(FencesimError) { self.bytes += bytes.count }
    }

    /// Memory does not grow with the log: after 200,000 events the writer holds one buffer of
    /// about its flush size, and everything else went to the sink.
    @Test func theWriterHoldsOneBufferWhateverTheLength() throws {
        let sink = CountingSink()
        let writer = EventLogWriter(format: .jsonl, sink: sink)
        let event = LogEvent(
            time: Timestamp(seconds: 1_767_225_600), trace: "t", type: .enter,
            fields: [("fence", .string("f1")), ("fix", .int(3)), ("distance", .double(-1.5))], longitude: 8.5, latitude: 47.3)
        var largest = 0
        for _ in 0..<200_000 {
            try writer.append(event)
            largest = max(largest, writer.buffer.capacity)
        }
        try writer.finish()
        #expect(largest <= 2 * EventLogWriter.flushBytes, "\(largest)")
        #expect(sink.bytes > 200_000 * 100)
        #expect(writer.count == 200_000)
    }

    /// A trace's log hands events on as soon as no later one can come before them: a long
    /// trace keeps only the events of its last instant waiting.
    @Test func aTraceLogKeepsOnlyTheLastInstantWaiting() {
        var released: [LogEvent] = []
        let log = TraceLog { released.append($0.logEvent) }
        let start = Timestamp(seconds: 1_767_225_600)
        var peak = 0
        for k in 0..<50_000 {
            let t = start.adding(seconds: Double(k))
            log.append(LogEvent(time: t, trace: "t", type: .enter, fields: [("fix", .int(Int64(k)))]))
            // A finding at the same instant goes after every event of that instant, even one
            // dispatched after it.
            if k % 10 == 0 { log.appendFinding(LogEvent(time: t, trace: "t", type: .warning, fields: [("fix", .int(Int64(k)))])) }
            log.append(LogEvent(time: t, trace: "t", type: .exit, fields: [("fix", .int(Int64(k)))]))
            log.advance(to: t)
            peak = max(peak, log.waitingCount)
        }
        log.finish()
        #expect(peak <= 3)
        #expect(released.count == 2 * 50_000 + 5_000)
        // Time order, dispatched events before findings at each instant.
        for (a, b) in zip(released, released.dropFirst()) {
            #expect(a.time < b.time || (a.time == b.time && !(a.type == .warning && b.type != .warning)))
        }
    }

    /// A finding earlier than events already handed on (a fix out of time order, skipped) keeps
    /// its time and takes its place where it was found.
    @Test func aLateFindingTakesItsPlaceWhereFound() {
        var released: [LogEvent] = []
        let log = TraceLog { released.append($0.logEvent) }
        let start = Timestamp(seconds: 1_767_225_600)
        log.append(LogEvent(time: start.adding(seconds: 10), trace: "t", type: .enter))
        log.advance(to: start.adding(seconds: 10))
        log.append(LogEvent(time: start.adding(seconds: 11), trace: "t", type: .exit))
        log.advance(to: start.adding(seconds: 11))
        log.appendFinding(LogEvent(time: start.adding(seconds: 5), trace: "t", type: .warning))
        log.finish()
        #expect(released.map(\.type) == [.enter, .exit, .warning])
        #expect(released.last?.time == start.adding(seconds: 5))
    }
}
