import CheckIns
import Fences
import Geotriggers
import Places
import Rules
import Scenarios
import Support

/// One trace's way through the pipeline after the geotrigger engine (SPEC §4: fence →
/// geotrigger → check-in/out → Places, then the rules of SPEC §5 on every dispatched event): it
/// logs the engine's notified events, feeds every fix's events to the check-in machine, feeds
/// Places, and sends every event it logs through ``emit(_:)``, in order, where the rules run.
///
/// Sans-I/O: the replayer reads fixes and runs the engine; this takes the engine's events fix by
/// fix and hands the log lines to a ``TraceLog``.
package struct TracePipeline {
    /// An event on its way into the log, with what the rules engine will need beyond the log line.
    struct Dispatched {
        /// The log line.
        var log: LogEvent
        /// The SDK events behind it, in dispatch order: the Places region response and the Edge
        /// experience event of a processed signal, the nearby response of a lookup.
        var sdkEvents: [PlacesEvent] = []
        /// The Places shared state published with it (`com.adobe.module.places`), if any.
        var placesSharedState: JSONValue?
        /// What the rules read as its geotrigger event when that is not ``log`` itself: a
        /// profile's `delivered` line is an `enter`, `exit` or `dwell` to the app.
        var rulesView: LogEvent?
    }

    let trace: String
    let fences: FenceSet
    /// The fences' ids and zones, as the engine's lines read them (``FenceLabels``).
    let labels: FenceLabels
    /// Check-ins, when the run has a pipeline (`run`); `replay` logs engine events only.
    var checkIns: CheckInMachine?
    /// Places, when simulated.
    var places: PlacesRun?
    /// The rules, when the scenario has them.
    var rules: RulesStage?
    /// Where the log lines go, in dispatch order.
    let log: TraceLog
    /// Located findings for standard error (sessions that could not be simulated).
    var warnings: [Diagnostic] = []
    /// The check-in events of the current fix (reused).
    var checkInBuffer: [CheckInEvent] = []
    /// Fences inside, by fence id, since the change that took them in, for their `inside` lines
    /// (see `TracePipeline+Level.swift`): by id, so that a fence replaced while the device stays
    /// inside (a version of the same id) goes on with one stretch.
    var insideSince: [String: LevelChange] = [:]
    /// The last fix processed, where an open stretch inside ends with the trace.
    var lastFix: LevelChange?
    /// The operating system's layer, when a profile is selected: the app hears it, not the engine.
    var osLayer: OSLayer?
    /// The last fix, for deliveries after it (check-ins take a fix).
    var lastSample: Sample?
    /// When several geotriggers watch the fences (`TracePipeline+Geotriggers.swift`).
    var watched: WatchedState?
    /// Whether some fence's `inside` lines may be logged at a fix after its engine events
    /// (``level(_:)``).
    let logsLevels: Bool

    /// A pipeline for one trace.
    ///
    /// - Parameters:
    ///   - pipeline: the run's pipeline; `nil` to log engine events only.
    ///   - placesState: the state persisted by an earlier run (`--state`), else a fresh one.
    ///   - log: where the log lines go.
    ///   - profile: the operating system's layer between the engine and the app, if any.
    package init(
        trace: String, fences: CompiledFences, pipeline: Pipeline?, placesState: PlacesState?, log: TraceLog, profile: OSProfile? = nil
    ) {
        self.trace = trace
        self.log = log
        self.fences = fences.fenceSet
        labels = fences.index.labels
        checkIns = pipeline?.checkIns
        if let setup = pipeline?.places {
            places = PlacesRun(setup: setup, state: placesState ?? PlacesState(configuration: setup.settings.configuration))
        }
        if let setup = pipeline?.rules { rules = RulesStage(setup: setup, trace: trace) }
        checkInBuffer.reserveCapacity(16)
        if let profile { osLayer = OSLayer(profile: profile, trace: trace, fences: fences.fenceSet, frame: fences.frame) }
        if fences.fenceSet.watchers != nil { watched = WatchedState(fences.fenceSet) }
        logsLevels = fences.settings.distinct.contains { $0.level != .none }
    }

    /// Takes the engine's events for one fix (all of them, notified or not, possibly none).
    ///
    /// Logs the notified engine events, then the fix's check-in events, then what Places made of
    /// them. With Places, the fix's events are taken in time order (stable: engine events, then
    /// check-in events, each followed by its Places signal) and session launches, terminations
    /// and strict expiries are interleaved with them by time.
    package mutating func process(_ buffer: [GeotriggerEvent], sample: Sample) {
        if osLayer != nil { return processWithProfile(buffer, sample: sample) }
        if watched != nil { return processWatched(buffer, sample: sample) }
        guard checkIns != nil else {
            // Without a pipeline (no check-ins, Places or rules) nothing reads the lines but the log.
            return log.appendEngineEvents(buffer, fixTime: sample.time, labels: labels, trace: trace, alone: !logsLevels)
        }
        let fix = CheckInFix(sample)
        checkInBuffer.removeAll(keepingCapacity: true)
        checkIns?.process(buffer, at: fix, into: &checkInBuffer)
        guard places != nil else {
            // Without Places nothing depends on time between fixes; the replayer's final sort
            // puts derived events after their engine event at the same instant.
            guard rules != nil else {
                for k in buffer.indices where buffer[k].notified { emit(EngineLogLine(buffer[k], labels: labels, trace: trace)) }
                for c in checkInBuffer { emit(Dispatched(log: TracePipeline.logEvent(c, trace))) }
                return
            }
            // Rules run in log order, so the fix's events are emitted in the order the final
            // sort gives them (time, then engine events before check-in events): the log is the
            // same bytes as without this sort.
            var lines: [LogEvent] = []
            for e in buffer where e.notified { lines.append(EngineLogLine(e, fences: fences, trace: trace).logEvent) }
            for c in checkInBuffer { lines.append(TracePipeline.logEvent(c, trace)) }
            let ordered = lines.enumerated().sorted { a, b in
                a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
            }
            for (_, line) in ordered { emit(Dispatched(log: line)) }
            return
        }
        processWithPlaces(buffer, fix: fix)
    }

    /// Ends the trace: strict expiry up to the last fix; sessions after the end are reported; the
    /// rules state is left for `--state`.
    mutating func finish() {
        finishLevels()
        if osLayer != nil { finishProfile() }
        if places != nil { finishPlaces() }
        if let rules { rules.setup.collector?.deposit(rules.state, trace: trace) }
    }

    /// The one function every pipeline event passes through, in the order the pipeline makes
    /// them: it logs the event, then, when the scenario has rules, evaluates them on the events
    /// dispatched with it and logs the `rule` lines of the consequences that fire right after it
    /// (see ``evaluateRules(on:)``).
    mutating func emit(_ event: Dispatched) {
        log.append(event.log)
        if rules != nil { evaluateRules(on: event) }
    }

    /// ``emit(_:)`` of a notified engine event: without rules nothing reads its line but the
    /// log, which renders it from the engine's event (no ``LogEvent`` is built).
    mutating func emit(_ line: consuming EngineLogLine) {
        guard rules != nil else { return log.append(consume line) }
        emit(Dispatched(log: line.logEvent))
    }

    /// The rules half of ``emit(_:)`` (SPEC §5): the events a log line stands for are
    /// - its geotrigger event (``GeotriggerRuleEvent``) for a notified engine event, a check-in or a
    ///   check-out;
    /// - its SDK events, in dispatch order: the Places region response then the Edge experience
    ///   event of a processed signal (Edge events recorded in history with their mask), the nearby
    ///   response of a lookup.
    ///
    /// Each is evaluated with the Places shared state as last published: the state published
    /// with this line when it has one (the SDKs publish before dispatching the region response,
    /// research §1.7), else the one published before. Places first publishes when the extension
    /// registers (the first launch, a background launch, or the first fix without sessions);
    /// before that rules read no Places state.
    mutating func evaluateRules(on event: Dispatched) {
        if rules?.placesSharedState == nil, let run = places, run.running {
            rules?.placesSharedState = run.state.sharedState()
        }
        if let published = event.placesSharedState { rules?.placesSharedState = published }
        let log = event.rulesView ?? event.log
        if GeotriggerRuleEvent.kinds.contains(log.type), let setup = rules?.setup {
            let fence = log.field("fence").flatMap { id -> Fence? in
                guard case .string(let s) = id, let k = setup.fenceIndex[s] else { return nil }
                return fences.fences[k]
            }
            let zone = log.field("zone").flatMap { id -> Zone? in
                guard case .string(let s) = id else { return nil }
                return setup.zones[s]
            }
            if let ruleEvent = GeotriggerRuleEvent.make(log, fence: fence, zone: zone),
                let lines = rules?.evaluate(ruleEvent, mask: GeotriggerRuleEvent.historyMask, trigger: event.log)
            {
                for line in lines { self.log.append(line) }
            }
        }
        for sdk in event.sdkEvents {
            let ruleEvent = RuleEvent(name: sdk.name, type: sdk.type, source: sdk.source, data: sdk.data, time: log.time)
            if let lines = rules?.evaluate(ruleEvent, mask: sdk.mask.isEmpty ? nil : sdk.mask, trigger: log) {
                for line in lines { self.log.append(line) }
            }
        }
    }

    /// The log line of a check-in, check-out or blocked check-in, with the provenance of the
    /// geotrigger event behind it (SPEC §3, §6.6).
    static func logEvent(_ c: CheckInEvent, _ trace: String) -> LogEvent {
        let t = c.trigger
        var fields: [(String, JSONValue)] = [("fence", .string(c.fenceID)), ("zone", .string(c.zoneID))]
        if let name = c.zoneName { fields.append(("zoneName", .string(name))) }
        if let data = c.customData { fields.append(("customData", data)) }
        fields.append(("trigger", .string(t.kind.rawValue)))
        fields.append(("fix", .int(Int64(c.fixIndex))))
        if t.fixTime != c.time { fields.append(("fixTime", .string(t.fixTime.description))) }
        if let d = t.distance { fields.append(("distance", .meters(d))) }
        fields.append(("accuracy", .meters(t.accuracy)))
        if c.interpolated { fields.append(("interpolated", .bool(true))) }
        if let direction = c.direction { fields.append(("direction", .string(direction.rawValue))) }
        if let t = c.checkInTime { fields.append(("checkInTime", .string(t.description))) }
        if let d = c.dwellSeconds { fields.append(("dwellSeconds", .double(d))) }
        if let m = c.dwellMinutes { fields.append(("dwellMinutes", .int(Int64(m)))) }
        if let w = c.willCheckOut { fields.append(("willCheckOut", .bool(w))) }
        if !c.crossedFences.isEmpty { fields.append(("crossedFences", .list(c.crossedFences.map { .string($0) }))) }
        if let reason = c.reason { fields.append(("reason", .string(reason.rawValue))) }
        if let detail = c.detail { fields.append(("message", .string(detail))) }
        let type: LogEvent.EventType
        switch c.kind {
        case .checkin: type = .checkin
        case .checkout: type = .checkout
        case .suppressed: type = .suppressed
        }
        return LogEvent(time: c.time, trace: trace, type: type, fields: fields, longitude: c.longitude, latitude: c.latitude)
    }
}
