/// A small seeded random number generator (Steele, Lea and Flood's SplitMix64, as in
/// swift-algorithms' test utilities): the same seed gives the same sequence on every machine.
///
/// fencesim never uses the system generator in the engine; every random choice (noise,
/// dropouts, `~cachebust`) takes one of these.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in `[0, 1)` with 53 random bits.
    public mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A standard normal deviate (Box–Muller; deterministic for a given state).
    public mutating func nextGaussian() -> Double {
        var u1 = nextUnitDouble()
        if u1 < 1e-300 { u1 = 1e-300 }
        let u2 = nextUnitDouble()
        return (-2 * _log(u1)).squareRoot() * _cos(2 * Double.pi * u2)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@inline(__always) private func _log(_ x: Double) -> Double { log(x) }
@inline(__always) private func _cos(_ x: Double) -> Double { cos(x) }
