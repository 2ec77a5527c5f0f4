import Support

extension PlacesState {
    /// The `validUntil` a refresh at `time` sets, as the configured platform computes it.
    ///
    /// - `docs`: `time + membershipTTL`, to the nanosecond.
    /// - `ios`: `(now + ttl).rounded()` in Double seconds (`PI/Places+State.swift
    ///   updateMembershipValidUntil`): the nearest whole second, halves away from zero.
    /// - `android`: `nowSeconds + ttl` with the clock truncated to whole seconds and the TTL read
    ///   as a long (`PA/PlacesState.java updateMembershipValidUntilTimestamp`).
    ///
    /// In every case membership is valid strictly before the result and expired from it on,
    /// because both SDKs test `now < validUntil` (research §1.5).
    public func membershipValidUntil(refreshedAt time: Timestamp) -> Timestamp {
        let ttl = configuration.membershipTTL
        switch configuration.platform {
        case .docs:
            return time.adding(seconds: ttl)
        case .ios:
            let value = (time.epochSeconds + ttl).rounded()
            return Timestamp(seconds: Int64(value))
        case .android:
            let whole = ttl.isFinite ? Int64(ttl.rounded(.towardZero)) : 0
            return Timestamp(seconds: time.seconds + whole)
        }
    }

    /// Refreshes membership: `validUntil` from `time` and the TTL.
    mutating func refreshMembership(at time: Timestamp) {
        validUntil = membershipValidUntil(refreshedAt: time)
    }

    /// Applies membership expiry at `time`: when `time >= validUntil`, clears Current, Last
    /// Entered, Last Exited and `validUntil` (the SDKs' `clearMembershipData()`; seed 000) and
    /// reports what was cleared; otherwise changes nothing and returns nil. With
    /// ``PlacesConfiguration/lastPOIExpiry`` `never` (seed 001's reading), Last Entered and Last
    /// Exited are kept and only Current and `validUntil` are cleared.
    ///
    /// The entered set and the nearby list are kept, as in both SDKs: a later region event can
    /// make a stale entered POI current again (research §1.5). In strict mode call it at
    /// ``expiryInstant``; in lazy mode the SDKs only do this when they rebuild their shared
    /// state, see ``publishSharedState(at:)``.
    @discardableResult
    public mutating func applyExpiry(at time: Timestamp) -> PlacesExpiry? {
        guard let until = validUntil, time >= until else { return nil }
        let clearsLast = configuration.lastPOIExpiry == .ttl
        let expiry = PlacesExpiry(
            validUntil: until, appliedAt: time, current: current?.id, lastEntered: clearsLast ? lastEntered?.id : nil,
            lastExited: clearsLast ? lastExited?.id : nil)
        current = nil
        if clearsLast {
            lastEntered = nil
            lastExited = nil
        }
        validUntil = nil
        return expiry
    }

    /// Strict mode applies expiry before every transition; lazy mode leaves it to rebuilds.
    mutating func applyStrictExpiry(at time: Timestamp) -> PlacesExpiry? {
        configuration.expiry == .strict ? applyExpiry(at: time) : nil
    }

    /// Rebuilds and returns the Places shared state at `time`, first applying expiry, as the
    /// SDKs' `getSharedStateData()` / `getPlacesSharedState()` do.
    ///
    /// Call it at every app launch (`onRegistered` publishes the persisted state this way, so an
    /// expired membership is cleared right then, research §1.6): it is where lazy expiry takes
    /// effect.
    public mutating func publishSharedState(at time: Timestamp) -> PlacesPublication {
        let expiry = applyExpiry(at: time)
        if configuration.platform == .docs { refreshLiveFlags() }
        return PlacesPublication(expiry: expiry, sharedState: sharedState())
    }

    /// `Places.clear()` (`requestreset`): wipes everything, the nearby list and entered set
    /// included (research §1.6).
    public mutating func reset() {
        let configuration = configuration
        self = PlacesState(configuration: configuration)
    }
}
