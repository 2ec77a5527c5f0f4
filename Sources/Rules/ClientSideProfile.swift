import Support

/// The client-side profile that `csp` consequences write (SPEC §5; seed 004 "Client Side
/// Profile"), published as the shared state of `com.adobe.module.userProfile` so that rules read
/// it with `~state.com.adobe.module.userProfile/userprofiledata.<key>`.
///
/// A `csp` detail is `{"operation": "write", "key": K, "value": V}` or `{"operation": "delete",
/// "key": K}` (the documentation's show-once example writes `"<id>-seen": "yes"`).
public struct ClientSideProfile: Sendable {
    /// The extension name rules use for the profile's shared state.
    public static let extensionName = "com.adobe.module.userProfile"

    /// The profile attributes by key.
    public private(set) var attributes: [String: JSONValue]

    /// A profile holding `attributes`.
    public init(attributes: [String: JSONValue] = [:]) {
        self.attributes = attributes
    }

    /// Reads a profile from its shared state `{"userprofiledata": {…}}`.
    public init(sharedState: JSONValue) {
        var attributes: [String: JSONValue] = [:]
        for (key, value) in sharedState.member("userprofiledata")?.uniqueMembers ?? [] { attributes[key] = value }
        self.attributes = attributes
    }

    /// Applies a fired `csp` consequence.
    ///
    /// - Returns: a warning when the consequence is not a `csp` write or delete with a key;
    ///   `nil` when it was applied.
    public mutating func apply(_ consequence: FiredConsequence) -> Diagnostic? {
        guard consequence.type == "csp" else { return nil }
        let detail = consequence.detail
        guard let key = detail.member("key")?.stringValue, !key.isEmpty else {
            return Diagnostic(
                .warning, "csp consequence \"\(consequence.id)\" has no key; the profile is unchanged",
                at: consequence.location, kind: "rules-csp")
        }
        switch detail.member("operation")?.stringValue {
        case "write":
            guard let value = detail.member("value"), !value.isNull else {
                return Diagnostic(
                    .warning, "csp write \"\(consequence.id)\" has no value; the profile is unchanged",
                    at: consequence.location, kind: "rules-csp")
            }
            attributes[key] = value
        case "delete":
            attributes[key] = nil
        default:
            return Diagnostic(
                .warning, "csp consequence \"\(consequence.id)\" has an operation other than write or delete; the profile is unchanged",
                at: consequence.location, kind: "rules-csp")
        }
        return nil
    }

    /// The shared state `{"userprofiledata": {…}}`, keys sorted so that output never depends on
    /// dictionary order.
    public var sharedState: JSONValue {
        let sorted = attributes.keys.sorted().map { ($0, attributes[$0] ?? .null) }
        return .orderedObject([("userprofiledata", .orderedObject(sorted))])
    }
}
