import Dispatch
import Fences
import Foundation
import Geotriggers
import Places
import Scenarios
import Spatial
import Support
import Synchronization
import Traces

/// Replays traces through the geotrigger engine on several workers and gathers each trace's
/// events in input order, so the result is the same whatever the number of workers.
///
/// Each worker compiles the fences once (its own GEOS context and PROJ frame) and takes traces
/// one at a time; each trace streams from its file through the engine.
public struct Replayer: Sendable {
    /// What every trace of a replay shares.
    public struct Configuration: Sendable {
        public var fences: FenceSet
        public var frame: FrameDefinition
        /// Resolved settings per fence, in fence order.
        public var settings: FenceSettings
        public var readOptions: TraceReadOptions
        /// Worker threads; 0 means one per core.
        public var workers: Int
        /// Compute only the bench summary (no event log, no provenance).
        public var summaryOnly: Bool
        /// Check-ins and Places after the engine (`run`); `nil` logs engine events only
        /// (`replay`). Ignored with ``summaryOnly``.
        public var pipeline: Pipeline?
        /// The operating system's geofencing layer between the engine and the app (issue 25);
        /// `nil`: the app hears the engine.
        public var profile: OSProfile?

        public init(
            fences: FenceSet, frame: FrameDefinition, settings: FenceSettings, readOptions: TraceReadOptions = TraceReadOptions(),
            workers: Int = 0, summaryOnly: Bool = false, pipeline: Pipeline? = nil
        ) {
            self.fences = fences
            self.frame = frame
            self.settings = settings
            self.readOptions = readOptions
            self.workers = workers
            self.summaryOnly = summaryOnly
            self.pipeline = pipeline
        }

        /// Two fixes further apart than this are of different segments (the engine's smallest
        /// `maxGap`): no path joins them, in the engine, the truth or a resampled feed.
        public var maxGapSeconds: Double {
            GeotriggerEngine.smallestMaxGap(settings)
        }
    }

    /// What replaying one trace produced.
    public struct Outcome: Sendable {
        public var input: TraceInput
        public var events: [LogEvent] = []
        public var readStatistics: TraceStatistics?
        public var engineStatistics = GeotriggerEngine.Statistics()
        public var summary = BenchSummary()
        /// The trace could not be replayed (the others still were).
        public var error: FencesimError?
        /// Located findings for standard error (reader warnings, fixes without time dropped).
        public var warnings: [Diagnostic] = []
        /// The trace's Places state at its end, when Places is simulated (for `--state`).
        public var placesState: PlacesState?
        /// Fixes without a time dropped under `--lenient` (only the first 100 are in ``warnings``).
        public var untimedDropped = 0

        package init(input: TraceInput) {
            self.input = input
        }
    }

    public let configuration: Configuration

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// The number of workers that will run.
    public func workerCount(traces: Int) -> Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let wanted = configuration.workers > 0 ? configuration.workers : cores
        return max(1, min(wanted, traces))
    }

    /// Replays one trace with a worker's compiled fences.
    ///
    /// With ``Configuration/summaryOnly`` only the bench summary is computed; otherwise every fix's
    /// events go through a ``TracePipeline`` (check-ins and Places when the configuration has a
    /// pipeline).
    package static func replay(
        _ input: TraceInput, _ compiled: CompiledFences, _ configuration: Configuration,
        placesState: PlacesState? = nil, log: OrderedEventLog.Channel? = nil
    ) -> Outcome {
        replay(input, compiled, configuration, placesState: placesState, log: log) {
            (onFix: (Fix, XY?) throws(FencesimError) -> Void) throws(FencesimError) in
            try TraceReader.read(path: input.path, options: input.readOptions(configuration.readOptions)) {
                (fix: Fix) throws(FencesimError) in try onFix(fix, nil)
            }
        }
    }

    /// Replays the fixes that `source` hands to its argument, in order (a file streamed by
    /// ``Traces/TraceReader``, or fixes held in memory), each with its position in the fences'
    /// frame when the source projected it already (else `nil`: it is projected here); `source`
    /// returns what reading them found, if it read them.
    ///
    /// - Parameters:
    ///   - signalLoss: notifications the operating system never delivers (SPEC §6.2): applied to
    ///     the engine's events before check-ins and Places see them.
    ///   - log: where the trace's events go as they are produced (then the outcome holds none);
    ///     `nil` keeps them in the outcome.
    ///   - release: called with each of the trace's log lines, in order, instead of keeping them
    ///     in the outcome (when there is no `log`).
    package static func replay(
        _ input: TraceInput, _ compiled: CompiledFences, _ configuration: Configuration,
        placesState: PlacesState? = nil, signalLoss: SignalLoss? = nil, log channel: OrderedEventLog.Channel? = nil,
        release: ((LogLine) -> Void)? = nil,
        source: ((Fix, XY?) throws(FencesimError) -> Void) throws(FencesimError) -> TraceStatistics?
    ) -> Outcome {
        var outcome = Outcome(input: input)
        /// The trace's events when they are kept in the outcome.
        final class Kept {
            var events: [LogEvent] = []
        }
        let kept = Kept()
        let log = channel.map { TraceLog(channel: $0) } ?? TraceLog(release: release ?? { kept.events.append($0.logEvent) })
        let findingLine = { (finding: GeotriggerEngine.Finding) in log.appendFinding(Replayer.findingLine(finding, trace: input.label)) }
        let engine = GeotriggerEngine(fences: compiled, traceName: input.label, output: configuration.summaryOnly ? .counts : .events)
        var buffer: [GeotriggerEvent] = []
        buffer.reserveCapacity(64)
        var index = 0
        var summary = BenchSummary()
        var pipeline = TracePipeline(
            trace: input.label, fences: compiled,
            pipeline: configuration.summaryOnly ? nil : configuration.pipeline, placesState: placesState, log: log,
            profile: configuration.summaryOnly ? nil : configuration.profile)
        var untimed: [Diagnostic] = []
        var untimedCount = 0
        let frame = compiled.frame
        let lenient = configuration.readOptions.lenient
        let summaryOnly = configuration.summaryOnly
        let tracksLevels = configuration.settings.contains { $0.level != .none }
        var loss = signalLoss
        let fenceIDs = signalLoss == nil ? [] : compiled.fenceSet.fences.map(\.id)
        do throws(FencesimError) {
            let statistics = try source { (fix: Fix, projected: XY?) throws(FencesimError) in
                let row = index
                index += 1
                guard let time = fix.time else {
                    let message = "fix \(row) has no time; a replay needs timed fixes (fencesim synth times a route)"
                    if !lenient {
                        throw FencesimError(.badData, message, at: SourceLocation(file: input.path, line: fix.line))
                    }
                    untimedCount += 1
                    if untimed.count < 100 {
                        untimed.append(
                            Diagnostic(
                                .warning, message + "; dropped", at: SourceLocation(file: input.path, line: fix.line), kind: "no-time"))
                    }
                    return
                }
                let position = projected ?? frame.forward(XY(longitude: fix.longitude, latitude: fix.latitude))
                let sample = Sample(
                    index: row, time: time, position: position, longitude: fix.longitude, latitude: fix.latitude,
                    accuracy: fix.accuracyMeters, speed: fix.speedMetersPerSecond, course: fix.courseDegrees,
                    altitude: fix.altitudeMeters, hdop: fix.hdop, satellites: fix.satellites, segment: fix.segment)
                buffer.removeAll(keepingCapacity: true)
                engine.process(sample, into: &buffer)
                loss?.apply(&buffer, fences: fenceIDs)
                if summaryOnly {
                    // Enters and exits are counted, not made into events.
                    for t in engine.tallies { summary.add(enter: t.enter, fix: t.fixIndex, fence: t.fence) }
                    engine.tallies.removeAll(keepingCapacity: true)
                } else {
                    pipeline.process(buffer, sample: sample)
                    if tracksLevels {
                        engine.takeLevelChanges { pipeline.level($0) }
                        pipeline.levelFix(sample)
                    }
                    engine.takeFindings(findingLine)
                    log.advance(to: time)
                    // A log that cannot be written ends the replay.
                    if channel?.stopped == true { throw FencesimError(.io, "the event log could not be written") }
                }
            }
            if let statistics {
                outcome.readStatistics = statistics
                outcome.warnings = statistics.warnings
            }
        } catch {
            outcome.error = error
        }
        // A fence test GEOS could not answer fails the trace (its events would be wrong).
        if let failure = compiled.takeFailure(), outcome.error == nil { outcome.error = failure }
        if untimedCount > untimed.count {
            untimed.append(
                Diagnostic(
                    .note, "and \(untimedCount - untimed.count) more fixes without time dropped", at: SourceLocation(file: input.path)))
        }
        outcome.warnings += untimed
        outcome.untimedDropped = untimedCount
        summary.insidePairs = engine.statistics.insidePairs
        outcome.summary = summary
        outcome.engineStatistics = engine.statistics
        if !summaryOnly {
            pipeline.finish()
            outcome.warnings += pipeline.warnings
            outcome.placesState = pipeline.places?.state
            engine.takeFindings(findingLine)
            log.finish()
            channel?.finish()
            outcome.events = kept.events
        }
        return outcome
    }

    /// The `warning` line of something the engine noticed about the trace (a gap, a fix out of
    /// time order).
    package static func findingLine(_ finding: GeotriggerEngine.Finding, trace: String) -> LogEvent {
        LogEvent(
            time: finding.time, trace: trace, type: .warning,
            fields: [("fix", .int(Int64(finding.fixIndex))), ("reason", .string(finding.kind)), ("message", .string(finding.message))])
    }

    /// Concatenates the traces' events in input order and numbers them.
    public static func merge(_ outcomes: [Outcome]) -> [LogEvent] {
        var all: [LogEvent] = []
        for o in outcomes { all += o.events }
        for k in all.indices { all[k].seq = k }
        return all
    }
}
