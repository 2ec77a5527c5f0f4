import Simulation
import Support

/// One timeline per trace: a lane per fence with its truth visits (grey, above) and its
/// detected visits (blue when matched, purple when false, below); missed truth visits are
/// outlined in orange.
enum TimelineFigure {
    static let width = 960.0
    static let labelWidth = 140.0
    static let laneHeight = 24.0
    /// Lanes drawn per trace, traces drawn.
    static let laneLimit = 16
    static let traceLimit = 12

    static func html(_ report: AccuracyReport) -> String {
        var out = ""
        let drawable = report.traces.filter { $0.score != nil }
        for t in drawable.prefix(traceLimit) {
            out += svg(t)
        }
        if drawable.count > traceLimit {
            out += "<p class=\"note\">Timelines of the first \(traceLimit) of \(drawable.count) traces; every trace is in the tables.</p>"
        }
        if drawable.isEmpty { out += "<p class=\"empty\">No trace could be evaluated.</p>" }
        return out
    }

    static func svg(_ t: AccuracyReport.TraceEntry) -> String {
        guard let score = t.score, let start = t.start else { return "" }
        let duration = max(score.durationSeconds, 1)
        var firstSeen: [String: Timestamp] = [:]
        for v in score.visits { firstSeen[v.truth.fenceID] = min(firstSeen[v.truth.fenceID] ?? v.truth.enter, v.truth.enter) }
        for d in score.detections { firstSeen[d.fenceID] = min(firstSeen[d.fenceID] ?? d.enter, d.enter) }
        let lanes = firstSeen.keys.sorted { a, b in
            let ta = firstSeen[a] ?? start, tb = firstSeen[b] ?? start
            return ta != tb ? ta < tb : a < b
        }
        let shown = Array(lanes.prefix(laneLimit))
        let height = 34 + Double(max(shown.count, 1)) * laneHeight + 24
        let plotWidth = width - labelWidth - 16
        func x(_ time: Timestamp?) -> Double {
            let s = time.map { $0.seconds(since: start) } ?? duration
            return labelWidth + min(max(s, 0), duration) / duration * plotWidth
        }
        var out = "<figure class=\"timeline\"><figcaption>\(SVG.escape(t.name))"
        if lanes.count > laneLimit { out += " <span class=\"note\">(first \(laneLimit) of \(lanes.count) fences)</span>" }
        out += "</figcaption><svg class=\"figure timeline-svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Timeline of \(SVG.escape(t.name))\">"
        // Time axis.
        // Ticks at whole seconds, minutes or hours.
        let unit = duration >= 7200 ? 3600.0 : duration >= 600 ? 60.0 : 1.0
        let step = SVG.niceStep(duration / unit / 8) * unit
        var tick = 0.0
        let axisY = height - 20
        out += "<g class=\"axis\"><line x1=\"\(SVG.n(labelWidth))\" y1=\"\(SVG.n(axisY))\" x2=\"\(SVG.n(labelWidth + plotWidth))\" y2=\"\(SVG.n(axisY))\"/>"
        while tick <= duration + 1e-9 {
            let px = labelWidth + tick / duration * plotWidth
            out += "<line class=\"grid\" x1=\"\(SVG.n(px))\" y1=\"24\" x2=\"\(SVG.n(px))\" y2=\"\(SVG.n(axisY))\"/>"
            out += "<text x=\"\(SVG.n(px))\" y=\"\(SVG.n(axisY + 14))\">\(ReportNumber.text(tick / unit, 0)) \(unit == 1 ? "s" : unit == 60 ? "min" : "h")</text>"
            tick += step
        }
        out += "</g>"
        out += "<text class=\"key\" x=\"\(SVG.n(labelWidth))\" y=\"14\">truth ▬ grey · detected ▬ blue · false ▬ purple · missed ▭ orange</text>"
        for (k, fence) in shown.enumerated() {
            let y = 28 + Double(k) * laneHeight
            out += "<text class=\"lane\" x=\"\(SVG.n(labelWidth - 8))\" y=\"\(SVG.n(y + 14))\">\(SVG.escape(fence))</text>"
            for v in score.visits where v.truth.fenceID == fence {
                let x0 = x(v.truth.enter), x1 = max(x(v.truth.exit), x0 + 1.5)
                let cls = v.detected ? "tl-truth" : "tl-missed"
                out += "<rect class=\"\(cls)\" x=\"\(SVG.n(x0))\" y=\"\(SVG.n(y + 3))\" width=\"\(SVG.n(x1 - x0))\" height=\"8\"><title>truth \(SVG.escape(fence)) \(v.truth.enter)\(v.truth.exit.map { " – \($0)" } ?? " – end")\(v.detected ? "" : " (missed: \(v.missReason?.rawValue ?? "undetected"))")</title></rect>"
            }
            let falseSet = Set(score.falseDetections.map { "\($0.visit.fenceID)|\($0.visit.enter)" })
            for d in score.detections where d.fenceID == fence {
                let x0 = x(d.enter), x1 = max(x(d.exit), x0 + 1.5)
                let isFalse = falseSet.contains("\(d.fenceID)|\(d.enter)")
                out += "<rect class=\"\(isFalse ? "tl-false" : "tl-detected")\" x=\"\(SVG.n(x0))\" y=\"\(SVG.n(y + 13))\" width=\"\(SVG.n(x1 - x0))\" height=\"8\"><title>\(isFalse ? "false detection" : "detected") \(SVG.escape(fence)) \(d.enter)\(d.exit.map { " – \($0)" } ?? " – open at end")</title></rect>"
            }
        }
        if shown.isEmpty {
            out += "<text class=\"note\" x=\"\(SVG.n(labelWidth))\" y=\"44\">no truth visits and no detections</text>"
        }
        return out + "</svg></figure>"
    }
}
