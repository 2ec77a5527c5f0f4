import Support

/// What a nearby lookup (`getNearbyPointsOfInterest` with an OK response) did. The SDKs
/// dispatch no region or Edge events for POIs that join or leave the entered set this way
/// (research §1.4); `joined` and `left` let the caller report the change anyway.
public struct PlacesNearbyLookupResult: Sendable {
    /// The simulated time of the lookup.
    public var time: Timestamp
    /// The response applied, `userWithin` first.
    public var response: PlacesQueryResponse
    /// Membership that expired before the lookup was applied (strict mode only).
    public var expiry: PlacesExpiry?
    /// Ids that entered the entered set, sorted.
    public var joined: [String]
    /// Ids that left the entered set, sorted.
    public var left: [String]
    /// Current POI id after the lookup.
    public var current: String?
    /// Last Entered POI id after the lookup.
    public var lastEntered: String?
    /// Last Exited POI id after the lookup.
    public var lastExited: String?
    /// The `responsegetnearbyplaces` event (`{nearbypois, status: 0}`). The SDKs dispatch it
    /// twice (to the caller's callback and to all listeners); fencesim reports it once.
    public var events: [PlacesEvent]
    /// The Places shared state published after the lookup.
    public var sharedState: JSONValue

    /// Creates a lookup result.
    public init(
        time: Timestamp, response: PlacesQueryResponse, expiry: PlacesExpiry?, joined: [String], left: [String],
        current: String?, lastEntered: String?, lastExited: String?, events: [PlacesEvent], sharedState: JSONValue
    ) {
        self.time = time
        self.response = response
        self.expiry = expiry
        self.joined = joined
        self.left = left
        self.current = current
        self.lastEntered = lastEntered
        self.lastExited = lastExited
        self.events = events
        self.sharedState = sharedState
    }
}
