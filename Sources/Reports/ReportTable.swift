import Accuracy

/// The report as aligned plain-text tables for a terminal: the batch, the overall numbers, then
/// the groups by speed band, zone, fence and trace, and the failures.
public enum ReportTable {
    /// The column headings of every group table.
    public static let columns = [
        "group", "visits", "detected", "missed", "false", "flaps", "falseExits", "recall", "precision", "f1",
        "enter p50", "p90", "p99", "exit p50", "p90", "p99", "falseExits/h",
    ]

    /// The whole report as text, ending with a newline.
    public static func render(_ report: AccuracyReport) -> String {
        let s = report.summary
        let failed = report.traces.filter(\.failed).count
        var out = "fencesim accuracy report: \(report.title)\n"
        out += "traces \(report.traces.count)\(failed > 0 ? " (\(failed) failed)" : "") · truth visits \(s.overall.truthVisits)"
        out += " · hours \(ReportNumber.rate(s.hours)) · truth: \(report.truth)\n"
        if let d = report.degradation { out += "degraded feed: \(ReportHTML.describe(d))\n" }
        out += "latencies in seconds (p50/p90/p99, nearest rank)\n\n"
        out += section("overall", [row("all", s.overall)])
        out += section("by speed band (m/s at the true entry)", s.bySpeedBand.map { row($0.key, $0.metrics) })
        out += section("by zone", s.byZone.map { row($0.key, $0.metrics) })
        out += section("by fence", s.byFence.map { row($0.key, $0.metrics) })
        out += section("by trace", s.byTrace.map { row($0.key, $0.metrics) })
        let failures = report.traces.filter(\.failed)
        if !failures.isEmpty {
            out += "failed traces\n"
            for t in failures { out += "  \(t.error ?? t.name)\n" }
        }
        return out
    }

    /// One group's cells, in ``columns`` order.
    public static func row(_ key: String, _ m: AccuracyMetrics) -> [String] {
        let e = m.enterLatency
        let x = m.exitLatency
        return [
            key, String(m.truthVisits), String(m.detected), String(m.missed), m.falseDetections.map(String.init) ?? "-", String(m.flaps),
            String(m.falseExits), ReportNumber.ratio(m.recall), ReportNumber.ratio(m.precision), ReportNumber.ratio(m.f1),
            ReportNumber.seconds(e?.p50), ReportNumber.seconds(e?.p90), ReportNumber.seconds(e?.p99),
            ReportNumber.seconds(x?.p50), ReportNumber.seconds(x?.p90), ReportNumber.seconds(x?.p99),
            ReportNumber.rate(m.falseExitsPerHour),
        ]
    }

    static func section(_ title: String, _ rows: [[String]]) -> String {
        guard !rows.isEmpty else { return "" }
        return title + "\n" + table([columns] + rows) + "\n"
    }

    /// Rows aligned in columns: the first column left-aligned, the others right-aligned.
    static func table(_ rows: [[String]]) -> String {
        var widths = Array(repeating: 0, count: rows.map(\.count).max() ?? 0)
        for r in rows {
            for (k, c) in r.enumerated() { widths[k] = max(widths[k], c.count) }
        }
        var out = ""
        for r in rows {
            var line = " "
            for (k, c) in r.enumerated() {
                let pad = String(repeating: " ", count: widths[k] - c.count)
                line += " " + (k == 0 ? c + pad : pad + c)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
