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
    public static let chunkSize = 32_768

    /// Whether `configuration` can be summarised this way.
    public static func applies(to configuration: Replayer.Configuration) -> Bool {
        GeotriggerEngine.isMemoryless(configuration.settings)
    }

    /// The summary of `trace`, read once and evaluated on `workers` threads.
    ///
    /// - Throws: ``Support/FencesimError`` for an unreadable trace or fences that cannot be
    ///   compiled.
    public static func run(_ trace: TraceInput, configuration: Replayer.Configuration, workers requested: Int,
                           chunkSize: Int = ParallelSummary.chunkSize) throws(FencesimError) -> (BenchSummary, TraceStatistics) {
        let workers = max(1, requested > 0 ? requested : ProcessInfo.processInfo.activeProcessorCount)
        // The fences are compiled once; each worker adds its own GEOS and PROJ objects.
        let index = try FenceIndex(configuration.fences, frame: configuration.frame, settings: configuration.settings)
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
        if let error = slots.compactMap(\.error).first { throw error }
        // The reading thread projects with a frame of its own.
        let frame: MetricFrame
        do {
            frame = try MetricFrame(configuration.frame)
        } catch {
            throw FencesimError(.badData, "cannot build the metric frame \"\(configuration.frame)\": \(error.message)", cause: error)
        }
        var chunk: [Sample] = []
        chunk.reserveCapacity(chunkSize)
        var previousChunkLast: Sample?
        var row = 0

        func flush() {
            let samples = chunk
            let before = previousChunkLast
            let count = samples.count
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                let start = count * w / workers
                let end = count * (w + 1) / workers
                guard start < end, let engine = slots[w].engine else { return }
                let predecessor = start > 0 ? samples[start - 1] : before
                if let predecessor { engine.resynchronize(with: predecessor) }
                let slot = slots[w]
                for k in start..<end {
                    slot.buffer.removeAll(keepingCapacity: true)
                    engine.process(samples[k], into: &slot.buffer)
                    for e in slot.buffer {
                        switch e.kind {
                        case .enter: slot.summary.add(enter: true, fix: e.fixIndex, fence: e.fence)
                        case .exit: slot.summary.add(enter: false, fix: e.fixIndex, fence: e.fence)
                        default: break
                        }
                    }
                }
            }
            previousChunkLast = samples.last
            chunk.removeAll(keepingCapacity: true)
        }

        let statistics = try TraceReader.read(path: trace.path, options: configuration.readOptions) { (fix: Fix) throws(FencesimError) in
            let fixIndex = row
            row += 1
            guard let time = fix.time else {
                throw FencesimError(.badData, "fix \(fixIndex) has no time; a replay needs timed fixes", at: SourceLocation(file: trace.path, line: fix.line))
            }
            chunk.append(Sample(index: fixIndex, time: time, position: frame.forward(XY(longitude: fix.longitude, latitude: fix.latitude)),
                                longitude: fix.longitude, latitude: fix.latitude, accuracy: fix.accuracyMeters,
                                speed: fix.speedMetersPerSecond, course: fix.courseDegrees))
            if chunk.count == chunkSize { flush() }
        }
        if !chunk.isEmpty { flush() }
        var total = BenchSummary()
        for slot in slots {
            var s = slot.summary
            s.insidePairs = slot.engine?.statistics.insidePairs ?? 0
            total.merge(s)
        }
        return (total, statistics)
    }
}
