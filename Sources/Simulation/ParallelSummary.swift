import Dispatch
import Fences
import Foundation
import Geotriggers
import Spatial
import Support
import Traces

/// The bench summary of one long trace on several cores (SPEC §8).
///
/// When the settings are memoryless (``Geotriggers/GeotriggerEngine/isMemoryless(_:)``), a
/// fence's state after a sample depends only on that sample, so the trace is read in chunks by
/// one thread (a ``Feed``) and every worker takes whole chunks as they come, resynchronizing its
/// engine on the sample just before the chunk. Counts and checksums are sums, so the result is
/// identical to one engine replaying the whole trace (tested against the reference numbers), and
/// no worker waits for another. Memory stays bounded by the chunk size and the read-ahead.
public enum ParallelSummary {
    /// Samples read before the workers take them.
    public static let chunkSize = 16_384

    /// Chunks the reading thread may hold ahead of the workers: enough to keep it busy while the
    /// fences are read and indexed (about 10 MB of samples), small enough to keep memory flat.
    public static let readAhead = 4

    /// Whether `configuration` can be summarised this way.
    public static func applies(to configuration: Replayer.Configuration) -> Bool {
        GeotriggerEngine.isMemoryless(configuration.settings)
    }

    /// The summary of `trace`, read once and evaluated on `workers` threads.
    ///
    /// - Throws: ``Support/FencesimError`` for an unreadable trace or fences that cannot be
    ///   compiled.
    public static func run(_ trace: TraceInput, configuration: Replayer.Configuration, workers requested: Int,
                           chunkSize: Int = ParallelSummary.chunkSize, timer: PhaseTimer? = nil) throws(FencesimError) -> (BenchSummary, TraceStatistics) {
        let feed = Feed(trace, readOptions: configuration.readOptions, frame: configuration.frame, chunkSize: chunkSize)
        return try run(feed, configuration: configuration, workers: requested, timer: timer)
    }

    /// The summary of the trace `feed` reads (started earlier, for instance while the fences were
    /// read), evaluated on `workers` threads. The feed must use `configuration`'s frame.
    public static func run(_ feed: Feed, configuration: Replayer.Configuration, workers requested: Int,
                           timer: PhaseTimer? = nil) throws(FencesimError) -> (BenchSummary, TraceStatistics) {
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
        final class Slot: @unchecked Sendable {
            // Written by exactly one worker (its own index); read after the workers have joined.
            var error: FencesimError?
            var summary = BenchSummary()
            var insidePairs = 0
        }
        let slots = (0..<workers).map { _ in Slot() }
        let channel = feed.channel
        let label = feed.trace.label
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let slot = slots[w]
            let engine: GeotriggerEngine
            do throws(FencesimError) {
                engine = GeotriggerEngine(fences: try CompiledFences(index: index), traceName: label)
            } catch {
                slot.error = error
                channel.cancel()
                return
            }
            engine.computesDistances = false
            engine.detectsHiddenVisits = false
            var buffer: [GeotriggerEvent] = []
            var summary = BenchSummary()
            var fresh = true
            while let chunk = channel.receive() {
                if let predecessor = chunk.predecessor {
                    engine.resynchronize(with: predecessor)
                } else {
                    // The first chunk is the first one taken, so its engine has seen nothing.
                    precondition(fresh, "the first chunk of a trace went to a used engine")
                }
                fresh = false
                // Samples are read in place (iterating the array would copy each one).
                chunk.samples.withUnsafeBufferPointer { samples in
                    for k in samples.indices {
                        buffer.removeAll(keepingCapacity: true)
                        engine.process(samples[k], into: &buffer)
                        for e in buffer {
                            switch e.kind {
                            case .enter: summary.add(enter: true, fix: e.fixIndex, fence: e.fence)
                            case .exit: summary.add(enter: false, fix: e.fixIndex, fence: e.fence)
                            default: break
                            }
                        }
                    }
                }
            }
            slot.summary = summary
            slot.insidePairs = engine.statistics.insidePairs
        }
        if let error = slots.compactMap(\.error).first {
            feed.cancel()
            throw error
        }
        let statistics = try feed.finish()
        timer?.lap("replay")
        var total = BenchSummary()
        for slot in slots {
            var s = slot.summary
            s.insidePairs = slot.insidePairs
            total.merge(s)
        }
        return (total, statistics)
    }

    /// A thread that reads a trace into chunks of samples in a metric frame, at most
    /// ``ParallelSummary/readAhead`` chunks ahead of whoever takes them. It starts at once, so it
    /// can be created before the fences are read.
    public final class Feed: @unchecked Sendable {
        let trace: TraceInput
        fileprivate let channel: ChunkChannel
        // Written by the reading thread before it closes the channel; read after that.
        private var statistics: TraceStatistics?
        private var error: FencesimError?
        private let done = DispatchSemaphore(value: 0)

        public init(_ trace: TraceInput, readOptions: TraceReadOptions, frame definition: FrameDefinition,
                    chunkSize: Int = ParallelSummary.chunkSize, readAhead: Int = ParallelSummary.readAhead) {
            self.trace = trace
            channel = ChunkChannel(depth: max(1, readAhead))
            let thread = Thread { [self] in
                read(readOptions: readOptions, frame: definition, chunkSize: max(1, chunkSize))
                channel.close()
                done.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }

        private func read(readOptions: TraceReadOptions, frame definition: FrameDefinition, chunkSize: Int) {
            var chunk: [Sample] = []
            chunk.reserveCapacity(chunkSize)
            var predecessor: Sample?
            var row = 0
            let path = trace.path
            let channel = channel
            do throws(FencesimError) {
                let frame: MetricFrame
                do throws(SpatialError) {
                    frame = try MetricFrame(definition)
                } catch {
                    throw FencesimError(.badData, "cannot build the metric frame \"\(definition)\": \(error.message)", cause: error)
                }
                statistics = try TraceReader.read(path: path, options: readOptions) { (fix: Fix) throws(FencesimError) in
                    let fixIndex = row
                    row += 1
                    guard let time = fix.time else {
                        throw FencesimError(.badData, "fix \(fixIndex) has no time; a replay needs timed fixes",
                                            at: SourceLocation(file: path, line: fix.line))
                    }
                    chunk.append(Sample(index: fixIndex, time: time, position: frame.forward(XY(longitude: fix.longitude, latitude: fix.latitude)),
                                        longitude: fix.longitude, latitude: fix.latitude, accuracy: fix.accuracyMeters,
                                        speed: fix.speedMetersPerSecond, course: fix.courseDegrees))
                    if chunk.count == chunkSize {
                        let last = chunk[chunk.count - 1]
                        guard channel.send(Chunk(predecessor: predecessor, samples: chunk)) else { throw FencesimError(.internalError, "cancelled") }
                        predecessor = last
                        chunk = []
                        chunk.reserveCapacity(chunkSize)
                    }
                }
                if !chunk.isEmpty { _ = channel.send(Chunk(predecessor: predecessor, samples: chunk)) }
            } catch {
                self.error = error
            }
        }

        /// Stops the reading thread (pending chunks are dropped) and waits for it.
        public func cancel() {
            channel.cancel()
            done.wait()
            done.signal()
        }

        /// Waits for the reading thread; its statistics, or the failure that stopped it.
        func finish() throws(FencesimError) -> TraceStatistics {
            done.wait()
            done.signal()
            if let error { throw error }
            guard let statistics else {
                throw FencesimError(.internalError, "the trace reader of \(trace.path) ended without a result")
            }
            return statistics
        }
    }
}

/// Consecutive samples of a trace, with the sample before them (`nil` for the first chunk).
struct Chunk {
    let predecessor: Sample?
    let samples: [Sample]
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
