/// The few transcendental functions degradation needs, computed with IEEE-754 additions,
/// multiplications, divisions and square roots only.
///
/// The platform's `log`, `sin` and `cos` may differ in the last bit between C libraries; these
/// do not, so a degraded trace is the same bytes on every machine for a given seed (SPEC §6.2).
/// Accuracy is a few units in the last place, far below what a trace records.
public enum PortableMath {
    static let ln2 = 0.693_147_180_559_945_309_4

    /// The natural logarithm of a positive finite `x`.
    public static func log(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "log of a non-positive or non-finite number")
        // x = m · 2^e with m in [1, 2): both parts are read from the bits, exactly.
        var m = x.significand
        var e = Double(x.exponent)
        if m > 1.414_213_562_373_095_1 {
            m /= 2
            e += 1
        }
        // log(m) = 2 atanh(s), s = (m − 1)/(m + 1), |s| < 0.172.
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var term = s
        var sum = 0.0
        var k = 1.0
        while k < 40 {
            sum += term / k
            term *= s2
            k += 2
        }
        return e * ln2 + 2 * sum
    }

    /// The sine of `x` for |x| ≤ π/2 (a latitude in radians).
    static func sin(_ x: Double) -> Double {
        let x2 = x * x
        var term = x
        var sum = x
        var n = 1.0
        for _ in 0..<14 {
            term = -term * x2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    /// The cosine of `x` for |x| ≤ π/2.
    public static func cos(_ x: Double) -> Double {
        let x2 = x * x
        var term = 1.0
        var sum = 1.0
        var n = 0.0
        for _ in 0..<14 {
            term = -term * x2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }
}
