/// The answer of the Places query service to a nearby lookup: the POIs containing the device,
/// then the other nearby POIs (`{"places":{"userWithin":[…],"pois":[…]}}`, research §1.1).
public struct PlacesQueryResponse: Hashable, Sendable {
    /// POIs whose circle contains the device, nearest first; each has `userIsWithin == true`.
    public var userWithin: [POI]
    /// The other nearby POIs, nearest first; each has `userIsWithin == false`.
    public var pois: [POI]

    /// Creates a response, setting each POI's `userIsWithin` flag from the list it is in, as
    /// both SDKs' query services do.
    public init(userWithin: [POI], pois: [POI]) {
        self.userWithin = userWithin.map { $0.with(userIsWithin: true) }
        self.pois = pois.map { $0.with(userIsWithin: false) }
    }

    /// Every POI in response order: `userWithin` first, then `pois` (the order both SDKs cache
    /// them in).
    public var all: [POI] { userWithin + pois }

    /// True when the response holds no POI at all.
    public var isEmpty: Bool { userWithin.isEmpty && pois.isEmpty }
}
