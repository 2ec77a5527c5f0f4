import Support

@testable import Traces

/// The fix-level degradations as first written, each over a whole array of fixes (the oracle
/// of ``Traces/DegradedFeed``, which makes them a fix at a time): `DegradedFeedTests` checks
/// that both give the same fixes.
extension Degradation {
    /// ``apply(to:maxGapSeconds:)`` over whole arrays.
    func oracleApply(to fixes: [Fix], maxGapSeconds: Double = .infinity) throws(OracleResampleLimit) -> [Fix] {
        var out = fixes
        if let interval = resampleSeconds, interval > 0 { out = try oracleResample(out, interval: interval, maxGapSeconds: maxGapSeconds) }
        if dropout > 0 { out = oracleDropOut(out) }
        if spikes > 0 || noise > 0 { out = oracleDisplace(out) }
        if jitterSeconds > 0 { out = oracleJitter(out) }
        return out
    }

    /// Fixes at `first + offset + k·interval`, interpolated linearly (in time) between the two
    /// clean fixes around each instant; instants between two segments, or between two fixes more
    /// than `maxGapSeconds` apart, get no fix (the source had no signal there), and are not
    /// stepped through: the instants of each pair of fixes are counted, then made. Fixes without
    /// time are dropped; the clean fixes are in time order (an instant at several fixes' time
    /// takes the last of them).
    ///
    /// - Throws: ``ResampleLimit`` when the feed would hold more than `limit` fixes; nothing
    ///   is made then.
    func oracleResample(
        _ fixes: [Fix], interval: Double, maxGapSeconds: Double = .infinity,
        limit: Int = Degradation.resampledFixesLimit
    ) throws(OracleResampleLimit) -> [Fix] {
        let timed = fixes.filter { $0.time != nil }
        guard let firstTime = timed.first?.time, let lastTime = timed.last?.time else { return [] }
        let step = max(1, Int64((interval * 1e9).rounded()))
        var rng = generator(.resample)
        // A seeded phase, whole milliseconds, so that different seeds sample different instants.
        let phase = Int64(rng.nextUnitDouble() * Double(step)) / 1_000_000 * 1_000_000
        /// The first instant at or after `t` (nanoseconds from the first fix counted in 128 bits:
        /// a trace may span more than the 292 years 64 bits hold).
        func firstInstant(atOrAfter t: Timestamp) -> Int64 {
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
        /// Per pair of consecutive fixes with `a` earlier than `b`: its instants `k0..<k1`, and
        /// whether a path joins them.
        func instants(_ j: Int) -> (k0: Int64, k1: Int64, joined: Bool)? {
            let a = timed[j]
            let b = timed[j + 1]
            guard let ta = a.time, let tb = b.time, ta < tb else { return nil }
            let k0 = firstInstant(atOrAfter: ta)
            let k1 = firstInstant(atOrAfter: tb)
            return (k0, k1, a.segment == b.segment && tb.seconds(since: ta) <= maxGapSeconds)
        }
        /// Instant `k`: `first + phase + k·step`, the product in 128 bits.
        func instant(_ k: Int64) -> Timestamp {
            let (seconds, nanoseconds) = Int64(1_000_000_000).dividingFullWidth(k.multipliedFullWidth(by: step))
            return Timestamp(seconds: firstTime.seconds + seconds, nanoseconds: Int64(firstTime.nanoseconds) + phase + nanoseconds)
        }
        // How many fixes the feed would hold, counted before any is made.
        var count = 0
        for j in 0..<max(0, timed.count - 1) {
            guard let (k0, k1, joined) = instants(j), k1 > k0 else { continue }
            let atA = instant(k0) == timed[j].time ? 1 : 0
            let made = joined ? k1 - k0 : Int64(atA)
            if made > Int64(limit - count) { throw OracleResampleLimit(fixes: nil, limit: limit) }
            count += Int(made)
        }
        if instant(firstInstant(atOrAfter: lastTime)) == lastTime { count += 1 }
        if count > limit { throw OracleResampleLimit(fixes: count, limit: limit) }
        var out: [Fix] = []
        out.reserveCapacity(count)
        for j in 0..<max(0, timed.count - 1) {
            guard let (k0, k1, joined) = instants(j), k1 > k0 else { continue }
            let a = timed[j]
            let b = timed[j + 1]
            guard let ta = a.time, let tb = b.time else { continue }
            for k in k0..<k1 {
                let t = instant(k)
                if t == ta {
                    out.append(a)
                    continue
                }
                guard joined else { break }
                let f = Double(t.nanoseconds(since: ta)) / Double(tb.nanoseconds(since: ta))
                var fix = a
                fix.time = t
                fix.latitude = a.latitude + (b.latitude - a.latitude) * f
                fix.longitude = a.longitude + (b.longitude - a.longitude) * f
                fix.accuracyMeters = a.accuracyMeters + (b.accuracyMeters - a.accuracyMeters) * f
                if let sa = a.speedMetersPerSecond, let sb = b.speedMetersPerSecond { fix.speedMetersPerSecond = sa + (sb - sa) * f }
                if let ea = a.altitudeMeters, let eb = b.altitudeMeters { fix.altitudeMeters = ea + (eb - ea) * f }
                out.append(fix)
            }
        }
        if let last = timed.last, instant(firstInstant(atOrAfter: lastTime)) == lastTime { out.append(last) }
        return out
    }

    /// A resampling that would make more fixes than a feed may hold.
    struct OracleResampleLimit: Error {
        /// How many it would make (`nil`: more than the limit; not counted further).
        var fixes: Int?
        var limit: Int
    }

    /// Drops fixes with a two-state Markov chain whose long-run share of dropped fixes is
    /// ``dropout`` and whose dropped runs last ``dropoutBurst`` fixes on average.
    func oracleDropOut(_ fixes: [Fix]) -> [Fix] {
        let share = min(max(dropout, 0), 0.999_999)
        let burst = max(1, dropoutBurst)
        let stay = 1 - 1 / burst
        let start = burst <= 1 ? share : min(1, share / ((1 - share) * burst))
        var rng = generator(.dropout)
        var dropped = rng.nextUnitDouble() < share
        var out: [Fix] = []
        out.reserveCapacity(fixes.count)
        for fix in fixes {
            let u = rng.nextUnitDouble()
            if burst <= 1 {
                dropped = u < share
            } else {
                dropped = dropped ? u < stay : u < start
            }
            if !dropped { out.append(fix) }
        }
        return out
    }

    /// Moves fixes by Gaussian noise (σ = ``noise`` × accuracy per axis) and, for a share
    /// ``spikes`` of them, by a jump of about ``spikeMeters`` that their accuracy does not admit.
    /// Every fix takes the same number of draws, so one fix's fate never shifts another's.
    func oracleDisplace(_ fixes: [Fix]) -> [Fix] {
        var noiseSource = GaussianSource(generator(.noise))
        var spikeSource = GaussianSource(generator(.spikes))
        var out = fixes
        for k in out.indices {
            var east = 0.0
            var north = 0.0
            if noise > 0 {
                let sigma = noise * out[k].accuracyMeters
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
            guard east != 0 || north != 0 else { continue }
            Degradation.move(&out[k], east: east, north: north)
        }
        return out
    }

    /// Shifts each timed fix's time by Gaussian jitter (σ = ``jitterSeconds``), whole
    /// milliseconds, limited to 45 % of the interval to each neighbour so that the order of the
    /// fixes never changes.
    func oracleJitter(_ fixes: [Fix]) -> [Fix] {
        var source = GaussianSource(generator(.jitter))
        var out = fixes
        var previousNew: Timestamp?
        for k in out.indices {
            guard let t = fixes[k].time else { continue }
            var offset = source.next() * jitterSeconds
            // The first and last fixes are held by their one neighbour on both sides.
            let previousGap = k > 0 ? fixes[k - 1].time.map { t.seconds(since: $0) } : nil
            let nextGap = k + 1 < fixes.count ? fixes[k + 1].time.map { $0.seconds(since: t) } : nil
            let before = previousGap ?? nextGap
            let after = nextGap ?? previousGap
            if offset < 0, let before { offset = max(offset, -0.45 * before) }
            if offset > 0, let after { offset = min(offset, 0.45 * after) }
            var moved = t.adding(nanoseconds: Int64((offset * 1000).rounded()) * 1_000_000)
            if let previousNew, moved <= previousNew { moved = t }
            out[k].time = moved
            previousNew = moved
        }
        return out
    }
}
