import EventPipeline
import Fences
import Geotriggers
import Support
import Traces

/// The event log of a `replay` on every core, however the fixes are spread over the traces: the
/// event-log use of ``TraceSlices``. Each worker streams a slice's events into an
/// ``OrderedEventLog`` that writes them in reading order, so the log is the same bytes whatever
/// the number of workers.
///
/// Not for runs with check-ins, Places or rules (their state carries over from fix to fix), for
/// message templates (a slice's fixes carry only what the engine reads: time, position,
/// accuracy), for `inside` lines (a stretch inside spans slices), or when fences and settings
/// are not memoryless.
public enum ParallelReplay {
    /// Whether `configuration` can be replayed this way.
    public static func applies(to configuration: Replayer.Configuration) -> Bool {
        configuration.pipeline == nil && configuration.profile == nil && !configuration.summaryOnly
            // `inside` lines span the fixes of a trace, not of a slice.
            && configuration.settings.allSatisfy { $0.message == nil && $0.level == .none }
            && GeotriggerEngine.isMemoryless(configuration.settings, fences: configuration.fences.fences)
    }

    /// Replays the traces `feed` reads on `workers` threads, their events going to `log` in
    /// reading order; each trace's outcome (what reading it found, its engine statistics, or the
    /// failure that stopped it), without events. A log that cannot be written stops the replay.
    ///
    /// `keep` is handed the compiled fence index, as by
    /// ``TraceSlices/run(_:configuration:workers:output:timer:keep:stop:replay:)``.
    ///
    /// - Throws: ``Support/FencesimError`` when the fences cannot be compiled.
    public static func replay(
        _ feed: TraceSlices.Feed, configuration: Replayer.Configuration, workers requested: Int,
        log: OrderedEventLog, timer: PhaseTimer? = nil, keep: ((AnyObject) -> Void)? = nil
    ) throws(FencesimError) -> [Replayer.Outcome] {
        precondition(applies(to: configuration), "a memoryless replay without pipeline or messages")
        let labels = feed.traces.map(\.label)
        return try TraceSlices.run(
            feed, configuration: configuration, workers: requested, output: .events, timer: timer, keep: keep,
            stop: { log.hasFailed }
        ) { engine, chunk, _ in
            // The slice's own copy of the label (a string object of its own): every line of the
            // slice holds the trace, and two workers retaining and releasing one shared string
            // contend for its reference count's cache line at every event.
            let label = String(decoding: Array(labels[chunk.trace].utf8), as: UTF8.self)
            Replayer.replaySlice(chunk.samples, engine: engine, label: label, out: log.channel(chunk.sequence))
        }
    }
}
