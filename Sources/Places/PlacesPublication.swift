import Support

/// A rebuilt Places shared state, and the expiry the rebuild applied (the SDKs' lazy check).
public struct PlacesPublication: Sendable {
    /// The membership that expired during the rebuild, if any.
    public var expiry: PlacesExpiry?
    /// The shared state published (see ``PlacesState/sharedState()``).
    public var sharedState: JSONValue

    /// Creates a publication.
    public init(expiry: PlacesExpiry?, sharedState: JSONValue) {
        self.expiry = expiry
        self.sharedState = sharedState
    }
}
