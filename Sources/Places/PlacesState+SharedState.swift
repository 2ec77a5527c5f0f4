import Support

extension PlacesState {
    /// The Places shared state (`com.adobe.module.places`) as it stands, without applying
    /// expiry: `nearbypois`, `currentpoi`, `lastenteredpoi`, `lastexitedpoi`, `authstatus`,
    /// `validuntil`, in that fixed order (research §1.8; the iOS SDK's insertion order).
    ///
    /// `nearbypois` and the three POIs are omitted when empty or nil, as in both SDKs;
    /// `validuntil` is 0 when there is no membership (a Double on iOS and `docs`, a long on
    /// Android). `nearbypois` is in response order for `docs` and Android, in the emulated
    /// dictionary order on iOS (`nearbyPois.map { $1.mapValue }`). There is no `userwithinpois`
    /// key: the SDKs publish the entered set only through `getCurrentPointsOfInterest`
    /// (``userWithinResponseData``).
    public func sharedState() -> JSONValue {
        var members: [(String, JSONValue)] = []
        if !nearby.isEmpty {
            let ordered = configuration.platform == .ios ? iosDictionaryOrder(nearby) : nearby
            members.append(("nearbypois", .list(ordered.map(\.eventData))))
        }
        if let current { members.append(("currentpoi", current.eventData)) }
        if let lastEntered { members.append(("lastenteredpoi", lastEntered.eventData)) }
        if let lastExited { members.append(("lastexitedpoi", lastExited.eventData)) }
        members.append(("authstatus", .string(configuration.authorizationStatus)))
        members.append(("validuntil", validUntilValue))
        return .orderedObject(members)
    }

    /// The `responsegetuserwithinplaces` data, `{userwithinpois: [...]}`, in
    /// ``enteredInPlatformOrder``.
    public var userWithinResponseData: JSONValue {
        .orderedObject([("userwithinpois", .list(enteredInPlatformOrder.map(\.eventData)))])
    }

    private var validUntilValue: JSONValue {
        switch configuration.platform {
        case .android:
            return .int(validUntil?.seconds ?? 0)
        case .docs, .ios:
            guard let validUntil else { return .double(0) }
            return .double(validUntil.epochSeconds)
        }
    }
}
