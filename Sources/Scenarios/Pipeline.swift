import CheckIns
import Fences
import Places
import Rules
import Support

/// What every trace of a scenario run passes its geotrigger events through after the engine:
/// check-ins (SPEC §3) and, when the scenario asks for them, Places (SPEC §4) and the rules
/// engine (SPEC §5). Built once per run; each trace starts from a fresh copy of its state
/// machines.
///
/// Zones: when the scenario declares zones, a fence naming any other zone is an error (SPEC §3).
/// When it declares none, each zone a fence names becomes an implicit zone with the default
/// zone's rules (check-out on, no re-trigger time, no conditions), reported as a note, so that a
/// fence file's grouping still means one check-in per group; fences without a `zone` property are
/// in the default zone either way.
public struct Pipeline: Sendable {
    /// The check-in machine every trace copies.
    public let checkIns: CheckInMachine
    /// Places, when simulated.
    package let places: PlacesSetup?
    /// The rules, when the scenario names a rules file.
    package private(set) var rules: RulesSetup?
    /// Notes and warnings for standard error: implicit zones, fences that cannot be POIs,
    /// metadata dropped, sessions that cannot be simulated, pieces of the rules the platform
    /// drops.
    public let findings: [Diagnostic]

    /// Builds the pipeline of a scenario for its fence set.
    ///
    /// - Parameters:
    ///   - scenario: the scenario (its zones, `places` and `sessions`).
    ///   - fences: the fence set its geotrigger events index into.
    ///   - places: the Places settings to use instead of the scenario's (command-line overrides).
    ///   - rulesPlatform: the rules platform to use instead of the scenario's `rulesPlatform`
    ///     (`--rules-platform`).
    /// - Throws: ``Support/FencesimError`` `.badData`, located, before any replay: a fence naming an
    ///   undeclared zone (at the fence), a duplicate zone, a bad re-trigger time, a schedule out
    ///   of order or a travel path naming a fence outside its zone, every further problem in
    ///   `related` (``CheckIns/CheckInMachine/init(fences:zones:)``); bad `rules` or
    ///   `rulesPlatform` values (at the key) and rules the platform refuses (in the rules file);
    ///   `.missingInput` located at `rules` when the rules file does not exist.
    public init(scenario: Scenario, fences: FenceSet, places: PlacesSettings? = nil, rulesPlatform: RulesPlatform? = nil)
        throws(FencesimError)
    {
        // A fence that several geotriggers watch is one fence to check-ins, Places and rules.
        let fences = fences.watchedOnce
        var findings: [Diagnostic] = []
        var zones = scenario.zones.map(\.zone)
        if zones.isEmpty {
            var seen: Set<String> = []
            for fence in fences.fences {
                guard let id = fence.zone, id != Zone.defaultZoneID, seen.insert(id).inserted else { continue }
                zones.append(Zone(id: id, location: fence.location))
                findings.append(
                    Diagnostic(
                        .note,
                        "fence \"\(fence.id)\" names zone \"\(id)\" and the scenario declares no zones: its fences check in as one zone with the default rules (check-out on, no re-trigger time); declare it under zones: to set them",
                        at: fence.location, kind: "implicit-zone"))
            }
        }
        checkIns = try CheckInMachine(fences: fences, zones: zones)
        if let settings = places ?? scenario.places {
            let setup = PlacesSetup(settings: settings, sessions: scenario.sessions, fences: fences)
            findings += setup.catalog.findings
            if setup.catalog.pois.isEmpty {
                findings.append(
                    Diagnostic(
                        .warning, "Places is simulated but the fence file has no circle fences, so there are no POIs",
                        at: settings.location, kind: "places-no-pois"))
            }
            if let budget = settings.configuration.regionBudget, !scenario.sessions.contains(where: \.nearbyLookup) {
                findings.append(
                    Diagnostic(
                        .warning,
                        "regionBudget \(budget) emulates monitoring the nearest POIs of the last nearby lookup, and no session runs one (sessions: [{launch: ..., nearbyLookup: true}]), so every entry and exit is ignored as notMonitored",
                        at: settings.location, kind: "places-nothing-monitored"))
            }
            self.places = setup
        } else {
            self.places = nil
        }
        // The rules are read here, after everything else in the scenario is known to be good and
        // before any trace is replayed, so that bad rules write nothing.
        if let settings = try scenario.rulesSettings(platform: rulesPlatform) {
            let ruleSet = try settings.load()
            findings += ruleSet.warnings
            rules = RulesSetup(settings: settings, ruleSet: ruleSet, fences: fences, zones: zones)
        }
        self.findings = findings
    }

    /// Whether Places is simulated.
    public var simulatesPlaces: Bool { places != nil }

    /// Whether rules are evaluated.
    public var simulatesRules: Bool { rules != nil }

    /// The rules settings in effect, when rules are evaluated.
    public var rulesSettings: RulesSettings? { rules?.settings }

    /// Makes each trace start from a persisted rules state and keep its final one (`--state`).
    ///
    /// - Parameter initial: the state each trace starts from, by trace label (absent: fresh).
    /// - Returns: where each trace's final state can be read once the run is over, or `nil` when
    ///   no rules are evaluated.
    public mutating func persistRulesStates(initial: [String: RulesDeviceState]) -> RulesStateCollector? {
        guard rules != nil else { return nil }
        let collector = RulesStateCollector()
        rules?.initialStates = initial
        rules?.collector = collector
        return collector
    }

    /// The Places settings in effect, when Places is simulated.
    public var placesSettings: PlacesSettings? { places?.settings }
}

/// What Places needs for every trace: its settings, the POIs, and the app sessions as a list of
/// instants.
package struct PlacesSetup: Sendable {
    /// A session launch or termination.
    package struct Boundary: Sendable {
        package enum Kind: Sendable { case launch, terminate }
        package var time: Timestamp
        package var kind: Kind
        /// Index into ``PlacesSetup/sessions``.
        package var session: Int
    }

    package let settings: PlacesSettings
    package let catalog: POICatalog
    package let sessions: [AppSession]
    /// Launches and terminations in time order (sessions are ordered and do not overlap, so a
    /// terminate at the instant of the next launch comes first).
    package let boundaries: [Boundary]
    /// The POI of each fence (by fence index), `nil` for fences that are not POIs.
    package let poiByFence: [POI?]

    init(settings: PlacesSettings, sessions: [AppSession], fences: FenceSet) {
        self.settings = settings
        self.sessions = sessions
        catalog = POICatalog(fences: fences.fences)
        var boundaries: [Boundary] = []
        for (k, s) in sessions.enumerated() {
            boundaries.append(Boundary(time: s.launch, kind: .launch, session: k))
            if let end = s.terminate { boundaries.append(Boundary(time: end, kind: .terminate, session: k)) }
        }
        self.boundaries = boundaries
        poiByFence = fences.fences.map { [catalog] in catalog.poi(id: $0.id) }
    }
}
