/// The histogram of enter and exit latencies (detected − true, seconds) over every matched
/// truth visit, side by side per bin.
enum LatencyHistogram {
    static let width = 620.0
    static let height = 300.0
    static let left = 48.0
    static let bottom = 40.0

    /// Bin edges for `values`: about `target` bins of a nice width.
    static func bins(_ values: [Double], target: Int = 16) -> (start: Double, width: Double, count: Int)? {
        guard let lo = values.min(), let hi = values.max() else { return nil }
        let w = SVG.niceStep(max(hi - lo, 1) / Double(target))
        let start = (lo / w).rounded(.down) * w
        let count = max(1, Int(((hi - start) / w).rounded(.down)) + 1)
        return (start, w, count)
    }

    static func svg(_ report: AccuracyReport) -> String {
        let enter = report.visits.compactMap(\.enterLatency)
        let exit = report.visits.compactMap(\.exitLatency)
        guard let b = bins(enter + exit) else {
            return
                "<svg id=\"latency-histogram\" class=\"figure plot\" viewBox=\"0 0 \(Int(width)) 80\" role=\"img\" aria-label=\"Latency histogram\"><text class=\"note\" x=\"20\" y=\"40\">No latencies: no truth visit was detected.</text></svg>"
        }
        var counts = Array(repeating: (0, 0), count: b.count)
        for v in enter { counts[min(b.count - 1, max(0, Int(((v - b.start) / b.width).rounded(.down))))].0 += 1 }
        for v in exit { counts[min(b.count - 1, max(0, Int(((v - b.start) / b.width).rounded(.down))))].1 += 1 }
        let top = max(1, counts.map { max($0.0, $0.1) }.max() ?? 1)
        let plotW = width - left - 16
        let plotH = height - bottom - 30
        let barW = plotW / Double(b.count)
        var out =
            "<svg id=\"latency-histogram\" class=\"figure plot\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Latency histogram\">"
        let yStep = max(1, SVG.niceStep(Double(top) / 4))
        var y = 0.0
        while y <= Double(top) + 1e-9 {
            let py = 30 + plotH - y / Double(top) * plotH
            out += "<line class=\"grid\" x1=\"\(SVG.n(left))\" y1=\"\(SVG.n(py))\" x2=\"\(SVG.n(left + plotW))\" y2=\"\(SVG.n(py))\"/>"
            out += "<text class=\"ylabel\" x=\"\(SVG.n(left - 6))\" y=\"\(SVG.n(py + 4))\">\(Int(y))</text>"
            y += yStep
        }
        for (k, c) in counts.enumerated() {
            let x0 = left + Double(k) * barW
            let lower = b.start + Double(k) * b.width
            let range = "\(ReportNumber.seconds(lower)) to \(ReportNumber.seconds(lower + b.width)) s"
            for (n, (value, cls)) in [(c.0, "bar-enter"), (c.1, "bar-exit")].enumerated() where value > 0 {
                let h = Double(value) / Double(top) * plotH
                out +=
                    "<rect class=\"\(cls)\" x=\"\(SVG.n(x0 + 1 + Double(n) * (barW - 2) / 2))\" y=\"\(SVG.n(30 + plotH - h))\" width=\"\(SVG.n((barW - 2) / 2))\" height=\"\(SVG.n(h))\"><title>\(n == 0 ? "enter" : "exit") latency \(range): \(value)</title></rect>"
            }
        }
        let labelEvery = max(1, b.count / 8)
        for k in Swift.stride(from: 0, through: b.count, by: labelEvery) {
            let px = left + Double(k) * barW
            out +=
                "<text class=\"xlabel\" x=\"\(SVG.n(px))\" y=\"\(SVG.n(30 + plotH + 16))\">\(ReportNumber.text(b.start + Double(k) * b.width, b.width < 1 ? 1 : 0))</text>"
        }
        out +=
            "<line class=\"axis-line\" x1=\"\(SVG.n(left))\" y1=\"\(SVG.n(30 + plotH))\" x2=\"\(SVG.n(left + plotW))\" y2=\"\(SVG.n(30 + plotH))\"/>"
        out +=
            "<text class=\"axis-title\" x=\"\(SVG.n(left + plotW / 2))\" y=\"\(SVG.n(height - 6))\">latency, seconds (detected − true)</text>"
        out +=
            "<g class=\"plot-legend\"><rect class=\"bar-enter\" x=\"\(SVG.n(left))\" y=\"8\" width=\"12\" height=\"10\"/><text x=\"\(SVG.n(left + 16))\" y=\"17\">enter (\(enter.count))</text>"
        out +=
            "<rect class=\"bar-exit\" x=\"\(SVG.n(left + 110))\" y=\"8\" width=\"12\" height=\"10\"/><text x=\"\(SVG.n(left + 126))\" y=\"17\">exit (\(exit.count))</text></g>"
        return out + "</svg>"
    }
}
