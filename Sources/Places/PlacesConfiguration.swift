/// The Places settings of a scenario (SPEC §1.3 `places:`), which the state applies to every
/// transition; none of it is persisted with the state.
public struct PlacesConfiguration: Hashable, Sendable {
    /// The SDKs' default membership time to live, one hour (`PI/PlacesConstants.swift
    /// DefaultValues.MEMBERSHIP_TTL`, Android `DEFAULT_MEMBERSHIP_TTL`; research §1.5).
    public static let defaultMembershipTTL: Double = 3600

    /// `places.membershipttl` in seconds: how long Current, Last Entered and Last Exited stay
    /// valid after the last processed entry, exit or nearby lookup (Current alone with
    /// ``lastPOIExpiry`` `never`). Android reads it as a whole
    /// number of seconds (truncated); iOS and `docs` use it as given.
    public var membershipTTL: Double
    /// When an expired membership is cleared.
    public var expiry: PlacesExpiryMode
    /// Whether expiry also clears Last Entered and Last Exited (seed 000, the default) or only
    /// Current (seed 001).
    public var lastPOIExpiry: PlacesLastPOIExpiry
    /// Whose behaviour to reproduce where the docs and the SDKs differ.
    public var platform: PlacesPlatform
    /// When set, emulate an operating system that monitors only the nearest `regionBudget` POIs
    /// of the last nearby lookup (iOS monitors at most 20 regions, Android 100 geofences): region
    /// events for other POIs are ignored, as the SDKs ignore ids not in their nearby list
    /// (research §1.3, guard 4).
    public var regionBudget: Int?
    /// The `authstatus` published in shared state. The SDKs publish what the app last set
    /// (`unknown` until then); fencesim assumes an app that asked for the background location
    /// permission geofencing needs, hence `always` by default.
    public var authorizationStatus: String
    /// The seed of the emulated Swift `Dictionary` iteration order for `platform: ios`.
    ///
    /// Swift seeds `Hasher` randomly per process, so the order in which iOS walks
    /// `userWithinPois` and `nearbyPois` (and with it the Current POI on a full tie) changes from
    /// one app launch to the next. fencesim orders ids by a seeded 64-bit hash instead
    /// (FNV-1a of the UTF-8 id, mixed with this seed by the SplitMix64 finaliser, then by id):
    /// each seed is one reproducible "process"; vary it to see the spread. It is not bit-exact
    /// with any real process.
    public var dictionarySeed: UInt64

    /// Settings with the SDK defaults: one-hour TTL, lazy expiry that clears all three POIs, the
    /// documented behaviour, no region budget.
    public init(
        membershipTTL: Double = PlacesConfiguration.defaultMembershipTTL, expiry: PlacesExpiryMode = .lazy,
        lastPOIExpiry: PlacesLastPOIExpiry = .ttl, platform: PlacesPlatform = .docs, regionBudget: Int? = nil,
        authorizationStatus: String = "always", dictionarySeed: UInt64 = 0
    ) {
        self.membershipTTL = membershipTTL
        self.expiry = expiry
        self.lastPOIExpiry = lastPOIExpiry
        self.platform = platform
        self.regionBudget = regionBudget
        self.authorizationStatus = authorizationStatus
        self.dictionarySeed = dictionarySeed
    }

    /// How many POIs a session's nearby lookup asks for: the region budget when one is emulated
    /// (an app monitoring the nearest N asks for N), else the SDK's default `limit` — 10 on iOS,
    /// 20 on Android (research §1.1) — and 20 for `docs`, the iOS region-monitoring limit.
    public var nearbyLookupCount: Int {
        if let regionBudget { return max(0, regionBudget) }
        switch platform {
        case .ios: return 10
        case .android, .docs: return 20
        }
    }
}
