/// When an expired membership (`validUntil` reached) is cleared (SPEC §4 `places.expiry`).
public enum PlacesExpiryMode: String, Hashable, Sendable, CaseIterable {
    /// The SDKs' behaviour: no timer; expiry is checked only when the Places shared state is
    /// rebuilt (at launch, `PlacesState/publishSharedState(at:)`), and a processed region event
    /// or nearby lookup refreshes `validUntil` before that check, so it never clears anything
    /// (research §1.5: `getSharedStateData` / `getPlacesSharedState` check `now < validUntil`
    /// after `updateMembershipValidUntil`).
    case lazy
    /// fencesim's stricter model: membership ends at the instant `validUntil` is reached. The
    /// caller schedules a `places.expired` event at ``PlacesState/expiryInstant`` and applies it
    /// with ``PlacesState/applyExpiry(at:)``; every transition also applies it first, so a
    /// signal after `validUntil` never sees stale membership.
    case strict
}
