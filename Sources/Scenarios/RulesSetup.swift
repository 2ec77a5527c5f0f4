import Fences
import Rules
import Support
import Synchronization

/// What the rules need for every trace of a run: the engine, the settings, lookups for building
/// geotrigger events, and the persisted state each trace starts from.
package struct RulesSetup: Sendable {
    package let settings: RulesSettings
    package let engine: RulesEngine
    /// Fence index by id, for the `fence` object of geotrigger events.
    package let fenceIndex: [String: Int]
    /// The scenario's zone declarations by id.
    package let zones: [String: Zone]
    /// The state each trace starts from, by trace label (`--state`); absent: a fresh state.
    package var initialStates: [String: RulesDeviceState] = [:]
    /// Where traces leave their final state, when it is to be persisted.
    package var collector: RulesStateCollector?

    init(settings: RulesSettings, ruleSet: RuleSet, fences: FenceSet, zones: [Zone]) {
        self.settings = settings
        engine = RulesEngine(ruleSet: ruleSet, platform: settings.platform)
        var index: [String: Int] = [:]
        for (k, fence) in fences.fences.enumerated() where index[fence.id] == nil { index[fence.id] = k }
        fenceIndex = index
        var byID: [String: Zone] = [:]
        for zone in zones where byID[zone.id] == nil { byID[zone.id] = zone }
        self.zones = byID
    }

    /// `~sdkver`: the SDK version of the platform (see ``Rules/RulesPlatform/defaultSDKVersion``).
    package var sdkVersion: String { settings.platform.defaultSDKVersion }

    /// A location in the rules file named as the scenario names it (`label`), so that event logs
    /// do not depend on the folder fencesim ran from.
    package func stable(_ location: SourceLocation?) -> SourceLocation? {
        guard var location else { return nil }
        if location.file.hasPrefix(settings.path) {
            location.file = settings.label + location.file.dropFirst(settings.path.count)
        }
        return location
    }
}

/// Collects each trace's final rules state for `--state`, from the worker that ran the trace.
///
/// The replayer returns each trace's Places state in its outcome; the rules state travels here,
/// keyed by trace label, because the outcome has no field for it. Labels are distinct whenever
/// states are persisted (``PlacesStateFiles/paths(for:option:)`` refuses traces that would share
/// a state file), so what a trace leaves does not depend on the order workers finish.
public final class RulesStateCollector: Sendable {
    private let states = Mutex<[String: RulesDeviceState]>([:])

    public init() {}

    package func deposit(_ state: RulesDeviceState, trace: String) {
        states.withLock { $0[trace] = state }
    }

    /// The state `trace` ended with, once the run is over; `nil` if it did not run.
    public func state(for trace: String) -> RulesDeviceState? {
        states.withLock { $0[trace] }
    }
}
