import Places
import Support

/// The `places:` section of a scenario (SPEC §1.3, §4): where Places gets its signals from and the
/// settings its state applies.
public struct PlacesSettings: Sendable {
    /// What feeds Places its entry and exit signals (`places.signals`).
    public enum Signals: String, Sendable, CaseIterable {
        /// Check-ins and check-outs of POI fences (SPEC §4: fence → geotrigger → check-in/out →
        /// Places), so zone re-trigger times, schedules and conditions shape what Places sees.
        case checkins
        /// The geotrigger engine's notified `enter` and `exit` events of POI fences (a
        /// `passthrough` is an entry and an exit), bypassing zones: the operating system's raw
        /// region callbacks, as an app without Bluedot would forward them.
        case geotrigger
    }

    /// `signals`, default `checkins`.
    public var signals: Signals
    /// `membershipTTL`, `expiry`, `lastPOIExpiry`, `platform` and `regionBudget`.
    public var configuration: PlacesConfiguration
    /// Where the section is (the scenario itself when Places is active only through `sessions`).
    public var location: SourceLocation

    /// The defaults of SPEC §1.3: check-in signals, one-hour TTL, lazy expiry, documented
    /// behaviour, no region budget.
    public init(
        signals: Signals = .checkins, configuration: PlacesConfiguration = PlacesConfiguration(),
        location: SourceLocation = SourceLocation(file: "")
    ) {
        self.signals = signals
        self.configuration = configuration
        self.location = location
    }

    /// The values `platform` (and `--places-platform`) accepts.
    public static let platformNames = PlacesPlatform.allCases.map(\.rawValue)

    /// The values `lastPOIExpiry` (and `--last-poi-expiry`) accepts.
    public static let lastPOIExpiryNames = PlacesLastPOIExpiry.allCases.map(\.rawValue)

    /// These settings with the command line's `--places-platform`, `--region-budget` and
    /// `--last-poi-expiry` applied.
    ///
    /// - Parameters:
    ///   - platform: one of ``platformNames``; others are ignored (the caller validates).
    ///   - regionBudget: a positive number of POIs.
    ///   - lastPOIExpiry: one of ``lastPOIExpiryNames``; others are ignored (the caller validates).
    public func overridden(platform: String?, regionBudget: Int?, lastPOIExpiry: String? = nil) -> PlacesSettings {
        var copy = self
        if let platform, let p = PlacesPlatform(rawValue: platform) { copy.configuration.platform = p }
        if let regionBudget { copy.configuration.regionBudget = regionBudget }
        if let lastPOIExpiry, let e = PlacesLastPOIExpiry(rawValue: lastPOIExpiry) { copy.configuration.lastPOIExpiry = e }
        return copy
    }
}

/// One app session of a scenario's `sessions:` list (SPEC §1.3, §4): the app runs from `launch`
/// until `terminate` (or the next launch, or the end of the trace).
public struct AppSession: Sendable {
    /// When the app launches: the Places extension registers and publishes its (persisted) state.
    public var launch: Timestamp
    /// When the app is terminated; `nil` when the session lasts until the next launch or the end
    /// of the trace.
    public var terminate: Timestamp?
    /// Whether the app calls `getNearbyPointsOfInterest` at launch.
    public var nearbyLookup: Bool
    /// Where the session is declared.
    public var location: SourceLocation

    public init(
        launch: Timestamp, terminate: Timestamp? = nil, nearbyLookup: Bool = false,
        location: SourceLocation = SourceLocation(file: "")
    ) {
        self.launch = launch
        self.terminate = terminate
        self.nearbyLookup = nearbyLookup
        self.location = location
    }
}
