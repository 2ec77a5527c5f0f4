import Support

/// One POI of the entered set (the SDKs' `userWithinPois` / cached POIs flagged `containsUser`),
/// with what fencesim needs to order it deterministically.
public struct PlacesMembership: Hashable, Sendable {
    /// The POI as the platform stores it (its `userIsWithin` flag follows ``PlacesPlatform``).
    public var poi: POI
    /// When the POI joined the entered set: its first entry signal since it was last outside,
    /// or the nearby lookup that put it there.
    public var enteredAt: Timestamp
    /// Recency of the latest entry signal for this POI; larger is more recent. Sequences are
    /// unique within a state, so they break every tie of the documented precedence.
    public var entrySequence: UInt64
    /// The sequence at which the POI joined the entered set (orders POIs that Android would keep
    /// after its cached nearby POIs).
    public var joinedSequence: UInt64

    /// Creates a membership record.
    public init(poi: POI, enteredAt: Timestamp, entrySequence: UInt64, joinedSequence: UInt64) {
        self.poi = poi
        self.enteredAt = enteredAt
        self.entrySequence = entrySequence
        self.joinedSequence = joinedSequence
    }

    /// The POI's id.
    public var id: String { poi.id }
}
