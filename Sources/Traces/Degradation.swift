import Support

/// How to turn a clean trace into what a phone would have produced (SPEC §6.2): seeded,
/// reproducible resampling, position noise scaled by accuracy, dropouts, lying accuracy spikes,
/// time jitter, and the share of enter and exit notifications the operating system never
/// delivers (seed 000: "device operating systems may not provide geofence exit signals").
///
/// The fix-level degradations are applied by ``apply(to:)`` in this order: resample, dropout,
/// spikes and noise, jitter. Each draws from its own ``Support/SplitMix64`` stream derived from
/// ``seed``, so turning one on or off leaves the draws of the others unchanged, and the same
/// seed gives the same bytes on every machine (no platform maths library is involved). Signal
/// loss acts on notifications, not fixes: see `SignalLoss` in the EventPipeline module.
///
/// The scenario key is `degrade: {resample, noise, dropout, spikes, jitter, exitLoss, entryLoss,
/// seed}`; every key is optional and the defaults change nothing.
public struct Degradation: Sendable, Hashable {
    /// `resample`: seconds between the degraded fixes (positions interpolated linearly between
    /// the clean fixes of one segment, starting at a seeded offset in `[0, interval)` after the
    /// first fix); `nil` keeps the clean fixes' times.
    public var resampleSeconds: Double?
    /// `noise`: standard deviation of the Gaussian position error on each axis (east, north), as
    /// a multiple of the fix's reported accuracy (1.0 → σ = accuracy metres per axis).
    public var noise: Double
    /// `dropout`: the share of fixes (after resampling) that are lost, in `[0, 1)`.
    public var dropout: Double
    /// `dropout.burst`: the mean number of consecutive fixes lost together (1: independent
    /// drops; larger: tunnel-like runs with the same overall share).
    public var dropoutBurst: Double
    /// `spikes`: the share of fixes whose position jumps while the reported accuracy stays as it
    /// was (a lying accuracy, as in Tracelet field logs: 200 m out at 1.9 m accuracy).
    public var spikes: Double
    /// `spikes.meters`: the typical jump; each spike moves the fix a uniform `[0.5, 1.5]` times
    /// this far in a uniform direction.
    public var spikeMeters: Double
    /// `jitter`: standard deviation of the Gaussian time error, seconds. Each fix moves by less
    /// than 45 % of the interval to its neighbours, so time order is always kept.
    public var jitterSeconds: Double
    /// `exitLoss`: the share of exit notifications never delivered to check-ins and Places.
    public var exitLoss: Double
    /// `entryLoss`: the share of entry notifications never delivered.
    public var entryLoss: Double
    /// `seed`: the seed of every random choice.
    public var seed: UInt64

    /// The longest resampling interval or jitter σ, in seconds: 100,000,000 (about three years).
    /// Times are moved in whole nanoseconds, and this keeps every shift (up to about nine σ)
    /// far inside a 64-bit count.
    public static let secondsLimit = 100_000_000.0
    /// The most fixes resampling may make of one trace (what a synthesized trace may hold by
    /// default): a million fixes take about 150 MB.
    public static let resampledFixesLimit = 10_000_000
    /// The shortest resampling interval, seconds: fix times are written to the millisecond.
    public static let shortestResampleSeconds = 0.001

    /// `n` with thousands separated by commas.
    static func grouped(_ n: Int) -> String {
        var digits = String(n)
        var k = digits.count - 3
        while k > 0 {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: k))
            k -= 3
        }
        return digits
    }
    /// The largest noise σ, as a multiple of each fix's accuracy: 1,000.
    public static let noiseLimit = 1_000.0
    /// The largest spike, in metres: 1,000 km (``Fence``'s buffer and radius limit).
    public static let spikeMetersLimit = 1_000_000.0

    public init(
        resampleSeconds: Double? = nil, noise: Double = 0, dropout: Double = 0, dropoutBurst: Double = 1, spikes: Double = 0,
        spikeMeters: Double = 200, jitterSeconds: Double = 0, exitLoss: Double = 0, entryLoss: Double = 0, seed: UInt64 = 0
    ) {
        self.resampleSeconds = resampleSeconds
        self.noise = noise
        self.dropout = dropout
        self.dropoutBurst = dropoutBurst
        self.spikes = spikes
        self.spikeMeters = spikeMeters
        self.jitterSeconds = jitterSeconds
        self.exitLoss = exitLoss
        self.entryLoss = entryLoss
        self.seed = seed
    }

    /// Whether ``apply(to:)`` changes anything.
    public var changesFixes: Bool {
        resampleSeconds != nil || noise > 0 || dropout > 0 || spikes > 0 || jitterSeconds > 0
    }

    /// Whether any notification may be lost.
    public var losesSignals: Bool { exitLoss > 0 || entryLoss > 0 }

    /// Salts of the per-degradation random streams (arbitrary distinct constants).
    enum Stream: UInt64 {
        case resample = 0x7265_7361_6D70_6C65
        case dropout = 0x6472_6F70_6F75_7473
        case spikes = 0x7370_696B_6573_2121
        case noise = 0x6E6F_6973_6567_6175
        case jitter = 0x6A69_7474_6572_2121
        case signalLoss = 0x6C6F_7373_6573_2121
    }

    /// The generator of one degradation: the seed mixed with the stream's salt.
    func generator(_ stream: Stream) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ stream.rawValue)
        return SplitMix64(seed: mixer.next())
    }

    /// The degraded fixes of a clean trace (fixes without time are passed through untouched by
    /// jitter, and dropped by resampling): its fixes through a ``DegradedFeed``, made at once.
    ///
    /// - Parameters:
    ///   - fixes: the clean fixes, in time order.
    ///   - maxGapSeconds: clean fixes further apart than this (like fixes of two segments) have
    ///     no path between them: resampling makes no fix there.
    /// - Returns: the fixes a phone would have reported; the same for the same input and seed on
    ///   every machine.
    /// - Complexity: O(n + duration / resample interval).
    ///
    /// - Throws: ``Support/FencesimError`` `.usage` when resampling would make more than
    ///   ``resampledFixesLimit`` fixes of this trace.
    public func apply(to fixes: [Fix], maxGapSeconds: Double = .infinity) throws(FencesimError) -> [Fix] {
        var feed = DegradedFeed(self, maxGapSeconds: maxGapSeconds)
        var out: [Fix] = []
        out.reserveCapacity(fixes.count)
        for fix in fixes { try feed.push(fix) { out.append($0) } }
        try feed.finish { out.append($0) }
        return out
    }
}
