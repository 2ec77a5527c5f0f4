import Regression

/// A sweep as an aligned plain-text table for a terminal: one row per combination, the varied
/// values then the overall numbers, and the verdict on the target.
public enum SweepTable {
    /// The metric columns after the varied values.
    public static let metricColumns = ["recall", "precision", "f1", "enter p50", "exit p50", "falseExits/h", "visits", "missed"]

    /// The whole sweep as text, ending with a newline.
    public static func render(_ report: SweepReport) -> String {
        let r = report.result
        var out = "fencesim sweep: \(report.title)\n"
        let shape = r.axes.map { "\($0.parameter.rawValue) \($0.values.count)" }.joined(separator: " × ")
        out += "traces \(r.traceCount) · combinations \(r.rows.count) (\(shape)) · truth: \(report.truth)\n"
        if let d = report.degradation { out += "degraded feed: \(ReportHTML.describe(d)) (varied keys replace theirs)\n" }
        for axis in r.axes {
            let unit = axis.parameter.unit.isEmpty ? "" : " (\(axis.parameter.unit))"
            out += "vary \(axis.parameter.rawValue)\(unit): \(axis.values.map(\.description).joined(separator: ", "))\n"
        }
        if let target = r.target { out += "target: \(target)\n" }
        out += "numbers over all traces; latencies in seconds (p50, nearest rank)\n\n"
        out += ReportTable.table([header(r)] + r.rows.map { row($0, in: r) })
        if !r.failures.isEmpty {
            out += "\nfailed traces\n"
            for f in r.failures { out += "  \(f.fullDescription)\n" }
        }
        if let verdict = report.verdict { out += "\n\(verdict)\n" }
        return out
    }

    /// The column headings: `#`, each varied parameter, the metrics, then `failed` when a trace
    /// failed and `target` when there is one.
    public static func header(_ r: Sweep.Result) -> [String] {
        var h = ["#"] + r.axes.map(\.parameter.rawValue) + metricColumns
        if r.rows.contains(where: { $0.failedTraces > 0 }) { h.append("failed") }
        if r.target != nil { h.append("target") }
        return h
    }

    /// One combination's cells, in ``header(_:)`` order.
    public static func row(_ row: Sweep.Row, in r: Sweep.Result) -> [String] {
        let m = row.metrics
        var cells = [String(SweepReport.number(row))] + row.values.map(\.description)
        cells += [
            ReportNumber.ratio(m.recall), ReportNumber.ratio(m.precision), ReportNumber.ratio(m.f1),
            ReportNumber.seconds(m.enterLatency?.p50), ReportNumber.seconds(m.exitLatency?.p50), ReportNumber.rate(m.falseExitsPerHour),
            String(m.truthVisits), String(m.missed),
        ]
        if r.rows.contains(where: { $0.failedTraces > 0 }) { cells.append(String(row.failedTraces)) }
        if let meets = row.meetsTarget { cells.append(meets ? "yes" : "no") }
        return cells
    }
}
