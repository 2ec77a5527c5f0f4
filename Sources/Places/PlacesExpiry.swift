import Support

/// Membership data that expired: what `clearMembershipData()` removed (research §1.5).
///
/// Only Current, Last Entered, Last Exited and `validUntil` are cleared (Current and `validUntil`
/// alone with `lastPOIExpiry: never`); the entered set and the nearby list survive.
public struct PlacesExpiry: Hashable, Sendable {
    /// The instant membership ended (`validUntil`, exclusive: valid strictly before it).
    public var validUntil: Timestamp
    /// When the expiry was applied: `validUntil` itself when scheduled in strict mode, later when
    /// found lazily or at the next transition.
    public var appliedAt: Timestamp
    /// The id of the Current POI that was cleared, if any.
    public var current: String?
    /// The id of the Last Entered POI that was cleared, if any.
    public var lastEntered: String?
    /// The id of the Last Exited POI that was cleared, if any.
    public var lastExited: String?

    /// Creates an expiry record.
    public init(validUntil: Timestamp, appliedAt: Timestamp, current: String?, lastEntered: String?, lastExited: String?) {
        self.validUntil = validUntil
        self.appliedAt = appliedAt
        self.current = current
        self.lastEntered = lastEntered
        self.lastExited = lastExited
    }
}
