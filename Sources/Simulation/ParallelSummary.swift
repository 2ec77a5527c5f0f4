import Dispatch
import Fences
import Foundation
import Geotriggers
import Spatial
import Support
import Traces

/// The bench summary of traces on several cores (SPEC §8).
///
/// When the fences and settings are memoryless
/// (``Geotriggers/GeotriggerEngine/isMemoryless(_:fences:)``), a
/// fence's state after a sample depends only on that sample, so the traces are read in chunks by
/// one thread (a ``Feed``) and every worker takes whole chunks as they come, resynchronizing its
/// engine on the sample just before the chunk (or starting afresh on a trace's first chunk).
/// Counts and checksums are sums, so the result is identical to one engine per trace replaying
/// it whole (tested against the reference numbers), no worker waits for another, and one long
/// trace uses every core as well as many short ones do. Memory stays bounded by the chunk size
/// and the read-ahead.
public enum ParallelSummary {
    /// Samples read before the workers take them.
    public static let chunkSize = 16_384

    /// Chunks the reading thread may hold ahead of the workers: enough to keep it busy while the
    /// fences are read and indexed (about 260,000 fixes in 13 MB), small enough to keep memory
    /// flat.
    public static let readAhead = 16

    /// Whether `configuration` can be summarised this way.
    public static func applies(to configuration: Replayer.Configuration) -> Bool {
        GeotriggerEngine.isMemoryless(configuration.settings, fences: configuration.fences.fences)
    }

    /// The summary of `trace`, read once and evaluated on `workers` threads.
    ///
    /// - Throws: ``Support/FencesimError`` for an unreadable trace or fences that cannot be
    ///   compiled.
    public static func run(_ trace: TraceInput, configuration: Replayer.Configuration, workers requested: Int,
                           chunkSize: Int = ParallelSummary.chunkSize, timer: PhaseTimer? = nil) throws(FencesimError) -> (BenchSummary, TraceStatistics) {
        let feed = Feed(trace, readOptions: configuration.readOptions, chunkSize: chunkSize)
        return try run(feed, configuration: configuration, workers: requested, timer: timer)
    }

    /// The summary of the one trace `feed` reads; its failure is thrown.
    public static func run(_ feed: Feed, configuration: Replayer.Configuration, workers requested: Int,
                           timer: PhaseTimer? = nil) throws(FencesimError) -> (BenchSummary, TraceStatistics) {
        precondition(feed.traces.count == 1, "one trace")
        let outcome = try summarize(feed, configuration: configuration, workers: requested, timer: timer)[0]
        if let error = outcome.error { throw error }
        guard let statistics = outcome.readStatistics else {
            throw FencesimError(.internalError, "the trace reader of \(feed.traces[0].path) ended without a result")
        }
        return (outcome.summary, statistics)
    }

    /// Each trace's outcome (its summary, what reading it found, or the failure that stopped
    /// it), for the traces `feed` reads (started earlier, for instance while the fences were
    /// read), evaluated on `workers` threads. A trace that fails does not stop the others, as
    /// with ``Replayer/run(_:placesStates:)``.
    ///
    /// - Throws: ``Support/FencesimError`` when the fences cannot be compiled or the frame built.
    ///
    /// `keep`, when given, is handed the compiled fence index, so that a caller about to end the
    /// process can leave it unfreed (freeing 100,000 compiled fences takes one thread several
    /// milliseconds); otherwise the index is freed before this returns.
    public static func summarize(_ feed: Feed, configuration: Replayer.Configuration, workers requested: Int,
                                 timer: PhaseTimer? = nil, keep: ((AnyObject) -> Void)? = nil) throws(FencesimError) -> [Replayer.Outcome] {
        let workers = max(1, requested > 0 ? requested : ProcessInfo.processInfo.activeProcessorCount)
        // The fences are compiled while the first chunks are read.
        let index: FenceIndex
        do {
            index = try FenceIndex(configuration.fences, frame: configuration.frame, settings: configuration.settings)
        } catch {
            feed.cancel()
            throw error
        }
        timer?.lap("index-fences")
        keep?(index)
        let traceCount = feed.traces.count
        let slots = (0..<workers).map { _ in Slot(traces: traceCount) }
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
            work(GeotriggerEngine(fences: compiled, traceName: labels[0], output: .counts), channel: channel, slot: slot)
        }
        if let error = slots.compactMap(\.error).first {
            feed.cancel()
            throw error
        }
        let reads = try feed.finish()
        timer?.lap("replay")
        return feed.traces.indices.map { k in
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
            outcome.readStatistics = reads[k].statistics
            outcome.warnings = reads[k].warnings
            outcome.error = reads[k].error ?? slots.lazy.compactMap { $0.failures[k] }.first
            return outcome
        }
    }

    /// What one worker found: written by that worker alone, read after the workers have joined.
    final class Slot: @unchecked Sendable {
        var error: FencesimError?
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

    /// Takes chunks until the channel is drained, counting each with `engine` (which projects
    /// the fixes itself: the reading thread, which every worker waits on when fences are few,
    /// only parses).
    static func work(_ engine: GeotriggerEngine, channel: ChunkChannel, slot: Slot) {
        let frame = engine.fences.frame
        var buffer: [GeotriggerEvent] = []
        while let chunk = channel.receive() {
            if let predecessor = chunk.predecessor {
                engine.resynchronize(with: predecessor.sample(in: frame))
            } else {
                // A trace's first chunk: the engine starts as a fresh one would.
                engine.restart()
            }
            let before = engine.statistics
            var summary = slot.summaries[chunk.trace]
            for sample in chunk.samples {
                buffer.removeAll(keepingCapacity: true)
                engine.process(sample.sample(in: frame), into: &buffer)
            }
            // The enters and exits, counted without events (the sums do not depend on order).
            for t in engine.tallies { summary.add(enter: t.enter, fix: t.fixIndex, fence: t.fence) }
            engine.tallies.removeAll(keepingCapacity: true)
            slot.summaries[chunk.trace] = summary
            slot.statistics[chunk.trace].add(engine.statistics, since: before)
            // A fence test GEOS could not answer fails the trace (its counts would be wrong).
            if let failure = engine.fences.takeFailure(), slot.failures[chunk.trace] == nil { slot.failures[chunk.trace] = failure }
        }
    }

    /// A thread that reads traces, one after the other, into chunks of samples (in WGS84; each
    /// worker projects them into its fences' frame), at most ``ParallelSummary/readAhead`` chunks
    /// ahead of whoever takes them. It starts at once, so it can be created before the fences are
    /// read, and before the frame is chosen.
    public final class Feed: @unchecked Sendable {
        let traces: [TraceInput]
        let channel: ChunkChannel
        /// What reading one trace gave.
        struct Read {
            var statistics: TraceStatistics?
            var warnings: [Diagnostic] = []
            var error: FencesimError?
        }
        // Written by the reading thread before it closes the channel; read after that.
        private var reads: [Read] = []
        /// Chunks sent so far (read by the reading thread only).
        private var sent = 0
        private let done = DispatchSemaphore(value: 0)

        /// A feed of one trace.
        public convenience init(_ trace: TraceInput, readOptions: TraceReadOptions,
                                chunkSize: Int = ParallelSummary.chunkSize, readAhead: Int = ParallelSummary.readAhead) {
            self.init([trace], readOptions: readOptions, chunkSize: chunkSize, readAhead: readAhead)
        }

        /// A feed of `traces`, read in order.
        public init(_ traces: [TraceInput], readOptions: TraceReadOptions,
                    chunkSize: Int = ParallelSummary.chunkSize, readAhead: Int = ParallelSummary.readAhead) {
            precondition(!traces.isEmpty, "at least one trace")
            self.traces = traces
            channel = ChunkChannel(depth: max(1, readAhead))
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
                let statistics = try TraceReader.read(path: path, options: readOptions) { (fix: Fix) throws(FencesimError) in
                    let fixIndex = row
                    row += 1
                    // As a replay does: refused, or dropped with a warning when lenient.
                    guard let time = fix.time else {
                        let message = "fix \(fixIndex) has no time; a replay needs timed fixes (fencesim synth times a route)"
                        if !lenient { throw FencesimError(.badData, message, at: SourceLocation(file: path, line: fix.line)) }
                        untimedCount += 1
                        if untimed.count < 100 {
                            untimed.append(Diagnostic(.warning, message + "; dropped", at: SourceLocation(file: path, line: fix.line), kind: "no-time"))
                        }
                        return
                    }
                    chunk.append(FeedSample(index: fixIndex, time: time, longitude: fix.longitude, latitude: fix.latitude,
                                            accuracy: fix.accuracyMeters))
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
                    if channel.send(Chunk(trace: k, sequence: sent, predecessor: predecessor, samples: chunk)) { sent += 1 } else { cancelled = true }
                }
                result.statistics = statistics
                result.warnings = statistics.warnings
            } catch {
                result.error = error
            }
            if untimedCount > untimed.count {
                untimed.append(Diagnostic(.note, "and \(untimedCount - untimed.count) more fixes without time dropped", at: SourceLocation(file: path)))
            }
            result.warnings += untimed
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

/// What a summary needs of a fix, in 48 bytes instead of a ``Geotriggers/Sample``'s 144 (the
/// fields that only filters and message templates read are left out: a summary runs only
/// without filters, and counts events without their messages; the position is projected by
/// the worker that takes it), so the read-ahead holds more fixes in the same memory.
struct FeedSample {
    let index: Int
    let time: Timestamp
    let longitude: Double
    let latitude: Double
    let accuracy: Double

    /// The sample, its position projected into `frame`.
    @inline(__always)
    func sample(in frame: MetricFrame) -> Sample {
        Sample(index: index, time: time, position: frame.forward(XY(longitude: longitude, latitude: latitude)),
               longitude: longitude, latitude: latitude, accuracy: accuracy)
    }
}

/// A bounded hand-off of sample chunks from one reading thread to the workers.
final class ChunkChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Chunk] = []
    private var closed = false
    private var cancelled = false
    private let depth: Int

    init(depth: Int) {
        self.depth = depth
    }

    /// Waits while `depth` chunks are pending, then queues `chunk`; `false` when the consumers
    /// have cancelled (the reader should stop).
    func send(_ chunk: Chunk) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && !cancelled { condition.wait() }
        if cancelled { return false }
        queue.append(chunk)
        condition.broadcast()
        return true
    }

    /// The consumers give up: pending and future chunks are dropped, the reader is told to stop
    /// and every waiting consumer gets `nil`.
    func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// No more chunks will come.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk, or `nil` once the channel is closed and drained, or cancelled.
    func receive() -> Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !closed && !cancelled { condition.wait() }
        guard !cancelled, !queue.isEmpty else { return nil }
        let chunk = queue.removeFirst()
        condition.broadcast()
        return chunk
    }
}
