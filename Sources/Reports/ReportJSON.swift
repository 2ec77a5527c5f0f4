import Accuracy
import Files
import Support
import Traces

/// The report as JSON with stable keys, in a fixed order (documented in docs/commands.md): numbers
/// rounded as ``ReportNumber`` rounds them, times in ISO-8601 UTC with milliseconds, absent
/// values as `null`.
public enum ReportJSON {
    /// The format's version (`"report"` key); bumped when a key changes meaning.
    public static let version = 1

    /// The whole report as pretty-printed JSON text (one key per line, two-space indent), ending
    /// with a newline.
    public static func render(_ report: AccuracyReport) -> String {
        String(decoding: bytes(report), as: UTF8.self)
    }

    /// ``render(_:)``'s text as UTF-8 bytes.
    public static func bytes(_ report: AccuracyReport) -> [UInt8] {
        let sink = MemorySink()
        // A memory sink does not fail.
        try? write(report, to: sink)
        return sink.bytes
    }

    /// Writes ``render(_:)``'s text to `sink` as it is produced, a megabyte at a time: a report
    /// of a million fixes is hundreds of megabytes, never held whole. The per-fence groups and
    /// the visits (the long lists) are written an element at a time, straight to bytes; every
    /// other member as a JSON value through the pretty printer (``write(_:indent:to:)``). The
    /// tests hold the whole report as one JSON value, printed at once, as the oracle.
    ///
    /// - Throws: the sink's ``Support/FencesimError`` (`.io`).
    public static func write(_ report: AccuracyReport, to sink: ByteSink) throws(FencesimError) {
        var out = Output(sink: sink)
        let s = report.summary
        let members: [(String, Member)] = [
            ("generator", .value(.string(report.generator))),
            ("report", .value(.int(Int64(version)))),
            ("title", .value(.string(report.title))),
            ("fences", .value(.string(report.fencesFile))),
            ("truth", .value(.string(report.truth))),
            ("degrade", .value(report.degradation.map(degradation) ?? .null)),
            (
                "speedBands",
                .value(
                    .list(
                        report.bands.map { b in
                            .orderedObject([("label", .string(b.label)), ("min", number(b.lower)), ("max", b.upper.map(number) ?? .null)])
                        }))
            ),
            ("hours", .value(ratioless(s.hours, ReportNumber.rateDigits))),
            ("overall", .value(metrics(s.overall))),
            ("bySpeedBand", .value(groups(s.bySpeedBand))),
            ("byZone", .value(groups(s.byZone))),
            ("byFence", .list(s.byFence.count, { k, out, _ in group(s.byFence[k], to: &out) })),
            ("byTrace", .value(groups(s.byTrace))),
            ("traces", .value(.list(report.traces.map(trace)))),
            ("visits", .list(report.visits.count, { k, out, times in visit(report.visits[k], to: &out, times: &times) })),
            (
                "falseDetections",
                .value(
                    .list(
                        report.falseDetections.map { d in
                            .orderedObject([
                                ("trace", .string(d.trace)), ("fence", .string(d.visit.fenceID)), ("zone", .string(d.zone)),
                                ("enter", time(d.visit.enter)), ("exit", d.visit.exit.map(time) ?? .null),
                            ])
                        }))
            ),
        ]
        out.bytes.append(UInt8(ascii: "{"))
        out.bytes.append(UInt8(ascii: "\n"))
        for (n, (key, member)) in members.enumerated() {
            out.bytes.append("  ")
            JSONWriter.quote(key, to: &out.bytes)
            out.bytes.append(": ")
            switch member {
            case .value(let value):
                write(value, indent: 1, to: &out.bytes)
            case .list(0, _):
                out.bytes.append("[]")
            case .list(let count, let element):
                // An array of objects, as ``write(_:indent:to:)`` prints one.
                out.bytes.append("[\n")
                try writeList(count, element, to: &out)
                out.bytes.append("  ]")
            }
            out.bytes.append(n + 1 < members.count ? ",\n" : "\n")
            try out.flushIfFull()
        }
        out.bytes.append("}\n")
        try out.flush()
    }

    /// A top-level member: a value, or a long list of objects written an element at a time.
    private enum Member {
        case value(JSONValue)
        /// Its count, and how element `k` is written (with the writer of times of the block it
        /// is in).
        case list(Int, @Sendable (Int, inout ByteBuffer, inout Timestamp.ISO8601Writer) -> Void)
    }

    /// Elements of a long list rendered by one thread before they are handed on.
    static let listBlock = 256

    /// Blocks of a long list rendered in one round: a thread takes the next block of the round
    /// when it is free, and the round ends when its last block is written. (Rounds of two blocks
    /// of 1,024 elements left one thread idle at the end of each round while the other finished
    /// its block: the large workload's report took 10 % longer to write.)
    static let blocksPerRound = 8

    /// The elements of a long list, each on its lines with its separator: rendered in blocks of
    /// ``listBlock`` elements by the threads available and written in order as each block and
    /// the ones before it are done (rendering is most of a report's writing; the bytes are the
    /// same as one thread's). At most a round's blocks (``blocksPerRound``, about 2 MB on the
    /// large workload) wait at a time.
    private static func writeList(
        _ count: Int, _ element: @Sendable (Int, inout ByteBuffer, inout Timestamp.ISO8601Writer) -> Void, to out: inout Output
    )
        throws(FencesimError)
    {
        try out.flush()
        let sink = out.sink
        var failure: FencesimError?
        var start = 0
        while start < count, failure == nil {
            let round = start..<min(count, start + listBlock * blocksPerRound)
            let parts = (round.count + listBlock - 1) / listBlock
            OrderedBlocks.stream(
                count: round.count, parts: parts,
                { _, range -> RenderedBlock in
                    // About 730 bytes a visit on the large workload: room for 1,024 an element
                    // (512 made every block grow, a copy of it, once on its way).
                    var bytes = ByteBuffer(capacity: range.count * 1024)
                    var times = Timestamp.ISO8601Writer()
                    for k in range.lowerBound + round.lowerBound..<range.upperBound + round.lowerBound {
                        bytes.append("    ")
                        element(k, &bytes, &times)
                        bytes.append(k + 1 < count ? ",\n" : "\n")
                    }
                    return RenderedBlock(bytes)
                },
                consume: { _, block in
                    guard failure == nil else { return }
                    do throws(FencesimError) {
                        try block.bytes.withUnsafeBytes { (raw) throws(FencesimError) in try sink.write(raw) }
                    } catch {
                        failure = error
                    }
                })
            start = round.upperBound
        }
        if let failure { throw failure }
    }

    /// A block of a long list as rendered, on its way to the thread that writes it: the buffer
    /// itself (it is not copyable), where the block crossed threads as an array of its bytes, a
    /// copy of each (the large workload's report is 272 MB).
    private final class RenderedBlock: @unchecked Sendable {
        let bytes: ByteBuffer

        init(_ bytes: consuming ByteBuffer) {
            self.bytes = bytes
        }
    }

    /// Bytes on their way to a sink.
    private struct Output: ~Copyable {
        let sink: ByteSink
        var bytes = ByteBuffer(capacity: Output.limit + 64 * 1024)

        init(sink: ByteSink) {
            self.sink = sink
        }

        /// Bytes held before they are written.
        static let limit = 1 << 20

        mutating func flushIfFull() throws(FencesimError) {
            if bytes.count >= Output.limit { try flush() }
        }

        mutating func flush() throws(FencesimError) {
            try bytes.withUnsafeBytes { (raw) throws(FencesimError) in try sink.write(raw) }
            bytes.removeAll()
        }
    }

    /// One visit as the pretty printer would print it inside the visits list (members at
    /// indent 3), into `out` without building a value.
    static func visit(_ v: VisitScore, to out: inout ByteBuffer, times: inout Timestamp.ISO8601Writer) {
        Line.object(into: &out, times: &times) { line in
            line.string("trace", v.trace)
            line.string("fence", v.truth.fenceID)
            line.string("zone", v.zone)
            line.time("enter", v.truth.enter)
            line.time("exit", v.truth.exit)
            line.bool("startsInside", v.truth.startsInside)
            line.rounded("speed", v.truth.enterSpeed, ReportNumber.secondsDigits)
            line.string("speedBand", v.speedBand)
            line.bool("detected", v.detected)
            line.time("detectedEnter", v.match?.enter)
            line.time("detectedExit", v.detectedExit)
            line.rounded("enterLatency", v.enterLatency, ReportNumber.secondsDigits)
            line.rounded("exitLatency", v.exitLatency, ReportNumber.secondsDigits)
            line.rounded("dwellError", v.dwellError, ReportNumber.secondsDigits)
            line.integer("flaps", v.flaps)
            line.integer("falseExits", v.falseExits)
            line.bool("exitMissed", v.exitMissed)
            line.string("missReason", v.missReason?.rawValue)
        }
    }

    /// One group as ``group(_:)`` prints it inside a list of groups, into `out` without building
    /// the value.
    static func group(_ g: AccuracySummary.Group, to out: inout ByteBuffer) {
        let m = g.metrics
        Line.object(into: &out) { line in
            line.string("key", g.key)
            line.integer("truthVisits", m.truthVisits)
            line.integer("detected", m.detected)
            line.integer("missed", m.missed)
            line.integer("missedInGap", m.missedInGap)
            line.integer("falseDetections", m.falseDetections)
            line.integer("flaps", m.flaps)
            line.integer("falseExits", m.falseExits)
            line.integer("exitsMissed", m.exitsMissed)
            line.rounded("recall", m.recall, ReportNumber.ratioDigits)
            line.rounded("precision", m.precision, ReportNumber.ratioDigits)
            line.rounded("f1", m.f1, ReportNumber.ratioDigits)
            line.percentiles("enterLatency", m.enterLatency)
            line.percentiles("exitLatency", m.exitLatency)
            line.percentiles("dwellError", m.dwellError)
            line.rounded("hours", m.hours, ReportNumber.rateDigits)
            line.rounded("falseExitsPerHour", m.falseExitsPerHour, ReportNumber.rateDigits)
        }
    }

    /// The members of an object in a list of the report (indent 3), one per line.
    private struct Line: ~Copyable {
        var out: ByteBuffer
        /// Writes its times (remembering the last minute written).
        var times: Timestamp.ISO8601Writer
        var first = true

        /// Appends to `out` the object whose members `body` writes (the buffer moved in and
        /// out, not copied).
        static func object(into out: inout ByteBuffer, times: inout Timestamp.ISO8601Writer, _ body: (inout Line) -> Void) {
            var line = Line(out: out, times: times)
            line.out.append(UInt8(ascii: "{"))
            body(&line)
            line.out.append("\n    }")
            out = line.out
            times = line.times
        }

        /// ``object(into:times:_:)`` for an object without times.
        static func object(into out: inout ByteBuffer, _ body: (inout Line) -> Void) {
            var times = Timestamp.ISO8601Writer()
            object(into: &out, times: &times, body)
        }

        /// The separator, the indent and the quoted key, stored at once (three appends took
        /// about twice the instructions).
        mutating func key(_ key: StaticString) {
            let count = key.utf8CodeUnitCount
            let comma = !first
            first = false
            out.append(maximum: count + 12) { p in
                var at = 0
                if comma {
                    p.storeBytes(of: UInt8(ascii: ","), as: UInt8.self)
                    at = 1
                }
                // A line break, six spaces and the opening quote.
                p.storeBytes(of: UInt64(0x2020_2020_2020_200A).littleEndian, toByteOffset: at, as: UInt64.self)
                p.storeBytes(of: UInt8(ascii: "\""), toByteOffset: at + 7, as: UInt8.self)
                at += 8
                (p + at).copyMemory(from: key.utf8Start, byteCount: count)
                at += count
                p.storeBytes(of: UInt8(ascii: "\""), toByteOffset: at, as: UInt8.self)
                p.storeBytes(of: UInt8(ascii: ":"), toByteOffset: at + 1, as: UInt8.self)
                p.storeBytes(of: UInt8(ascii: " "), toByteOffset: at + 2, as: UInt8.self)
                return at + 3
            }
        }

        mutating func string(_ key: StaticString, _ value: String?) {
            self.key(key)
            if let value { JSONWriter.quote(value, to: &out) } else { out.append("null") }
        }

        mutating func time(_ key: StaticString, _ value: Timestamp?) {
            self.key(key)
            guard let value else { return out.append("null") }
            out.append(UInt8(ascii: "\""))
            times.append(value, to: &out)
            out.append(UInt8(ascii: "\""))
        }

        mutating func bool(_ key: StaticString, _ value: Bool) {
            self.key(key)
            out.append(value ? "true" : "false")
        }

        mutating func number(_ key: StaticString, _ value: Double?) {
            self.key(key)
            if let value { JSONWriter.appendNumber(value, to: &out) } else { out.append("null") }
        }

        /// `value` rounded to `digits` decimals, as ``ReportNumber`` rounds it.
        mutating func rounded(_ key: StaticString, _ value: Double?, _ digits: Int) {
            number(key, value.map { ReportNumber.rounded($0, digits) })
        }

        mutating func integer(_ key: StaticString, _ value: Int?) {
            self.key(key)
            if let value { JSONWriter.appendInteger(Int64(value), to: &out) } else { out.append("null") }
        }

        /// ``percentiles(_:)``'s object, its members at indent 4.
        mutating func percentiles(_ key: StaticString, _ p: AccuracyMetrics.Percentiles?) {
            self.key(key)
            guard let p else { return out.append("null") }
            out.append("{\n        \"count\": ")
            JSONWriter.appendInteger(Int64(p.count), to: &out)
            out.append(",\n        \"p50\": ")
            JSONWriter.appendNumber(ReportNumber.rounded(p.p50, ReportNumber.secondsDigits), to: &out)
            out.append(",\n        \"p90\": ")
            JSONWriter.appendNumber(ReportNumber.rounded(p.p90, ReportNumber.secondsDigits), to: &out)
            out.append(",\n        \"p99\": ")
            JSONWriter.appendNumber(ReportNumber.rounded(p.p99, ReportNumber.secondsDigits), to: &out)
            out.append(",\n        \"mean\": ")
            JSONWriter.appendNumber(ReportNumber.rounded(p.mean, ReportNumber.secondsDigits), to: &out)
            out.append("\n      }")
        }
    }

    static func degradation(_ d: Degradation) -> JSONValue {
        let pairs: [(String, JSONValue)] = [
            ("resample", d.resampleSeconds.map(number) ?? .null), ("noise", number(d.noise)), ("dropout", number(d.dropout)),
            ("dropoutBurst", number(d.dropoutBurst)), ("spikes", number(d.spikes)), ("spikeMeters", number(d.spikeMeters)),
            ("jitter", number(d.jitterSeconds)), ("exitLoss", number(d.exitLoss)), ("entryLoss", number(d.entryLoss)),
            ("seed", .int(Int64(bitPattern: d.seed))),
        ]
        return .orderedObject(pairs)
    }

    static func groups(_ list: [AccuracySummary.Group]) -> JSONValue {
        .list(list.map(group))
    }

    static func group(_ g: AccuracySummary.Group) -> JSONValue {
        guard case .object(let members) = metrics(g.metrics) else { return .null }
        return .object([JSONMember(key: "key", node: JSONNode(.string(g.key)))] + members)
    }

    /// The numbers of one group.
    static func metrics(_ m: AccuracyMetrics) -> JSONValue {
        let pairs: [(String, JSONValue)] = [
            ("truthVisits", .int(Int64(m.truthVisits))), ("detected", .int(Int64(m.detected))), ("missed", .int(Int64(m.missed))),
            ("missedInGap", .int(Int64(m.missedInGap))), ("falseDetections", m.falseDetections.map { .int(Int64($0)) } ?? .null),
            ("flaps", .int(Int64(m.flaps))), ("falseExits", .int(Int64(m.falseExits))), ("exitsMissed", .int(Int64(m.exitsMissed))),
            ("recall", ratio(m.recall)), ("precision", ratio(m.precision)), ("f1", ratio(m.f1)),
            ("enterLatency", percentiles(m.enterLatency)), ("exitLatency", percentiles(m.exitLatency)),
            ("dwellError", percentiles(m.dwellError)),
            ("hours", m.hours.map { ratioless($0, ReportNumber.rateDigits) } ?? .null),
            ("falseExitsPerHour", m.falseExitsPerHour.map { ratioless($0, ReportNumber.rateDigits) } ?? .null),
        ]
        return .orderedObject(pairs)
    }

    static func percentiles(_ p: AccuracyMetrics.Percentiles?) -> JSONValue {
        guard let p else { return .null }
        return .orderedObject([
            ("count", .int(Int64(p.count))), ("p50", seconds(p.p50)), ("p90", seconds(p.p90)), ("p99", seconds(p.p99)),
            ("mean", seconds(p.mean)),
        ])
    }

    static func trace(_ t: AccuracyReport.TraceEntry) -> JSONValue {
        let pairs: [(String, JSONValue)] = [
            ("trace", .string(t.name)), ("path", .string(t.path)), ("status", .string(t.failed ? "failed" : "ok")),
            ("error", t.error.map { .string($0) } ?? .null), ("fixes", .int(Int64(t.cleanFixes))), ("feedFixes", .int(Int64(t.feedFixes))),
            ("durationSeconds", t.score.map { seconds($0.durationSeconds) } ?? .null),
            ("truthVisits", .int(Int64(t.score?.visits.count ?? 0))), ("detections", .int(Int64(t.score?.detections.count ?? 0))),
            ("passthroughs", .int(Int64(t.score?.passthroughs ?? 0))), ("lostEnters", .int(Int64(t.score?.lostEnters ?? 0))),
            ("lostExits", .int(Int64(t.score?.lostExits ?? 0))),
        ]
        return .orderedObject(pairs)
    }

    static func time(_ t: Timestamp) -> JSONValue { .string(t.description) }
    static func number(_ v: Double) -> JSONValue { .double(v) }
    static func ratio(_ v: Double?) -> JSONValue { v.map { .double(ReportNumber.rounded($0, ReportNumber.ratioDigits)) } ?? .null }
    static func seconds(_ v: Double) -> JSONValue { .double(ReportNumber.rounded(v, ReportNumber.secondsDigits)) }
    static func ratioless(_ v: Double, _ digits: Int) -> JSONValue { .double(ReportNumber.rounded(v, digits)) }

    /// Pretty printing: objects and arrays one member per line; arrays of scalars and empty ones
    /// on one line.
    static func write(_ value: JSONValue, indent: Int, to out: inout ByteBuffer) {
        func pad(_ levels: Int) {
            for _ in 0..<levels { out.append("  ") }
        }
        switch value {
        case .object(let members) where !members.isEmpty:
            out.append("{\n")
            for (k, m) in members.enumerated() {
                pad(indent + 1)
                JSONWriter.quote(m.key, to: &out)
                out.append(": ")
                write(m.node.value, indent: indent + 1, to: &out)
                out.append(k + 1 < members.count ? ",\n" : "\n")
            }
            pad(indent)
            out.append(UInt8(ascii: "}"))
        case .array(let items)
        where items.contains(where: {
            if case .object = $0.value { return true }; if case .array = $0.value { return true }; return false
        }):
            out.append("[\n")
            for (k, item) in items.enumerated() {
                pad(indent + 1)
                write(item.value, indent: indent + 1, to: &out)
                out.append(k + 1 < items.count ? ",\n" : "\n")
            }
            pad(indent)
            out.append(UInt8(ascii: "]"))
        default:
            JSONWriter.write(value, to: &out)
        }
    }
}
