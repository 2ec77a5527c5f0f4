/// The fixed number formats of every report rendering, so that the JSON, the HTML and the
/// terminal table show the same numbers: ratios with 3 decimals, seconds with 1, rates per hour
/// and hours with 2.
public enum ReportNumber {
    /// Decimals of each kind of quantity.
    public static let ratioDigits = 3
    public static let secondsDigits = 1
    public static let rateDigits = 2

    /// `value` rounded to `digits` decimals (half away from zero), as a `Double` for JSON.
    public static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let r = (value * scale).rounded() / scale
        return r == 0 ? 0 : r
    }

    /// `value` with exactly `digits` decimals (no locale, no exponent).
    public static func text(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = (scaled / scale).rounded(.down)
        let fraction = Int64(scaled - whole * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(Int64(whole)) }
        let f = String(fraction)
        return sign + String(Int64(whole)) + "." + String(repeating: "0", count: digits - f.count) + f
    }

    public static func ratio(_ value: Double?) -> String { value.map { text($0, ratioDigits) } ?? "-" }
    public static func seconds(_ value: Double?) -> String { value.map { text($0, secondsDigits) } ?? "-" }
    public static func rate(_ value: Double?) -> String { value.map { text($0, rateDigits) } ?? "-" }
}
