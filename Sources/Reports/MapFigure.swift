import Fences
import Simulation
import Spatial

/// The report's map: fences, the true paths, the degraded feeds and the events, as inline SVG
/// with a legend and a scale bar, in a local equirectangular projection (good to a fraction of a
/// percent over a city).
enum MapFigure {
    static let width = 960.0
    static let height = 600.0
    static let margin = 24.0

    /// Projects WGS84 onto the figure.
    struct Projection {
        var lon0: Double
        var lat0: Double
        var metersPerDegreeX: Double
        var metersPerDegreeY = 110_574.0
        /// Pixels per metre.
        var scale: Double

        func point(_ longitude: Double, _ latitude: Double) -> (x: Double, y: Double) {
            (MapFigure.width / 2 + (longitude - lon0) * metersPerDegreeX * scale,
             MapFigure.height / 2 - (latitude - lat0) * metersPerDegreeY * scale)
        }
    }

    static func projection(_ report: AccuracyReport) -> Projection? {
        var box: BoundingBox?
        func include(_ b: BoundingBox) {
            if box == nil { box = b } else { box?.include(b) }
        }
        for t in report.traces {
            for p in t.cleanTrack + t.feedTrack {
                include(BoundingBox(minX: p.longitude, minY: p.latitude, maxX: p.longitude, maxY: p.latitude))
            }
        }
        if box == nil {
            for f in report.fences {
                if let b = f.shape.boundingBox { include(b) }
            }
        }
        guard let b = box else { return nil }
        let lat0 = (b.minY + b.maxY) / 2
        let lon0 = (b.minX + b.maxX) / 2
        let mx = 111_320 * max(0.01, cosDegrees(lat0))
        let spanX = max(b.width * mx, 50)
        let spanY = max(b.height * 110_574, 50)
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY) * 0.92
        return Projection(lon0: lon0, lat0: lat0, metersPerDegreeX: mx, scale: scale)
    }

    static func svg(_ report: AccuracyReport) -> String {
        guard let p = projection(report) else {
            return "<p class=\"empty\">Nothing to draw: no trace could be read.</p>"
        }
        var out = "<svg id=\"map\" class=\"figure\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Map of tracks, fences and events\">"
        out += "<rect width=\"\(Int(width))\" height=\"\(Int(height))\" fill=\"#f8fafc\"/>"
        out += "<g class=\"fences\">"
        let labelled = report.fences.count <= 40
        for f in report.fences {
            out += fence(f, p, label: labelled)
        }
        out += "</g><g class=\"tracks\">"
        for t in report.traces where !t.cleanTrack.isEmpty {
            out += polyline(t.cleanTrack, p, "truth", title: "\(t.name): true path")
        }
        let dots = report.traces.reduce(0) { $0 + $1.feedTrack.count } <= 4000
        for t in report.traces where !t.feedTrack.isEmpty {
            out += polyline(t.feedTrack, p, "feed", title: "\(t.name): feed (\(t.feedFixes) fixes)")
            if dots {
                out += "<g class=\"fixes\">"
                for q in t.feedTrack {
                    let (x, y) = p.point(q.longitude, q.latitude)
                    out += "<circle cx=\"\(SVG.n(x))\" cy=\"\(SVG.n(y))\" r=\"1.6\"/>"
                }
                out += "</g>"
            }
        }
        out += "</g><g class=\"markers\">"
        for t in report.traces {
            for m in t.markers { out += marker(m, p) }
        }
        out += "</g>"
        out += legend()
        out += scaleBar(p)
        return out + "</svg>"
    }

    static func fence(_ f: AccuracyReport.FenceShape, _ p: Projection, label: Bool) -> String {
        let title = "<title>\(SVG.escape(f.id)) (\(f.kind.name), zone \(SVG.escape(f.zone)))</title>"
        var center: (x: Double, y: Double)?
        var out = ""
        switch (f.kind, f.shape) {
        case (.circle(let r), .point(let c)), (.beacon(let r, _), .point(let c)):
            let (x, y) = p.point(c.longitude, c.latitude)
            center = (x, y)
            out = "<circle class=\"fence\" cx=\"\(SVG.n(x))\" cy=\"\(SVG.n(y))\" r=\"\(ReportNumber.text(max(r * p.scale, 1.5), 2))\">\(title)</circle>"
        case (.line, _):
            let lines: [[XY]]
            switch f.shape {
            case .lineString(let ps): lines = [ps]
            case .multiLineString(let ls): lines = ls
            default: lines = []
            }
            for l in lines {
                out += "<polyline class=\"line-fence\" points=\"\(l.map { q in let (x, y) = p.point(q.longitude, q.latitude); return "\(SVG.n(x)),\(SVG.n(y))" }.joined(separator: " "))\">\(title)</polyline>"
            }
            if let q = lines.first?.first { center = p.point(q.longitude, q.latitude) }
        default:
            var rings: [[XY]] = []
            switch f.shape {
            case .polygon(let r): rings = r
            case .multiPolygon(let ps): rings = ps.flatMap { $0 }
            default: break
            }
            var d = ""
            for ring in rings {
                for (k, q) in ring.enumerated() {
                    let (x, y) = p.point(q.longitude, q.latitude)
                    d += (k == 0 ? "M" : "L") + "\(SVG.n(x)) \(SVG.n(y))"
                }
                d += "Z"
            }
            out = "<path class=\"fence\" fill-rule=\"evenodd\" d=\"\(d)\">\(title)</path>"
            if let b = f.shape.boundingBox { center = p.point(b.center.longitude, b.center.latitude) }
        }
        if label, let c = center {
            out += "<text class=\"fence-label\" x=\"\(SVG.n(c.x))\" y=\"\(SVG.n(c.y - 6))\">\(SVG.escape(f.id))</text>"
        }
        return out
    }

    static func polyline(_ points: [TraceEvaluation.TrackPoint], _ p: Projection, _ cls: String, title: String) -> String {
        let text = points.map { q in
            let (x, y) = p.point(q.longitude, q.latitude)
            return "\(SVG.n(x)),\(SVG.n(y))"
        }.joined(separator: " ")
        return "<polyline class=\"\(cls)\" points=\"\(text)\"><title>\(SVG.escape(title))</title></polyline>"
    }

    static func marker(_ m: AccuracyReport.Marker, _ p: Projection) -> String {
        let (x, y) = p.point(m.longitude, m.latitude)
        return symbol(m.kind, x, y, title: m.label)
    }

    /// The symbol of a marker kind at (x, y).
    static func symbol(_ kind: AccuracyReport.Marker.Kind, _ x: Double, _ y: Double, title: String? = nil) -> String {
        let t = title.map { "<title>\(SVG.escape($0))</title>" } ?? ""
        let cx = SVG.n(x), cy = SVG.n(y)
        switch kind {
        case .enter:
            return "<path class=\"m-enter\" d=\"M\(SVG.n(x)) \(SVG.n(y - 5))L\(SVG.n(x + 4.5)) \(SVG.n(y + 3.5))L\(SVG.n(x - 4.5)) \(SVG.n(y + 3.5))Z\">\(t)</path>"
        case .exit:
            return "<path class=\"m-exit\" d=\"M\(SVG.n(x - 4.5)) \(SVG.n(y - 3.5))L\(SVG.n(x + 4.5)) \(SVG.n(y - 3.5))L\(SVG.n(x)) \(SVG.n(y + 5))Z\">\(t)</path>"
        case .passthrough:
            return "<path class=\"m-pass\" d=\"M\(cx) \(SVG.n(y - 5))L\(SVG.n(x + 5)) \(cy)L\(cx) \(SVG.n(y + 5))L\(SVG.n(x - 5)) \(cy)Z\">\(t)</path>"
        case .lost:
            return "<path class=\"m-lost\" d=\"M\(SVG.n(x - 4)) \(SVG.n(y - 4))L\(SVG.n(x + 4)) \(SVG.n(y + 4))M\(SVG.n(x - 4)) \(SVG.n(y + 4))L\(SVG.n(x + 4)) \(SVG.n(y - 4))\">\(t)</path>"
        case .missed:
            return "<circle class=\"m-missed\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"7\">\(t)</circle>"
        case .falseDetection:
            return "<circle class=\"m-false\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"7\">\(t)</circle>"
        }
    }

    static func legend() -> String {
        let items: [(String, String)] = [
            ("fence", "fence"), ("truth", "true path"), ("feed", "feed (degraded fixes)"), ("enter", "enter"), ("exit", "exit"),
            ("passthrough", "passthrough (fence in a gap)"), ("lost", "notification lost (OS)"), ("missed", "missed truth visit"),
            ("falseDetection", "false detection"),
        ]
        var out = "<g class=\"legend\" transform=\"translate(12,12)\"><rect width=\"214\" height=\"\(items.count * 18 + 10)\" rx=\"6\"/>"
        for (k, (key, text)) in items.enumerated() {
            let y = Double(k * 18 + 14)
            switch key {
            case "fence": out += "<rect class=\"fence\" x=\"10\" y=\"\(SVG.n(y - 6))\" width=\"16\" height=\"12\"/>"
            case "truth": out += "<line class=\"truth\" x1=\"8\" y1=\"\(SVG.n(y))\" x2=\"28\" y2=\"\(SVG.n(y))\"/>"
            case "feed": out += "<line class=\"feed\" x1=\"8\" y1=\"\(SVG.n(y))\" x2=\"28\" y2=\"\(SVG.n(y))\"/>"
            default:
                if let kind = AccuracyReport.Marker.Kind(rawValue: key) { out += symbol(kind, 18, y) }
            }
            out += "<text x=\"36\" y=\"\(SVG.n(y + 4))\">\(SVG.escape(text))</text>"
        }
        return out + "</g>"
    }

    static func scaleBar(_ p: Projection) -> String {
        let maxMeters = (width * 0.22) / p.scale
        let meters = SVG.niceStep(maxMeters * 0.7)
        let pixels = meters * p.scale
        let x0 = 16.0
        let y0 = height - 18
        let label = meters >= 1000 ? ReportNumber.text(meters / 1000, meters.truncatingRemainder(dividingBy: 1000) == 0 ? 0 : 1) + " km"
            : ReportNumber.text(meters, meters == meters.rounded() ? 0 : 1) + " m"
        return "<g class=\"scalebar\"><rect x=\"\(SVG.n(x0 - 6))\" y=\"\(SVG.n(y0 - 20))\" width=\"\(SVG.n(pixels + 12))\" height=\"28\" rx=\"4\"/>"
            + "<path d=\"M\(SVG.n(x0)) \(SVG.n(y0 - 5))V\(SVG.n(y0))H\(SVG.n(x0 + pixels))V\(SVG.n(y0 - 5))\"/>"
            + "<text x=\"\(SVG.n(x0 + pixels / 2))\" y=\"\(SVG.n(y0 - 8))\">\(label)</text></g>"
    }
}
