import Dispatch
import Fences
import Foundation
import Geotriggers
import Spatial
import Support
import Traces

/// The event log of a `replay` on every core, however the fixes are spread over the traces.
///
/// When the fences and settings are memoryless (``Geotriggers/GeotriggerEngine/isMemoryless(_:fences:)``:
/// a fence's state after a fix depends on that fix alone) a trace can be cut into slices, each
/// replayed by an engine that first takes the state of the fix before the slice
/// (``Geotriggers/GeotriggerEngine/resynchronize(with:)``): the same events as one engine
/// replaying the whole trace, since the slice's first fix sees the same states, the same previous
/// fix (for gaps and visits hidden between fixes) and fix times only grow (the readers refuse or
/// drop fixes out of time order). One thread reads the traces into slices
/// (``ParallelSummary/Feed``); workers take slices as they come and stream each slice's events
/// into an ``OrderedEventLog`` that writes them in reading order, so the log is the same bytes
/// whatever the number of workers, and one long trace uses every core.
///
/// Not for runs with check-ins, Places or rules (their state carries over from fix to fix), for
/// message templates (a slice's fixes carry only what the engine reads: time, position,
/// accuracy), or for lenient reading of untimed fixes (handled as ``Replayer`` handles them, all
/// the same).
public enum ParallelReplay {
    /// Whether `configuration` can be replayed this way.
    public static func applies(to configuration: Replayer.Configuration) -> Bool {
        configuration.pipeline == nil && !configuration.summaryOnly
            && configuration.settings.allSatisfy { $0.message == nil }
            && GeotriggerEngine.isMemoryless(configuration.settings, fences: configuration.fences.fences)
    }

    /// Replays the traces `feed` reads on `workers` threads, their events going to `log` in
    /// reading order; each trace's outcome (what reading it found, its engine statistics, or the
    /// failure that stopped it), without events.
    ///
    /// - Throws: ``Support/FencesimError`` when the fences cannot be compiled.
    public static func replay(_ feed: ParallelSummary.Feed, configuration: Replayer.Configuration, workers requested: Int,
                              log: OrderedEventLog) throws(FencesimError) -> [Replayer.Outcome] {
        precondition(applies(to: configuration), "a memoryless replay without pipeline or messages")
        let workers = max(1, requested > 0 ? requested : ProcessInfo.processInfo.activeProcessorCount)
        let index: FenceIndex
        do {
            index = try FenceIndex(configuration.fences, frame: configuration.frame, settings: configuration.settings)
        } catch {
            feed.cancel()
            throw error
        }
        let traceCount = feed.traces.count
        let slots = (0..<workers).map { _ in ParallelSummary.Slot(traces: traceCount) }
        let channel = feed.channel
        let labels = feed.traces.map(\.label)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let slot = slots[w]
            let compiled: CompiledFences
            do throws(FencesimError) {
                compiled = try CompiledFences(index: index)
            } catch {
                slot.error = error
                channel.cancel()
                return
            }
            let engine = GeotriggerEngine(fences: compiled, traceName: labels[0])
            var buffer: [GeotriggerEvent] = []
            buffer.reserveCapacity(64)
            let frame = compiled.frame
            while let chunk = channel.receive() {
                let before = engine.statistics
                if let predecessor = chunk.predecessor {
                    engine.resynchronize(with: predecessor.sample(in: frame))
                } else {
                    engine.restart()
                }
                let label = labels[chunk.trace]
                let out = log.channel(chunk.sequence)
                let traceLog = TraceLog(release: { out.append($0) })
                var pipeline = TracePipeline(trace: label, fences: compiled.fenceSet, pipeline: nil, placesState: nil, log: traceLog)
                for sample in chunk.samples {
                    let s = sample.sample(in: frame)
                    buffer.removeAll(keepingCapacity: true)
                    engine.process(s, into: &buffer)
                    pipeline.process(buffer, sample: s)
                    engine.takeFindings { finding in traceLog.appendFinding(Replayer.findingLine(finding, trace: label)) }
                    traceLog.advance(to: s.time)
                }
                traceLog.finish()
                out.finish()
                slot.statistics[chunk.trace].add(engine.statistics, since: before)
                // A fence test GEOS could not answer fails the trace (its events would be wrong).
                if let failure = compiled.takeFailure(), slot.failures[chunk.trace] == nil { slot.failures[chunk.trace] = failure }
                // A log that cannot be written: the rest is not worth replaying.
                if log.hasFailed { channel.cancel() }
            }
        }
        if let error = slots.compactMap(\.error).first {
            feed.cancel()
            throw error
        }
        if log.hasFailed { feed.cancel() }
        let reads = log.hasFailed ? [] : try feed.finish()
        return feed.traces.indices.map { k in
            var outcome = Replayer.Outcome(input: feed.traces[k])
            var statistics = GeotriggerEngine.Statistics()
            for slot in slots { statistics.add(slot.statistics[k], since: GeotriggerEngine.Statistics()) }
            outcome.engineStatistics = statistics
            if reads.indices.contains(k) {
                outcome.readStatistics = reads[k].statistics
                outcome.warnings = reads[k].warnings
                outcome.error = reads[k].error
            }
            outcome.error = outcome.error ?? slots.lazy.compactMap { $0.failures[k] }.first
            return outcome
        }
    }
}
