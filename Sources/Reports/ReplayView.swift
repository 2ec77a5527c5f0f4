import EventPipeline
import Scenarios
import Support

/// The replay view (`fencesim view`): one trace replayed in the browser, a self-contained page
/// whose time slider, play button and speed move the device along the feed (and the true path
/// when the feed is degraded); fences turn orange while the device is inside them, the feed's
/// accuracy disc is drawn, and the event list follows the time (a click on an event jumps to it).
///
/// The map is ``MapFigure``'s, panned and zoomed by the same page script as the report's; the
/// page is a pure function of the report model and the events: the same inputs give the same
/// bytes.
public enum ReplayView {
    /// Events listed at most.
    public static let eventLimit = 20_000
    /// Fixes of each track the page holds at most (a trace with more is thinned evenly).
    public static let fixLimit = 200_000

    /// The page of `report`'s first evaluated trace and its `events` (in log order).
    ///
    /// - Parameters:
    ///   - basemap: a tile URL template, as for ``ReportHTML/render(_:basemap:)``.
    public static func render(_ report: AccuracyReport, events: [LogEvent], basemap: String? = nil) -> String {
        let tiles = basemap.flatMap { MapFigure.host($0) == nil ? nil : $0 }
        let script = PageScript.viewPage
        var out = ReportHTML.head(
            title: "\(report.title) · fencesim replay", generator: report.generator,
            policy: PageScript.policy(script: script, basemap: tiles), style: ReportHTML.style + style)
        out += """
            <body>

            """
        guard let trace = report.traces.first(where: { !$0.failed && !$0.feedTrack.isEmpty }) else {
            return out + "<main><p class=\"empty\">Nothing to replay: the trace could not be read.</p></main></body></html>\n"
        }
        let degraded = report.degradation != nil
        out +=
            "<header><h1>\(SVG.escape(trace.name))</h1><p class=\"sub\">Replay by \(SVG.escape(report.generator)) · fences \(SVG.escape(report.fencesFile))"
        out += report.degradation.map { " · degraded feed: " + SVG.escape(ReportHTML.describe($0)) } ?? " · feed not degraded"
        if let start = trace.start { out += " · starts \(start)" }
        out += "</p></header>\n<main class=\"replay\">\n"
        let duration = max(trace.feedTrack.last?.seconds ?? 0, trace.cleanTrack.last?.seconds ?? 0)
        out += "<section class=\"player\" id=\"player\"><button type=\"button\" id=\"play\" aria-label=\"Play\">▶ play</button>"
        out += "<label>speed <select id=\"speed\">"
        for (k, s) in [1, 10, 30, 60, 300, 1200].enumerated() { out += "<option value=\"\(s)\"\(k == 3 ? " selected" : "")>\(s)×</option>" }
        out +=
            "</select></label><input type=\"range\" id=\"slider\" min=\"0\" max=\"\(ReportNumber.text(duration, 1))\" step=\"any\" value=\"0\" aria-label=\"Time\">"
        out += "<label title=\"Pan the map to keep the device in view\"><input type=\"checkbox\" id=\"follow\" checked> follow</label>"
        out += "<output id=\"clock\">0 s</output></section>\n"
        var tracks: [MapFigure.Layers.Track] = []
        if degraded { tracks.append(.init(points: trace.cleanTrack, style: "truth", title: "true path", dots: false)) }
        tracks.append(
            .init(points: trace.feedTrack, style: "feed", title: "feed (\(trace.feedFixes) fixes)", dots: trace.feedTrack.count <= 4000))
        let device =
            "<g class=\"replay-device\">"
            + (degraded ? "<circle id=\"device-truth\" class=\"device-truth\" cx=\"0\" cy=\"0\" r=\"4\"/>" : "")
            + "<circle id=\"disc\" class=\"disc\" cx=\"0\" cy=\"0\" r=\"0\"/><circle id=\"device\" class=\"device\" cx=\"0\" cy=\"0\" r=\"5\"/></g>"
        // The view opens on the whole drive: its subject is the drive, not the fences' corner of it.
        let layers = MapFigure.Layers(fences: report.fences, tracks: tracks, markers: [], focus: nil, extra: device)
        guard let p = MapFigure.projection(layers) else { return out + "</main></body></html>\n" }
        var legend: [(String, String)] = [("fence", "fence (outside)"), ("inside", "fence the device is in"), ("feed", "feed")]
        if degraded { legend.insert(("truth", "true path"), at: 1) }
        legend.append(("device", "device and its accuracy"))
        out += "<div class=\"stage\"><section class=\"mapcard\">" + MapFigure.html(layers, p, legend: legend, basemap: tiles)
        if let tiles, let host = MapFigure.host(tiles) {
            out +=
                "<p class=\"note basemap-note\">Basemap: this page loads map tiles from \(SVG.escape(host)) (given with --basemap); nothing else is loaded.</p>"
        }
        if trace.feedFixes > trace.feedTrack.count {
            out += "<p class=\"note\">The feed's \(trace.feedFixes) fixes are thinned to \(trace.feedTrack.count) evenly spaced ones.</p>"
        }
        out += "</section>\n<section class=\"eventcard\"><h2>Events</h2><ol id=\"events\">"
        var listed = 0
        // The events of one evaluation: all of them are this trace's.
        for e in events {
            guard listed < eventLimit, let start = trace.start else { break }
            let t = e.time.seconds(since: start)
            var subject = ""
            for key in ["fence", "zone", "poi", "reason"] {
                if case .string(let s)? = e.field(key) { subject = s; break }
            }
            let fence: String
            if case .string(let s)? = e.field("fence") { fence = s } else { fence = "" }
            out += "<li data-t=\"\(ReportNumber.text(t, 1))\" data-type=\"\(SVG.escape(e.type.rawValue))\""
            if !fence.isEmpty { out += " data-fence=\"\(SVG.escape(fence))\"" }
            // With several geotriggers a fence is inside while any of them has the device in it.
            if case .string(let name)? = e.field(Scenario.geotriggerKey) {
                out += " data-geotrigger=\"\(SVG.escape(name))\""
                subject += " · " + name
            }
            out +=
                "><span class=\"t\">\(SVG.escape(clock(t)))</span> <span class=\"ev ev-\(SVG.escape(e.type.rawValue.replacingOccurrences(of: ".", with: "-")))\">\(SVG.escape(e.type.rawValue))</span> \(SVG.escape(subject))</li>"
            listed += 1
        }
        out += "</ol>"
        if listed == 0 { out += "<p class=\"empty\">No events.</p>" }
        if listed == eventLimit { out += "<p class=\"note\">The first \(eventLimit) events.</p>" }
        out += "</section></div>\n"
        // The fixes as the script reads them: seconds, x, y (map units) and, for the feed, the
        // accuracy radius in map units.
        var data = "{\"feed\":["
        data += trace.feedTrack.map { q in
            let (x, y) = p.point(q.longitude, q.latitude)
            return "[\(ReportNumber.text(q.seconds, 1)),\(p.n(x)),\(p.n(y)),\(p.n((q.accuracyMeters ?? 0) * p.scale))]"
        }.joined(separator: ",")
        data += "],\"truth\":["
        if degraded {
            data += trace.cleanTrack.map { q in
                let (x, y) = p.point(q.longitude, q.latitude)
                return "[\(ReportNumber.text(q.seconds, 1)),\(p.n(x)),\(p.n(y))]"
            }.joined(separator: ",")
        }
        data += "]}"
        out += "<script type=\"application/json\" id=\"replay-data\">\(data)</script>\n"
        out +=
            "</main>\n<footer>Space plays and pauses; the map pans and zooms as in the report. Fences turn orange from their enter event to their exit event.</footer>\n"
        return out + "<script>\(script)</script>\n</body>\n</html>\n"
    }

    /// Seconds from the start as `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let s = Int(max(0, seconds).rounded(.down))
        let mm = (s / 60) % 60, ss = s % 60
        return "\(s / 3600):\(mm < 10 ? "0" : "")\(mm):\(ss < 10 ? "0" : "")\(ss)"
    }

    static let style = """
        main.replay{max-width:1600px}.player{display:flex;gap:12px;align-items:center;position:sticky;top:0;z-index:3}
        .player button{font:600 14px system-ui,sans-serif;padding:6px 14px;border-radius:6px;border:1px solid #1d4ed8;background:var(--blue);color:#fff;cursor:pointer}
        .player input[type=range]{flex:1}.player output{font-variant-numeric:tabular-nums;min-width:90px;text-align:right}
        .stage{display:grid;grid-template-columns:minmax(0,3fr) minmax(260px,1fr);gap:14px}.stage>section{margin:0}
        #events{list-style:none;margin:0;padding:0;max-height:640px;overflow:auto;font-size:12px}#events li{padding:3px 6px;border-bottom:1px solid var(--line);cursor:pointer}
        #events li.past{color:var(--ink)}#events li:not(.past){color:var(--muted)}#events li.current{background:#dbeafe}.t{font-variant-numeric:tabular-nums;color:var(--muted)}
        .ev{font-weight:600}.ev-enter{color:var(--green)}.ev-exit{color:var(--red)}.ev-passthrough{color:var(--orange)}
        .f.inside .fence,.fence.inside{fill:#f59e0b;fill-opacity:.4;stroke:#b45309}.f.inside .pin{fill:#f59e0b}
        .device{fill:var(--blue);stroke:#fff;stroke-width:2;vector-effect:non-scaling-stroke}.device-truth{fill:#475569;stroke:#fff;stroke-width:1.5;vector-effect:non-scaling-stroke}
        .disc{fill:var(--blue);fill-opacity:.12;stroke:var(--blue);stroke-opacity:.5;stroke-width:1;vector-effect:non-scaling-stroke}
        #device,#device-truth{transform-box:fill-box;transform-origin:center;transform:scale(var(--u))}
        @media (max-width:1000px){.stage{grid-template-columns:1fr}}
        """
}
