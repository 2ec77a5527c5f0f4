/// Whether the membership time to live also ends Last Entered and Last Exited POI
/// (SPEC §4 `places.lastPOIExpiry`), where the two editions of the Places behaviour reference
/// disagree.
public enum PlacesLastPOIExpiry: String, Hashable, Sendable, CaseIterable {
    /// The TTL covers Current, Last Entered and Last Exited POI (seed 000, the newer page, and
    /// both SDKs' `clearMembershipData()`, research §1.5). The default.
    case ttl
    /// Last Entered and Last Exited POI never expire: they change only when an entry or an exit
    /// updates them (seed 001, "Last entered POI" and "Last exited POI"). The TTL still ends
    /// Current POI.
    case never
}
