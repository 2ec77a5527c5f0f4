import Places
import Support
import Testing

/// Current POI precedence: rank, then radius, then recency (docs), and the SDKs' divergent
/// tie-breaks (research §1.2).
@Suite struct PrecedenceTests {
    @Test("lower rank wins over a smaller radius and a later entry", arguments: PlacesPlatform.allCases)
    func rankFirst(platform: PlacesPlatform) {
        var state = Fixture.state(platform)
        let low = Fixture.poi("low", rank: 1, radius: 500)
        let high = Fixture.poi("high", rank: 2, radius: 10)
        _ = state.processRegionEvent(.entry, poi: low, at: Fixture.t0)
        _ = state.processRegionEvent(.entry, poi: high, at: Fixture.at(1))
        #expect(state.currentID == "low")
        var reversed = Fixture.state(platform)
        _ = reversed.processRegionEvent(.entry, poi: high, at: Fixture.t0)
        _ = reversed.processRegionEvent(.entry, poi: low, at: Fixture.at(1))
        #expect(reversed.currentID == "low")
    }

    @Test("equal rank: the smaller radius wins", arguments: PlacesPlatform.allCases)
    func radiusSecond(platform: PlacesPlatform) {
        var state = Fixture.state(platform)
        _ = state.processRegionEvent(.entry, poi: Fixture.poi("small", radius: 50), at: Fixture.t0)
        _ = state.processRegionEvent(.entry, poi: Fixture.poi("big", radius: 80), at: Fixture.at(1))
        #expect(state.currentID == "small")
        _ = state.processRegionEvent(.exit, poi: Fixture.poi("small", radius: 50), at: Fixture.at(2))
        #expect(state.currentID == "big")
    }

    @Test("docs: on a full tie the most recent entry signal wins, also after exits")
    func docsRecency() {
        var state = Fixture.state(.docs)
        let a = Fixture.poi("a"), b = Fixture.poi("b"), c = Fixture.poi("c")
        _ = state.processRegionEvent(.entry, poi: c, at: Fixture.t0)
        _ = state.processRegionEvent(.entry, poi: a, at: Fixture.at(1))
        _ = state.processRegionEvent(.entry, poi: b, at: Fixture.at(2))
        #expect(state.currentID == "b")
        // A repeated entry signal is the most recent one.
        _ = state.processRegionEvent(.entry, poi: c, at: Fixture.at(3))
        #expect(state.currentID == "c")
        _ = state.processRegionEvent(.exit, poi: c, at: Fixture.at(4))
        #expect(state.currentID == "b")
        _ = state.processRegionEvent(.exit, poi: b, at: Fixture.at(5))
        #expect(state.currentID == "a")
    }

    @Test("ios: a full tie goes to the last POI in the emulated dictionary order, whatever the entry order")
    func iosDictionaryOrder() {
        let pois = ["a", "b", "c", "d"].map { Fixture.poi($0) }
        var winners: Set<String> = []
        for seed in UInt64(0)..<16 {
            var forward = Fixture.state(.ios, seed: seed)
            var backward = Fixture.state(.ios, seed: seed)
            for (k, p) in pois.enumerated() {
                _ = forward.processRegionEvent(.entry, poi: p, at: Fixture.at(Double(k)))
                _ = backward.processRegionEvent(.entry, poi: pois[pois.count - 1 - k], at: Fixture.at(Double(k)))
            }
            // Same seed (same process): same winner, independent of which entry came last.
            #expect(forward.currentID == backward.currentID, "seed \(seed)")
            // And the winner is the last of the emulated iteration order.
            #expect(forward.currentID == forward.enteredInPlatformOrder.last?.id, "seed \(seed)")
            winners.insert(forward.currentID ?? "")
        }
        // Different seeds (processes) pick different winners: the SDK's nondeterminism.
        #expect(winners.count > 1)
    }

    @Test("ios: a rank or radius difference is never left to dictionary order")
    func iosRespectsRankAndRadius() {
        for seed in UInt64(0)..<8 {
            var state = Fixture.state(.ios, seed: seed)
            _ = state.processRegionEvent(.entry, poi: Fixture.poi("x", rank: 1, radius: 90), at: Fixture.t0)
            _ = state.processRegionEvent(.entry, poi: Fixture.poi("y", rank: 1, radius: 60), at: Fixture.at(1))
            _ = state.processRegionEvent(.entry, poi: Fixture.poi("z", rank: 2, radius: 10), at: Fixture.at(2))
            #expect(state.currentID == "y")
        }
    }

    @Test("android: entries on a tie go to the new POI; exits to the later POI in server order")
    func androidTieBreaks() {
        // The nearby list (server order) is a, b, c; the device is in none of them yet.
        let pois = ["a", "b", "c"].map { Fixture.poi($0) }
        func run(_ platform: PlacesPlatform) -> (afterEntries: String?, afterExit: String?) {
            var state = Fixture.state(platform)
            _ = state.applyNearbyResponse(
                PlacesQueryResponse(userWithin: [], pois: pois), at: Fixture.t0, latitude: 37.33, longitude: -121.89)
            for (k, id) in ["c", "b", "a"].enumerated() {
                _ = state.processRegionEvent(.entry, poi: pois.first { $0.id == id }!, at: Fixture.at(Double(k + 1)))
            }
            let afterEntries = state.currentID
            _ = state.processRegionEvent(.exit, poi: pois[0], at: Fixture.at(10))
            return (afterEntries, state.currentID)
        }
        let docs = run(.docs)
        let android = run(.android)
        #expect(docs.afterEntries == "a" && android.afterEntries == "a")
        // docs: b is the most recent remaining entry; Android: c comes later in the cache.
        #expect(docs.afterExit == "b")
        #expect(android.afterExit == "c")
    }

    @Test("android: after expiry an entry becomes current without comparing to the entered set")
    func androidNoRecalculationAfterExpiry() {
        let best = Fixture.poi("best", rank: 1)
        let worse = Fixture.poi("worse", rank: 5)
        var results: [PlacesPlatform: String?] = [:]
        for platform in PlacesPlatform.allCases {
            var state = Fixture.state(platform, expiry: .strict, ttl: 60)
            _ = state.processRegionEvent(.entry, poi: best, at: Fixture.t0)
            let r = state.processRegionEvent(.entry, poi: worse, at: Fixture.at(120))
            #expect(r.expiry?.current == "best")
            results[platform] = state.currentID
        }
        // docs and iOS recalculate over the entered set, where "best" survived the expiry.
        #expect(results[.docs] == "best")
        #expect(results[.ios] == "best")
        #expect(results[.android] == "worse")
    }

    @Test("nearby lookup: docs takes the closest of a tie, iOS the farthest, Android the first within regardless of rank")
    func nearbyTieBreaks() {
        let near = Fixture.poi("near", rank: 5, radius: 100)
        let mid = Fixture.poi("mid", rank: 1, radius: 100)
        let far = Fixture.poi("far", rank: 1, radius: 100)
        let response = PlacesQueryResponse(userWithin: [near, mid, far], pois: [])
        var expected: [PlacesPlatform: String] = [.docs: "mid", .ios: "far", .android: "near"]
        for platform in PlacesPlatform.allCases {
            var state = Fixture.state(platform)
            let r = state.applyNearbyResponse(response, at: Fixture.t0, latitude: 37.33, longitude: -121.89)
            #expect(r.current == expected[platform], "\(platform)")
            #expect(r.lastEntered == "near", "\(platform): Last Entered is the first userWithin POI")
            expected[platform] = nil
        }
    }

    @Test("the SDK priority function: candidate wins full ties, lower weight first")
    func sdkPriority() {
        let a = Fixture.poi("a", rank: 2, radius: 50)
        #expect(PlacesState.sdkHasPriority(a, over: nil))
        #expect(PlacesState.sdkHasPriority(a, over: Fixture.poi("b", rank: 2, radius: 50)))
        #expect(PlacesState.sdkHasPriority(a, over: Fixture.poi("b", rank: 2, radius: 51)))
        #expect(!PlacesState.sdkHasPriority(a, over: Fixture.poi("b", rank: 2, radius: 49)))
        #expect(!PlacesState.sdkHasPriority(a, over: Fixture.poi("b", rank: 1, radius: 500)))
        #expect(PlacesState.sdkHasPriority(a, over: Fixture.poi("b", rank: 3, radius: 1)))
    }
}
