/// Number-to-text conversions as each SDK's runtime does them.
enum NumberText {
    /// Swift's `description` of a `Double` (what `String(describing:)` gives on iOS): shortest
    /// round-trip digits, `3.0`, `1e+20`, `1e-05`.
    static func swift(_ value: Double) -> String {
        "\(value)"
    }

    /// Java's `Double.toString` (JDK 19+ shortest digits): decimal notation with at least one
    /// fraction digit for magnitudes in [10^-3, 10^7), otherwise `d.dddE±n` (`1.0E20`,
    /// `1.2345678E7`, `1.0E-4`).
    static func java(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let sign = value < 0 ? "-" : ""
        let (digits, exponent) = decimalDigits(of: abs(value))
        // value = 0.d1d2… × 10^exponent = d1.d2… × 10^(exponent - 1)
        let scientific = exponent - 1
        if (-3..<7).contains(scientific) {
            if scientific >= 0 {
                let intCount = scientific + 1
                var integer = String(digits.prefix(intCount))
                if integer.count < intCount { integer += String(repeating: "0", count: intCount - integer.count) }
                let fraction = digits.count > intCount ? String(digits.dropFirst(intCount)) : "0"
                return sign + integer + "." + fraction
            }
            return sign + "0." + String(repeating: "0", count: -scientific - 1) + digits
        }
        let first = String(digits.prefix(1))
        let rest = digits.count > 1 ? String(digits.dropFirst()) : "0"
        return sign + first + "." + rest + "E" + String(scientific)
    }

    /// The shortest round-trip decimal digits of a positive finite `value` (no leading or
    /// trailing zeros) and the exponent `e` with value = 0.digits × 10^e, taken from Swift's
    /// shortest representation.
    static func decimalDigits(of value: Double) -> (digits: String, exponent: Int) {
        let text = "\(value)"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let integer = parts.first.map(String.init) ?? ""
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = integer + fraction
        var pointPosition = integer.count  // digits before the decimal point
        while digits.hasPrefix("0") {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.hasSuffix("0") { digits.removeLast() }
        if digits.isEmpty { return ("0", 1) }
        return (digits, pointPosition + exponent)
    }

    /// Java's `Double.parseDouble`: surrounding whitespace (characters up to U+0020) ignored, an
    /// optional trailing `d`/`D`/`f`/`F`, `NaN` and `Infinity` spelled exactly so.
    static func javaParseDouble(_ text: String) -> Double? {
        var body = Substring(text)
        while let c = body.unicodeScalars.first, c.value <= 0x20 { body = body.dropFirst() }
        while let c = body.unicodeScalars.last, c.value <= 0x20 { body = body.dropLast() }
        if let last = body.last, "dDfF".contains(last), body.count > 1 { body = body.dropLast() }
        guard !body.isEmpty else { return nil }
        switch body {
        case "NaN", "+NaN", "-NaN": return .nan
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        // Swift also reads "inf", "nan" and "infinity" in any case; Java does not.
        let lower = body.lowercased()
        if lower.contains("n") && !lower.hasPrefix("0x") { return nil }
        return Double(body)
    }
}
