/// Whose Places behaviour to reproduce where the documentation and the two SDKs differ
/// (SPEC §4 `places.platform`; research/adobe-places-and-rules.md §1.2–§1.5).
public enum PlacesPlatform: String, Hashable, Sendable, CaseIterable {
    /// The documented behaviour (behavior-reference.md, seeds 000/001), made deterministic:
    /// Current POI by rank, then radius, then most recent entry signal (closest for a nearby
    /// lookup); `useriswithin` always tells whether the POI is in the entered set; membership
    /// expires at exactly `validUntil` with nanosecond precision.
    case docs
    /// AEPPlaces 5.0.0 for iOS: full recalculation over `userWithinPois`, a Swift `Dictionary`,
    /// whose iteration order fencesim emulates with a seeded hash (see
    /// ``PlacesConfiguration/dictionarySeed``); ties go to the last tied POI in that order; the
    /// `useriswithin` flag is whatever the last nearby query said; `validUntil` rounded to whole
    /// seconds.
    case ios
    /// Places 3.0.2 for Android: an entry becomes current when it ties or beats the current POI
    /// (no recalculation), an exit recalculates over the cached POIs in server order (later ties
    /// win), a nearby lookup makes the first `userWithin` POI current without comparing ranks;
    /// `validUntil` in whole seconds (truncated clock).
    case android
}
