import Geotriggers
import Support

/// One slice of a trace's fixes through a worker's engine, for the replays that cut traces into
/// slices on every core (``Execution/ParallelReplay``, ``Execution/ParallelSummary``). Here,
/// with the engine and the pipeline, so that the loop over the fixes compiles with them.
extension Replayer {
    /// The events of one slice of a memoryless trace: `samples` through `engine` (in the state
    /// of the fix before the slice) and a pipeline with no stage after the engine, each line
    /// handed to `out` in log order; `out` is finished at the end of the slice.
    package static func replaySlice(_ samples: [FeedSample], engine: GeotriggerEngine, label: String, out: OrderedEventLog.Channel) {
        let traceLog = TraceLog(channel: out)
        var pipeline = TracePipeline(trace: label, fences: engine.fences, pipeline: nil, placesState: nil, log: traceLog)
        let frame = engine.fences.frame
        var buffer: [GeotriggerEvent] = []
        buffer.reserveCapacity(64)
        for sample in samples {
            let s = sample.sample(in: frame)
            buffer.removeAll(keepingCapacity: true)
            engine.process(s, into: &buffer)
            pipeline.process(buffer, sample: s)
            engine.takeFindings { finding in traceLog.appendFinding(Replayer.findingLine(finding, trace: label)) }
            traceLog.advance(to: s.time)
        }
        traceLog.finish()
        out.finish()
    }

    /// The enters and exits of one slice, counted by `engine` (made with the `.counts` output)
    /// into `summary`.
    package static func summarizeSlice(_ samples: [FeedSample], engine: GeotriggerEngine, into summary: inout BenchSummary) {
        // The engine projects the fixes itself: the reading thread, which every worker
        // waits on when fences are few, only parses.
        let frame = engine.fences.frame
        var buffer: [GeotriggerEvent] = []
        for sample in samples {
            buffer.removeAll(keepingCapacity: true)
            engine.process(sample.sample(in: frame), into: &buffer)
        }
        // The enters and exits, counted without events (the sums do not depend on order).
        for t in engine.tallies { summary.add(enter: t.enter, fix: t.fixIndex, fence: t.fence) }
        engine.tallies.removeAll(keepingCapacity: true)
    }
}
