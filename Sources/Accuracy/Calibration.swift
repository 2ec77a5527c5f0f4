import EventPipeline
import Fences
import Foundation
import Scenarios
import Spatial
import Support
import Traces

/// Fits an ``OSProfile``'s free parameters to what phones recorded (issue 25, `fencesim
/// calibrate`): the delivery delay distribution, the share of exits lost, and the distances past
/// the boundary at which entries and exits were decided. Every other parameter keeps the base
/// profile's value.
///
/// - Delay: from events that say when the phone decided (`fixTime`, as fencesim's `delivered`
///   lines and a CSV's `fixTime` column do): `time − fixTime`. The minimum is the fitted
///   ``OSProfile/delayMinimumSeconds`` (the maximum-likelihood shift of an exponential) and the
///   mean beyond it ``OSProfile/delayMeanSeconds``; the residual is the Kolmogorov–Smirnov
///   distance between the samples and the fitted distribution.
/// - Exit loss: of the true visits that end (truth), whose fence the app was told it entered
///   between the visit's start and the fence's next true visit, the share whose window holds no
///   exit after that entry (events placed by when the phone decided them, when the log says, so
///   that a late delivery does not fall in the next window). An exit the phone never decided (the device came back before the
///   exit distance) counts as lost: the app cannot tell them apart.
/// - Distances: from events with the signed distance of their decision fix (`distance`, or a
///   position the fence's circle is measured from): the smallest distance inside for entries and
///   outside for exits (the rule is "at least"; decisions land at the first fix past it), with
///   the median excess over it as the residual.
public struct Calibration: Sendable {
    /// The base profile with the fitted parameters.
    public var profile: OSProfile
    /// What was fitted, by parameter key: sample size and residual.
    public var fits: [String: OSProfile.FitNote]
    /// Parameters that could not be fitted, with why.
    public var notFitted: [(key: String, why: String)]

    /// One notification the app received, as calibration reads it.
    struct Notification {
        var kind: LogEvent.EventType
        var fence: String
        var time: Timestamp
        var decided: Timestamp?
        var distance: Double?

        /// When the phone decided, else when the app heard it.
        var order: Timestamp { decided ?? time }
    }

    /// Fits `base`'s free parameters to the recorded `logs`, scored against the truth `setup`
    /// names (as `score` scores them).
    ///
    /// - Throws: ``Support/FencesimError`` when a truth cannot be read or matched.
    public static func fit(logs: [DeviceLog], base: OSProfile, setup: DeviceLog.ScoringSetup) throws(FencesimError) -> Calibration {
        let metric: MetricFrame
        do {
            metric = try MetricFrame(setup.frame)
        } catch {
            throw FencesimError(.badData, "the metric frame cannot be made: \(error)")
        }
        var circles: [String: (centre: XY, radius: Double)] = [:]
        for f in setup.fences.fences where circles[f.id] == nil {
            if case .circle(let r) = f.kind, case .point(let c) = f.shape {
                circles[f.id] = (metric.forward(c), max(r, base.minimumRadiusMeters))
            }
        }
        var delays: [Double] = []
        var entryDistances: [Double] = []
        var exitDistances: [Double] = []
        var endedVisits = 0
        var lostExits = 0
        for log in logs {
            // The truth of each trace, as score takes it.
            let evaluations = try log.evaluate(setup)
            for (trace, evaluation) in zip(log.traces, evaluations) {
                // A fencesim log with a profile holds the engine's events too (the geometry
                // view): the app heard only the deliveries.
                let delivers = trace.events.contains { [.delivered, .duplicate, .dropped].contains($0.type) }
                let notes = trace.events.compactMap { notification($0, delivers: delivers, circles: circles, metric: metric) }
                for n in notes {
                    if let decided = n.decided, n.kind != .dwell { delays.append(n.time.seconds(since: decided)) }
                    if let d = n.distance {
                        if n.kind == .enter { entryDistances.append(-d) }
                        if n.kind == .exit { exitDistances.append(d) }
                    }
                }
                // Exits, per fence: each ended true visit's window runs to the fence's next one.
                var byFence: [String: [TruthVisit]] = [:]
                for v in evaluation.truth { byFence[v.fenceID, default: []].append(v) }
                for (fence, visits) in byFence {
                    let sorted = visits.sorted { $0.enter < $1.enter }
                    let mine = notes.filter { $0.fence == fence }
                    for (k, v) in sorted.enumerated() where v.exit != nil {
                        let end = k + 1 < sorted.count ? sorted[k + 1].enter : Timestamp.latest
                        // By when the phone decided, when the log says: a late delivery does
                        // not move a decision past the next visit.
                        guard let entered = mine.first(where: { $0.kind == .enter && $0.order >= v.enter && $0.order < end }) else {
                            continue
                        }
                        endedVisits += 1
                        if !mine.contains(where: { $0.kind == .exit && $0.order >= entered.order && $0.order < end }) { lostExits += 1 }
                    }
                }
            }
        }
        var profile = base
        var fits: [String: OSProfile.FitNote] = [:]
        var notFitted: [(String, String)] = []
        if delays.isEmpty {
            notFitted.append(("delayMean", "no event says when the phone decided (fixTime)"))
        } else {
            let minimum = max(0, delays.min() ?? 0)
            let mean = max(0, delays.reduce(0, +) / Double(delays.count) - minimum)
            profile.delayMinimumSeconds = rounded(minimum, 3)
            profile.delayMeanSeconds = rounded(mean, 3)
            let ks = kolmogorovSmirnov(delays, minimum: minimum, mean: mean)
            fits["delayMinimum"] = OSProfile.FitNote(samples: delays.count, residual: "smallest delay")
            fits["delayMean"] = OSProfile.FitNote(
                samples: delays.count, residual: "Kolmogorov-Smirnov distance \(JSONWriter.number(rounded(ks, 3)))")
        }
        if endedVisits == 0 {
            notFitted.append(("exitLoss", "no true visit that ends was entered by the app"))
        } else {
            let share = Double(lostExits) / Double(endedVisits)
            let error = (share * (1 - share) / Double(endedVisits)).squareRoot()
            profile.exitLoss = rounded(share, 3)
            fits["exitLoss"] = OSProfile.FitNote(samples: endedVisits, residual: "standard error \(JSONWriter.number(rounded(error, 3)))")
        }
        for (key, samples, path) in [
            ("entryDistance", entryDistances, \OSProfile.entryDistanceMeters),
            ("exitDistance", exitDistances, \OSProfile.exitDistanceMeters),
        ] {
            guard let low = samples.min() else {
                notFitted.append((key, "no event gives the distance or position of its decision"))
                continue
            }
            let value = rounded(max(0, low), 3)
            profile[keyPath: path] = value
            let median = samples.sorted()[(samples.count - 1) / 2]
            fits[key] = OSProfile.FitNote(
                samples: samples.count, residual: "median excess \(JSONWriter.number(rounded(median - value, 1))) m")
        }
        return Calibration(profile: profile, fits: fits, notFitted: notFitted)
    }

    /// The notification `e` is for the app, with what it says about the decision: a plain
    /// `enter`/`exit`/`dwell` (when the log `delivers` nothing), or a fencesim `delivered` line
    /// (a duplicate is the same decision again and is not read).
    static func notification(_ e: LogEvent, delivers: Bool, circles: [String: (centre: XY, radius: Double)], metric: MetricFrame)
        -> Notification?
    {
        let kind: LogEvent.EventType
        switch e.type {
        case .enter, .exit, .dwell:
            guard !delivers else { return nil }
            kind = e.type
        case .delivered:
            switch Scoring.text(e.field("trigger")) {
            case "enter"?: kind = .enter
            case "exit"?: kind = .exit
            case "dwell"?: kind = .dwell
            default: return nil
            }
        default:
            return nil
        }
        guard let fence = Scoring.text(e.field("fence")) else { return nil }
        var n = Notification(kind: kind, fence: fence, time: e.time)
        n.decided = Scoring.text(e.field("fixTime")).flatMap(LabelledVisits.time)
        switch e.field("distance") {
        case .double(let d)?: n.distance = d
        case .int(let i)?: n.distance = Double(i)
        default:
            if let lon = e.longitude, let lat = e.latitude, let circle = circles[fence] {
                n.distance = metric.forward(XY(longitude: lon, latitude: lat)).distance(to: circle.centre) - circle.radius
            }
        }
        return n
    }

    /// The largest gap between the samples' distribution and the shifted exponential.
    static func kolmogorovSmirnov(_ samples: [Double], minimum: Double, mean: Double) -> Double {
        let sorted = samples.sorted()
        var worst = 0.0
        for (k, x) in sorted.enumerated() {
            let model = mean > 0 ? 1 - exp(-max(0, x - minimum) / mean) : (x >= minimum ? 1 : 0)
            worst = max(worst, abs(Double(k + 1) / Double(sorted.count) - model), abs(Double(k) / Double(sorted.count) - model))
        }
        return worst
    }

    static func rounded(_ v: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (v * scale).rounded() / scale
    }
}
