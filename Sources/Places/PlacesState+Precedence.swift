import Support

extension PlacesState {
    /// The documented precedence: lower rank, then smaller radius, then the more recent entry
    /// signal (behavior-reference.md, seed 001 "Current POI"). Total, because entry sequences are
    /// unique.
    public static func documentedPrecedes(_ a: PlacesMembership, _ b: PlacesMembership) -> Bool {
        if a.poi.rank != b.poi.rank { return a.poi.rank < b.poi.rank }
        if a.poi.radiusMeters != b.poi.radiusMeters { return a.poi.radiusMeters < b.poi.radiusMeters }
        if a.entrySequence != b.entrySequence { return a.entrySequence > b.entrySequence }
        return a.id < b.id
    }

    /// The SDKs' priority test, identical on both platforms: does `candidate` take priority over
    /// `other`? Lower weight wins, then smaller radius; on a full tie the candidate wins; over no
    /// POI at all it always wins (`PI/PointOfInterest.swift hasPriorityOver`,
    /// `PA/PlacesPOI.java comparePriority`; research §1.2).
    public static func sdkHasPriority(_ candidate: POI, over other: POI?) -> Bool {
        guard let other else { return true }
        if other.rank < candidate.rank { return false }
        if other.rank == candidate.rank { return other.radiusMeters >= candidate.radiusMeters }
        return true
    }

    /// The entered set in the order the iOS SDK walks its `userWithinPois` dictionary, as
    /// emulated with ``PlacesConfiguration/dictionarySeed``.
    func iosDictionaryOrder(_ memberships: [PlacesMembership]) -> [PlacesMembership] {
        let seed = configuration.dictionarySeed
        return
            memberships
            .map { (key: PlacesState.dictionaryHash($0.id, seed: seed), membership: $0) }
            .sorted { ($0.key, $0.membership.id) < ($1.key, $1.membership.id) }
            .map(\.membership)
    }

    /// POIs in the emulated iOS dictionary order.
    func iosDictionaryOrder(_ pois: [POI]) -> [POI] {
        let seed = configuration.dictionarySeed
        return
            pois
            .map { (key: PlacesState.dictionaryHash($0.id, seed: seed), poi: $0) }
            .sorted { ($0.key, $0.poi.id) < ($1.key, $1.poi.id) }
            .map(\.poi)
    }

    /// The entered set in the order Android walks `cachedPOIs`, a LinkedHashMap in server order:
    /// POIs of the nearby list by their position in it, then (a fencesim extension, for POIs
    /// signalled without a lookup) the others in the order they joined the entered set.
    func androidCacheOrder(_ memberships: [PlacesMembership]) -> [PlacesMembership] {
        var position: [String: Int] = [:]
        for (k, poi) in nearby.enumerated() where position[poi.id] == nil { position[poi.id] = k }
        return memberships.sorted { a, b in
            let pa = position[a.id] ?? Int.max
            let pb = position[b.id] ?? Int.max
            if pa != pb { return pa < pb }
            return (a.joinedSequence, a.id) < (b.joinedSequence, b.id)
        }
    }

    /// A 64-bit hash of `id` for a process seeded with `seed`: FNV-1a over the UTF-8 bytes,
    /// mixed with the seed by SplitMix64's finaliser.
    static func dictionaryHash(_ id: String, seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        var mixer = SplitMix64(seed: hash ^ seed)
        return mixer.next()
    }

    /// The Current POI chosen by the documented precedence over the entered set.
    func documentedCurrent() -> POI? {
        entered.min(by: PlacesState.documentedPrecedes)?.poi
    }

    /// iOS `recalculateCurrentPoi()`: starting from `start`, every entered POI in dictionary
    /// order replaces the candidate when it has priority over it; nil when the set is empty.
    func iosRecalculatedCurrent(startingFrom start: POI?) -> POI? {
        guard !entered.isEmpty else { return nil }
        var candidate = start
        for m in iosDictionaryOrder(entered) where PlacesState.sdkHasPriority(m.poi, over: candidate) {
            candidate = m.poi
        }
        return candidate
    }

    /// Android `calculateCurrentPOI()`: the cached POIs flagged within, in cache order, each
    /// replacing the candidate when it has priority (so later ties win).
    func androidCalculatedCurrent() -> POI? {
        var candidate: POI?
        for m in androidCacheOrder(entered) where PlacesState.sdkHasPriority(m.poi, over: candidate) {
            candidate = m.poi
        }
        return candidate
    }

    /// The entered POIs in the order the platform reports them (`getCurrentPointsOfInterest`):
    /// precedence order for `docs`, dictionary order on iOS, cache order on Android.
    public var enteredInPlatformOrder: [POI] {
        switch configuration.platform {
        case .docs: entered.sorted(by: PlacesState.documentedPrecedes).map(\.poi)
        case .ios: iosDictionaryOrder(entered).map(\.poi)
        case .android: androidCacheOrder(entered).map(\.poi)
        }
    }
}
