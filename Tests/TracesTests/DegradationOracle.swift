import Support

@testable import Traces

/// The fix-level degradations as first written, each over a whole array of fixes (the oracle
/// of ``Traces/DegradedFeed``, which makes them a fix at a time): `DegradedFeedTests` checks
/// that both give the same fixes.
extension Degradation {
    /// ``apply(to:maxGapSeconds:)`` over whole arrays, resampling instant by instant
    /// (`DegradationTests.stepped`).
    func oracleApply(to fixes: [Fix], maxGapSeconds: Double = .infinity) -> [Fix] {
        var out = fixes
        if let interval = resampleSeconds, interval > 0 {
            out = DegradationTests.stepped(self, out, interval: interval, maxGap: maxGapSeconds)
        }
        if dropout > 0 { out = oracleDropOut(out) }
        if spikes > 0 || noise > 0 { out = oracleDisplace(out) }
        if jitterSeconds > 0 { out = oracleJitter(out) }
        return out
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
