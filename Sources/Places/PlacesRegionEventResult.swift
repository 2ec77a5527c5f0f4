import Support

/// What processing one entry or exit signal did, with everything the caller emits for it.
public struct PlacesRegionEventResult: Sendable {
    /// Why a signal changed nothing.
    public enum IgnoreReason: String, Hashable, Sendable {
        /// The region budget is emulated and the POI is not among the nearest
        /// ``PlacesConfiguration/regionBudget`` POIs of the last nearby lookup, so the operating
        /// system would not have been monitoring it (and the SDKs drop ids missing from their
        /// nearby list, research §1.3 guard 4).
        case notMonitored
        /// The signal named an id that is neither in the nearby list nor in the entered set
        /// (``PlacesState/processRegionEvent(_:poiID:at:)``; the SDKs' stale-event guard).
        case unknownRegion
    }

    /// Whether the signal was processed.
    public enum Disposition: Hashable, Sendable {
        case processed
        case ignored(IgnoreReason)
    }

    /// Processed, or ignored and why.
    public var disposition: Disposition
    /// Entry or exit.
    public var type: PlacesRegionEventType
    /// The id of the POI signalled.
    public var poiID: String
    /// The simulated time of the signal.
    public var time: Timestamp
    /// Membership that expired before the signal was applied: in strict mode when `time` is at
    /// or after `validUntil`; on Android in lazy mode when an ignored signal made the SDK rebuild
    /// its shared state. The caller logs `places.expired` at ``PlacesExpiry/validUntil``.
    public var expiry: PlacesExpiry?
    /// The POI as the SDK reports it in `triggeringregion` (nil when ignored).
    public var triggeringPOI: POI?
    /// Current POI id after the signal.
    public var current: String?
    /// Last Entered POI id after the signal.
    public var lastEntered: String?
    /// Last Exited POI id after the signal.
    public var lastExited: String?
    /// The dispatched events in order: the Places region response, then the Edge experience
    /// event; empty when ignored.
    public var events: [PlacesEvent]
    /// The Places shared state published by the signal, or nil when the SDK publishes none
    /// (an ignored signal on iOS and in `docs`).
    public var sharedState: JSONValue?

    /// Creates a result.
    public init(
        disposition: Disposition, type: PlacesRegionEventType, poiID: String, time: Timestamp,
        expiry: PlacesExpiry? = nil, triggeringPOI: POI? = nil, current: String? = nil,
        lastEntered: String? = nil, lastExited: String? = nil, events: [PlacesEvent] = [],
        sharedState: JSONValue? = nil
    ) {
        self.disposition = disposition
        self.type = type
        self.poiID = poiID
        self.time = time
        self.expiry = expiry
        self.triggeringPOI = triggeringPOI
        self.current = current
        self.lastEntered = lastEntered
        self.lastExited = lastExited
        self.events = events
        self.sharedState = sharedState
    }

    /// True when the signal changed the state and dispatched events.
    public var isProcessed: Bool { disposition == .processed }

    /// The data of the Places response event (`{triggeringregion, regioneventtype}`, plus
    /// `timestamp` on Android), or nil when ignored.
    public var responseEventData: JSONValue? {
        events.first(where: { $0.type == PlacesEvent.placesType })?.data
    }

    /// The data of the Edge XDM event (`{xdm: {eventType, placeContext: ...}}`), or nil when
    /// ignored.
    public var edgeEventData: JSONValue? {
        events.first(where: { $0.type == PlacesEvent.edgeType })?.data
    }
}
