import Support

/// One timeline per trace: a lane per fence with its truth visits (grey, above) and its
/// detected visits (blue when matched, purple when false, below); missed truth visits are
/// outlined in orange. Bars carry their times (`data-t0`, `data-t1`, seconds from the trace's
/// start): the page script draws them at their true width (at least 2 pixels) in the window
/// the reader zooms to with the wheel or the buttons, and redraws the time axis.
enum TimelineFigure {
    static let width = 960.0
    static let labelWidth = 140.0
    static let laneHeight = 24.0
    /// Lanes drawn per trace, traces drawn, traces open (the others are folded away, so that a
    /// report of a thousand traces stays short).
    static let laneLimit = 16
    static let traceLimit = 100
    static let openLimit = 4

    static func html(_ report: AccuracyReport) -> String {
        var out = ""
        let drawable = report.traces.filter { $0.score != nil }
        for (k, t) in drawable.prefix(traceLimit).enumerated() {
            if k == openLimit {
                out += "<details class=\"more\"><summary>Timelines of \(min(drawable.count, traceLimit) - openLimit) more traces</summary>"
            }
            out += svg(t)
        }
        if drawable.count > openLimit { out += "</details>" }
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
        func seconds(_ time: Timestamp?) -> Double {
            min(max(time.map { $0.seconds(since: start) } ?? duration, 0), duration)
        }
        func x(_ time: Timestamp?) -> Double { labelWidth + seconds(time) / duration * plotWidth }
        /// The bar's times for the page script, and its first drawing (the script redraws it).
        func bar(_ enter: Timestamp, _ exit: Timestamp?) -> String {
            let x0 = x(enter), x1 = max(x(exit), x0 + 2)
            return
                "data-t0=\"\(ReportNumber.text(seconds(enter), 1))\" data-t1=\"\(ReportNumber.text(seconds(exit), 1))\" x=\"\(SVG.n(x0))\" width=\"\(SVG.n(x1 - x0))\""
        }
        let axisY = height - 20
        var out = "<figure class=\"timeline\"><figcaption>\(SVG.escape(t.name))"
        if lanes.count > laneLimit { out += " <span class=\"note\">(first \(laneLimit) of \(lanes.count) fences)</span>" }
        out +=
            " <span class=\"tlctl\"><button type=\"button\" data-tl=\"left\" title=\"Earlier\">‹</button><button type=\"button\" data-tl=\"out\" title=\"Zoom out\">−</button>"
        out +=
            "<button type=\"button\" data-tl=\"in\" title=\"Zoom in (or the wheel over the bars)\">+</button><button type=\"button\" data-tl=\"right\" title=\"Later\">›</button>"
        out += "<button type=\"button\" data-tl=\"reset\" title=\"Whole trace\">all</button></span>"
        out +=
            "</figcaption><svg class=\"figure timeline-svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" data-left=\"\(SVG.n(labelWidth))\" data-plot=\"\(SVG.n(plotWidth))\""
        out +=
            " data-duration=\"\(ReportNumber.text(duration, 1))\" data-clock=\"\(clock(start))\" data-axis=\"\(SVG.n(axisY))\" role=\"img\" aria-label=\"Timeline of \(SVG.escape(t.name))\">"
        // The time axis is drawn by the page script, for the window shown.
        out += "<g class=\"axis\"></g>"
        out +=
            "<text class=\"key\" x=\"\(SVG.n(labelWidth))\" y=\"14\">truth ▬ grey · detected ▬ blue · false ▬ purple · missed ▭ orange</text>"
        for (k, fence) in shown.enumerated() {
            let y = 28 + Double(k) * laneHeight
            out += "<text class=\"lane\" x=\"\(SVG.n(labelWidth - 8))\" y=\"\(SVG.n(y + 14))\">\(SVG.escape(fence))</text>"
            for v in score.visits where v.truth.fenceID == fence {
                let cls = v.detected ? "tl-truth" : "tl-missed"
                out +=
                    "<rect class=\"\(cls)\" data-fence=\"\(SVG.escape(fence))\" \(bar(v.truth.enter, v.truth.exit)) y=\"\(SVG.n(y + 3))\" height=\"8\"><title>truth \(SVG.escape(fence)) \(v.truth.enter)\(v.truth.exit.map { " – \($0)" } ?? " – end")\(v.detected ? "" : " (missed: \(ReportHTML.words(v.missReason ?? .undetected)))")</title></rect>"
            }
            let falseSet = Set(score.falseDetections.map { "\($0.visit.fenceID)|\($0.visit.enter)" })
            for d in score.detections where d.fenceID == fence {
                let isFalse = falseSet.contains("\(d.fenceID)|\(d.enter)")
                out +=
                    "<rect class=\"\(isFalse ? "tl-false" : "tl-detected")\" data-fence=\"\(SVG.escape(fence))\" \(bar(d.enter, d.exit)) y=\"\(SVG.n(y + 13))\" height=\"8\"><title>\(isFalse ? "false detection" : "detected") \(SVG.escape(fence)) \(d.enter)\(d.exit.map { " – \($0)" } ?? " – open at end")</title></rect>"
            }
        }
        if shown.isEmpty {
            out += "<text class=\"note\" x=\"\(SVG.n(labelWidth))\" y=\"44\">no truth visits and no detections</text>"
        }
        return out + "</svg></figure>"
    }

    /// The Places state of each trace with Places events: lanes Current, Last Entered and Last
    /// Exited POI, a bar per POI held, zoomable like the other timelines.
    static func places(_ report: AccuracyReport) -> String {
        var out = ""
        for t in report.traces.prefix(traceLimit) where !t.places.isEmpty {
            guard let score = t.score else { continue }
            let duration = max(score.durationSeconds, 1)
            let lanes: [(String, KeyPath<CheckInSummary.PlacesStep, String?>)] = [
                ("Current POI", \.current), ("Last Entered", \.lastEntered), ("Last Exited", \.lastExited),
            ]
            let height = 34 + Double(lanes.count) * laneHeight + 24
            let plotWidth = width - labelWidth - 16
            var pois: [String] = []
            for step in t.places { for (_, k) in lanes { if let p = step[keyPath: k], !pois.contains(p) { pois.append(p) } } }
            out +=
                "<figure class=\"timeline\"><figcaption>\(SVG.escape(t.name)) <span class=\"tlctl\"><button type=\"button\" data-tl=\"out\">−</button><button type=\"button\" data-tl=\"in\">+</button><button type=\"button\" data-tl=\"reset\">all</button></span></figcaption>"
            out +=
                "<svg class=\"figure timeline-svg places-svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" data-left=\"\(SVG.n(labelWidth))\" data-plot=\"\(SVG.n(plotWidth))\""
            out +=
                " data-duration=\"\(ReportNumber.text(duration, 1))\" data-clock=\"\(t.start.map(clock) ?? "0")\" data-axis=\"\(SVG.n(height - 20))\" role=\"img\" aria-label=\"Places state of \(SVG.escape(t.name))\"><g class=\"axis\"></g>"
            for (row, (name, key)) in lanes.enumerated() {
                let y = 28 + Double(row) * laneHeight
                out += "<text class=\"lane\" x=\"\(SVG.n(labelWidth - 8))\" y=\"\(SVG.n(y + 14))\">\(name)</text>"
                for (k, step) in t.places.enumerated() {
                    guard let poi = step[keyPath: key] else { continue }
                    // A run of steps holding the same POI is one bar, to the next step holding another.
                    if k > 0, t.places[k - 1][keyPath: key] == poi { continue }
                    let t0 = min(max(step.seconds, 0), duration)
                    var j = k + 1
                    while j < t.places.count, t.places[j][keyPath: key] == poi { j += 1 }
                    let end = j < t.places.count ? min(max(t.places[j].seconds, 0), duration) : duration
                    let colour = (pois.firstIndex(of: poi) ?? 0) % 6
                    let x0 = labelWidth + t0 / duration * plotWidth, x1 = max(labelWidth + end / duration * plotWidth, x0 + 2)
                    out +=
                        "<rect class=\"poi poi-\(colour)\" data-fence=\"\(SVG.escape(poi))\" data-t0=\"\(ReportNumber.text(t0, 1))\" data-t1=\"\(ReportNumber.text(end, 1))\" x=\"\(SVG.n(x0))\" width=\"\(SVG.n(x1 - x0))\" y=\"\(SVG.n(y + 4))\" height=\"14\"><title>\(name): \(SVG.escape(poi))</title></rect>"
                }
            }
            out += "</svg></figure>"
        }
        return out
    }

    /// Seconds since UTC midnight of `start`, for the axis of traces of a day or more.
    static func clock(_ start: Timestamp) -> String {
        let s = ((start.seconds % 86_400) + 86_400) % 86_400
        return ReportNumber.text(Double(s) + Double(start.nanoseconds) * 1e-9, 1)
    }
}
