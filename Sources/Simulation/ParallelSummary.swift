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
/// fence's state after a sample depends only on that sample, so the trace is read in chunks and
/// each chunk cut into one slice per worker; every worker resynchronizes its engine on the
/// sample just before its slice and replays the slice. Counts and checksums are sums, so the
/// result is identical to one engine replaying the whole trace (tested against the reference
/// numbers). Memory stays bounded by the chunk size.
public enum ParallelSummary {
    /// Samples read before the workers take them.
    public static let chunkSize = 16_384

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
        let workers = max(1, requested > 0 ? requested : ProcessInfo.processInfo.activeProcessorCount)
        // A reading thread parses and projects the next chunks (with a frame of its own) while
        // the workers evaluate the current one; at most `depth` chunks wait between them.
        let channel = ChunkChannel(depth: 2)
        let reader = ReaderResult()
        let readOptions = configuration.readOptions
        let definition = configuration.frame
        let producer = Thread {
            var chunk: [Sample] = []
            chunk.reserveCapacity(chunkSize)
            var row = 0
            do throws(FencesimError) {
                let frame: MetricFrame
                do throws(SpatialError) {
                    frame = try MetricFrame(definition)
                } catch {
                    throw FencesimError(.badData, "cannot build the metric frame \"\(definition)\": \(error.message)", cause: error)
                }
                reader.statistics = try TraceReader.read(path: trace.path, options: readOptions) { (fix: Fix) throws(FencesimError) in
                    let fixIndex = row
                    row += 1
                    guard let time = fix.time else {
                        throw FencesimError(.badData, "fix \(fixIndex) has no time; a replay needs timed fixes",
                                            at: SourceLocation(file: trace.path, line: fix.line))
                    }
                    chunk.append(Sample(index: fixIndex, time: time, position: frame.forward(XY(longitude: fix.longitude, latitude: fix.latitude)),
                                        longitude: fix.longitude, latitude: fix.latitude, accuracy: fix.accuracyMeters,
                                        speed: fix.speedMetersPerSecond, course: fix.courseDegrees))
                    if chunk.count == chunkSize {
                        guard channel.send(chunk) else { throw FencesimError(.internalError, "cancelled") }
                        chunk = []
                        chunk.reserveCapacity(chunkSize)
                    }
                }
                if !chunk.isEmpty { _ = channel.send(chunk) }
            } catch {
                reader.error = error
            }
            channel.close()
        }
        producer.stackSize = 8 << 20
        producer.start()

        // The fences are compiled while the first chunks are read.
        let index: FenceIndex
        do {
            index = try FenceIndex(configuration.fences, frame: configuration.frame, settings: configuration.settings)
        } catch {
            channel.cancel()
            throw error
        }
        timer?.lap("index-fences")
        final class Slot: @unchecked Sendable {
            // Written by exactly one worker (its own index); read after the workers have joined.
            var compiled: CompiledFences?
            var engine: GeotriggerEngine?
            var error: FencesimError?
            var summary = BenchSummary()
            var buffer: [GeotriggerEvent] = []
        }
        let slots = (0..<workers).map { _ in Slot() }
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            do throws(FencesimError) {
                let compiled = try CompiledFences(index: index)
                let engine = GeotriggerEngine(fences: compiled, traceName: trace.label)
                engine.computesDistances = false
                engine.detectsHiddenVisits = false
                slots[w].compiled = compiled
                slots[w].engine = engine
            } catch {
                slots[w].error = error
            }
        }
        if let error = slots.compactMap(\.error).first {
            channel.cancel()
            throw error
        }
        timer?.lap("compile-workers")
        var previousChunkLast: Sample?
        while let samples = channel.receive() {
            let before = previousChunkLast
            let count = samples.count
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                let start = count * w / workers
                let end = count * (w + 1) / workers
                guard start < end, let engine = slots[w].engine else { return }
                let predecessor = start > 0 ? samples[start - 1] : before
                if let predecessor { engine.resynchronize(with: predecessor) }
                let slot = slots[w]
                // Taken out of the slot while in use, so that appending never copies.
                var buffer = slot.buffer
                slot.buffer = []
                var summary = slot.summary
                for k in start..<end {
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
                slot.buffer = buffer
                slot.summary = summary
            }
            previousChunkLast = samples.last
        }
        if let error = reader.error { throw error }
        guard let statistics = reader.statistics else {
            throw FencesimError(.internalError, "the trace reader of \(trace.path) ended without a result")
        }
        timer?.lap("replay")
        var total = BenchSummary()
        for slot in slots {
            var s = slot.summary
            s.insidePairs = slot.engine?.statistics.insidePairs ?? 0
            total.merge(s)
        }
        return (total, statistics)
    }
}

/// The reading thread's outcome, read by the caller after the channel closes.
private final class ReaderResult: @unchecked Sendable {
    // Written by the reading thread before it closes the channel; read after `receive` returned nil.
    var statistics: TraceStatistics?
    var error: FencesimError?
}

/// A bounded hand-off of sample chunks from one reading thread to one consumer.
private final class ChunkChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [[Sample]] = []
    private var closed = false
    private var cancelled = false
    private let depth: Int

    init(depth: Int) {
        self.depth = depth
    }

    /// Waits while `depth` chunks are pending, then queues `chunk`; `false` when the consumer
    /// has cancelled (the reader should stop).
    func send(_ chunk: [Sample]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && !cancelled { condition.wait() }
        if cancelled { return false }
        queue.append(chunk)
        condition.broadcast()
        return true
    }

    /// The consumer gives up: pending and future chunks are dropped and the reader told to stop.
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

    /// The next chunk, or `nil` once the channel is closed and drained.
    func receive() -> [Sample]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !closed { condition.wait() }
        if queue.isEmpty { return nil }
        let chunk = queue.removeFirst()
        condition.broadcast()
        return chunk
    }
}
