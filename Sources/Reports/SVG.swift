import Support

/// Small helpers for writing SVG and HTML text: escaping and fixed-precision coordinates.
enum SVG {
    /// Escapes text for HTML and SVG content and attribute values.
    static func escape(_ text: String) -> String { XMLText.escape(text) }

    /// A coordinate with one decimal.
    static func n(_ v: Double) -> String { ReportNumber.text(v, 1) }

    /// A "nice" step (1, 2 or 5 × 10^k) near `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        var power = 1.0
        while power * 10 <= raw { power *= 10 }
        while power > raw { power /= 10 }
        let f = raw / power
        return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * power
    }
}
