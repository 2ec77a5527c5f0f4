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
}
