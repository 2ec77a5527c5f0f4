import CheckIns
import Geotriggers
import Support

extension TracePipeline {
    /// ``process(_:sample:)`` with an operating-system profile: the engine's notified events are
    /// logged as the geometry view (the app does not hear them: no check-ins, Places or rules),
    /// the profile's layer decides and delivers on its own, and check-ins, Places and rules take
    /// what the app was delivered, at the delivery time.
    mutating func processWithProfile(_ buffer: [GeotriggerEvent], sample: Sample) {
        lastSample = sample
        for k in buffer.indices where buffer[k].notified { log.append(EngineLogLine(buffer[k], labels: labels, trace: trace)) }
        var outputs: [OSLayer.Output] = []
        osLayer?.process(buffer, sample: sample, into: &outputs)
        deliver(outputs, sample: sample)
    }

    /// Hands out what the layer still holds: deliveries after the last fix.
    mutating func finishProfile() {
        var outputs: [OSLayer.Output] = []
        osLayer?.finish(into: &outputs)
        guard let sample = lastSample else { return }
        deliver(outputs, sample: sample)
    }

    private mutating func deliver(_ outputs: [OSLayer.Output], sample: Sample) {
        var heard: [(line: Dispatched, event: GeotriggerEvent)] = []
        for output in outputs {
            switch output {
            case .log(let line):
                // What never reached the app: for the log only.
                log.append(line)
            case .delivered(let line, let event):
                heard.append((Dispatched(log: line, rulesView: TracePipeline.heardAs(line, event.kind)), event))
            }
        }
        guard checkIns != nil else {
            for h in heard { emit(h.line) }
            return
        }
        let fix = CheckInFix(sample)
        checkInBuffer.removeAll(keepingCapacity: true)
        checkIns?.process(heard.map(\.event), at: fix, into: &checkInBuffer)
        if places != nil { return processWithPlaces([], fix: fix, heard: heard) }
        // A delivery, then the check-in it makes, in time order.
        var lines: [(time: Timestamp, line: Dispatched)] = heard.map { ($0.line.log.time, $0.line) }
        for c in checkInBuffer { lines.append((c.time, Dispatched(log: TracePipeline.logEvent(c, trace)))) }
        let ordered = lines.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }
        for (_, entry) in ordered { emit(entry.line) }
    }

    /// A delivered line as the app's rules read it: the geotrigger event it delivers.
    static func heardAs(_ line: LogEvent, _ kind: GeotriggerEvent.Kind) -> LogEvent {
        var view = line
        switch kind {
        case .enter: view.type = .enter
        case .exit: view.type = .exit
        case .dwell: view.type = .dwell
        default: break
        }
        view.fields.removeAll { $0.0 == "trigger" }
        return view
    }
}
