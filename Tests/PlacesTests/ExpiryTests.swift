import Places
import Support
import Testing

/// Membership TTL and expiry (research §1.5): `validUntil` is exclusive — valid strictly before
/// it, expired at it — because both SDKs test `now < validUntil`.
@Suite struct ExpiryTests {
    let a = Fixture.poi("A", rank: 1)
    let b = Fixture.poi("B", rank: 2)

    @Test("boundary: valid one nanosecond before validUntil, expired at it and after", arguments: PlacesExpiryMode.allCases)
    func boundary(mode: PlacesExpiryMode) {
        var state = Fixture.state(.docs, expiry: mode, ttl: 3600)
        let entryTime = Fixture.t0.adding(nanoseconds: 250_000_001)
        _ = state.processRegionEvent(.entry, poi: a, at: entryTime)
        let until = entryTime.adding(seconds: 3600)
        #expect(state.expiryInstant == until)
        #expect(!state.isExpired(at: until.adding(nanoseconds: -1)))
        #expect(state.isExpired(at: until))
        #expect(state.isExpired(at: until.adding(nanoseconds: 1)))

        var before = state
        #expect(before.applyExpiry(at: until.adding(nanoseconds: -1)) == nil)
        #expect(before.currentID == "A")
        var at = state
        let expiry = at.applyExpiry(at: until)
        #expect(expiry == PlacesExpiry(validUntil: until, appliedAt: until, current: "A", lastEntered: "A", lastExited: nil))
        #expect(at.currentID == nil && at.lastEnteredID == nil && at.expiryInstant == nil)
        var after = state
        #expect(after.applyExpiry(at: until.adding(nanoseconds: 1))?.appliedAt == until.adding(nanoseconds: 1))
    }

    /// Seed 000: the TTL ends Last Entered and Last Exited POI too (the default); seed 001: they
    /// have no expiration (`lastPOIExpiry: never`), and only Current is cleared.
    @Test(
        "lastPOIExpiry: ttl clears all three POIs, never keeps Last Entered and Last Exited",
        arguments: PlacesPlatform.allCases, PlacesExpiryMode.allCases)
    func lastPOIExpiry(platform: PlacesPlatform, mode: PlacesExpiryMode) throws {
        #expect(PlacesConfiguration().lastPOIExpiry == .ttl)
        for reading in PlacesLastPOIExpiry.allCases {
            var state = PlacesState(
                configuration: PlacesConfiguration(membershipTTL: 60, expiry: mode, lastPOIExpiry: reading, platform: platform))
            _ = state.processRegionEvent(.entry, poi: a, at: Fixture.at(0))
            _ = state.processRegionEvent(.exit, poi: a, at: Fixture.at(10))
            _ = state.processRegionEvent(.entry, poi: b, at: Fixture.at(20))
            let until = try #require(state.expiryInstant)
            let applied = state.applyExpiry(at: until)
            let expiry = try #require(applied)
            #expect(state.currentID == nil && state.expiryInstant == nil, "\(reading)")
            #expect(expiry.current == "B", "\(reading)")
            switch reading {
            case .ttl:
                #expect(expiry.lastEntered == "B" && expiry.lastExited == "A")
                #expect(state.lastEnteredID == nil && state.lastExitedID == nil)
            case .never:
                #expect(expiry.lastEntered == nil && expiry.lastExited == nil)
                #expect(state.lastEnteredID == "B" && state.lastExitedID == "A")
                // Kept in the shared state rules read, across a launch long after.
                let published = state.publishSharedState(at: Fixture.at(86_400))
                #expect(published.expiry == nil)
                #expect(Fixture.json(published.sharedState).contains(#""lastenteredpoi":{"#))
                #expect(Fixture.json(published.sharedState).contains(#""lastexitedpoi":{"#))
                #expect(!Fixture.json(published.sharedState).contains("currentpoi"))
            }
        }
    }

    @Test("ios rounds validUntil to the nearest whole second; Android truncates the clock")
    func platformRounding() {
        for (fraction, ios, android) in [(0.25, Int64(3600), Int64(3600)), (0.5, 3601, 3600), (0.75, 3601, 3600)] {
            var i = Fixture.state(.ios)
            _ = i.processRegionEvent(.entry, poi: a, at: Fixture.at(fraction))
            #expect(i.validUntil == Fixture.t0.adding(seconds: Double(ios)), "ios \(fraction)")
            var d = Fixture.state(.android)
            _ = d.processRegionEvent(.entry, poi: a, at: Fixture.at(fraction))
            #expect(d.validUntil == Fixture.t0.adding(seconds: Double(android)), "android \(fraction)")
        }
        // Android reads the TTL as a long.
        var d = Fixture.state(.android, ttl: 90.9)
        _ = d.processRegionEvent(.entry, poi: a, at: Fixture.t0)
        #expect(d.validUntil == Fixture.at(90))
    }

    @Test("expiry clears Current, Last Entered and Last Exited but not the entered set or nearby list", arguments: PlacesPlatform.allCases)
    func keepsEnteredSet(platform: PlacesPlatform) {
        var state = Fixture.state(platform, ttl: 60)
        _ = state.applyNearbyResponse(PlacesQueryResponse(userWithin: [a], pois: [b]), at: Fixture.t0, latitude: 37.33, longitude: -121.89)
        _ = state.processRegionEvent(.entry, poi: b, at: Fixture.at(1))
        _ = state.processRegionEvent(.exit, poi: b, at: Fixture.at(2))
        let expiry = state.applyExpiry(at: Fixture.at(62))
        #expect(expiry?.current == "A" && expiry?.lastEntered == "B" && expiry?.lastExited == "B")
        #expect(state.currentID == nil && state.lastEnteredID == nil && state.lastExitedID == nil)
        #expect(state.enteredIDs == ["A"])
        #expect(state.nearby.map(\.id) == ["A", "B"])
        let published = Fixture.json(state.sharedState())
        #expect(!published.contains("currentpoi") && published.contains("nearbypois"))
        #expect(published.hasSuffix(#""validuntil":0}"#))
    }

    @Test("refresh: every processed entry, exit and nearby lookup moves validUntil", arguments: PlacesPlatform.allCases)
    func refresh(platform: PlacesPlatform) {
        var state = Fixture.state(platform, ttl: 100)
        _ = state.processRegionEvent(.entry, poi: a, at: Fixture.at(0))
        #expect(state.validUntil == Fixture.at(100))
        _ = state.processRegionEvent(.exit, poi: a, at: Fixture.at(50))
        #expect(state.validUntil == Fixture.at(150))
        // An exit of a POI that is not entered is processed too, and refreshes.
        _ = state.processRegionEvent(.exit, poi: b, at: Fixture.at(90))
        #expect(state.validUntil == Fixture.at(190))
        _ = state.nearbyLookup(at: Fixture.at(120), latitude: 37.33, longitude: -121.89, count: 5, in: POICatalog(pois: [a, b]))
        #expect(state.validUntil == Fixture.at(220))
        #expect(!state.isExpired(at: Fixture.at(219)))
    }

    @Test("lazy: a region event after validUntil refreshes before the SDK checks, so stale Last Exited survives")
    func lazyKeepsStaleData() {
        var state = Fixture.state(.docs, expiry: .lazy, ttl: 60)
        _ = state.processRegionEvent(.entry, poi: a, at: Fixture.t0)
        _ = state.processRegionEvent(.exit, poi: a, at: Fixture.at(10))
        let r = state.processRegionEvent(.entry, poi: b, at: Fixture.at(3600))
        #expect(r.expiry == nil)
        #expect(r.lastExited == "A")
        #expect(Fixture.json(r.sharedState).contains(#""lastexitedpoi":{"regionid":"A""#))
    }

    @Test("lazy: the launch rebuild clears expired membership; strict: cleared at the instant")
    func lazyVersusStrict() {
        var lazy = Fixture.state(.docs, expiry: .lazy, ttl: 60)
        var strict = Fixture.state(.docs, expiry: .strict, ttl: 60)
        for s in [0, 1] {
            var state = s == 0 ? lazy : strict
            _ = state.processRegionEvent(.entry, poi: a, at: Fixture.t0)
            _ = state.processRegionEvent(.exit, poi: a, at: Fixture.at(10))
            if s == 0 { lazy = state } else { strict = state }
        }
        // Strict: the next signal after validUntil reports the expiry (at validUntil) first.
        let rs = strict.processRegionEvent(.entry, poi: b, at: Fixture.at(3600))
        #expect(rs.expiry?.validUntil == Fixture.at(70))
        #expect(rs.expiry?.lastExited == "A")
        #expect(rs.lastExited == nil && rs.current == "B")
        #expect(!Fixture.json(rs.sharedState).contains("lastexitedpoi"))

        // Lazy: nothing happens until the state is rebuilt at a launch.
        #expect(lazy.lastExitedID == "A")
        let launch = lazy.publishSharedState(at: Fixture.at(3600))
        #expect(launch.expiry?.lastExited == "A")
        #expect(launch.expiry?.appliedAt == Fixture.at(3600))
        #expect(lazy.lastExitedID == nil)
        #expect(Fixture.json(launch.sharedState) == #"{"authstatus":"always","validuntil":0}"#)
        // A rebuild before validUntil changes nothing.
        var fresh = Fixture.state(.docs, ttl: 60)
        _ = fresh.processRegionEvent(.entry, poi: a, at: Fixture.t0)
        #expect(fresh.publishSharedState(at: Fixture.at(59)).expiry == nil)
        #expect(fresh.currentID == "A")
    }

    @Test("android: an ignored signal rebuilds shared state, so lazy expiry applies; iOS publishes nothing")
    func ignoredSignalRebuild() {
        for platform in [PlacesPlatform.android, .ios] {
            var state = Fixture.state(platform, expiry: .lazy, ttl: 60, budget: 1)
            let catalog = POICatalog(pois: [a, Fixture.poi("far", latitude: 37.40)])
            _ = state.nearbyLookup(at: Fixture.t0, latitude: 37.33, longitude: -121.89, count: 2, in: catalog)
            #expect(state.currentID == "A")
            let r = state.processRegionEvent(.entry, poi: catalog.poi(id: "far")!, at: Fixture.at(600))
            #expect(r.disposition == .ignored(.notMonitored))
            #expect(r.events.isEmpty)
            if platform == .android {
                #expect(r.expiry?.current == "A")
                #expect(r.sharedState != nil)
                #expect(state.currentID == nil)
            } else {
                #expect(r.expiry == nil && r.sharedState == nil)
                #expect(state.currentID == "A")
            }
        }
    }

    @Test("a stale entered POI becomes current again on the next signal after expiry (docs, iOS)")
    func resurrection() {
        var state = Fixture.state(.docs, expiry: .strict, ttl: 60)
        _ = state.processRegionEvent(.entry, poi: a, at: Fixture.t0)
        #expect(state.applyExpiry(at: Fixture.at(60)) != nil)
        #expect(state.currentID == nil && state.enteredIDs == ["A"])
        let r = state.processRegionEvent(.exit, poi: b, at: Fixture.at(120))
        #expect(r.current == "A" && r.lastExited == "B" && r.lastEntered == nil)
    }
}
