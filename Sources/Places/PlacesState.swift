import Support

/// The Adobe Places state of one device as a value: the nearby list, the entered set, Current,
/// Last Entered and Last Exited POIs and the membership expiry (SPEC §4).
///
/// Transitions are mutating methods that take the simulated time and return what happened and
/// what to emit (sans-I/O): ``processRegionEvent(_:poi:at:)``, ``nearbyLookup(at:latitude:longitude:count:in:)``,
/// ``applyExpiry(at:)``, ``publishSharedState(at:)``. Nothing here reads the clock, persists or
/// reports; the SDKs do all three inside their state objects (`PI/Places+State.swift`,
/// `PA/PlacesState.java`), which is what this type deliberately does not copy. Persistence is
/// ``encoded()`` / ``decode(_:configuration:)``; the caller writes the file.
public struct PlacesState: Hashable, Sendable {
    /// The settings every transition applies; not persisted.
    public var configuration: PlacesConfiguration
    /// The last nearby lookup's POIs in response order (`userWithin` first), the SDKs'
    /// `nearbyPois` / `cachedPOIs`.
    public internal(set) var nearby: [POI]
    /// The entered set (`userWithinPois`), sorted by POI id.
    public internal(set) var entered: [PlacesMembership]
    /// The Current POI.
    public internal(set) var current: POI?
    /// The Last Entered POI.
    public internal(set) var lastEntered: POI?
    /// The Last Exited POI.
    public internal(set) var lastExited: POI?
    /// When membership data expires (exclusive), nil when there is none to expire.
    public internal(set) var validUntil: Timestamp?
    /// The position of the last nearby lookup (the SDKs' last known location).
    public internal(set) var lastKnownLocation: PlacesLocation?
    /// When the last nearby lookup happened.
    public internal(set) var lastLookup: Timestamp?
    /// The next recency sequence number.
    var nextSequence: UInt64
    /// Nearby POI ids ordered by distance from ``lastKnownLocation`` (ties by id); derived, not
    /// persisted.
    var nearbyByDistance: [String]

    /// An empty state: the SDKs' first launch with no persistence.
    public init(configuration: PlacesConfiguration = PlacesConfiguration()) {
        self.configuration = configuration
        nearby = []
        entered = []
        current = nil
        lastEntered = nil
        lastExited = nil
        validUntil = nil
        lastKnownLocation = nil
        lastLookup = nil
        nextSequence = 1
        nearbyByDistance = []
    }

    /// Current POI id.
    public var currentID: String? { current?.id }
    /// Last Entered POI id.
    public var lastEnteredID: String? { lastEntered?.id }
    /// Last Exited POI id.
    public var lastExitedID: String? { lastExited?.id }

    /// The ids of the entered set, sorted.
    public var enteredIDs: [String] { entered.map(\.id) }

    /// True when `id` is in the entered set.
    public func isEntered(_ id: String) -> Bool {
        membershipIndex(of: id) != nil
    }

    /// The entered-set record of `id`, if it is entered.
    public func membership(of id: String) -> PlacesMembership? {
        membershipIndex(of: id).map { entered[$0] }
    }

    /// The instant membership data expires (`validUntil`), for scheduling a `places.expired`
    /// event in strict mode; nil when nothing can expire.
    ///
    /// Valid strictly before this instant, expired at it: the SDKs test `now < validUntil`
    /// (research §1.5).
    public var expiryInstant: Timestamp? { validUntil }

    /// True when membership data exists and has expired at `time` (`time >= validUntil`).
    public func isExpired(at time: Timestamp) -> Bool {
        guard let validUntil else { return false }
        return time >= validUntil
    }

    // MARK: - Region budget

    /// The ids the operating system monitors after the last nearby lookup, nearest first: the
    /// nearest ``PlacesConfiguration/regionBudget`` POIs of the nearby list, or the whole nearby
    /// list when no budget is emulated.
    public var monitoredIDs: [String] {
        guard let budget = configuration.regionBudget else { return nearbyByDistance }
        return Array(nearbyByDistance.prefix(max(0, budget)))
    }

    /// Whether a crossing of `id` reaches Places.
    ///
    /// Always true without a region budget (fencesim then assumes every POI is monitored). With
    /// one, true only for the nearest `regionBudget` POIs of the last nearby lookup; a crossing
    /// of any other POI would not be reported by the operating system, and
    /// ``processRegionEvent(_:poi:at:)`` ignores it with reason `notMonitored`.
    ///
    /// - Complexity: O(regionBudget).
    public func isMonitored(_ id: String) -> Bool {
        guard let budget = configuration.regionBudget else { return true }
        return nearbyByDistance.prefix(max(0, budget)).contains(id)
    }

    // MARK: - Internals

    func membershipIndex(of id: String) -> Int? {
        var lo = 0
        var hi = entered.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entered[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < entered.count && entered[lo].id == id ? lo : nil
    }

    func nearbyIndex(of id: String) -> Int? {
        nearby.firstIndex(where: { $0.id == id })
    }

    mutating func takeSequence() -> UInt64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// Inserts or replaces a membership, keeping `entered` sorted by id.
    mutating func upsert(_ membership: PlacesMembership) {
        if let i = membershipIndex(of: membership.id) {
            entered[i] = membership
        } else {
            let i = entered.firstIndex(where: { $0.id > membership.id }) ?? entered.count
            entered.insert(membership, at: i)
        }
    }

    mutating func recomputeNearbyOrder() {
        guard let location = lastKnownLocation else {
            nearbyByDistance = nearby.map(\.id).sorted()
            return
        }
        nearbyByDistance =
            nearby
            .map { (id: $0.id, distance: POICatalog.distance(latitude: location.latitude, longitude: location.longitude, to: $0)) }
            .sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
            .map(\.id)
    }
}
