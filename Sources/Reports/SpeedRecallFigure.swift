/// Recall by speed band (speed at the true entry): one bar per band, with detected/visits and
/// the misses that fell in a gap.
enum SpeedRecallFigure {
    static let width = 320.0
    static let height = 300.0
    static let left = 44.0
    static let bottom = 40.0

    static func svg(_ report: AccuracyReport) -> String {
        let groups = report.summary.bySpeedBand
        let plotW = width - left - 12
        let plotH = height - bottom - 30
        let slot = plotW / Double(max(groups.count, 1))
        var out =
            "<svg id=\"recall-by-speed\" class=\"figure plot\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Recall by speed band\">"
        for k in 0...4 {
            let v = Double(k) / 4
            let py = 30 + plotH - v * plotH
            out += "<line class=\"grid\" x1=\"\(SVG.n(left))\" y1=\"\(SVG.n(py))\" x2=\"\(SVG.n(left + plotW))\" y2=\"\(SVG.n(py))\"/>"
            out += "<text class=\"ylabel\" x=\"\(SVG.n(left - 6))\" y=\"\(SVG.n(py + 4))\">\(ReportNumber.text(v, 2))</text>"
        }
        for (k, g) in groups.enumerated() {
            let m = g.metrics
            let cx = left + (Double(k) + 0.5) * slot
            let w = slot * 0.6
            if let recall = m.recall {
                let h = recall * plotH
                out +=
                    "<rect class=\"bar-recall\" data-band=\"\(SVG.escape(g.key))\" data-recall=\"\(ReportNumber.ratio(recall))\" data-missed=\"\(m.missed)\" x=\"\(SVG.n(cx - w / 2))\" y=\"\(SVG.n(30 + plotH - h))\" width=\"\(SVG.n(w))\" height=\"\(SVG.n(max(h, 0.5)))\"><title>\(SVG.escape(g.key)) m/s: recall \(ReportNumber.ratio(recall)), \(m.detected) of \(m.truthVisits) detected, \(m.missed) missed (\(m.missedInGap) in a gap)</title></rect>"
                if m.missed > 0 {
                    let mh = Double(m.missed) / Double(m.truthVisits) * plotH
                    out +=
                        "<rect class=\"bar-missed\" x=\"\(SVG.n(cx - w / 2))\" y=\"\(SVG.n(30 + plotH - h - mh))\" width=\"\(SVG.n(w))\" height=\"\(SVG.n(mh))\"><title>\(m.missed) missed</title></rect>"
                }
                out +=
                    "<text class=\"barlabel\" x=\"\(SVG.n(cx))\" y=\"\(SVG.n(30 + plotH - max(h, plotH * (m.missed > 0 ? 1 : 0)) - 4))\">\(m.detected)/\(m.truthVisits)</text>"
            } else {
                out += "<text class=\"note\" x=\"\(SVG.n(cx))\" y=\"\(SVG.n(30 + plotH - 6))\" text-anchor=\"middle\">none</text>"
            }
            out += "<text class=\"xlabel\" x=\"\(SVG.n(cx))\" y=\"\(SVG.n(30 + plotH + 16))\">\(SVG.escape(g.key))</text>"
        }
        out +=
            "<line class=\"axis-line\" x1=\"\(SVG.n(left))\" y1=\"\(SVG.n(30 + plotH))\" x2=\"\(SVG.n(left + plotW))\" y2=\"\(SVG.n(30 + plotH))\"/>"
        out += "<text class=\"axis-title\" x=\"\(SVG.n(left + plotW / 2))\" y=\"\(SVG.n(height - 6))\">speed at the true entry, m/s</text>"
        out +=
            "<g class=\"plot-legend\"><rect class=\"bar-recall\" x=\"\(SVG.n(left))\" y=\"8\" width=\"12\" height=\"10\"/><text x=\"\(SVG.n(left + 16))\" y=\"17\">recall</text>"
        out +=
            "<rect class=\"bar-missed\" x=\"\(SVG.n(left + 70))\" y=\"8\" width=\"12\" height=\"10\"/><text x=\"\(SVG.n(left + 86))\" y=\"17\">missed share</text></g>"
        return out + "</svg>"
    }
}
