import Regression

/// A sweep as a self-contained SVG file (no script, no external reference): recall, precision and
/// F1 in three panels against the first varied parameter (its values in the order given, evenly
/// spaced), one line per combination of the other parameters. With a target, points that meet it
/// are filled and the others hollow, the target's thresholds on these metrics are dashed lines,
/// and the smallest setting meeting it is ringed.
public enum SweepFigure {
    static let panelWidth = 300.0
    static let panelHeight = 220.0
    static let axisSpace = 44.0
    static let panelGap = 28.0
    static let margin = 16.0
    static let top = 96.0
    static let legendRowHeight = 18.0
    /// Series named in the legend at most (all are drawn).
    static let legendLimit = 30
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]
    static let dashes = ["", "6 3", "2 3", "8 3 2 3"]
    static let panels: [(metric: SweepMetric, title: String)] = [(.recall, "recall"), (.precision, "precision"), (.f1, "F1")]

    /// The plot as an SVG document, ending with a newline.
    public static func svg(_ report: SweepReport) -> String {
        let r = report.result
        guard let first = r.axes.first else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n" }
        let others = Array(r.axes.dropFirst())
        let seriesCount = others.reduce(1) { $0 * $1.values.count }
        let labels = Sweep.combinations(others).map { choice in
            zip(others, choice).map { "\($0.parameter.rawValue)=\($0.values[$1])" }.joined(separator: ", ")
        }
        let named = others.isEmpty ? 0 : min(seriesCount, legendLimit)
        let legendColumns = 3
        let legendRows = (named + legendColumns - 1) / legendColumns + (seriesCount > named && !others.isEmpty ? 1 : 0)
        let width = margin * 2 + Double(panels.count) * (axisSpace + panelWidth) + Double(panels.count - 1) * panelGap
        let legendTop = top + panelHeight + 52
        let height = legendTop + Double(legendRows) * legendRowHeight + margin

        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"sweep-plot\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\" aria-label=\"Sweep: recall, precision and F1 by \(SVG.escape(first.parameter.rawValue))\">\n"
        out +=
            "<style>text{font:12px sans-serif;fill:#222}.title{font-size:15px;font-weight:bold}.note{fill:#555}.grid{stroke:#ddd;stroke-width:1}.axis{stroke:#444;stroke-width:1}.ylabel{text-anchor:end}.xlabel,.panel-title,.axis-title{text-anchor:middle}.panel-title{font-weight:bold}.series{fill:none;stroke-width:1.6}.point{stroke-width:1.5}.misses{fill:#fff}.threshold{stroke:#444;stroke-dasharray:5 4;stroke-width:1}.chosen{fill:none;stroke:#000;stroke-width:1.5}</style>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
        out += "<text class=\"title\" x=\"\(SVG.n(margin))\" y=\"22\">fencesim sweep: \(SVG.escape(report.title))</text>\n"
        var subtitle =
            "recall, precision and F1 by \(first.parameter.rawValue)\(first.parameter.unit.isEmpty ? "" : " (\(first.parameter.unit))") over \(r.traceCount) trace\(r.traceCount == 1 ? "" : "s")"
        if let target = r.target { subtitle += "; filled points meet the target \(target), the smallest setting meeting it is ringed" }
        out += "<text class=\"note\" x=\"\(SVG.n(margin))\" y=\"42\">\(SVG.escape(subtitle))</text>\n"
        out +=
            "<text class=\"note\" id=\"verdict\" x=\"\(SVG.n(margin))\" y=\"60\">\(SVG.escape(report.verdict ?? "no target given"))</text>\n"

        let n = first.values.count
        for (p, panel) in panels.enumerated() {
            let x0 = margin + axisSpace + Double(p) * (axisSpace + panelWidth + panelGap)
            let bottom = top + panelHeight
            func x(_ k: Int) -> Double { x0 + (Double(k) + 0.5) * panelWidth / Double(n) }
            // Lines are set slightly apart so that equal values do not hide one another.
            let step = seriesCount > 1 ? min(4, panelWidth / Double(n) * 0.3 / Double(seriesCount - 1)) : 0
            func dodge(_ s: Int) -> Double { (Double(s) - Double(seriesCount - 1) / 2) * step }
            func y(_ v: Double) -> Double { bottom - min(1, max(0, v)) * panelHeight }
            out += "<g class=\"panel\" data-metric=\"\(panel.metric.rawValue)\">\n"
            out += "<text class=\"panel-title\" x=\"\(SVG.n(x0 + panelWidth / 2))\" y=\"\(SVG.n(top - 12))\">\(panel.title)</text>\n"
            for k in 0...4 {
                let v = Double(k) / 4
                out +=
                    "<line class=\"grid\" x1=\"\(SVG.n(x0))\" y1=\"\(SVG.n(y(v)))\" x2=\"\(SVG.n(x0 + panelWidth))\" y2=\"\(SVG.n(y(v)))\"/>"
                out += "<text class=\"ylabel\" x=\"\(SVG.n(x0 - 6))\" y=\"\(SVG.n(y(v) + 4))\">\(ReportNumber.text(v, 2))</text>\n"
            }
            out +=
                "<line class=\"axis\" x1=\"\(SVG.n(x0))\" y1=\"\(SVG.n(bottom))\" x2=\"\(SVG.n(x0 + panelWidth))\" y2=\"\(SVG.n(bottom))\"/>"
            out += "<line class=\"axis\" x1=\"\(SVG.n(x0))\" y1=\"\(SVG.n(top))\" x2=\"\(SVG.n(x0))\" y2=\"\(SVG.n(bottom))\"/>\n"
            for (k, value) in first.values.enumerated() {
                out += "<text class=\"xlabel\" x=\"\(SVG.n(x(k)))\" y=\"\(SVG.n(bottom + 16))\">\(SVG.escape(value.description))</text>"
            }
            out +=
                "\n<text class=\"axis-title\" x=\"\(SVG.n(x0 + panelWidth / 2))\" y=\"\(SVG.n(bottom + 36))\">\(SVG.escape(first.parameter.rawValue))\(first.parameter.unit.isEmpty ? "" : ", \(SVG.escape(first.parameter.unit))")</text>\n"
            for c in r.target?.conditions ?? [] where c.metric == panel.metric {
                out +=
                    "<line class=\"threshold\" x1=\"\(SVG.n(x0))\" y1=\"\(SVG.n(y(c.value)))\" x2=\"\(SVG.n(x0 + panelWidth))\" y2=\"\(SVG.n(y(c.value)))\"><title>\(SVG.escape(c.description))</title></line>"
                out +=
                    "<text class=\"note\" x=\"\(SVG.n(x0 + panelWidth - 4))\" y=\"\(SVG.n(y(c.value) + 14))\" text-anchor=\"end\">\(SVG.escape(c.comparison.rawValue + " " + ReportNumber.text(c.value, ReportNumber.ratioDigits)))</text>\n"
            }
            for s in 0..<seriesCount {
                let stroke = palette[s % palette.count]
                let dash = dashes[(s / palette.count) % dashes.count]
                let rows = (0..<n).map { r.rows[$0 * seriesCount + s] }
                // A combination without the metric (no visit, no detection) breaks the line.
                var segments: [[String]] = [[]]
                for (k, row) in rows.enumerated() {
                    if let v = panel.metric.value(in: row.metrics) {
                        segments[segments.count - 1].append("\(SVG.n(x(k) + dodge(s))),\(SVG.n(y(v)))")
                    } else if !(segments.last?.isEmpty ?? true) {
                        segments.append([])
                    }
                }
                for segment in segments where segment.count > 1 {
                    out +=
                        "<polyline class=\"series\" stroke=\"\(stroke)\"\(dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"") points=\"\(segment.joined(separator: " "))\"/>\n"
                }
                for (k, row) in rows.enumerated() {
                    guard let v = panel.metric.value(in: row.metrics) else { continue }
                    let kind = row.meetsTarget == false ? "misses" : "meets"
                    let fill = kind == "meets" ? " fill=\"\(stroke)\"" : ""
                    out +=
                        "<circle class=\"point \(kind)\" data-row=\"\(SweepReport.number(row))\" data-value=\"\(ReportNumber.ratio(v))\" cx=\"\(SVG.n(x(k) + dodge(s)))\" cy=\"\(SVG.n(y(v)))\" r=\"3.5\" stroke=\"\(stroke)\"\(fill)>"
                    out +=
                        "<title>#\(SweepReport.number(row)) \(SVG.escape(r.setting(row))): \(panel.title) \(ReportNumber.ratio(v))\(row.meetsTarget.map { $0 ? ", meets the target" : ", misses the target" } ?? "")</title></circle>\n"
                    if row.index == r.chosen?.index {
                        out +=
                            "<circle class=\"chosen\" data-row=\"\(SweepReport.number(row))\" cx=\"\(SVG.n(x(k) + dodge(s)))\" cy=\"\(SVG.n(y(v)))\" r=\"7.5\"/>\n"
                    }
                }
            }
            out += "</g>\n"
        }

        if !others.isEmpty {
            out += "<g class=\"legend\">\n"
            let columnWidth = (width - 2 * margin) / Double(legendColumns)
            for s in 0..<named {
                let lx = margin + Double(s % legendColumns) * columnWidth
                let ly = legendTop + Double(s / legendColumns) * legendRowHeight
                let stroke = palette[s % palette.count]
                let dash = dashes[(s / palette.count) % dashes.count]
                out +=
                    "<line class=\"series\" stroke=\"\(stroke)\"\(dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"") x1=\"\(SVG.n(lx))\" y1=\"\(SVG.n(ly - 4))\" x2=\"\(SVG.n(lx + 24))\" y2=\"\(SVG.n(ly - 4))\"/>"
                out += "<text x=\"\(SVG.n(lx + 30))\" y=\"\(SVG.n(ly))\">\(SVG.escape(labels[s]))</text>\n"
            }
            if seriesCount > named {
                let ly = legendTop + Double((named + legendColumns - 1) / legendColumns) * legendRowHeight
                out +=
                    "<text class=\"note\" x=\"\(SVG.n(margin))\" y=\"\(SVG.n(ly))\">and \(seriesCount - named) more lines (see the table or the JSON)</text>\n"
            }
            out += "</g>\n"
        }
        return out + "</svg>\n"
    }
}
