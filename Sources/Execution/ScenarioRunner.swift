import EventPipeline
import Fences
import Geotriggers
import Places
import Rules
import Scenarios
import Spatial
import Support
import Traces

/// What `fencesim run` does between reading a scenario and writing its log, as a library, so that
/// `run`, `check` (SPEC §6.5) and sharded runs (§6.7) replay a scenario the same way: read the
/// fences, check zones and build the pipeline, resolve each fence's settings, choose the metric
/// frame, and replay the traces.
public struct ScenarioRunner: Sendable {
    public let scenario: Scenario
    public let fences: FenceSet
    /// The pipeline after the engine; mutable so that a caller can make it persist state
    /// (``Pipeline/persistRulesStates(initial:)``) before ``run(_:placesStates:)``.
    public var pipeline: Pipeline
    /// Each fence's resolved geotrigger settings, in fence order.
    public let settings: FenceSettings
    /// The metric frame.
    public let frame: FrameDefinition
    public var readOptions: TraceReadOptions
    /// Worker threads (0: one per core); the result does not depend on it.
    public var workers: Int
    /// The scenario's `degrade` section (SPEC §6.2), applied to every trace it replays.
    public let degradation: Degradation?
    /// The scenario's `profile` (or the command line's): the operating system between the
    /// engine and the app.
    public let profile: OSProfile?
    /// Findings for standard error, in the order `run` prints them: sections read but not yet
    /// simulated, the fence reader's warnings, then the pipeline's notes and warnings.
    public let diagnostics: [Diagnostic]

    /// Prepares a scenario's replay; nothing is replayed yet.
    ///
    /// - Parameters:
    ///   - scenario: the scenario.
    ///   - fenceOptions: how to read its fence file.
    ///   - readOptions: how to read its traces.
    ///   - places: Places settings replacing the scenario's (command-line overrides); `nil` keeps
    ///     the scenario's.
    ///   - rulesPlatform: the rules platform replacing the scenario's `rulesPlatform`; `nil` keeps
    ///     the scenario's.
    ///   - workers: worker threads (0: one per core); the result does not depend on it.
    /// - Throws: ``Support/FencesimError`` before anything is replayed: the fence file missing or
    ///   bad, zones that do not match the fences, bad rules, a bad `geotrigger` property, no
    ///   metric frame, a bad `degrade` section.
    public init(
        scenario: Scenario, fenceOptions: FenceReadOptions = FenceReadOptions(), readOptions: TraceReadOptions = TraceReadOptions(),
        places: PlacesSettings? = nil, rulesPlatform: RulesPlatform? = nil, workers: Int = 0,
        profile: OSProfile? = nil
    ) throws(FencesimError) {
        var diagnostics = scenario.notYetSimulated.map { key, location in
            Diagnostic(
                .warning, "\"\(key)\" is read and checked but not simulated by this version of fencesim", at: location,
                kind: "not-simulated")
        }
        let fences = try scenario.readFences(options: fenceOptions)
        diagnostics += fences.warnings
        // Zones and rules are checked here, every problem at once, before anything is replayed.
        let pipeline = try Pipeline(scenario: scenario, fences: fences, places: places ?? scenario.places, rulesPlatform: rulesPlatform)
        diagnostics += pipeline.findings
        settings = try scenario.settings(for: fences)
        frame = try SettingsResolver.frame(given: scenario.crs, fences: fences, location: scenario.fencesLocation, remedy: .scenarioKey)
        degradation = try scenario.degradation()
        self.profile = try scenario.profile(override: profile)
        try scenario.checkProfile(self.profile)
        self.scenario = scenario
        self.fences = fences
        self.pipeline = pipeline
        self.readOptions = readOptions
        self.workers = workers
        self.diagnostics = diagnostics
    }

    /// The replayer's configuration with the pipeline as it is now.
    public var configuration: Replayer.Configuration {
        var configuration = Replayer.Configuration(
            fences: fences, frame: frame, settings: settings, readOptions: readOptions, workers: workers,
            pipeline: pipeline)
        configuration.profile = profile
        return configuration
    }

    /// Replays `traces` (the scenario's own by default), degraded as the scenario says; outcomes
    /// come back in the order given.
    ///
    /// - Parameters:
    ///   - placesStates: the Places state each trace starts from (by position in `traces`), as
    ///     persisted by an earlier run.
    ///   - log: where the events go as they are produced (then outcomes hold none).
    /// - Throws: ``Support/FencesimError`` only when the fences cannot be compiled; a trace that
    ///   fails is reported in its outcome (see ``firstFailure(_:)``).
    public func run(_ traces: [TraceInput]? = nil, placesStates: [PlacesState?] = [], log: OrderedEventLog? = nil) throws(FencesimError)
        -> [Replayer.Outcome]
    {
        let replayer = Replayer(configuration)
        if let degradation {
            return try replayer.run(traces ?? scenario.traces, placesStates: placesStates, degradation: degradation, log: log)
        }
        return try replayer.run(traces ?? scenario.traces, placesStates: placesStates, log: log)
    }

    /// The whole log of a run that had no failing trace: every trace's events in trace order,
    /// numbered (``Replayer/merge(_:)``).
    ///
    /// - Throws: the first failing trace's error, with the other failures in `related`.
    public static func events(of outcomes: [Replayer.Outcome]) throws(FencesimError) -> [LogEvent] {
        if let failure = firstFailure(outcomes) { throw failure }
        return Replayer.merge(outcomes)
    }

    /// The first failing trace's error, with every further failure in `related`; `nil` when all
    /// traces were replayed.
    public static func firstFailure(_ outcomes: [Replayer.Outcome]) -> FencesimError? {
        let failures = outcomes.compactMap(\.error)
        guard var first = failures.first else { return nil }
        for other in failures.dropFirst() {
            first.related.append(Diagnostic(.error, other.message, at: other.location))
        }
        return first
    }
}
