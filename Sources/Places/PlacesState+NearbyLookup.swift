import Support

extension PlacesState {
    /// Runs a nearby lookup against `catalog` for a device at a position (the SDKs'
    /// `getNearbyPointsOfInterest` with an OK response) and applies the answer.
    ///
    /// The simulated query service returns the `count` nearest POIs (see
    /// ``POICatalog/query(latitude:longitude:limit:)``); the SDK defaults are 10 on iOS and 20 on
    /// Android. See ``applyNearbyResponse(_:at:latitude:longitude:)`` for what the answer does.
    public mutating func nearbyLookup(
        at time: Timestamp, latitude: Double, longitude: Double, count: Int, in catalog: POICatalog
    ) -> PlacesNearbyLookupResult {
        applyNearbyResponse(
            catalog.query(latitude: latitude, longitude: longitude, limit: count), at: time, latitude: latitude, longitude: longitude)
    }

    /// Applies a query-service answer for a device at a position (research §1.4).
    ///
    /// The nearby list and the entered set are replaced wholesale by the response (POIs entered
    /// by region events but not in `userWithin` are dropped), with no region or Edge events.
    /// Last Entered becomes the first `userWithin` POI when there is one (both SDKs, even when
    /// the device was already inside it); Last Exited is kept. Current is reset, then:
    /// - `docs`: the documented precedence, with "closest POI" as the last tie-break (the first
    ///   `userWithin` POI counts as the most recent entry, the last as the least);
    /// - `ios`: each `userWithin` POI in response order replaces the candidate when it has
    ///   priority, so a full tie goes to the later, farther POI (`processNewNearbyPois`);
    /// - `android`: the first `userWithin` POI, with no rank or radius check
    ///   (`processNetworkResponse`).
    /// `validUntil` is refreshed and the last known location set. In strict mode an expired
    /// membership is cleared first.
    ///
    /// - Complexity: O(n log n) in the size of the response.
    public mutating func applyNearbyResponse(
        _ response: PlacesQueryResponse, at time: Timestamp, latitude: Double, longitude: Double
    ) -> PlacesNearbyLookupResult {
        let expiry = applyStrictExpiry(at: time)
        let before = Set(enteredIDs)
        lastKnownLocation = PlacesLocation(latitude: latitude, longitude: longitude)
        lastLookup = time
        current = nil
        nearby = response.all
        let previous = Dictionary(entered.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var memberships: [PlacesMembership] = []
        var seen: Set<String> = []
        // Farthest first, so that the nearest POI holds the highest (most recent) sequence.
        for poi in response.userWithin.reversed() where !seen.contains(poi.id) {
            seen.insert(poi.id)
            let sequence = takeSequence()
            memberships.append(
                PlacesMembership(
                    poi: poi, enteredAt: previous[poi.id]?.enteredAt ?? time, entrySequence: sequence, joinedSequence: sequence))
        }
        entered = memberships.sorted { $0.id < $1.id }
        if let first = response.userWithin.first {
            lastEntered = first
            switch configuration.platform {
            case .docs:
                current = documentedCurrent()
            case .ios:
                var candidate: POI?
                for poi in response.userWithin where PlacesState.sdkHasPriority(poi, over: candidate) { candidate = poi }
                current = candidate
            case .android:
                current = first
            }
        }
        refreshMembership(at: time)
        recomputeNearbyOrder()
        let published = publishSharedState(at: time)
        let after = Set(enteredIDs)
        let event = PlacesEvent(
            name: "responsegetnearbyplaces", type: PlacesEvent.placesType, source: PlacesEvent.responseContentSource,
            data: .orderedObject([("nearbypois", .list(nearby.map(\.eventData))), ("status", .int(0))]))
        return PlacesNearbyLookupResult(
            time: time, response: response, expiry: expiry ?? published.expiry,
            joined: after.subtracting(before).sorted(), left: before.subtracting(after).sorted(),
            current: currentID, lastEntered: lastEnteredID, lastExited: lastExitedID,
            events: [event], sharedState: published.sharedState)
    }
}
