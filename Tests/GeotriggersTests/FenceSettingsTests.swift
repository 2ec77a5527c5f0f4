import Spatial
import Testing

@testable import Geotriggers

/// Every fence's settings held once per distinct value read and change as an array of one value
/// per fence would.
@Suite struct FenceSettingsTests {
    static func value(_ k: Int) -> GeotriggerSettings {
        var s = GeotriggerSettings()
        s.bufferMeters = Double(k % 3)
        if k % 4 == 0 { s.feed = .accuracy }
        return s
    }

    /// `values`, one per fence, with `unused` interned before them for no fence.
    static func settings(_ values: [GeotriggerSettings], interningFirst unused: GeotriggerSettings) -> FenceSettings {
        var builder = FenceSettings.Builder()
        _ = builder.intern(unused)
        for v in values { builder.append(v) }
        return builder.settings
    }

    @Test func readsAsTheArrayOfValues() {
        let each = (0..<1_000).map(Self.value)
        let settings = FenceSettings(each)
        #expect(settings.count == each.count)
        #expect(settings.elementsEqual(each))
        #expect(settings.distinct.count == Set(each).count)
        #expect(settings.distinct.count == 6)
        for j in each.indices { #expect(settings.distinct[settings.position(of: j)] == each[j]) }
    }

    @Test func changingEachDistinctValueChangesEveryFence() {
        var each = (0..<500).map(Self.value)
        var settings = FenceSettings(each)
        settings.modifyEach {
            $0.bufferMeters += 10
            $0.relationship = .contains
        }
        for j in each.indices {
            each[j].bufferMeters += 10
            each[j].relationship = .contains
        }
        #expect(settings.elementsEqual(each))
        #expect(settings == FenceSettings(each))
    }

    @Test func equalityIsPerFenceWhateverTheSharing() {
        var builder = FenceSettings.Builder()
        let a = builder.intern(Self.value(1))
        _ = builder.intern(Self.value(1))
        builder.append(position: a)
        builder.append(Self.value(2))
        builder.append(Self.value(1))
        let built = builder.settings
        #expect(built.distinct.count == 2)
        #expect(built == [Self.value(1), Self.value(2), Self.value(1)])
        #expect(built != [Self.value(1), Self.value(1), Self.value(1)])
        #expect(FenceSettings(Array(repeating: Self.value(5), count: 3)).distinct.count == 1)
        #expect(FenceSettings() == [])
    }

    /// Questions about every fence's settings are answered from the distinct values some fence
    /// has, as the array of one value per fence answers them; a value interned for no fence
    /// counts for nothing.
    @Test func questionsAboutEveryFenceReadTheValuesInUse() {
        var unused = Self.value(0)
        unused.dwellSeconds = 30
        let each = [4, 1, 4, 2, 1, 3].map(Self.value)
        let built = Self.settings(each, interningFirst: unused)
        #expect(built.distinct.count == 5)
        #expect(built.positionsInUse() == [1, 2, 3, 4])
        #expect(built.positionsInUse().map { built.distinct[$0] } == [4, 1, 2, 3].map(Self.value))
        #expect(!built.contains { $0.dwellSeconds != nil })
        #expect(built.allSatisfy { $0.dwellSeconds == nil })
        for predicate in [
            { (s: GeotriggerSettings) in s.feed == .accuracy }, { $0.bufferMeters == 1 }, { $0.bufferMeters > 5 }, { _ in true },
        ] {
            #expect(built.contains(where: predicate) == each.contains(where: predicate))
            #expect(built.allSatisfy(predicate) == each.allSatisfy(predicate))
        }
        #expect(!FenceSettings().contains { _ in true })
        #expect(FenceSettings().allSatisfy { _ in false })
        #expect(FenceSettings().positionsInUse().isEmpty)
    }

    /// The smallest `maxGap` over the fences, whichever distinct values they share.
    @Test func theSmallestMaxGapIsOverTheFences() {
        var smallest = Self.value(3)
        smallest.maxGapSeconds = 10
        let each = [(1, 90.0), (2, 45), (1, 90), (4, 300)].map { k, gap in
            var v = Self.value(k)
            v.maxGapSeconds = gap
            return v
        }
        let built = Self.settings(each, interningFirst: smallest)
        #expect(GeotriggerEngine.smallestMaxGap(built) == 45)
        #expect(GeotriggerEngine.smallestMaxGap(built) == each.map(\.maxGapSeconds).min())
        #expect(GeotriggerEngine.smallestMaxGap(FenceSettings()) == 120)
    }

    /// The engine's per-fence profiles, worked out once per distinct value, are those worked
    /// out fence by fence: filters numbered in the order of the first fence that has each.
    @Test func profilesAreThoseOfEachFence() throws {
        let slow = try FilterExpression("accuracy < 20")
        let fast = try FilterExpression("speed > 3")
        func value(_ k: Int) -> GeotriggerSettings {
            var s = Self.value(k)
            s.filter = [nil, fast, slow, nil, slow][k % 5]
            if k % 6 == 1 { s.dwellSeconds = 60 }
            s.maxGapSeconds = Double(30 + k % 7)
            return s
        }
        var builder = FenceSettings.Builder()
        // Interned first, used last: numbering follows the fences, not the values.
        let late = builder.intern(value(2))
        let order = [3, 0, 6, 1, 9, 4, 3, 12, 5, 8]
        for k in order { builder.append(value(k)) }
        builder.append(position: late)
        let each = order.map(value) + [value(2)]
        let shapes: [FenceIndex.Shape] = each.indices.map { $0 == 4 ? .line([XY(0, 0), XY(1, 1)]) : .circle(center: XY(0, 0), radius: 10) }
        let setup = GeotriggerEngine.Setup(settings: builder.settings, shapes: shapes, validityFences: [2, 7])
        var filters: [FilterExpression] = []
        for s in each { if let f = s.filter, !filters.contains(f) { filters.append(f) } }
        #expect(setup.filters == filters)
        #expect(setup.profiles.count == each.count)
        for (j, s) in each.enumerated() {
            let p = setup.profiles[j]
            #expect(p.filterID == (s.filter.map { f in filters.firstIndex(of: f)! + 1 } ?? 0))
            #expect(p.isLine == (j == 4))
            #expect(p.dwell == s.dwellSeconds && p.maxGap == s.maxGapSeconds && p.accuracyFeed == (s.feed == .accuracy))
            #expect(p.hasValidity == (j == 2 || j == 7))
            #expect(p.notifyEnter == s.notify.includesEnter && p.hasMessage == (s.message != nil))
        }
        #expect(setup.globalMaxGap == each.map(\.maxGapSeconds).min())
        // Each profile in whole cache lines of its own.
        #expect(GeotriggerEngine.ProfileTable.stride % 64 == 0)
        #expect(GeotriggerEngine.ProfileTable.stride >= MemoryLayout<GeotriggerEngine.Profile>.size)
    }
}
