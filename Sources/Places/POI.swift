/// An Adobe Places point of interest: a circle with a library, a rank and string metadata.
///
/// Models the SDKs' `PointOfInterest` (iOS, `PI/PointOfInterest.swift`) and `PlacesPOI`
/// (Android, `PA/PlacesPOI.java`); research/adobe-places-and-rules.md §1.1. The SDKs call the rank
/// `weight`; lower wins. `userIsWithin` is the flag the SDKs carry on each POI; how it is kept up to
/// date depends on the platform being reproduced (see ``PlacesPlatform``).
public struct POI: Hashable, Sendable {
    /// The rank given to POIs whose fence has no `rank`/`weight` property: the Android query
    /// service's default weight for a POI without one (`PA/PlacesQueryService.java`), so such a
    /// POI loses to any explicitly ranked one.
    public static let defaultRank = 1000

    /// The POI's id (the SDKs' `regionid`, the fence id).
    public var id: String
    /// The display name (`regionname`); the fence's `name`, else its id.
    public var name: String
    /// The centre's WGS84 latitude in degrees.
    public var latitude: Double
    /// The centre's WGS84 longitude in degrees.
    public var longitude: Double
    /// The circle's radius in metres (`radius`; an integer in the SDKs).
    public var radiusMeters: Double
    /// The Places library (`libraryid`); empty when the fence names none.
    public var library: String
    /// The library rank, the SDKs' `weight`; lower wins.
    public var rank: Int
    /// Metadata as strings (`regionmetadata`); the SDKs keep only string values.
    public var metadata: [String: String]
    /// The SDKs' `useriswithin` flag as last set for this copy of the POI.
    public var userIsWithin: Bool

    /// Creates a POI; `userIsWithin` starts false, as for a POI the query service lists as nearby.
    public init(
        id: String, name: String, latitude: Double, longitude: Double, radiusMeters: Double,
        library: String = "", rank: Int = POI.defaultRank, metadata: [String: String] = [:],
        userIsWithin: Bool = false
    ) {
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.radiusMeters = radiusMeters
        self.library = library
        self.rank = rank
        self.metadata = metadata
        self.userIsWithin = userIsWithin
    }

    /// This POI with `userIsWithin` set to `flag`.
    public func with(userIsWithin flag: Bool) -> POI {
        var copy = self
        copy.userIsWithin = flag
        return copy
    }
}
