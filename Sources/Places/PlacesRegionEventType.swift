/// The two region signals Places processes (`regioneventtype`; research §1.3). Android's DWELL
/// is mapped to `none` by the SDK and never reaches the state, so it has no case here.
public enum PlacesRegionEventType: String, Hashable, Sendable, CaseIterable {
    case entry
    case exit

    /// The XDM `eventType` of the Edge event: `location.entry` or `location.exit`
    /// (`PI/PlacesConstants.swift XDM.Location.EventType`; research §1.7).
    public var experienceEventType: String {
        switch self {
        case .entry: "location.entry"
        case .exit: "location.exit"
        }
    }
}
