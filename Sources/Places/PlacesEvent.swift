import Support

/// An event the Places extension dispatches, for the caller to log and to evaluate rules on.
public struct PlacesEvent: Sendable {
    /// `com.adobe.eventType.places`.
    public static let placesType = "com.adobe.eventType.places"
    /// `com.adobe.eventType.edge`.
    public static let edgeType = "com.adobe.eventType.edge"
    /// `com.adobe.eventSource.responseContent`.
    public static let responseContentSource = "com.adobe.eventSource.responseContent"
    /// `com.adobe.eventSource.requestContent`.
    public static let requestContentSource = "com.adobe.eventSource.requestContent"
    /// The name under which Places publishes its shared state, `com.adobe.module.places`
    /// (read by rules as `~state.com.adobe.module.places/...`).
    public static let sharedStateName = "com.adobe.module.places"

    /// The event name (`responseprocessregionevent`, `Location Tracking Event`, ...).
    public var name: String
    /// The event type (``placesType`` or ``edgeType``).
    public var type: String
    /// The event source (``responseContentSource`` or ``requestContentSource``).
    public var source: String
    /// The event data, keys in a fixed order.
    public var data: JSONValue
    /// The event-history mask (paths whose values identify the event), empty when the event is
    /// not recorded in history.
    public var mask: [String]

    /// Creates an event.
    public init(name: String, type: String, source: String, data: JSONValue, mask: [String] = []) {
        self.name = name
        self.type = type
        self.source = source
        self.data = data
        self.mask = mask
    }
}
