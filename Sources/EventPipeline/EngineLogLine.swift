import Fences
import Geotriggers
import Scenarios
import Support

/// A notified geotrigger event as a line of the log (SPEC §6.6), with its provenance. Its fields
/// are defined once, in ``fields(into:)``: the renderer writes them straight to the log's bytes
/// when nothing after the engine reads the line (`replay`), and ``logEvent`` builds the
/// ``LogEvent`` that check-ins, Places, rules and kept outcomes read.
package struct EngineLogLine {
    package var event: GeotriggerEvent
    var trace: String
    package var fenceID: String
    var zone: String?
    /// The geotrigger's name, when several watch the fences (``Scenario/geotriggerKey``).
    package var geotrigger: String?

    /// The line of `event`, whose fence is in `fences`.
    init(_ event: GeotriggerEvent, fences: FenceSet, trace: String) {
        // The fence's id and zone read in place: a copy of the whole fence retains a dozen
        // references (5 % of an event-log replay in perf).
        self.init(event, fenceID: fences.fences[event.fence].id, zone: fences.fences[event.fence].zone, trace: trace)
    }

    /// The line of `event`, its fence's id and zone read from the index's compact table (the
    /// same values as from the fence set, without a cache miss on a whole fence per event).
    @inline(__always)
    init(_ event: GeotriggerEvent, labels: FenceLabels, trace: String) {
        let label = labels[event.fence]
        self.init(event, fenceID: label.id, zone: label.zone, trace: trace)
    }

    init(_ event: GeotriggerEvent, fenceID: String, zone: String?, trace: String) {
        self.event = event
        self.trace = trace
        self.fenceID = fenceID
        self.zone = zone
    }

    package var type: LogEvent.EventType { EngineLogLine.type(of: event.kind) }

    /// The log's type of an engine event of kind `kind`.
    @inline(__always)
    static func type(of kind: GeotriggerEvent.Kind) -> LogEvent.EventType {
        switch kind {
        case .enter: .enter
        case .exit: .exit
        case .dwell: .dwell
        case .cross: .cross
        case .passthrough: .passthrough
        case .suppressed: .suppressed
        }
    }

    /// Hands the line's fields to `sink`, in log order.
    @inline(__always)
    func fields<Sink: LogFieldSink & ~Copyable>(into sink: inout Sink) {
        EngineLogLine.fields(of: event, fenceID: fenceID, zone: zone, geotrigger: geotrigger, into: &sink)
    }

    /// The fields of the line of `event` (whose fence has id `fenceID` and zone `zone`, watched by
    /// geotrigger `geotrigger` when several are), in log order: the one definition of an engine
    /// line's fields, read in place from the engine's event when it is rendered without a line
    /// (``TraceLog/appendEngineEvents(_:fixTime:labels:trace:alone:)``).
    @inline(__always)
    static func fields<Sink: LogFieldSink & ~Copyable>(
        of e: borrowing GeotriggerEvent, fenceID: String, zone: String?, geotrigger: String?, into sink: inout Sink
    ) {
        sink.field(.fence, string: fenceID)
        if let zone { sink.field(.zone, string: zone) }
        sink.field(.fix, int: Int64(e.fixIndex))
        if e.fixTime != e.time { sink.field(.fixTime, time: e.fixTime) }
        sink.field(.feed, string: e.feed.rawValue)
        if e.feed == .accuracy { sink.field(.feedRadius, number: LogEvent.millimetres(e.feedRadius)) }
        if let d = e.distance { sink.field(.distance, number: LogEvent.millimetres(d)) }
        sink.field(.accuracy, number: LogEvent.millimetres(e.accuracy))
        if e.interpolated { sink.field(.interpolated, bool: true) }
        if let direction = e.direction { sink.field(.direction, string: direction.rawValue) }
        if let t = e.enterTime { sink.field(.enterTime, time: t) }
        if let t = e.exitTime { sink.field(.exitTime, time: t) }
        if let d = e.dwellSeconds { sink.field(.dwellSeconds, number: d) }
        if let reason = e.reason { sink.field(.reason, string: reason) }
        if let message = e.message { sink.field(.message, string: message) }
        if let geotrigger { sink.field(extra: Scenario.geotriggerKey, string: geotrigger) }
    }

    /// The line as a ``LogEvent``.
    package var logEvent: LogEvent {
        var list = LogFieldList(capacity: 12)
        fields(into: &list)
        return LogEvent(
            time: event.time, trace: trace, type: type, fields: list.fields, longitude: event.longitude, latitude: event.latitude)
    }
}
