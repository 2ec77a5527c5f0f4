import Support

extension PlacesState {
    /// Processes an entry or exit signal for `poi` at `time` (the SDKs' `processRegionEvent`,
    /// research §1.3) and returns what happened with the events and shared state to emit.
    ///
    /// Steps, all platforms:
    /// 1. Strict mode: apply expiry if `time >= validUntil` (reported in `expiry`).
    /// 2. Region budget emulated and `poi` not monitored: ignored (`notMonitored`). Android still
    ///    rebuilds its shared state then, so in lazy mode expiry is applied on that platform.
    /// 3. The triggering POI is the nearby-list copy when there is one (the SDKs process the
    ///    copy they cached), else `poi`.
    /// 4. Entry: Last Entered = the POI, the POI joins the entered set (a repeated entry is
    ///    processed again and counts as the most recent entry); exit: Last Exited = the POI, the
    ///    POI leaves the entered set (an exit of a POI not entered is processed again too: Last
    ///    Exited and `validUntil` refresh and events are dispatched; Android test
    ///    `processRegionEvent_when_regionExitEvent_pOIAlreadyExited`).
    /// 5. `validUntil` is refreshed; Current is recomputed as the platform does (see
    ///    ``PlacesPlatform``).
    /// 6. The shared state is rebuilt (after the refresh, so lazy expiry never clears anything
    ///    here, as in the SDKs), then the region response and the Edge event are dispatched.
    ///
    /// - Parameters:
    ///   - type: entry or exit.
    ///   - poi: the POI signalled (from a ``POICatalog``).
    ///   - time: the simulated time of the signal.
    /// - Complexity: O(n log n) in the size of the entered set.
    public mutating func processRegionEvent(_ type: PlacesRegionEventType, poi: POI, at time: Timestamp) -> PlacesRegionEventResult {
        let expiry = applyStrictExpiry(at: time)
        guard isMonitored(poi.id) else {
            return ignored(type, poiID: poi.id, at: time, reason: .notMonitored, expiry: expiry)
        }
        let base = nearbyIndex(of: poi.id).map { nearby[$0] } ?? poi
        let triggering: POI
        switch type {
        case .entry: triggering = applyEntry(base, at: time)
        case .exit: triggering = applyExit(base, at: time)
        }
        let published = publishSharedState(at: time)
        let reported = configuration.platform == .docs ? triggering.with(userIsWithin: isEntered(triggering.id)) : triggering
        return PlacesRegionEventResult(
            disposition: .processed, type: type, poiID: poi.id, time: time, expiry: expiry ?? published.expiry,
            triggeringPOI: reported, current: currentID, lastEntered: lastEnteredID, lastExited: lastExitedID,
            events: [regionResponseEvent(type, poi: reported, at: time), edgeEvent(type, poi: reported)],
            sharedState: published.sharedState)
    }

    /// Processes a signal that names only an id, as the SDK APIs do: the POI must be in the
    /// nearby list (or, a fencesim extension, the entered set), else the signal is ignored with
    /// reason `unknownRegion` (research §1.3 guard 4, the stale-event guard).
    public mutating func processRegionEvent(_ type: PlacesRegionEventType, poiID: String, at time: Timestamp) -> PlacesRegionEventResult {
        if let poi = nearbyIndex(of: poiID).map({ nearby[$0] }) ?? membership(of: poiID)?.poi {
            return processRegionEvent(type, poi: poi, at: time)
        }
        let expiry = applyStrictExpiry(at: time)
        return ignored(type, poiID: poiID, at: time, reason: .unknownRegion, expiry: expiry)
    }

    // MARK: - Steps

    private mutating func ignored(
        _ type: PlacesRegionEventType, poiID: String, at time: Timestamp, reason: PlacesRegionEventResult.IgnoreReason,
        expiry: PlacesExpiry?
    ) -> PlacesRegionEventResult {
        var expiry = expiry
        var sharedState: JSONValue?
        if configuration.platform == .android {
            // `handleGeofenceEvent` creates shared state even when `processRegionEvent` returns
            // null, and `getPlacesSharedState()` checks membership validity first.
            let published = publishSharedState(at: time)
            expiry = expiry ?? published.expiry
            sharedState = published.sharedState
        }
        return PlacesRegionEventResult(
            disposition: .ignored(reason), type: type, poiID: poiID, time: time, expiry: expiry,
            current: currentID, lastEntered: lastEnteredID, lastExited: lastExitedID, sharedState: sharedState)
    }

    /// The entry step; returns the POI as the platform reports it.
    private mutating func applyEntry(_ base: POI, at time: Timestamp) -> POI {
        let sequence = takeSequence()
        let platform = configuration.platform
        // Android sets the cached POI's flag (`matchedPOI.setUserIsWithin(true)`); iOS stores the
        // nearby copy unchanged, whatever the last query said.
        let triggering = platform == .ios ? base : base.with(userIsWithin: true)
        if platform != .ios, let i = nearbyIndex(of: base.id) { nearby[i].userIsWithin = true }
        let previous = membership(of: base.id)
        upsert(
            PlacesMembership(
                poi: triggering, enteredAt: previous?.enteredAt ?? time, entrySequence: sequence,
                joinedSequence: previous?.joinedSequence ?? sequence))
        lastEntered = triggering
        refreshMembership(at: time)
        switch platform {
        case .docs:
            current = documentedCurrent()
        case .ios:
            // `recalculateCurrentPoi()` without resetting `currentPoi` first.
            current = iosRecalculatedCurrent(startingFrom: current)
        case .android:
            // `currentPOI = matchedPOI.comparePriority(currentPOI) ? matchedPOI : currentPOI`.
            if PlacesState.sdkHasPriority(triggering, over: current) { current = triggering }
        }
        return triggering
    }

    /// The exit step; returns the POI as the platform reports it.
    private mutating func applyExit(_ base: POI, at time: Timestamp) -> POI {
        let platform = configuration.platform
        let triggering = platform == .ios ? base : base.with(userIsWithin: false)
        if platform != .ios, let i = nearbyIndex(of: base.id) { nearby[i].userIsWithin = false }
        if let i = membershipIndex(of: base.id) { entered.remove(at: i) }
        lastExited = triggering
        refreshMembership(at: time)
        switch platform {
        case .docs:
            current = documentedCurrent()
        case .ios:
            // `currentPoi = nil`, remove, then `recalculateCurrentPoi()`.
            current = iosRecalculatedCurrent(startingFrom: nil)
        case .android:
            current = androidCalculatedCurrent()
            // `lastEnteredPOI` is the cached object itself, so its flag follows the exit
            // (fencesim applies this even when Last Entered came from a lookup, where Android
            // holds a copy).
            if lastEntered?.id == base.id { lastEntered?.userIsWithin = false }
        }
        return triggering
    }

    /// `docs`: every stored flag tells whether the POI is in the entered set now.
    mutating func refreshLiveFlags() {
        for i in nearby.indices { nearby[i].userIsWithin = isEntered(nearby[i].id) }
        for i in entered.indices { entered[i].poi.userIsWithin = true }
        current = current.map { $0.with(userIsWithin: isEntered($0.id)) }
        lastEntered = lastEntered.map { $0.with(userIsWithin: isEntered($0.id)) }
        lastExited = lastExited.map { $0.with(userIsWithin: isEntered($0.id)) }
    }

    // MARK: - Events

    /// `responseprocessregionevent`: `{triggeringregion, regioneventtype}` and on Android the
    /// signal time in milliseconds as `timestamp` (`PA/PlacesRegion.java getRegionEventData`).
    func regionResponseEvent(_ type: PlacesRegionEventType, poi: POI, at time: Timestamp) -> PlacesEvent {
        var data: [(String, JSONValue)] = [("triggeringregion", poi.eventData), ("regioneventtype", .string(type.rawValue))]
        if configuration.platform == .android {
            let millis = time.seconds &* 1000 &+ Int64(time.nanoseconds / 1_000_000)
            data.append(("timestamp", .int(millis)))
        }
        return PlacesEvent(
            name: "responseprocessregionevent", type: PlacesEvent.placesType, source: PlacesEvent.responseContentSource,
            data: .orderedObject(data))
    }

    /// The Edge "Location Tracking Event" with its history mask (`PI/Places+EdgeEvents.swift`,
    /// research §1.7).
    func edgeEvent(_ type: PlacesRegionEventType, poi: POI) -> PlacesEvent {
        let data: JSONValue = .orderedObject([
            (
                "xdm",
                .orderedObject([
                    ("eventType", .string(type.experienceEventType)),
                    (
                        "placeContext",
                        .orderedObject([
                            ("POIinteraction", .orderedObject([("poiDetail", poi.xdmPOIDetail)]))
                        ])
                    ),
                ])
            )
        ])
        return PlacesEvent(
            name: "Location Tracking Event", type: PlacesEvent.edgeType, source: PlacesEvent.requestContentSource,
            data: data, mask: ["xdm.eventType", "xdm.placeContext.POIinteraction.poiDetail.poiID"])
    }
}
