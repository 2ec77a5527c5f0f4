import Accuracy
import Traces

/// The report as one self-contained HTML file (SPEC §6.3): an inline SVG map that pans and
/// zooms, zoomable timelines, latency histogram and recall-by-speed plot, sortable tables, one
/// inline script and inline styles. It loads nothing: a Content-Security-Policy of
/// `default-src 'none'` forbids every request and allows the one script by its hash, and no
/// element names a URL. With a basemap, images from the basemap's host only are allowed.
///
/// The page is a pure function of the report model and the options: the same report renders
/// to the same bytes.
public enum ReportHTML {
    /// Rows of the visits table beyond which the rest are left to the JSON.
    public static let visitRowLimit = 2000

    /// The whole page.
    ///
    /// - Parameters:
    ///   - basemap: a tile URL template with `{z}`, `{x}`, `{y}` (and optionally `{s}`), e.g.
    ///     `https://tile.openstreetmap.org/{z}/{x}/{y}.png`, drawn under the map; `nil` (the
    ///     default) keeps the page self-contained.
    /// The start of a page, through `</head>` and its newline: one for the report and the
    /// replay view.
    static func head(title: String, generator: String, policy: String, style: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(policy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="\(SVG.escape(generator))">
        <title>\(SVG.escape(title))</title>
        <style>\(style)</style>
        </head>

        """
    }

    public static func render(_ report: AccuracyReport, basemap: String? = nil) -> String {
        let s = report.summary
        let o = s.overall
        let failed = report.traces.filter(\.failed)
        var out = ReportHTML.head(
            title: "\(report.title) · fencesim accuracy report", generator: report.generator,
            policy: PageScript.policy(script: PageScript.reportPage, basemap: basemap), style: style)
        out += """
            <body>
            <header><h1>\(SVG.escape(report.title))</h1>
            <p class="sub">Accuracy report by \(SVG.escape(report.generator)) · fences \(SVG.escape(report.fencesFile)) · truth: \(SVG.escape(report.truth))\(report.degradation.map { " · degraded feed: " + SVG.escape(describe($0)) } ?? " · feed not degraded")</p></header>
            <main>
            <section class="cards" id="summary">
            """
        out += card("recall", ReportNumber.ratio(o.recall), "\(o.detected) of \(o.truthVisits) truth visits")
        out += card("precision", ReportNumber.ratio(o.precision), "\(o.falseDetections ?? 0) false detections")
        out += card("F1", ReportNumber.ratio(o.f1), "")
        out += card(
            "enter latency p50", ReportNumber.seconds(o.enterLatency?.p50) + " s",
            "p90 \(ReportNumber.seconds(o.enterLatency?.p90)) s · p99 \(ReportNumber.seconds(o.enterLatency?.p99)) s")
        out += card(
            "exit latency p50", ReportNumber.seconds(o.exitLatency?.p50) + " s",
            "p90 \(ReportNumber.seconds(o.exitLatency?.p90)) s · p99 \(ReportNumber.seconds(o.exitLatency?.p99)) s")
        out += card("missed visits", String(o.missed), missedDetail(report), alert: o.missed > 0)
        let lostNotifications = report.traces.reduce(0) { $0 + ($1.score?.lostExits ?? 0) }
        out += card(
            "exits lost", String(o.exitsMissed), "detection never closed · \(lostNotifications) exit notifications lost (OS)",
            alert: o.exitsMissed > 0)
        out += card("flaps", String(o.flaps), "extra enter/exit pairs inside truth visits", alert: o.flaps > 0)
        out += card("false exits / h", ReportNumber.rate(o.falseExitsPerHour), "\(o.falseExits) false exits")
        out += card(
            "traces", String(report.traces.count),
            failed.isEmpty ? "\(ReportNumber.rate(s.hours)) h of true path" : "\(failed.count) failed")
        out += "</section>\n"
        if !failed.isEmpty {
            out += "<section id=\"failures\" class=\"failures\"><h2>Traces that failed</h2><ul>"
            for t in failed { out += "<li><code>\(SVG.escape(t.error ?? t.name))</code></li>" }
            out += "</ul></section>\n"
        }
        out +=
            "<section id=\"map-section\"><h2>Map</h2><p class=\"note\">Opens on the fences and visits; drag to pan, wheel or +/− to zoom, "
            + "click a fence, a table row or a timeline bar to zoom to that fence and highlight its events, Esc to clear.</p>"
        if let basemap, let host = MapFigure.host(basemap) {
            out +=
                "<p class=\"note basemap-note\">Basemap: this page loads map tiles from \(SVG.escape(host)) (given with --basemap); nothing else is loaded.</p>"
        } else {
            out += "<p class=\"note\">No basemap: the page loads nothing; a graticule (degrees) and a scale bar give orientation.</p>"
        }
        if report.fencesOmitted > 0 { out += "<p class=\"note\">\(report.fencesOmitted) fences far from the tracks are not drawn.</p>" }
        out += MapFigure.svg(report, basemap: basemap.flatMap { MapFigure.host($0) == nil ? nil : $0 }) + "</section>\n"
        out += "<section class=\"plots\"><div><h2>Recall by speed</h2>\(SpeedRecallFigure.svg(report))</div>"
        out += "<div><h2>Latency</h2>\(LatencyHistogram.svg(report))</div></section>\n"
        out += "<section><h2>Timelines</h2>\(TimelineFigure.html(report))</section>\n"
        out += "<section><h2>Overall</h2>" + groupTable("table-overall", [("all", o)]) + "</section>\n"
        out +=
            "<section><h2>By speed band</h2><p class=\"note\">Speed of the true path at the entry, m/s. False detections have no true entry, so bands have no precision.</p>"
            + groupTable("table-speed", s.bySpeedBand.map { ($0.key, $0.metrics) }) + "</section>\n"
        if !report.checkIns.zones.isEmpty {
            out += "<section id=\"checkins\"><h2>Check-ins by zone</h2>" + checkInTable(report) + "</section>\n"
        }
        if report.traces.contains(where: { !$0.places.isEmpty }) {
            out += "<section id=\"places\"><h2>Places</h2>" + TimelineFigure.places(report) + "</section>\n"
        }
        out += "<section><h2>By zone</h2>" + groupTable("table-zone", s.byZone.map { ($0.key, $0.metrics) }) + "</section>\n"
        out +=
            "<section><h2>By fence</h2>" + groupTable("table-fence", s.byFence.map { ($0.key, $0.metrics) }, fenceRows: true)
            + "</section>\n"
        out += "<section><h2>By trace</h2>" + groupTable("table-trace", s.byTrace.map { ($0.key, $0.metrics) }) + "</section>\n"
        out += "<section><h2>Truth visits</h2>" + visitTable(report) + "</section>\n"
        out += "<section><h2>False detections</h2>" + falseTable(report) + "</section>\n"
        out += """
            </main>
            <footer>Latency = detected − true time; percentiles by nearest rank. Precision counts matched detections against false ones; flaps are counted apart. Click a column heading to sort.</footer>
            <script>\(PageScript.reportPage)</script>
            </body>
            </html>

            """
        return out
    }

    /// The degradation in words, e.g. `resample 10 s, noise 1×accuracy, seed 42`.
    public static func describe(_ d: Degradation) -> String {
        var parts: [String] = []
        if let r = d.resampleSeconds { parts.append("resample \(ReportNumber.text(r, r == r.rounded() ? 0 : 2)) s") }
        if d.noise > 0 { parts.append("noise \(ReportNumber.text(d.noise, 2))×accuracy") }
        if d.dropout > 0 {
            parts.append(
                "dropout \(ReportNumber.text(d.dropout * 100, 1)) %"
                    + (d.dropoutBurst > 1 ? " (bursts of \(ReportNumber.text(d.dropoutBurst, 1)))" : ""))
        }
        if d.spikes > 0 { parts.append("spikes \(ReportNumber.text(d.spikes * 100, 1)) % of \(ReportNumber.text(d.spikeMeters, 0)) m") }
        if d.jitterSeconds > 0 { parts.append("jitter \(ReportNumber.text(d.jitterSeconds, 2)) s") }
        if d.exitLoss > 0 { parts.append("exit loss \(ReportNumber.text(d.exitLoss * 100, 1)) %") }
        if d.entryLoss > 0 { parts.append("entry loss \(ReportNumber.text(d.entryLoss * 100, 1)) %") }
        parts.append("seed \(d.seed)")
        return parts.joined(separator: ", ")
    }

    /// Why truth visits were missed, in words: `gap 2 · undetected 1 · lost notification 0`.
    static func missedDetail(_ report: AccuracyReport) -> String {
        var gap = 0, undetected = 0, lost = 0
        for v in report.visits where !v.detected {
            switch v.missReason {
            case .gap: gap += 1
            case .entryLoss: lost += 1
            case .undetected, nil: undetected += 1
            }
        }
        return "gap \(gap) · undetected \(undetected) · lost notification \(lost)"
    }

    /// A miss reason in the words of the cards.
    static func words(_ reason: VisitScore.MissReason?) -> String {
        switch reason {
        case .gap: "gap (fence between fixes)"
        case .entryLoss: "lost notification (OS)"
        case .undetected: "undetected"
        case nil: ""
        }
    }

    static func card(_ title: String, _ value: String, _ detail: String, alert: Bool = false) -> String {
        "<div class=\"card\(alert ? " alert" : "")\"><div class=\"k\">\(SVG.escape(title))</div><div class=\"v\">\(SVG.escape(value))</div><div class=\"d\">\(SVG.escape(detail))</div></div>"
    }

    /// A sortable table; each cell is `(text, sort key)`, a numeric key sorting numerically.
    /// A row whose `fence` is given focuses that fence on the map when clicked.
    static func table(_ id: String, _ headers: [String], _ rows: [[(String, String?)]], fences: [String]? = nil) -> String {
        var out = "<div class=\"scroll\"><table class=\"sortable\" id=\"\(id)\"><thead><tr>"
        for h in headers { out += "<th>\(SVG.escape(h))</th>" }
        out += "</tr></thead><tbody>"
        for (k, r) in rows.enumerated() {
            if let fences, k < fences.count { out += "<tr data-fence=\"\(SVG.escape(fences[k]))\">" } else { out += "<tr>" }
            for (text, key) in r {
                out += key.map { "<td data-v=\"\(SVG.escape($0))\">" } ?? "<td>"
                out += SVG.escape(text) + "</td>"
            }
            out += "</tr>"
        }
        return out + "</tbody></table></div>"
    }

    static func groupTable(_ id: String, _ groups: [(String, AccuracyMetrics)], fenceRows: Bool = false) -> String {
        let rows = groups.map { key, m in
            ReportTable.row(key, m).enumerated().map { k, text -> (String, String?) in
                k == 0 ? (text, nil) : (text, text == "-" ? "" : text)
            }
        }
        return table(id, ReportTable.columns, rows, fences: fenceRows ? groups.map(\.0) : nil)
    }

    /// Check-ins and check-outs per zone against the truth stays in the zone's fences.
    static func checkInTable(_ report: AccuracyReport) -> String {
        let headers = [
            "zone", "truth stays", "check-ins", "check-outs", "matched", "missed stays", "check-ins without a stay",
            "check-in lat. p50", "p90", "dwell err. p50", "p90",
        ]
        let rows = report.checkIns.zones.map { z -> [(String, String?)] in
            let latency = AccuracyMetrics.Percentiles(z.checkInLatencies)
            let dwell = AccuracyMetrics.Percentiles(z.dwellErrors)
            let cells: [String] = [
                String(z.stays), String(z.checkIns), String(z.checkOuts), String(z.matched), String(z.stays - z.matched),
                String(z.unmatched), ReportNumber.seconds(latency?.p50), ReportNumber.seconds(latency?.p90),
                ReportNumber.seconds(dwell?.p50), ReportNumber.seconds(dwell?.p90),
            ]
            return [(z.zone, nil)] + cells.map { ($0, $0 == "-" ? "" : $0) }
        }
        return
            "<p class=\"note\">A stay is the time inside any fence of the zone by the truth; it is matched by the first check-in whose check-in to check-out overlaps it. Latency = check-in − stay start; dwell error = checked-in duration − stay duration, seconds.</p>"
            + table("table-checkins", headers, rows)
    }

    static func visitTable(_ report: AccuracyReport) -> String {
        guard !report.visits.isEmpty else { return "<p class=\"empty\">No truth visits.</p>" }
        let headers = [
            "trace", "fence", "zone", "true enter", "true exit", "speed", "band", "detected", "enter lat.", "exit lat.",
            "dwell err.", "flaps", "false exits", "miss reason",
        ]
        let rows = report.visits.prefix(visitRowLimit).map { v -> [(String, String?)] in
            [
                (v.trace, nil), (v.truth.fenceID, nil), (v.zone, nil), (v.truth.enter.description, nil),
                (v.truth.exit?.description ?? "open at end", nil),
                (ReportNumber.seconds(v.truth.enterSpeed), ReportNumber.seconds(v.truth.enterSpeed)),
                (v.speedBand, nil), (v.detected ? "yes" : (v.exitMissed ? "yes" : "no"), nil),
                (ReportNumber.seconds(v.enterLatency), ReportNumber.seconds(v.enterLatency)),
                (v.exitMissed ? "never" : ReportNumber.seconds(v.exitLatency), ReportNumber.seconds(v.exitLatency)),
                (ReportNumber.seconds(v.dwellError), ReportNumber.seconds(v.dwellError)), (String(v.flaps), String(v.flaps)),
                (String(v.falseExits), String(v.falseExits)), (words(v.missReason), nil),
            ]
        }
        var out = table("table-visits", headers, rows, fences: report.visits.prefix(visitRowLimit).map(\.truth.fenceID))
        if report.visits.count > visitRowLimit {
            out +=
                "<p class=\"note\">The first \(visitRowLimit) of \(report.visits.count) truth visits; the JSON report has all of them.</p>"
        }
        return out
    }

    static func falseTable(_ report: AccuracyReport) -> String {
        guard !report.falseDetections.isEmpty else { return "<p class=\"empty\">No false detections.</p>" }
        let rows = report.falseDetections.prefix(visitRowLimit).map { d -> [(String, String?)] in
            [
                (d.trace, nil), (d.visit.fenceID, nil), (d.zone, nil), (d.visit.enter.description, nil),
                (d.visit.exit?.description ?? "open at end", nil),
            ]
        }
        return table(
            "table-false", ["trace", "fence", "zone", "detected enter", "detected exit"], rows,
            fences: report.falseDetections.prefix(visitRowLimit).map(\.visit.fenceID))
    }

    static let style = """
        :root{--ink:#0f172a;--muted:#64748b;--line:#e2e8f0;--blue:#2563eb;--green:#16a34a;--red:#dc2626;--orange:#ea580c;--purple:#7c3aed}
        *{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:#f1f5f9}
        header{background:#0f172a;color:#f8fafc;padding:18px 28px}header h1{margin:0;font-size:22px}header .sub{margin:4px 0 0;color:#cbd5e1;font-size:13px}
        main{max-width:1400px;margin:0 auto;padding:16px 20px 8px}section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:14px 16px;margin:14px 0}
        h2{font-size:16px;margin:0 0 10px}.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(130px,1fr));gap:10px;background:none;border:0;padding:0}
        .card{background:#fff;border:1px solid var(--line);border-radius:10px;padding:10px 12px}.card .k{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
        .card .v{font-size:24px;font-weight:650;font-variant-numeric:tabular-nums}.card .d{color:var(--muted);font-size:12px}
        .plots{display:grid;grid-template-columns:1fr 2fr;gap:16px}.plots>div{min-width:0}
        svg.figure{width:100%;height:auto;display:block}.note,.empty{color:var(--muted);font-size:12px}
        .failures{border-color:#fecaca;background:#fef2f2}.failures code{white-space:pre-wrap;font-size:12px}
        .card.alert{border-color:#fdba74;background:#fff7ed}
        .fence{fill:#3b82f6;fill-opacity:.16;stroke:#2563eb;stroke-width:1.2}.line-fence{fill:none;stroke:var(--purple);stroke-width:2.5;stroke-dasharray:6 3}
        .fence-label{font-size:calc(10px*var(--u));fill:#1e3a8a;text-anchor:middle;paint-order:stroke;stroke:#f8fafc;stroke-width:calc(3px*var(--u));pointer-events:none}.fence-label.hidden{display:none}
        .mapbox{position:relative}.mapctl{position:absolute;right:10px;top:10px;display:flex;flex-direction:column;gap:4px;z-index:2}
        .mapctl button{min-width:36px;height:28px;border:1px solid #cbd5e1;background:#fff;border-radius:6px;font:600 13px system-ui,sans-serif;cursor:pointer;color:var(--ink)}
        .mapctl button:hover{background:#eff6ff}svg.map{background:#f8fafc;cursor:grab;touch-action:none;--u:1;border-radius:6px}svg.map.dragging{cursor:grabbing}
        svg.map:focus-visible{outline:2px solid #93c5fd}svg.overlay{position:absolute;left:0;top:0;width:100%;height:auto;pointer-events:none}
        .fence,.line-fence,.truth,.feed,.graticule path{vector-effect:non-scaling-stroke}
        .mk,.pin,.fixes circle{transform-box:fill-box;transform-origin:center;transform:scale(var(--u))}
        .pin{display:none;fill:#2563eb;stroke:#fff;stroke-width:1}.f.tiny .pin{display:inline}.f{cursor:pointer}
        .graticule path{fill:none;stroke:#dbe3ec;stroke-width:1}.graticule text{font-size:calc(9px*var(--u));fill:#94a3b8;paint-order:stroke;stroke:#f8fafc;stroke-width:calc(2px*var(--u))}.graticule text.w{text-anchor:start}
        .f.hl .fence{fill:#f59e0b;fill-opacity:.35;stroke:#b45309;stroke-width:2.5}.f.hl .pin{fill:#f59e0b}#map.focused .mk:not(.hl){opacity:.18}
        .fence-label.hl{fill:#92400e;font-weight:700}tr.hl td{background:#fef3c7}rect.hl{stroke:#b45309;stroke-width:2}tr[data-fence],rect[data-fence]{cursor:pointer}
        .mapbox.nolegend .legend{display:none}.basemap image{opacity:.85}.attribution{position:absolute;right:8px;bottom:4px;margin:0;font-size:10px;color:var(--muted);background:#ffffffcc;padding:0 4px;border-radius:3px}
        .truth{fill:none;stroke:#94a3b8;stroke-width:5;stroke-opacity:.55;stroke-linecap:round;stroke-linejoin:round}
        .feed{fill:none;stroke:var(--blue);stroke-width:1.4;stroke-linejoin:round}.fixes circle{fill:var(--blue)}
        .m-enter{fill:var(--green);stroke:#fff;stroke-width:.8}.m-exit{fill:var(--red);stroke:#fff;stroke-width:.8}.m-pass{fill:var(--orange);stroke:#fff;stroke-width:.8}
        .m-lost{fill:none;stroke:#111827;stroke-width:2}.m-missed{fill:none;stroke:var(--orange);stroke-width:2.2}.m-false{fill:none;stroke:var(--purple);stroke-width:2.2}
        .legend rect:first-child{fill:#fff;fill-opacity:.92;stroke:var(--line)}.legend text{font-size:11px;fill:var(--ink)}
        .scalebar rect{fill:#fff;fill-opacity:.85}.scalebar path{fill:none;stroke:var(--ink);stroke-width:1.5}.scalebar text{font-size:11px;text-anchor:middle;fill:var(--ink)}
        .grid{stroke:#eef2f7;stroke-width:1}.axis line{stroke:#cbd5e1}.axis text,.xlabel{font-size:10px;fill:var(--muted);text-anchor:middle}
        .ylabel{font-size:10px;fill:var(--muted);text-anchor:end}.axis-line{stroke:#94a3b8}.axis-title{font-size:11px;fill:var(--muted);text-anchor:middle}
        .barlabel{font-size:11px;text-anchor:middle;fill:var(--ink);font-weight:600}.plot-legend text{font-size:11px;fill:var(--ink)}
        .bar-enter{fill:var(--green)}.bar-exit{fill:var(--red);fill-opacity:.8}.bar-recall{fill:var(--blue)}.bar-missed{fill:var(--orange);fill-opacity:.35}
        .poi-0{fill:#0ea5e9}.poi-1{fill:#f59e0b}.poi-2{fill:#10b981}.poi-3{fill:#a855f7}.poi-4{fill:#ef4444}.poi-5{fill:#64748b}
        .timeline{margin:0 0 12px}.tlctl button{border:1px solid #cbd5e1;background:#fff;border-radius:4px;font-size:11px;margin-left:2px;cursor:pointer;min-width:22px}
        details.more>summary{cursor:pointer;color:var(--blue);margin:6px 0}svg.overlay{--u:1}.timeline figcaption{font-weight:600;font-size:13px;margin-bottom:2px}.lane{font-size:11px;text-anchor:end;fill:var(--ink)}
        .key{font-size:10px;fill:var(--muted)}.tl-truth{fill:#94a3b8}.tl-missed{fill:#fff7ed;stroke:var(--orange);stroke-width:1.5}.tl-detected{fill:var(--blue)}.tl-false{fill:var(--purple)}
        .scroll{overflow:auto;max-height:75vh}table{border-collapse:collapse;width:100%;font-size:12px;font-variant-numeric:tabular-nums}
        th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}th:first-child,td:first-child{text-align:left}
        th{background:#f8fafc;cursor:pointer;user-select:none;position:sticky;top:0;z-index:1}td:first-child{position:sticky;left:0;background:#fff}th:first-child{left:0;z-index:2}
        tbody tr:hover td{background:#f8fafc}th.asc::after{content:" ▲";font-size:9px}th.desc::after{content:" ▼";font-size:9px}
        tbody tr:hover{background:#f8fafc}footer{color:var(--muted);font-size:12px;text-align:center;padding:8px 20px 24px}
        @media (max-width:760px){.plots{grid-template-columns:1fr}}
        """
}
