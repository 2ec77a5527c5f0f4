import Dispatch
import EventPipeline
import Fences
import Foundation
import Geotriggers
import Scenarios
import Spatial
import Support
import Traces

/// Traces replayed in slices on every core, when no fence's state depends on more than the fix
/// (``Geotriggers/GeotriggerEngine/isMemoryless(_:fences:)``): one thread reads the traces into
/// slices of fixes (a ``Feed``, started before the fences are read), and every worker takes whole
/// slices as they come, first taking the state the fix before the slice leaves
/// (``Geotriggers/GeotriggerEngine/resynchronize(with:)``; a trace's first slice starts afresh).
/// The events of a slice are those of one engine replaying the trace whole: the slice's first
/// fix sees the same fence states, the same previous fix (for gaps and visits hidden between
/// fixes), and fix times only grow (the readers refuse or drop fixes out of time order). No
/// worker waits for another, and one long trace uses every core as well as many short ones do;
/// memory stays bounded by the slice size and the read-ahead.
///
/// What a worker does with a slice's fixes is the caller's: ``ParallelReplay`` streams their
/// events into the event log, ``ParallelSummary`` (the bench summary) counts enters and exits.
public enum TraceSlices {
    /// Fixes in a slice.
    public static let chunkSize = 16_384

    /// Slices the reading thread may hold ahead of the workers: enough to keep it busy while the
    /// fences are read and indexed (about 260,000 fixes in 13 MB), small enough to keep memory
    /// flat.
    public static let readAhead = 16

    /// The read-ahead of an event log (see `replay`): 4 slices, about 3 MB.
    public static let eventLogReadAhead = 4

    /// What one worker found: written by that worker alone, read after the workers have joined.
    final class Slot: @unchecked Sendable {
        /// By trace.
        var summaries: [BenchSummary]
        var statistics: [GeotriggerEngine.Statistics]
        /// By trace: a fence test GEOS could not answer (the trace fails).
        var failures: [FencesimError?]

        init(traces: Int) {
            failures = Array(repeating: nil, count: traces)
            summaries = Array(repeating: BenchSummary(), count: traces)
            statistics = Array(repeating: GeotriggerEngine.Statistics(), count: traces)
        }
    }

    /// Replays the slices `feed` reads on `workers` threads (0: one per core), each with an
    /// engine making `output` over one shared index; `replay` processes one slice's fixes with
    /// the worker's engine, already in the state of the fix before the slice, and may record
    /// per-trace results in the worker's slot. Returns each trace's outcome: what reading it
    /// found, its engine statistics and summary, or the failure that stopped it (a trace that
    /// fails does not stop the others).
    ///
    /// - Parameters:
    ///   - stop: asked after every slice; `true` ends the replay (the rest is not worth doing).
    ///   - keep: handed the compiled fence index, so that a caller about to end the process can
    ///     leave it unfreed (freeing 100,000 compiled fences takes one thread several
    ///     milliseconds); otherwise the index is freed before this returns.
    /// - Throws: ``Support/FencesimError`` when the fences cannot be compiled or the frame built.
    static func run(
        _ feed: Feed, configuration: Replayer.Configuration, workers requested: Int, output: GeotriggerEngine.Output,
        timer: PhaseTimer? = nil, keep: ((AnyObject) -> Void)? = nil, stop: @Sendable () -> Bool = { false },
        replay: @Sendable (GeotriggerEngine, Chunk, Slot) -> Void
    ) throws(FencesimError) -> [Replayer.Outcome] {
        let workers = max(1, requested > 0 ? requested : ProcessInfo.processInfo.activeProcessorCount)
        // The fences are compiled while the first slices are read.
        let index: FenceIndex
        do {
            index = try FenceIndex(configuration.fences, frame: configuration.frame, settings: configuration.settings)
        } catch {
            feed.cancel()
            throw error
        }
        timer?.lap("index-fences")
        keep?(index)
        let channel = feed.channel
        let labels = feed.traces.map(\.label)
        let traceCount = feed.traces.count
        /// A thread's compiled view of the index and its engine, kept from slice to slice.
        struct Worker {
            let compiled: CompiledFences
            let engine: GeotriggerEngine
        }
        // One job per thread: each job takes slices from the channel until it is empty, so the
        // threads share the slices as they come. A worker that cannot be built stops the reading
        // (the others then find the channel empty) and its error is thrown.
        let slots: [Slot]
        do throws(FencesimError) {
            slots = try WorkerPool.run(
                count: workers, workers: workers,
                makeWorker: { () throws(FencesimError) -> Worker in
                    do throws(FencesimError) {
                        let compiled = try CompiledFences(index: index)
                        return Worker(compiled: compiled, engine: GeotriggerEngine(fences: compiled, traceName: labels[0], output: output))
                    } catch {
                        channel.cancel()
                        throw error
                    }
                }
            ) { (worker: inout Worker, _: Int) throws(FencesimError) -> Slot in
                let slot = Slot(traces: traceCount)
                let engine = worker.engine
                let compiled = worker.compiled
                let frame = compiled.frame
                while let chunk = channel.receive() {
                    if let predecessor = chunk.predecessor {
                        engine.resynchronize(with: predecessor.sample(in: frame))
                    } else {
                        engine.restart()
                    }
                    let before = engine.statistics
                    replay(engine, chunk, slot)
                    slot.statistics[chunk.trace].add(engine.statistics, since: before)
                    // A fence test GEOS could not answer fails the trace (its results would be wrong).
                    if let failure = compiled.takeFailure(), slot.failures[chunk.trace] == nil { slot.failures[chunk.trace] = failure }
                    if stop() { channel.cancel() }
                }
                return slot
            }.results
        } catch {
            feed.cancel()
            throw error
        }
        let stopped = stop()
        if stopped { feed.cancel() }
        let reads = stopped ? [] : try feed.finish()
        timer?.lap("replay")
        let outcomes = feed.traces.indices.map { k in
            var outcome = Replayer.Outcome(input: feed.traces[k])
            var summary = BenchSummary()
            var statistics = GeotriggerEngine.Statistics()
            for slot in slots {
                summary.merge(slot.summaries[k])
                statistics.add(slot.statistics[k], since: GeotriggerEngine.Statistics())
            }
            summary.insidePairs = statistics.insidePairs
            outcome.summary = summary
            outcome.engineStatistics = statistics
            if reads.indices.contains(k) {
                outcome.readStatistics = reads[k].statistics
                outcome.warnings = reads[k].warnings
                outcome.untimedDropped = reads[k].untimedDropped
                outcome.error = reads[k].error
            }
            outcome.error = outcome.error ?? slots.lazy.compactMap { $0.failures[k] }.first
            return outcome
        }
        return Replayer.sayingOnce(index.warnings, in: outcomes)
    }

    /// A thread that reads traces, one after the other, into chunks of samples (in WGS84; each
    /// worker projects them into its fences' frame), at most ``TraceSlices/readAhead`` chunks
    /// ahead of whoever takes them. It starts at once, so it can be created before the fences are
    /// read, and before the frame is chosen.
    public final class Feed: @unchecked Sendable {
        let traces: [TraceInput]
        let channel: BoundedChannel<Chunk>
        /// What reading one trace gave.
        struct Read {
            var statistics: TraceStatistics?
            var warnings: [Diagnostic] = []
            var error: FencesimError?
            var untimedDropped = 0
        }
        // Written by the reading thread before it closes the channel; read after that.
        private var reads: [Read] = []
        /// Chunks sent so far (read by the reading thread only).
        private var sent = 0
        private let done = DispatchSemaphore(value: 0)

        /// A feed of one trace.
        public convenience init(
            _ trace: TraceInput, readOptions: TraceReadOptions,
            chunkSize: Int = TraceSlices.chunkSize, readAhead: Int = TraceSlices.readAhead
        ) {
            self.init([trace], readOptions: readOptions, chunkSize: chunkSize, readAhead: readAhead)
        }

        /// A feed of `traces`, read in order.
        public init(
            _ traces: [TraceInput], readOptions: TraceReadOptions,
            chunkSize: Int = TraceSlices.chunkSize, readAhead: Int = TraceSlices.readAhead
        ) {
            precondition(!traces.isEmpty, "at least one trace")
            self.traces = traces
            channel = BoundedChannel(depth: max(1, readAhead))
            let thread = Thread { [self] in
                read(readOptions: readOptions, chunkSize: max(1, chunkSize))
                channel.close()
                done.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }

        private func read(readOptions: TraceReadOptions, chunkSize: Int) {
            for k in traces.indices {
                let (read, cancelled) = self.read(trace: k, readOptions: readOptions, chunkSize: chunkSize)
                reads.append(read)
                if cancelled { return }
            }
        }

        /// Reads trace `k` into the channel; whether the consumers cancelled meanwhile.
        private func read(trace k: Int, readOptions: TraceReadOptions, chunkSize: Int) -> (Read, cancelled: Bool) {
            var chunk: [FeedSample] = []
            chunk.reserveCapacity(chunkSize)
            var predecessor: FeedSample?
            var row = 0
            var result = Read()
            var untimed: [Diagnostic] = []
            var untimedCount = 0
            var cancelled = false
            let path = traces[k].path
            let lenient = readOptions.lenient
            let channel = channel
            do throws(FencesimError) {
                let statistics = try TraceReader.read(path: path, options: traces[k].readOptions(readOptions)) {
                    (fix: Fix) throws(FencesimError) in
                    let fixIndex = row
                    row += 1
                    // As a replay does: refused, or dropped with a warning when lenient.
                    guard let time = fix.time else {
                        let message = "fix \(fixIndex) has no time; a replay needs timed fixes (fencesim synth times a route)"
                        if !lenient { throw FencesimError(.badData, message, at: SourceLocation(file: path, line: fix.line)) }
                        untimedCount += 1
                        if untimed.count < 100 {
                            untimed.append(
                                Diagnostic(.warning, message + "; dropped", at: SourceLocation(file: path, line: fix.line), kind: "no-time")
                            )
                        }
                        return
                    }
                    chunk.append(
                        FeedSample(
                            index: fixIndex, time: time, longitude: fix.longitude, latitude: fix.latitude,
                            accuracy: fix.accuracyMeters, segment: Int32(truncatingIfNeeded: fix.segment)))
                    if chunk.count == chunkSize {
                        let last = chunk[chunk.count - 1]
                        guard channel.send(Chunk(trace: k, sequence: sent, predecessor: predecessor, samples: chunk)) else {
                            cancelled = true
                            throw FencesimError(.internalError, "cancelled")
                        }
                        sent += 1
                        predecessor = last
                        chunk = []
                        chunk.reserveCapacity(chunkSize)
                    }
                }
                if !chunk.isEmpty {
                    if channel.send(Chunk(trace: k, sequence: sent, predecessor: predecessor, samples: chunk)) {
                        sent += 1
                    } else {
                        cancelled = true
                    }
                }
                result.statistics = statistics
                result.warnings = statistics.warnings
            } catch {
                result.error = error
            }
            if untimedCount > untimed.count {
                untimed.append(
                    Diagnostic(.note, "and \(untimedCount - untimed.count) more fixes without time dropped", at: SourceLocation(file: path))
                )
            }
            result.warnings += untimed
            result.untimedDropped = untimedCount
            return (result, cancelled)
        }

        /// Stops the reading thread (pending chunks are dropped) and waits for it.
        public func cancel() {
            channel.cancel()
            done.wait()
            done.signal()
        }

        /// Waits for the reading thread; what it found in each trace.
        func finish() throws(FencesimError) -> [Read] {
            done.wait()
            done.signal()
            guard reads.count == traces.count else {
                throw FencesimError(.internalError, "the trace reader ended after \(reads.count) of \(traces.count) traces")
            }
            return reads
        }
    }
}

extension GeotriggerEngine.Statistics {
    /// Adds what an engine counted since it had `before`.
    mutating func add(_ now: GeotriggerEngine.Statistics, since before: GeotriggerEngine.Statistics) {
        samples += now.samples - before.samples
        filtered += now.filtered - before.filtered
        insidePairs += now.insidePairs - before.insidePairs
        suppressedFlips += now.suppressedFlips - before.suppressedFlips
        gaps += now.gaps - before.gaps
        outOfOrder += now.outOfOrder - before.outOfOrder
    }
}

/// Consecutive samples of trace number `trace`, with the sample before them (`nil` for the
/// trace's first chunk).
struct Chunk {
    let trace: Int
    /// The chunk's place among all the chunks of the feed, in reading order.
    let sequence: Int
    let predecessor: FeedSample?
    let samples: [FeedSample]
}
