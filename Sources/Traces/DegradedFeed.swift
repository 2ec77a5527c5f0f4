import Support

/// A ``Degradation`` applied to a clean trace's fixes as they come (SPEC §6.2): each fix in is
/// turned into the fixes a phone would have reported, in order, without holding the trace, so
/// that a degraded replay or report of a long drive needs no more memory than a clean one. The
/// steps run in ``Degradation/apply(to:)``'s order (resample, dropout, spikes and noise, jitter),
/// each drawing from its own stream in fix order: the fixes out are the same whether the trace
/// comes whole or a fix at a time.
///
/// A fix may wait inside the feed for the next one (resampling interpolates towards it, jitter
/// is bounded by it); ``finish(to:)`` lets the last ones go.
public struct DegradedFeed {
    private var resampler: Degradation.Resampler?
    private var dropper: Degradation.Dropper?
    private var displacer: Degradation.Displacer?
    private var jitterer: Degradation.Jitterer?

    /// - Parameters:
    ///   - maxGapSeconds: clean fixes further apart than this (like fixes of two segments) have
    ///     no path between them: resampling makes no fix there.
    ///   - limit: the most fixes resampling may make (``Degradation/resampledFixesLimit``).
    ///   - file: the trace's file, where a feed past the limit is said to be.
    public init(
        _ degradation: Degradation, maxGapSeconds: Double = .infinity, limit: Int = Degradation.resampledFixesLimit,
        file: String? = nil
    ) {
        if let interval = degradation.resampleSeconds, interval > 0 {
            resampler = Degradation.Resampler(degradation, interval: interval, maxGapSeconds: maxGapSeconds, limit: limit, file: file)
        }
        if degradation.dropout > 0 { dropper = Degradation.Dropper(degradation) }
        if degradation.spikes > 0 || degradation.noise > 0 { displacer = Degradation.Displacer(degradation) }
        if degradation.jitterSeconds > 0 { jitterer = Degradation.Jitterer(degradation) }
    }

    /// Takes the clean trace's next fix and hands `emit` the degraded fixes it lets go.
    ///
    /// - Throws: ``Support/FencesimError`` `.usage` when resampling would make more fixes than
    ///   the limit (said before the fixes that pass it are made), or what `emit` throws.
    public mutating func push(_ fix: Fix, to emit: (Fix) throws(FencesimError) -> Void) throws(FencesimError) {
        guard var resampler else { return try resampled(fix, emit) }
        self.resampler = nil
        defer { self.resampler = resampler }
        try resampler.push(fix) { (made: Fix) throws(FencesimError) in try self.resampled(made, emit) }
    }

    /// The end of the clean trace: hands `emit` the fixes still waiting.
    public mutating func finish(to emit: (Fix) throws(FencesimError) -> Void) throws(FencesimError) {
        if var resampler {
            self.resampler = nil
            defer { self.resampler = resampler }
            try resampler.finish { (made: Fix) throws(FencesimError) in try self.resampled(made, emit) }
        }
        if var jitterer {
            self.jitterer = nil
            defer { self.jitterer = jitterer }
            try jitterer.finish(to: emit)
        }
    }

    /// The steps after resampling, for one fix.
    private mutating func resampled(_ fix: Fix, _ emit: (Fix) throws(FencesimError) -> Void) throws(FencesimError) {
        if dropper != nil, !dropper!.keeps() { return }
        var fix = fix
        if displacer != nil { displacer!.displace(&fix) }
        guard var jitterer else { return try emit(fix) }
        self.jitterer = nil
        defer { self.jitterer = jitterer }
        try jitterer.push(fix, to: emit)
    }
}
