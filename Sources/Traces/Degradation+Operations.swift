import Support

extension Degradation {
    /// WGS84 semi-major axis and first eccentricity squared, for metres ↔ degrees at a latitude.
    static let equatorialRadius = 6_378_137.0
    static let eccentricitySquared = 0.006_694_379_990_141_317

    /// Fixes at `first + offset + k·interval`, interpolated linearly (in time) between the two
    /// clean fixes around each instant, made as the clean fixes come (see ``DegradedFeed``).
    /// Instants between two segments, or between two fixes more than `maxGapSeconds` apart, get
    /// no fix (the source had no signal there), and are not stepped through: the instants of
    /// each pair of fixes are counted, then made. Fixes without time are dropped; the clean fixes
    /// are in time order (an instant at several fixes' time takes the last of them).
    struct Resampler {
        let interval: Double
        let maxGapSeconds: Double
        let limit: Int
        /// Where a feed past the limit is said to be.
        let file: String?
        let step: Int64
        var rng: SplitMix64
        var firstTime: Timestamp?
        /// A seeded phase, whole milliseconds, so that different seeds sample different instants
        /// (drawn at the first timed fix).
        var phase: Int64 = 0
        /// The last timed fix.
        var previous: Fix?
        /// Fixes made so far.
        var count = 0

        init(_ degradation: Degradation, interval: Double, maxGapSeconds: Double, limit: Int, file: String? = nil) {
            self.interval = interval
            self.file = file
            self.maxGapSeconds = maxGapSeconds
            self.limit = limit
            step = max(1, Int64((interval * 1e9).rounded()))
            rng = degradation.generator(.resample)
        }

        /// Takes the next clean fix; makes the fixes of the pair it ends.
        ///
        /// - Throws: ``Support/FencesimError`` `.usage` when the feed would hold more than
        ///   `limit` fixes: said before any fix of the pair that passes it is made.
        mutating func push(_ fix: Fix, to emit: (Fix) throws(FencesimError) -> Void) throws(FencesimError) {
            guard let tb = fix.time else { return }
            if firstTime == nil {
                firstTime = tb
                phase = Int64(rng.nextUnitDouble() * Double(step)) / 1_000_000 * 1_000_000
            }
            defer { previous = fix }
            guard let a = previous, let ta = a.time, ta < tb else { return }
            let k0 = firstInstant(atOrAfter: ta)
            let k1 = firstInstant(atOrAfter: tb)
            guard k1 > k0 else { return }
            let joined = a.segment == fix.segment && tb.seconds(since: ta) <= maxGapSeconds
            let atA = instant(k0) == ta ? 1 : 0
            let made = joined ? k1 - k0 : Int64(atA)
            if made > Int64(limit - count) { throw tooMany(nil) }
            count += Int(made)
            for k in k0..<k1 {
                let t = instant(k)
                if t == ta {
                    try emit(a)
                    continue
                }
                guard joined else { break }
                let f = Double(t.nanoseconds(since: ta)) / Double(tb.nanoseconds(since: ta))
                var made = a
                made.time = t
                made.latitude = a.latitude + (fix.latitude - a.latitude) * f
                made.longitude = a.longitude + (fix.longitude - a.longitude) * f
                made.accuracyMeters = a.accuracyMeters + (fix.accuracyMeters - a.accuracyMeters) * f
                if let sa = a.speedMetersPerSecond, let sb = fix.speedMetersPerSecond { made.speedMetersPerSecond = sa + (sb - sa) * f }
                if let ea = a.altitudeMeters, let eb = fix.altitudeMeters { made.altitudeMeters = ea + (eb - ea) * f }
                try emit(made)
            }
        }

        /// Makes the last clean fix when an instant falls on it.
        mutating func finish(to emit: (Fix) throws(FencesimError) -> Void) throws(FencesimError) {
            guard let last = previous, let lastTime = last.time, instant(firstInstant(atOrAfter: lastTime)) == lastTime else { return }
            if count + 1 > limit { throw tooMany(count + 1) }
            count += 1
            try emit(last)
        }

        /// The error of a feed past the limit, of `fixes` fixes (`nil`: more; not counted further).
        func tooMany(_ fixes: Int?) -> FencesimError {
            let counted = fixes.map { "\(Degradation.grouped($0)) fixes" } ?? "more fixes"
            return FencesimError(
                .usage,
                "resampling every \(interval) s makes \(counted) of this trace, more than the \(Degradation.grouped(limit)) a degraded feed may hold; resample less often",
                at: file.map { SourceLocation(file: $0) })
        }

        /// The first instant at or after `t` (nanoseconds from the first fix counted in 128 bits:
        /// a trace may span more than the 292 years 64 bits hold).
        func firstInstant(atOrAfter t: Timestamp) -> Int64 {
            guard let firstTime else { return 0 }
            let (high, low) = (t.seconds - firstTime.seconds).multipliedFullWidth(by: 1_000_000_000)
            var d = (high: high, low: low)
            let adjust = Int64(t.nanoseconds) - Int64(firstTime.nanoseconds) - phase
            let (sum, carry) = d.low.addingReportingOverflow(UInt64(bitPattern: adjust))
            d.high += (adjust < 0 ? -1 : 0) + (carry ? 1 : 0)
            d.low = sum
            guard d.high > 0 || (d.high == 0 && d.low > 0) else { return 0 }
            let (q, r) = step.dividingFullWidth(d)
            return q + (r == 0 ? 0 : 1)
        }

        /// Instant `k`: `first + phase + k·step`, the product in 128 bits.
        func instant(_ k: Int64) -> Timestamp {
            guard let firstTime else { return Timestamp(seconds: 0) }
            let (seconds, nanoseconds) = Int64(1_000_000_000).dividingFullWidth(k.multipliedFullWidth(by: step))
            return Timestamp(seconds: firstTime.seconds + seconds, nanoseconds: Int64(firstTime.nanoseconds) + phase + nanoseconds)
        }
    }

    /// The resampled fixes of `fixes` (``Resampler``), made at once.
    ///
    /// - Throws: ``Support/FencesimError`` `.usage` when the feed would hold more than `limit`
    ///   fixes.
    func resample(
        _ fixes: [Fix], interval: Double, maxGapSeconds: Double = .infinity,
        limit: Int = Degradation.resampledFixesLimit
    ) throws(FencesimError) -> [Fix] {
        var resampler = Resampler(self, interval: interval, maxGapSeconds: maxGapSeconds, limit: limit)
        var out: [Fix] = []
        for fix in fixes { try resampler.push(fix) { out.append($0) } }
        try resampler.finish { out.append($0) }
        return out
    }

    /// Drops fixes with a two-state Markov chain whose long-run share of dropped fixes is
    /// ``dropout`` and whose dropped runs last ``dropoutBurst`` fixes on average.
    struct Dropper {
        let share: Double
        let burst: Double
        let stay: Double
        let start: Double
        var rng: SplitMix64
        var dropped: Bool

        init(_ degradation: Degradation) {
            share = min(max(degradation.dropout, 0), 0.999_999)
            burst = max(1, degradation.dropoutBurst)
            stay = 1 - 1 / burst
            start = burst <= 1 ? share : min(1, share / ((1 - share) * burst))
            rng = degradation.generator(.dropout)
            dropped = rng.nextUnitDouble() < share
        }

        /// Whether the next fix is kept.
        mutating func keeps() -> Bool {
            let u = rng.nextUnitDouble()
            if burst <= 1 {
                dropped = u < share
            } else {
                dropped = dropped ? u < stay : u < start
            }
            return !dropped
        }
    }

    /// Moves fixes by Gaussian noise (σ = ``noise`` × accuracy per axis) and, for a share
    /// ``spikes`` of them, by a jump of about ``spikeMeters`` that their accuracy does not admit.
    /// Every fix takes the same number of draws, so one fix's fate never shifts another's.
    struct Displacer {
        let noise: Double
        let spikes: Double
        let spikeMeters: Double
        var noiseSource: GaussianSource
        var spikeSource: GaussianSource

        init(_ degradation: Degradation) {
            noise = degradation.noise
            spikes = degradation.spikes
            spikeMeters = degradation.spikeMeters
            noiseSource = GaussianSource(degradation.generator(.noise))
            spikeSource = GaussianSource(degradation.generator(.spikes))
        }

        mutating func displace(_ fix: inout Fix) {
            var east = 0.0
            var north = 0.0
            if noise > 0 {
                let sigma = noise * fix.accuracyMeters
                east += noiseSource.next() * sigma
                north += noiseSource.next() * sigma
            }
            if spikes > 0 {
                let u = spikeSource.generator.nextUnitDouble()
                let distance = spikeMeters * (0.5 + spikeSource.generator.nextUnitDouble())
                let direction = spikeSource.direction()
                if u < spikes {
                    east += direction.east * distance
                    north += direction.north * distance
                }
            }
            guard east != 0 || north != 0 else { return }
            Degradation.move(&fix, east: east, north: north)
        }
    }

    /// Moves a fix by metres east and north on the WGS84 ellipsoid (radii of curvature at its
    /// latitude; exact enough for metres to kilometres).
    static func move(_ fix: inout Fix, east: Double, north: Double) {
        let phi = fix.latitude * .pi / 180
        let s = PortableMath.sin(phi)
        let c = PortableMath.cos(phi)
        let w = (1 - eccentricitySquared * s * s).squareRoot()
        let meridional = equatorialRadius * (1 - eccentricitySquared) / (w * w * w)
        let normal = equatorialRadius / w
        let latitude = fix.latitude + north / meridional * 180 / .pi
        fix.latitude = min(90, max(-90, latitude))
        if c > 1e-9 {
            var longitude = fix.longitude + east / (normal * c) * 180 / .pi
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            fix.longitude = longitude
        }
    }

    /// Shifts each timed fix's time by Gaussian jitter (σ = ``jitterSeconds``), whole
    /// milliseconds, limited to 45 % of the interval to each neighbour so that the order of the
    /// fixes never changes. A fix is let go when the one after it comes (or at the end).
    struct Jitterer {
        let sigma: Double
        var source: GaussianSource
        /// The time of the fix before the pending one (`nil`: none, or without time).
        var previousTime: Timestamp?
        /// The fix waiting for its successor's time.
        var pending: Fix?
        /// The last moved time let go.
        var previousNew: Timestamp?

        init(_ degradation: Degradation) {
            sigma = degradation.jitterSeconds
            source = GaussianSource(degradation.generator(.jitter))
        }

        mutating func push(_ fix: Fix, to emit: (Fix) throws(FencesimError) -> Void) throws(FencesimError) {
            if let pending {
                try emit(moved(pending, next: fix.time))
                previousTime = pending.time
            }
            pending = fix
        }

        mutating func finish(to emit: (Fix) throws(FencesimError) -> Void) throws(FencesimError) {
            guard let pending else { return }
            self.pending = nil
            try emit(moved(pending, next: nil))
        }

        /// `fix` with its time moved, given its neighbours' times.
        private mutating func moved(_ fix: Fix, next nextTime: Timestamp?) -> Fix {
            guard let t = fix.time else { return fix }
            var offset = source.next() * sigma
            // The first and last fixes are held by their one neighbour on both sides.
            let previousGap = previousTime.map { t.seconds(since: $0) }
            let nextGap = nextTime.map { $0.seconds(since: t) }
            let before = previousGap ?? nextGap
            let after = nextGap ?? previousGap
            if offset < 0, let before { offset = max(offset, -0.45 * before) }
            if offset > 0, let after { offset = min(offset, 0.45 * after) }
            var moved = t.adding(nanoseconds: Int64((offset * 1000).rounded()) * 1_000_000)
            if let previousNew, moved <= previousNew { moved = t }
            previousNew = moved
            var out = fix
            out.time = moved
            return out
        }
    }
}
