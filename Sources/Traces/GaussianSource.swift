import Support

/// Standard normal deviates from a ``Support/SplitMix64`` by Marsaglia's polar method, with
/// ``PortableMath`` instead of the platform's logarithm, so a seed gives the same numbers on
/// every machine.
struct GaussianSource {
    var generator: SplitMix64
    private var spare: Double?

    init(_ generator: SplitMix64) {
        self.generator = generator
    }

    /// A uniform double in `(-1, 1)`.
    mutating func signedUnit() -> Double {
        2 * generator.nextUnitDouble() - 1
    }

    /// The next standard normal deviate.
    mutating func next() -> Double {
        if let s = spare {
            spare = nil
            return s
        }
        while true {
            let u = signedUnit()
            let v = signedUnit()
            let s = u * u + v * v
            guard s > 0, s < 1 else { continue }
            let factor = (-2 * PortableMath.log(s) / s).squareRoot()
            spare = v * factor
            return u * factor
        }
    }

    /// A uniformly distributed unit vector (by rejection from the square, no trigonometry).
    mutating func direction() -> (east: Double, north: Double) {
        while true {
            let u = signedUnit()
            let v = signedUnit()
            let s = u * u + v * v
            guard s > 1e-6, s < 1 else { continue }
            let r = s.squareRoot()
            return (u / r, v / r)
        }
    }
}
