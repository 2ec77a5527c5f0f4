import Support

/// The operating system's geofencing layer between geometry and the app: which fences it
/// monitors, how it decides an entry or an exit, and when (and whether) the app is told.
///
/// A profile is a plain value: a platform, its decision rule, and every free parameter with
/// the default the platform's documentation or a published measurement gives (or marked
/// assumed where none does; see ``OSProfile/parameters`` and `docs/profiles.md`). The stage
/// that applies it to one trace is ``OSLayer``; its random draws come from ``seed`` alone.
public struct OSProfile: Sendable, Equatable {
    /// The geofencing API the profile stands for.
    public enum Platform: String, Sendable, CaseIterable {
        /// `CLLocationManager.startMonitoring(for:)` with `CLCircularRegion`.
        case iosRegion = "ios-region"
        /// `CLMonitor` with `CircularGeographicCondition` (iOS 17+).
        case iosMonitor = "ios-monitor"
        /// Google Play services `GeofencingClient`.
        case androidGeofencing = "android-geofencing"
    }

    /// How the operating system decides that the device entered or left a fence.
    public enum DecisionRule: String, Sendable, CaseIterable {
        /// A minimum distance past the boundary, then a time on the same side (iOS).
        case distanceAndTime = "distance-and-time"
        /// The overlap of the fix's accuracy circle with the fence (Google Play services).
        case accuracyOverlap = "accuracy-overlap"
    }

    /// What the app hears about a fence the device is already in (or out of) when monitoring
    /// starts, at the trace's first fix.
    public enum InitialTrigger: String, Sendable, CaseIterable {
        /// Nothing: the state is learnt silently (`CLCircularRegion` without `requestState(for:)`).
        case none
        /// An enter when already inside (`INITIAL_TRIGGER_ENTER`, with `DWELL` when dwell is on).
        case enter
        /// An exit when already outside (`INITIAL_TRIGGER_EXIT`).
        case exit
        /// The current state, inside or outside, as an event (CLMonitor at process start).
        case state
    }

    /// What happens to the circle fences past ``regionLimit``.
    public enum BeyondLimit: String, Sendable, CaseIterable {
        /// The platform refuses them: the first ``regionLimit`` fences (file order) are
        /// monitored, the others never are.
        case refuse
        /// The app keeps the ``regionLimit`` fences nearest the device registered, choosing
        /// again each time the device has moved ``refreshDistanceMeters`` since the last choice
        /// (a fence added while the device is inside it gets the initial trigger).
        case nearest
    }

    public var platform: Platform
    public var rule: DecisionRule
    /// Fences monitored at once (see ``beyondLimit`` for the others).
    public var regionLimit: Int
    public var beyondLimit: BeyondLimit
    /// With ``BeyondLimit/nearest``: how far the device moves before the nearest fences are
    /// chosen again, metres.
    public var refreshDistanceMeters: Double
    /// Fences smaller than this are monitored as circles of this radius, metres.
    public var minimumRadiusMeters: Double
    /// Fences larger than this are refused (iOS `maximumRegionMonitoringDistance`), metres;
    /// `nil`: no limit.
    public var maximumRadiusMeters: Double?
    /// Distance past the boundary, inside, before an entry counts, metres (capped at
    /// ``entryDistanceCapShare`` of the effective radius, so a small fence can be entered).
    public var entryDistanceMeters: Double
    /// The cap of ``entryDistanceMeters`` as a share of the effective radius.
    public var entryDistanceCapShare: Double
    /// Distance past the boundary, outside, before an exit counts, metres.
    public var exitDistanceMeters: Double
    /// Time the device must stay on the new side before the transition is reported, seconds.
    public var sameSideSeconds: Double
    /// Accuracy-overlap thresholds: entry when the overlap is at least ``enterOverlapLarger``
    /// of the accuracy circle (fence at least as large as it) or ``enterOverlapSmaller`` of the
    /// fence (fence smaller); exit at or below the `exit` shares.
    public var enterOverlapLarger: Double
    public var enterOverlapSmaller: Double
    public var exitOverlapLarger: Double
    public var exitOverlapSmaller: Double
    public var initialTrigger: InitialTrigger
    /// Android's `loiteringDelay` in seconds: a dwell this long after the entry; `nil`: dwell
    /// transitions are not requested.
    public var loiteringDelaySeconds: Double?
    /// Android's notification responsiveness in seconds: deliveries are batched to multiples
    /// of it (0: no batching).
    public var responsivenessSeconds: Double
    /// Delivery delay: at least ``delayMinimumSeconds``, plus an exponential part of mean
    /// ``delayMeanSeconds``.
    public var delayMinimumSeconds: Double
    public var delayMeanSeconds: Double
    /// Shares of decided entries and exits never delivered.
    public var entryLoss: Double
    public var exitLoss: Double
    /// Share of delivered notifications delivered a second time.
    public var duplicateShare: Double
    /// Seed of every draw (loss, delay, duplicates).
    public var seed: UInt64

    /// The upper bound of every time parameter, seconds (a year): delays past it make no sense
    /// and keep timestamps in range.
    public static let secondsLimit = 31_536_000.0
    /// The upper bound of every distance parameter, metres.
    public static let metersLimit = 1_000_000.0
}

extension OSProfile {
    /// The reason a `dropped` event gives.
    public enum DropReason: String, Sendable, CaseIterable {
        /// The fence is past the platform's region limit.
        case regionLimit
        /// The fence is not a circle: the platform monitors circles only.
        case notCircle
        /// The fence's radius is past ``OSProfile/maximumRadiusMeters``.
        case radiusLimit
        /// The operating system decided the transition and never delivered it (``OSProfile/entryLoss``,
        /// ``OSProfile/exitLoss``).
        case lost
        /// The device crossed past the decision distance and came back before ``OSProfile/sameSideSeconds``.
        case unconfirmed
    }

    /// Checks every parameter's range.
    ///
    /// - Throws: a message naming the parameter (the caller locates it).
    public func validate() throws(FencesimError) {
        func fail(_ message: String) -> FencesimError { FencesimError(.badData, message) }
        guard regionLimit >= 0 else { throw fail("regionLimit must be a non-negative number of fences") }
        for (name, v) in [
            ("minimumRadius", minimumRadiusMeters), ("entryDistance", entryDistanceMeters), ("exitDistance", exitDistanceMeters),
            ("refreshDistance", refreshDistanceMeters),
        ] {
            guard v.isFinite, v >= 0, v <= OSProfile.metersLimit else { throw fail("\(name) must be 0 to \(Int(OSProfile.metersLimit)) m") }
        }
        var times = [
            ("sameSide", sameSideSeconds), ("responsiveness", responsivenessSeconds), ("delayMinimum", delayMinimumSeconds),
            ("delayMean", delayMeanSeconds),
        ]
        if let l = loiteringDelaySeconds { times.append(("loiteringDelay", l)) }
        if let m = maximumRadiusMeters, !(m.isFinite && m > 0 && m <= OSProfile.metersLimit) {
            throw fail("maximumRadius must be above 0 and at most \(Int(OSProfile.metersLimit)) m, or none")
        }
        for (name, v) in times {
            guard v.isFinite, v >= 0, v <= OSProfile.secondsLimit else {
                throw fail("\(name) must be 0 to \(Int(OSProfile.secondsLimit)) s")
            }
        }
        for (name, v) in [
            ("entryDistanceCap", entryDistanceCapShare), ("enterOverlapLarger", enterOverlapLarger),
            ("enterOverlapSmaller", enterOverlapSmaller), ("exitOverlapLarger", exitOverlapLarger),
            ("exitOverlapSmaller", exitOverlapSmaller), ("entryLoss", entryLoss), ("exitLoss", exitLoss),
            ("duplicate", duplicateShare),
        ] {
            guard v.isFinite, v >= 0, v <= 1 else { throw fail("\(name) must be a share from 0 to 1") }
        }
        guard exitOverlapLarger < enterOverlapLarger, exitOverlapSmaller < enterOverlapSmaller else {
            throw fail("an exit overlap must be below its enter overlap (else a fence could be entered and left at once)")
        }
    }
}
