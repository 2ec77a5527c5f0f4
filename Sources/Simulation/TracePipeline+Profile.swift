import CheckIns
import Geotriggers

extension TracePipeline {
    /// ``process(_:sample:)`` with an operating-system profile: the engine's notified events are
    /// logged as the geometry view, the profile's layer decides and delivers on its own, and
    /// check-ins take what the app was delivered, at the delivery time.
    mutating func processWithProfile(_ buffer: [GeotriggerEvent], sample: Sample) {
        lastSample = sample
        for k in buffer.indices where buffer[k].notified { emit(EngineLogLine(buffer[k], labels: labels, trace: trace)) }
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
        var delivered: [GeotriggerEvent] = []
        for output in outputs {
            switch output {
            case .log(let line):
                emit(Dispatched(log: line))
            case .delivered(let line, let event):
                emit(Dispatched(log: line))
                delivered.append(event)
            }
        }
        guard checkIns != nil else { return }
        checkInBuffer.removeAll(keepingCapacity: true)
        checkIns?.process(delivered, at: CheckInFix(sample), into: &checkInBuffer)
        for c in checkInBuffer { emit(Dispatched(log: TracePipeline.logEvent(c, trace))) }
    }
}
