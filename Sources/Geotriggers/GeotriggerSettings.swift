import Fences

/// The settings of SPEC §2 that decide when a fence notifies, for one fence once global, zone and
/// fence overrides are resolved.
public struct GeotriggerSettings: Hashable, Sendable {
    /// What is tested against the fence: the fix's point, or a disc of radius equal to the
    /// fix's accuracy (ArcGIS `useGeometry` / `useGeometryWithAccuracy`).
    public enum Feed: String, Hashable, Sendable, CaseIterable {
        case point, accuracy
    }

    /// When the feed counts as entered and exited (ArcGIS `FenceEnterExitSpatialRelationship`).
    /// The boundary counts as inside in every case.
    public enum Relationship: String, Hashable, Sendable, CaseIterable {
        /// Enter when the feed intersects the fence; exit when it no longer does.
        case intersects
        /// Enter when the fence contains the feed; exit when it no longer does.
        case contains
        /// Enter when contained; exit only when the feed no longer intersects (hysteresis).
        case containsIntersects = "contains-intersects"
    }

    /// Which notifications are written; state is tracked regardless.
    public enum Notify: String, Hashable, Sendable, CaseIterable {
        case enter, exit
        case enterOrExit = "enter-or-exit"

        public var includesEnter: Bool { self != .exit }
        public var includesExit: Bool { self != .enter }
    }

    /// Whether a first fix already inside a fence notifies an enter.
    public enum InitialTrigger: String, Hashable, Sendable, CaseIterable {
        case enter, none
    }

    /// What to do with a fence crossed entirely between two consecutive fixes of a segment.
    public enum GapPolicy: String, Hashable, Sendable, CaseIterable {
        /// A `passthrough` event with the interpolated entry and exit times.
        case report
        /// An `enter` and an `exit` marked `interpolated: true`, at the interpolated times.
        case interpolate
        /// Nothing.
        case ignore
    }

    /// Whether the log says where the device was, not only when that changed (Tile38's
    /// `inside` detect, CLMonitor's condition state).
    public enum Level: String, Hashable, Sendable, CaseIterable {
        /// Transitions only.
        case none
        /// An `inside` line for each stretch the fence's state was inside (from the change in,
        /// silent initial ones included, to the change out or the trace's end), written at its end.
        case intervals
    }

    /// How long a new state must hold before it is confirmed.
    public enum Threshold: Hashable, Sendable, CustomStringConvertible {
        /// Seconds from the first fix showing the new state.
        case seconds(Double)
        /// Consecutive fixes showing the new state, the first included.
        case fixes(Int)

        public static let immediate = Threshold.seconds(0)

        public var isImmediate: Bool {
            switch self {
            case .seconds(let s): s <= 0
            case .fixes(let n): n <= 1
            }
        }

        public var description: String {
            switch self {
            case .seconds(let s): "\(s) s"
            case .fixes(let n): "\(n) fixes"
            }
        }
    }

    /// The largest buffer, either way, that a flag, a scenario or a fence may give
    /// (``Fences/Fence/bufferLimitMeters``).
    public static let bufferLimitMeters = Fence.bufferLimitMeters
    /// The longest `maxGap`, seconds (about three years): a gap joined by a straight path is
    /// then counted in nanoseconds without overflow.
    public static let maxGapLimitSeconds = 100_000_000.0

    public var feed: Feed = .point
    public var relationship: Relationship = .intersects
    /// Metres added around the fence; negative shrinks polygons and circles. Within
    /// ±``bufferLimitMeters``.
    public var bufferMeters: Double = 0
    public var notify: Notify = .enterOrExit
    public var initialTrigger: InitialTrigger = .enter
    /// Fixes that fail the filter are skipped for this fence (and counted).
    public var filter: FilterExpression?
    /// Seconds continuously inside before a `dwell` event; `nil` for none.
    public var dwellSeconds: Double?
    public var enterAfter: Threshold = .immediate
    public var exitAfter: Threshold = .immediate
    /// A longer gap between fixes starts a new segment: no crossing is inferred across it.
    public var maxGapSeconds: Double = 120
    public var gapPolicy: GapPolicy = .report
    /// Rendered into each notification.
    public var message: MessageTemplate?
    public var level: Level = .none
    /// The fences the geotrigger watches, by their properties (a where-clause over
    /// ``FilterExpression/Subject/fences``); `nil` watches every fence. Not a setting of a fence:
    /// ``applied(to:)`` leaves it out, and only a scenario's or the command line's geotrigger
    /// may give it.
    public var fencesWhere: FilterExpression?

    public init() {}
}

/// Settings given at one level (scenario, zone or fence); `nil` means "inherit".
public struct GeotriggerOverrides: Hashable, Sendable {
    public var feed: GeotriggerSettings.Feed?
    public var relationship: GeotriggerSettings.Relationship?
    public var bufferMeters: Double?
    public var notify: GeotriggerSettings.Notify?
    public var initialTrigger: GeotriggerSettings.InitialTrigger?
    public var filter: FilterExpression?
    /// `.some(nil)` switches dwell off where an outer level turned it on.
    public var dwellSeconds: Double??
    public var enterAfter: GeotriggerSettings.Threshold?
    public var exitAfter: GeotriggerSettings.Threshold?
    public var maxGapSeconds: Double?
    public var gapPolicy: GeotriggerSettings.GapPolicy?
    public var message: MessageTemplate?
    public var level: GeotriggerSettings.Level?
    /// The fences the geotrigger watches, by their properties (a where-clause over
    /// ``FilterExpression/Subject/fences``); `nil` watches every fence. Not a setting of a fence:
    /// ``applied(to:)`` leaves it out, and only a scenario's or the command line's geotrigger
    /// may give it.
    public var fencesWhere: FilterExpression?

    public init() {}

    /// `base` with every setting given here replacing it.
    public func applied(to base: GeotriggerSettings) -> GeotriggerSettings {
        var s = base
        if let feed { s.feed = feed }
        if let relationship { s.relationship = relationship }
        if let bufferMeters { s.bufferMeters = bufferMeters }
        if let notify { s.notify = notify }
        if let initialTrigger { s.initialTrigger = initialTrigger }
        if let filter { s.filter = filter }
        if let dwellSeconds { s.dwellSeconds = dwellSeconds }
        if let enterAfter { s.enterAfter = enterAfter }
        if let exitAfter { s.exitAfter = exitAfter }
        if let maxGapSeconds { s.maxGapSeconds = maxGapSeconds }
        if let gapPolicy { s.gapPolicy = gapPolicy }
        if let message { s.message = message }
        if let level { s.level = level }
        return s
    }

    /// Whether nothing is overridden.
    public var isEmpty: Bool { self == GeotriggerOverrides() }
}
