import CheckIns
import Geotriggers
import Places
import Scenarios
import Support

/// One trace's Places: its state and where the trace is in the scenario's sessions.
struct PlacesRun {
    let setup: PlacesSetup
    var state: PlacesState
    /// The next session launch or termination to apply.
    var nextBoundary = 0
    /// Whether the app is running: inside a session, or always when no sessions are declared.
    var running = false
    /// Whether the trace's first fix has been seen.
    var started = false
    /// The fix being processed, and the latest fix before it (the positions of launches).
    var currentFix: CheckInFix?
    var previousFix: CheckInFix?
    /// Up to when sessions and strict expiry have been applied.
    var clock: Timestamp?

    init(setup: PlacesSetup, state: PlacesState) {
        self.setup = setup
        self.state = state
    }

    var configuration: PlacesConfiguration { setup.settings.configuration }
}

/// An entry or exit signal for Places, from a check-in event or a geotrigger event.
struct PlacesSignal {
    var time: Timestamp
    var type: PlacesRegionEventType
    var poi: POI
    /// The kind of event it came from (`checkin`, `checkout`, `enter`, `exit`, `passthrough`).
    var trigger: String
    var fix: Int
    var longitude: Double
    var latitude: Double
}

extension TracePipeline {
    /// One fix's pipeline events, to be taken in time order.
    private enum Item {
        case engine(GeotriggerEvent)
        /// A line the app heard from an operating-system profile.
        case heard(Dispatched)
        case checkIn(CheckInEvent)
        case signal(PlacesSignal)
    }

    /// The Places half of ``process(_:sample:)``.
    ///
    /// Sessions (fencesim's reading of research §1.5–§1.6): a launch makes the extension register,
    /// which publishes its state (lazy expiry takes effect there), then runs the nearby lookup
    /// when asked. Signals are processed whether or not a session is running: the operating
    /// system relaunches the app in the background for a region event, so a signal outside any
    /// session is a background launch — the extension registers (publishing, so lazy expiry
    /// applies) and then processes it; its log line says `background: true`. Without declared
    /// sessions the app is launched at the trace's first fix and runs throughout.
    ///
    /// - Parameter heard: with an operating-system profile, what the app was delivered at this
    ///   fix (its lines and events): they, not the engine's events in `buffer`, are the app's
    ///   geotrigger events (Places signals with `signals: geotrigger`); `nil` without a profile.
    /// - Parameter signalling: with several geotriggers, the events the distinct fences see
    ///   (``FenceMembership``): they, not `buffer`, make the geotrigger signals.
    mutating func processWithPlaces(
        _ buffer: [GeotriggerEvent], fix: CheckInFix, heard: [(line: Dispatched, event: GeotriggerEvent)]? = nil,
        signalling shared: [GeotriggerEvent]? = nil
    ) {
        guard let setup = places?.setup else { return }
        places?.currentFix = fix
        if places?.started == false {
            places?.started = true
            if setup.sessions.isEmpty {
                advancePlaces(to: fix.time)
                places?.running = true
                publishAtLaunch(at: fix.time)
            }
        }
        if !buffer.isEmpty || !checkInBuffer.isEmpty || !(heard?.isEmpty ?? true) {
            var items: [(time: Timestamp, item: Item)] = []
            if let heard {
                for h in heard { items.append((h.line.log.time, .heard(h.line))) }
            } else {
                for e in buffer where e.notified { items.append((e.time, .engine(e))) }
            }
            switch setup.settings.signals {
            case .checkins:
                for c in checkInBuffer {
                    items.append((c.time, .checkIn(c)))
                    guard let poi = setup.poiByFence[c.fence] else { continue }
                    let trigger = c.kind.rawValue
                    switch c.kind {
                    case .checkin:
                        items.append(
                            (
                                c.time,
                                .signal(
                                    PlacesSignal(
                                        time: c.time, type: .entry, poi: poi, trigger: trigger, fix: c.fixIndex, longitude: c.longitude,
                                        latitude: c.latitude))
                            ))
                    case .checkout:
                        items.append(
                            (
                                c.time,
                                .signal(
                                    PlacesSignal(
                                        time: c.time, type: .exit, poi: poi, trigger: trigger, fix: c.fixIndex, longitude: c.longitude,
                                        latitude: c.latitude))
                            ))
                    case .suppressed:
                        continue
                    }
                }
            case .geotrigger:
                for c in checkInBuffer { items.append((c.time, .checkIn(c))) }
                let signalling = heard.map { $0.map(\.event) } ?? shared ?? buffer
                for s in TracePipeline.geotriggerSignals(signalling, poiByFence: setup.poiByFence) { items.append((s.time, .signal(s))) }
            }
            let ordered = items.enumerated().sorted { a, b in
                a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
            }
            for (_, entry) in ordered {
                advancePlaces(to: entry.time)
                switch entry.item {
                case .engine(let e): emit(engineLine(e))
                case .heard(let line): emit(line)
                case .checkIn(let c): emit(Dispatched(log: TracePipeline.logEvent(c, trace)))
                case .signal(let s): handle(s)
                }
            }
        }
        advancePlaces(to: fix.time)
        if places?.previousFix.map({ fix.time >= $0.time }) ?? true { places?.previousFix = fix }
        places?.currentFix = nil
    }

    /// Entry and exit signals from the engine's notified events of POI fences (`signals:
    /// geotrigger`): an `enter` is an entry, an `exit` an exit, a `passthrough` an entry at its
    /// interpolated entry time and an exit at its exit time. In time order; at one instant exits
    /// come before entries, except the exit of a zero-length visit, which follows its own entry
    /// (as ``CheckIns/CheckInMachine`` orders its triggers).
    static func geotriggerSignals(_ events: [GeotriggerEvent], poiByFence: [POI?]) -> [PlacesSignal] {
        var list: [(signal: PlacesSignal, rank: Int)] = []
        for e in events where e.notified {
            guard poiByFence.indices.contains(e.fence), let poi = poiByFence[e.fence] else { continue }
            func signal(_ type: PlacesRegionEventType, _ time: Timestamp) -> PlacesSignal {
                PlacesSignal(
                    time: time, type: type, poi: poi, trigger: e.kind.rawValue, fix: e.fixIndex, longitude: e.longitude,
                    latitude: e.latitude)
            }
            switch e.kind {
            case .enter: list.append((signal(.entry, e.time), 1))
            case .exit: list.append((signal(.exit, e.time), 0))
            case .passthrough:
                let enter = e.enterTime ?? e.time
                let exit = max(e.exitTime ?? enter, enter)
                list.append((signal(.entry, enter), 1))
                list.append((signal(.exit, exit), exit == enter ? 2 : 0))
            case .cross, .dwell, .suppressed:
                continue
            }
        }
        return list.enumerated().sorted { a, b in
            if a.element.signal.time != b.element.signal.time { return a.element.signal.time < b.element.signal.time }
            if a.element.rank != b.element.rank { return a.element.rank < b.element.rank }
            return a.offset < b.offset
        }.map(\.element.signal)
    }

    /// Applies, in time order, every session launch and termination at or before `time`, and
    /// strict expiry due by then.
    mutating func advancePlaces(to time: Timestamp) {
        while let run = places, run.nextBoundary < run.setup.boundaries.count {
            let boundary = run.setup.boundaries[run.nextBoundary]
            guard boundary.time <= time else { break }
            places?.nextBoundary += 1
            expireStrictly(upTo: boundary.time)
            switch boundary.kind {
            case .launch:
                // The fix at or just before the launch: this fix when the launch is at its time,
                // else the previous one (launches up to it were applied with it).
                let position = run.currentFix.flatMap { $0.time <= boundary.time ? $0 : nil } ?? run.previousFix
                launch(session: boundary.session, at: boundary.time, position: position)
            case .terminate:
                places?.running = false
                emit(
                    Dispatched(log: LogEvent(time: boundary.time, trace: trace, type: .session, fields: [("action", .string("terminate"))]))
                )
            }
        }
        expireStrictly(upTo: time)
        if places?.clock.map({ time > $0 }) ?? true { places?.clock = time }
    }

    /// Strict expiry (`expiry: strict`): when membership expires at or before `time`, clears it
    /// at the instant it expired, publishes, and logs `places.expired` there.
    mutating func expireStrictly(upTo time: Timestamp) {
        guard let run = places, run.configuration.expiry == .strict, let instant = run.state.expiryInstant, instant <= time,
            let expiry = places?.state.applyExpiry(at: instant)
        else { return }
        let published = places?.state.publishSharedState(at: instant)
        logExpiry(expiry, sharedState: published?.sharedState)
    }

    /// A session launch: the extension registers and publishes its state (where lazy expiry
    /// takes effect, research §1.6), then runs the nearby lookup when the session asks for one,
    /// with the position of `position` (the fix at or just before the launch).
    mutating func launch(session k: Int, at time: Timestamp, position: CheckInFix?) {
        guard let setup = places?.setup else { return }
        let session = setup.sessions[k]
        places?.running = true
        var fields: [(String, JSONValue)] = [("action", .string("launch")), ("nearbyLookup", .bool(session.nearbyLookup))]
        if session.nearbyLookup, position == nil {
            let message = "no fix at or before the launch, so the nearby lookup is skipped"
            fields.append(("message", .string(message)))
            warnings.append(
                Diagnostic(.warning, "session launching at \(time): \(trace) has \(message)", at: session.location, kind: "session-no-fix"))
        }
        emit(Dispatched(log: LogEvent(time: time, trace: trace, type: .session, fields: fields)))
        publishAtLaunch(at: time)
        guard session.nearbyLookup, let p = position, let configuration = places?.configuration,
            let result = places?.state.nearbyLookup(
                at: time, latitude: p.latitude, longitude: p.longitude,
                count: configuration.nearbyLookupCount, in: setup.catalog),
            let state = places?.state
        else { return }
        if let expiry = result.expiry { logExpiry(expiry, sharedState: nil) }
        var lookup: [(String, JSONValue)] = [("fix", .int(Int64(p.index)))]
        lookup += TracePipeline.membershipFields(
            current: result.current, lastEntered: result.lastEntered,
            lastExited: result.lastExited, state: state)
        lookup.append(("nearby", .list(state.nearby.map { .string($0.id) })))
        if configuration.regionBudget != nil { lookup.append(("monitored", .list(state.monitoredIDs.map { .string($0) }))) }
        lookup.append(("entered", .list(state.enteredIDs.map { .string($0) })))
        lookup.append(("joined", .list(result.joined.map { .string($0) })))
        lookup.append(("left", .list(result.left.map { .string($0) })))
        emit(
            Dispatched(
                log: LogEvent(time: time, trace: trace, type: .placesLookup, fields: lookup, longitude: p.longitude, latitude: p.latitude),
                sdkEvents: result.events, placesSharedState: result.sharedState))
    }

    /// The extension registers (an app launch, in the foreground or in the background) and
    /// publishes its state: expired membership is cleared here in lazy mode.
    mutating func publishAtLaunch(at time: Timestamp) {
        guard let published = places?.state.publishSharedState(at: time), let expiry = published.expiry else { return }
        logExpiry(expiry, sharedState: published.sharedState)
    }

    /// Processes one signal and logs `places.entry`/`places.exit`, or `suppressed` when the
    /// region budget leaves the POI unmonitored.
    mutating func handle(_ s: PlacesSignal) {
        guard let running = places?.running else { return }
        if !running {
            // The operating system relaunches the app for the region event (research §1.6).
            publishAtLaunch(at: s.time)
        }
        guard let result = places?.state.processRegionEvent(s.type, poi: s.poi, at: s.time), let state = places?.state else { return }
        if let expiry = result.expiry { logExpiry(expiry, sharedState: nil) }
        var fields: [(String, JSONValue)] = [("trigger", .string(s.trigger)), ("fix", .int(Int64(s.fix))), ("poi", .string(s.poi.id))]
        if !running { fields.append(("background", .bool(true))) }
        switch result.disposition {
        case .processed:
            fields += TracePipeline.membershipFields(
                current: result.current, lastEntered: result.lastEntered,
                lastExited: result.lastExited, state: state)
            emit(
                Dispatched(
                    log: LogEvent(
                        time: s.time, trace: trace, type: s.type == .entry ? .placesEntry : .placesExit, fields: fields,
                        longitude: s.longitude, latitude: s.latitude),
                    sdkEvents: result.events, placesSharedState: result.sharedState))
        case .ignored(let reason):
            fields.append(("reason", .string(reason.rawValue)))
            let monitored = state.monitoredIDs.map { "\"\($0)\"" }.joined(separator: ", ")
            let message: String
            switch reason {
            case .notMonitored where state.lastLookup == nil:
                message =
                    "Places ignores the \(s.type.rawValue): with a region budget the operating system monitors the nearest POIs of the last nearby lookup, and no nearby lookup has run"
            case .notMonitored:
                message =
                    "Places ignores the \(s.type.rawValue): POI \"\(s.poi.id)\" is not among the \(state.configuration.regionBudget ?? 0) nearest POIs of the last nearby lookup, which the operating system monitors ([\(monitored)])"
            case .unknownRegion:
                message = "Places ignores the \(s.type.rawValue): POI \"\(s.poi.id)\" is not in its nearby list"
            }
            fields.append(("message", .string(message)))
            emit(
                Dispatched(
                    log: LogEvent(
                        time: s.time, trace: trace, type: .suppressed, fields: fields, longitude: s.longitude, latitude: s.latitude),
                    placesSharedState: result.sharedState))
        }
    }

    /// `current`, `lastEntered`, `lastExited` (null when none) and `validUntil` after a change.
    static func membershipFields(current: String?, lastEntered: String?, lastExited: String?, state: PlacesState) -> [(String, JSONValue)] {
        func id(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return [
            ("current", id(current)), ("lastEntered", id(lastEntered)), ("lastExited", id(lastExited)),
            ("validUntil", state.validUntil.map { .string($0.description) } ?? .null),
        ]
    }

    /// Logs `places.expired`: at `validUntil` in strict mode, when the SDK found it (a launch, a
    /// background launch, an Android rebuild) in lazy mode; with what was cleared.
    mutating func logExpiry(_ expiry: PlacesExpiry, sharedState: JSONValue?) {
        guard let run = places else { return }
        let strict = run.configuration.expiry == .strict
        let time = strict ? expiry.validUntil : expiry.appliedAt
        func id(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        let cleared: JSONValue = .orderedObject([
            ("current", id(expiry.current)), ("lastEntered", id(expiry.lastEntered)), ("lastExited", id(expiry.lastExited)),
        ])
        var message = "membership valid until \(expiry.validUntil) expired"
        if !strict { message += " (found at \(expiry.appliedAt), when the extension rebuilt its shared state)" }
        if run.configuration.lastPOIExpiry == .never {
            message +=
                expiry.current == nil
                ? "; there was no Current POI to clear (Last Entered and Last Exited never expire: lastPOIExpiry never)"
                : "; Current is cleared, Last Entered and Last Exited never expire (lastPOIExpiry never), the entered set is kept"
        } else if expiry.current == nil, expiry.lastEntered == nil, expiry.lastExited == nil {
            message += "; there was no Current, Last Entered or Last Exited POI to clear"
        } else {
            message += "; Current, Last Entered and Last Exited are cleared, the entered set is kept"
        }
        emit(
            Dispatched(
                log: LogEvent(
                    time: time, trace: trace, type: .placesExpired,
                    fields: [
                        ("validUntil", .string(expiry.validUntil.description)), ("cleared", cleared), ("message", .string(message)),
                    ]),
                placesSharedState: sharedState))
    }

    /// The end of the trace: strict expiry up to its last fix; sessions that start after it are
    /// reported, not simulated.
    mutating func finishPlaces() {
        guard let run = places else { return }
        if let last = run.clock { expireStrictly(upTo: last) }
        for boundary in run.setup.boundaries[run.nextBoundary...] where boundary.kind == .launch {
            let session = run.setup.sessions[boundary.session]
            let end = run.clock.map { "its last fix is at \($0)" } ?? "it has no fixes"
            warnings.append(
                Diagnostic(
                    .warning, "session launching at \(boundary.time) is after the end of \(trace) (\(end)); it is not simulated",
                    at: session.location, kind: "session-after-trace"))
        }
    }
}
