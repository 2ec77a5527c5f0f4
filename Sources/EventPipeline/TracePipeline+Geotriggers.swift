import CheckIns
import Fences
import Geotriggers
import Support

extension TracePipeline {
    /// The log line of a notified engine event, naming its geotrigger when several watch the
    /// fences (``Scenario/geotriggerKey``).
    @inline(__always)
    func engineLine(_ e: GeotriggerEvent) -> EngineLogLine {
        var line = EngineLogLine(e, labels: labels, trace: trace)
        if fences.watchers != nil { line.geotrigger = fences.watchers?.name(of: e.fence) }
        return line
    }

    /// ``process(_:sample:)`` when several geotriggers watch the fences: every geotrigger's
    /// notified events are logged with its name; check-ins and Places take the events that
    /// change what the distinct fences see (``FenceMembership``), as the events of those fences.
    /// The log's order is the one of a single geotrigger's run.
    mutating func processWatched(_ buffer: [GeotriggerEvent], sample: Sample) {
        guard checkIns != nil, watched != nil else {
            for k in buffer.indices where buffer[k].notified { emit(engineLine(buffer[k])) }
            return
        }
        // In place: a copy of the membership would copy its tables (by fence) at every fix.
        watched?.take(buffer)
        let shared = watched?.shared ?? []
        let fix = CheckInFix(sample)
        checkInBuffer.removeAll(keepingCapacity: true)
        checkIns?.process(shared, at: fix, into: &checkInBuffer)
        if places != nil { return processWithPlaces(buffer, fix: fix, signalling: shared) }
        guard rules != nil else {
            for k in buffer.indices where buffer[k].notified { emit(engineLine(buffer[k])) }
            for c in checkInBuffer { emit(Dispatched(log: TracePipeline.logEvent(c, trace))) }
            return
        }
        // As ``process(_:sample:)`` orders them for the rules: time, then engine events first.
        var lines: [LogEvent] = []
        for e in buffer where e.notified { lines.append(engineLine(e).logEvent) }
        for c in checkInBuffer { lines.append(TracePipeline.logEvent(c, trace)) }
        let ordered = lines.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }
        for (_, line) in ordered { emit(Dispatched(log: line)) }
    }

    /// The key of a fence's stretch inside (``level(_:)``): its id, and its geotrigger's place
    /// when several geotriggers watch the fences (each pair has its own stretches).
    func levelKey(_ fence: Int) -> String {
        let id = labels[fence].id
        guard let watchers = fences.watchers else { return id }
        return "\(watchers.geotrigger[fence])\u{1F}\(id)"
    }
}

/// What a trace's pipeline keeps when several geotriggers watch the fences.
struct WatchedState {
    var membership: FenceMembership
    /// The events the distinct fences see at the current fix (reused).
    var shared: [GeotriggerEvent] = []

    init(_ fences: FenceSet) {
        membership = FenceMembership(fences)
        shared.reserveCapacity(16)
    }

    /// Takes one fix's events into ``shared`` (``FenceMembership/take(_:into:)``).
    mutating func take(_ buffer: [GeotriggerEvent]) {
        membership.take(buffer, into: &shared)
    }
}
