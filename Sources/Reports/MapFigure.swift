import Accuracy
import Fences
import Spatial

/// The map of the report and of the replay view: fences, tracks and events as inline SVG in a
/// local equirectangular projection (good to a fraction of a percent over a city), with the
/// controls, legend, scale bar and graticule that ``PageScript`` brings to life (pan and zoom,
/// click to focus a fence, optional basemap tiles).
///
/// The page opens on ``Layers/focus`` (the fences and visits), not on the whole track: a 400 km
/// drive past one campus opens on the campus, and "all" shows the drive.
enum MapFigure {
    static let width = 960.0
    static let height = 600.0
    static let margin = 24.0
    /// Fence labels drawn at most; the page script hides those that would overlap.
    static let labelLimit = 500
    /// The smallest span the page opens on, metres (a lone 20 m fence opens with its street).
    static let minimumSpanMeters = 150.0

    /// What a map draws.
    struct Layers {
        struct Track {
            var points: [TraceEvaluation.TrackPoint]
            /// `truth` or `feed`.
            var style: String
            var title: String
            /// Whether each fix is drawn as a dot.
            var dots: Bool
        }

        var fences: [AccuracyReport.FenceShape]
        var tracks: [Track]
        var markers: [AccuracyReport.Marker]
        /// The WGS84 box the map opens on (x = longitude, y = latitude); the tracks when `nil`.
        var focus: BoundingBox?
        /// SVG drawn above the markers, in map coordinates (the replay view's device).
        var extra: String = ""
    }

    /// Projects WGS84 onto the figure.
    struct Projection {
        var lon0: Double
        var lat0: Double
        var metersPerDegreeX: Double
        var metersPerDegreeY = 110_574.0
        /// Pixels per metre.
        var scale: Double

        func point(_ longitude: Double, _ latitude: Double) -> (x: Double, y: Double) {
            (
                MapFigure.width / 2 + (longitude - lon0) * metersPerDegreeX * scale,
                MapFigure.height / 2 - (latitude - lat0) * metersPerDegreeY * scale
            )
        }

        /// Decimals that keep a tenth of a metre, whatever the zoom the map opens on.
        var digits: Int {
            var d = 1
            var unit = 0.1 * scale
            while unit < 0.1, d < 6 { unit *= 10; d += 1 }
            return d
        }

        /// A coordinate with ``digits`` decimals.
        func n(_ v: Double) -> String { ReportNumber.text(v, digits) }

        /// The attribute naming the projection for the page script: lon0 lat0 mx my scale.
        var attribute: String {
            "\(ReportNumber.text(lon0, 7)) \(ReportNumber.text(lat0, 7)) \(ReportNumber.text(metersPerDegreeX, 3)) \(ReportNumber.text(metersPerDegreeY, 3)) \(ReportNumber.text(scale, 9))"
        }
    }

    /// The WGS84 extent of a drawn fence (circles grown by their radius).
    static func extent(_ f: AccuracyReport.FenceShape) -> BoundingBox? {
        extent(f.shape, f.kind)
    }

    /// The WGS84 extent of a fence of `kind` and `shape` (circles grown by their radius, by the
    /// length of a degree at their latitude: for drawing, not the geodesic extent of
    /// ``Fences/Fence/boundingBox``).
    static func extent(_ shape: Shape, _ kind: Fence.Kind) -> BoundingBox? {
        guard let b = shape.boundingBox else { return nil }
        switch kind {
        case .circle(let r), .beacon(let r, _):
            let dLat = r / 111_320
            let dLon = r / (111_320 * max(0.01, cosDegrees(b.center.latitude)))
            return BoundingBox(minX: b.minX - dLon, minY: b.minY - dLat, maxX: b.maxX + dLon, maxY: b.maxY + dLat)
        default:
            return b
        }
    }

    /// The box of everything drawn (tracks, and fences when there are no tracks).
    static func whole(_ layers: Layers) -> BoundingBox? {
        var box: BoundingBox?
        for t in layers.tracks {
            for p in t.points {
                let b = BoundingBox(minX: p.longitude, minY: p.latitude, maxX: p.longitude, maxY: p.latitude)
                if box == nil { box = b } else { box?.include(b) }
            }
        }
        if box == nil {
            for f in layers.fences {
                if let b = extent(f) { if box == nil { box = b } else { box?.include(b) } }
            }
        }
        return box
    }

    /// The projection that fits `box` (at least ``minimumSpanMeters`` across) in the figure.
    static func projection(fitting b: BoundingBox) -> Projection {
        let lat0 = (b.minY + b.maxY) / 2
        let lon0 = (b.minX + b.maxX) / 2
        let mx = 111_320 * max(0.01, cosDegrees(lat0))
        let spanX = max(b.width * mx, minimumSpanMeters)
        let spanY = max(b.height * 110_574, minimumSpanMeters)
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY) * 0.92
        return Projection(lon0: lon0, lat0: lat0, metersPerDegreeX: mx, scale: scale)
    }

    static func projection(_ layers: Layers) -> Projection? {
        guard let b = layers.focus ?? whole(layers) else { return nil }
        return projection(fitting: b)
    }

    /// The map's block: controls, the map, and an overlay with the legend and scale bar.
    ///
    /// - Parameters:
    ///   - basemap: a tile URL template (`https://tile.example.org/{z}/{x}/{y}.png`) the page
    ///     script loads tiles from; `nil` draws no basemap and loads nothing.
    static func html(_ layers: Layers, _ p: Projection, legend items: [(String, String)], basemap: String?) -> String {
        var all =
            whole(layers).map { b -> [Double] in
                let (x0, y1) = p.point(b.minX, b.minY)
                let (x1, y0) = p.point(b.maxX, b.maxY)
                return [x0, y0, x1, y1]
            } ?? [0, 0, width, height]
        // "all" includes the view the page opens on.
        all = [min(all[0], 0), min(all[1], 0), max(all[2], width), max(all[3], height)]
        var out = "<div class=\"mapbox\"><div class=\"mapctl\" role=\"toolbar\" aria-label=\"Map controls\">"
        out +=
            "<button type=\"button\" data-zoom=\"in\" title=\"Zoom in (+)\">+</button><button type=\"button\" data-zoom=\"out\" title=\"Zoom out (−)\">−</button>"
        out +=
            "<button type=\"button\" data-zoom=\"fit\" title=\"Fit to fences and visits (0)\">fit</button><button type=\"button\" data-zoom=\"all\" title=\"Show all tracks (a)\">all</button>"
        out += "<button type=\"button\" data-zoom=\"legend\" title=\"Show or hide the legend\">key</button></div>"
        out +=
            "<svg id=\"map\" class=\"figure map\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" data-fit=\"0 0 \(Int(width)) \(Int(height))\""
        out += " data-all=\"\(all.map { p.n($0) }.joined(separator: " "))\" data-proj=\"\(p.attribute)\""
        if let basemap { out += " data-tiles=\"\(SVG.escape(basemap))\"" }
        out +=
            " tabindex=\"0\" role=\"img\" aria-label=\"Map of tracks, fences and events; drag to pan, wheel or +/− to zoom, click a fence to focus it\">"
        out += "<g class=\"basemap\"></g><g class=\"graticule\"></g><g class=\"fences\">"
        for f in layers.fences { out += fence(f, p) }
        out += "</g><g class=\"tracks\">"
        for t in layers.tracks where !t.points.isEmpty {
            out += polyline(t.points, p, t.style, title: t.title)
            if t.dots {
                out += "<g class=\"fixes\">"
                for q in t.points {
                    let (x, y) = p.point(q.longitude, q.latitude)
                    out += "<circle cx=\"\(p.n(x))\" cy=\"\(p.n(y))\" r=\"1.6\"/>"
                }
                out += "</g>"
            }
        }
        out += "</g><g class=\"markers\">"
        for m in layers.markers { out += marker(m, p) }
        out += "</g>" + layers.extra + "<g class=\"labels\">"
        for f in layers.fences.prefix(labelLimit) {
            guard let b = extent(f) else { continue }
            let (x, y) = p.point(b.center.longitude, b.maxY)
            out +=
                "<text class=\"fence-label\" data-fence=\"\(SVG.escape(f.id))\" x=\"\(p.n(x))\" y=\"\(p.n(y))\">\(SVG.escape(f.id))</text>"
        }
        out += "</g></svg>"
        out +=
            "<svg class=\"overlay\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" aria-hidden=\"true\">" + legend(items)
            + "<g class=\"scalebar\"></g></svg>"
        if let basemap {
            // OpenStreetMap's tile usage policy asks for this credit on the map
            // (operations.osmfoundation.org/policies/tiles); other hosts are named.
            let h = host(basemap) ?? basemap
            let credit = h.hasSuffix("openstreetmap.org") ? "© OpenStreetMap contributors · " : ""
            out += "<p class=\"attribution\">\(credit)Basemap tiles from \(SVG.escape(h)) (--basemap)</p>"
        }
        return out + "</div>"
    }

    /// The scheme and host of a tile URL template (`https://tile.openstreetmap.org`), which the
    /// page's content security policy allows images from; `nil` when it is not an http(s) URL
    /// with `{z}`, `{x}` and `{y}`.
    static func host(_ template: String) -> String? {
        guard template.contains("{z}"), template.contains("{x}"), template.contains("{y}") else { return nil }
        for scheme in ["https://", "http://"] where template.hasPrefix(scheme) {
            let rest = template.dropFirst(scheme.count)
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            // A host, optionally with a port; `{s}` subdomains are allowed by a wildcard.
            guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-.:{}".contains($0) }) else { return nil }
            return scheme + host.replacingOccurrences(of: "{s}", with: "*")
        }
        return nil
    }

    static func fence(_ f: AccuracyReport.FenceShape, _ p: Projection) -> String {
        let title = "<title>\(SVG.escape(f.id)) (\(f.kind.name), zone \(SVG.escape(f.zone)))</title>"
        var box = ""
        var pin = ""
        if let b = extent(f) {
            let (x0, y1) = p.point(b.minX, b.minY)
            let (x1, y0) = p.point(b.maxX, b.maxY)
            box = " data-box=\"\(p.n(x0)) \(p.n(y0)) \(p.n(x1)) \(p.n(y1))\""
            let (cx, cy) = p.point(b.center.longitude, b.center.latitude)
            // Drawn when the fence is smaller than a few pixels at the current zoom (the page
            // script decides), so that a 20 m circle on a 30 km ride is still seen.
            pin = "<circle class=\"pin\" cx=\"\(p.n(cx))\" cy=\"\(p.n(cy))\" r=\"4\"/>"
        }
        var out = "<g class=\"f\" data-fence=\"\(SVG.escape(f.id))\"\(box)>" + title
        switch (f.kind, f.shape) {
        case (.circle(let r), .point(let c)), (.beacon(let r, _), .point(let c)):
            let (x, y) = p.point(c.longitude, c.latitude)
            out += "<circle class=\"fence\" cx=\"\(p.n(x))\" cy=\"\(p.n(y))\" r=\"\(p.n(r * p.scale))\"/>"
        case (.line, _):
            let lines: [[XY]]
            switch f.shape {
            case .lineString(let ps): lines = [ps]
            case .multiLineString(let ls): lines = ls
            default: lines = []
            }
            for l in lines {
                out +=
                    "<polyline class=\"line-fence\" points=\"\(l.map { q in let (x, y) = p.point(q.longitude, q.latitude); return "\(p.n(x)),\(p.n(y))" }.joined(separator: " "))\"/>"
            }
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
                    d += (k == 0 ? "M" : "L") + "\(p.n(x)) \(p.n(y))"
                }
                d += "Z"
            }
            out += "<path class=\"fence\" fill-rule=\"evenodd\" d=\"\(d)\"/>"
        }
        return out + pin + "</g>"
    }

    static func polyline(_ points: [TraceEvaluation.TrackPoint], _ p: Projection, _ cls: String, title: String) -> String {
        let text = points.map { q in
            let (x, y) = p.point(q.longitude, q.latitude)
            return "\(p.n(x)),\(p.n(y))"
        }.joined(separator: " ")
        return "<polyline class=\"\(cls)\" points=\"\(text)\"><title>\(SVG.escape(title))</title></polyline>"
    }

    static func marker(_ m: AccuracyReport.Marker, _ p: Projection) -> String {
        let (x, y) = p.point(m.longitude, m.latitude)
        return symbol(m.kind, x, y, title: m.label, fence: m.fence, n: p.n)
    }

    /// The symbol of a marker kind at (x, y); the page script keeps it a constant size on screen.
    static func symbol(
        _ kind: AccuracyReport.Marker.Kind, _ x: Double, _ y: Double, title: String? = nil, fence: String = "",
        n: (Double) -> String = SVG.n
    ) -> String {
        let t = title.map { "<title>\(SVG.escape($0))</title>" } ?? ""
        let f = fence.isEmpty ? "" : " data-fence=\"\(SVG.escape(fence))\""
        let cx = n(x), cy = n(y)
        switch kind {
        case .enter:
            return
                "<path class=\"mk m-enter\"\(f) d=\"M\(cx) \(n(y - 5))L\(n(x + 4.5)) \(n(y + 3.5))L\(n(x - 4.5)) \(n(y + 3.5))Z\">\(t)</path>"
        case .exit:
            return
                "<path class=\"mk m-exit\"\(f) d=\"M\(n(x - 4.5)) \(n(y - 3.5))L\(n(x + 4.5)) \(n(y - 3.5))L\(cx) \(n(y + 5))Z\">\(t)</path>"
        case .passthrough:
            return
                "<path class=\"mk m-pass\"\(f) d=\"M\(cx) \(n(y - 5))L\(n(x + 5)) \(cy)L\(cx) \(n(y + 5))L\(n(x - 5)) \(cy)Z\">\(t)</path>"
        case .lost:
            return
                "<path class=\"mk m-lost\"\(f) d=\"M\(n(x - 4)) \(n(y - 4))L\(n(x + 4)) \(n(y + 4))M\(n(x - 4)) \(n(y + 4))L\(n(x + 4)) \(n(y - 4))\">\(t)</path>"
        case .missed:
            return "<circle class=\"mk m-missed\"\(f) cx=\"\(cx)\" cy=\"\(cy)\" r=\"7\">\(t)</circle>"
        case .falseDetection:
            return "<circle class=\"mk m-false\"\(f) cx=\"\(cx)\" cy=\"\(cy)\" r=\"7\">\(t)</circle>"
        }
    }

    /// The report's legend entries: a style key and its words.
    static let reportLegend: [(String, String)] = [
        ("fence", "fence (dot: too small to see)"), ("truth", "true path"), ("feed", "feed (degraded fixes)"), ("enter", "enter"),
        ("exit", "exit"),
        ("passthrough", "passthrough (fence in a gap)"), ("lost", "notification lost (OS)"), ("missed", "missed truth visit"),
        ("falseDetection", "false detection"),
    ]

    static func legend(_ items: [(String, String)]) -> String {
        var out = "<g class=\"legend\" transform=\"translate(12,12)\"><rect width=\"214\" height=\"\(items.count * 18 + 10)\" rx=\"6\"/>"
        for (k, (key, text)) in items.enumerated() {
            let y = Double(k * 18 + 14)
            switch key {
            case "fence": out += "<rect class=\"fence\" x=\"10\" y=\"\(SVG.n(y - 6))\" width=\"16\" height=\"12\"/>"
            case "inside": out += "<rect class=\"fence inside\" x=\"10\" y=\"\(SVG.n(y - 6))\" width=\"16\" height=\"12\"/>"
            case "truth": out += "<line class=\"truth\" x1=\"8\" y1=\"\(SVG.n(y))\" x2=\"28\" y2=\"\(SVG.n(y))\"/>"
            case "feed": out += "<line class=\"feed\" x1=\"8\" y1=\"\(SVG.n(y))\" x2=\"28\" y2=\"\(SVG.n(y))\"/>"
            case "device":
                out +=
                    "<circle class=\"disc\" cx=\"18\" cy=\"\(SVG.n(y))\" r=\"7\"/><circle class=\"device\" cx=\"18\" cy=\"\(SVG.n(y))\" r=\"3.5\"/>"
            default:
                if let kind = AccuracyReport.Marker.Kind(rawValue: key) { out += symbol(kind, 18, y) }
            }
            out += "<text x=\"36\" y=\"\(SVG.n(y + 4))\">\(SVG.escape(text))</text>"
        }
        return out + "</g>"
    }

    /// The report's map.
    static func svg(_ report: AccuracyReport, basemap: String? = nil) -> String {
        let dots = report.traces.reduce(0) { $0 + $1.feedTrack.count } <= 4000
        var tracks: [Layers.Track] = []
        for t in report.traces where !t.cleanTrack.isEmpty {
            tracks.append(.init(points: t.cleanTrack, style: "truth", title: "\(t.name): true path", dots: false))
        }
        for t in report.traces where !t.feedTrack.isEmpty {
            tracks.append(.init(points: t.feedTrack, style: "feed", title: "\(t.name): feed (\(t.feedFixes) fixes)", dots: dots))
        }
        let layers = Layers(fences: report.fences, tracks: tracks, markers: report.traces.flatMap(\.markers), focus: focus(report))
        guard let p = projection(layers) else {
            return "<p class=\"empty\">Nothing to draw: no trace could be read.</p>"
        }
        return html(layers, p, legend: reportLegend, basemap: basemap)
    }

    /// What the report opens on: the drawn fences that were visited or detected, and the
    /// missed and false markers; the tracks when there are none.
    static func focus(_ report: AccuracyReport) -> BoundingBox? {
        var ids = Set(report.visits.map(\.truth.fenceID))
        for d in report.falseDetections { ids.insert(d.visit.fenceID) }
        var box: BoundingBox?
        func include(_ b: BoundingBox) { if box == nil { box = b } else { box?.include(b) } }
        for f in report.fences where ids.contains(f.id) {
            if let b = extent(f) { include(b) }
        }
        for t in report.traces {
            for m in t.markers where m.kind == .missed || m.kind == .falseDetection {
                include(BoundingBox(minX: m.longitude, minY: m.latitude, maxX: m.longitude, maxY: m.latitude))
            }
        }
        return box
    }
}

/// Tile URL templates for `--basemap`.
public enum MapTemplate {
    /// The origin (`https://tile.openstreetmap.org`) the page may load tiles from, or `nil` when
    /// `template` is not an http(s) URL with `{z}`, `{x}` and `{y}`.
    public static func host(_ template: String) -> String? { MapFigure.host(template) }
}
