import Foundation
import Spatial
import Support
import Traces

/// A trace file read on a thread of its own, its fixes handed in chunks, in file order, to each
/// of a fixed number of consumers (a report's replay and its ground truth take the same fixes
/// side by side). Each consumer has a bounded channel, so memory is bounded by the chunks in
/// flight, never by the trace; the chunks are shared, not copied. Reading starts at once: a
/// stream made before the fences are indexed reads ahead while they are.
///
/// Given a frame, the reading thread also projects each fix into it, once for every consumer
/// (``Chunk/points``): the replay and the truth would each project it otherwise, and the reader
/// has time to spare while they work.
///
/// Every consumer must take its chunks to the end (``next(_:)`` returns `nil`) or ``cancel()``
/// the stream: the reader waits for the slowest.
package final class TraceStream: @unchecked Sendable {
    /// Fixes in file order, and their positions in the stream's frame.
    package struct Chunk {
        package var fixes: [Fix] = []
        /// `points[k]` is `fixes[k]` projected into the frame (`frame.forward`, the same bits a
        /// consumer's own frame gives); empty when the stream has no frame.
        package var points: [XY] = []

        /// `fixes[k]`'s position in the frame, when the stream projects.
        @inline(__always)
        func point(_ k: Int) -> XY? {
            points.isEmpty ? nil : points[k]
        }
    }

    /// Fixes in a chunk.
    static let chunkSize = 16_384
    /// Chunks a consumer may be behind the reader.
    static let depth = 4

    private let channels: [BoundedChannel<Chunk>]
    /// How many consumers take the chunks.
    var consumers: Int { channels.count }
    private let done = DispatchSemaphore(value: 0)
    /// What reading found, or its error: written by the reading thread before it closes the
    /// channels, read after ``result()`` has waited for it.
    private var read: Result<TraceStatistics, FencesimError>?

    /// Starts reading `path` for `consumers` consumers, projecting each fix into `frame` when
    /// given (a frame the reader cannot build leaves the projecting to the consumers).
    init(path: String, options: TraceReadOptions, consumers: Int, frame: FrameDefinition? = nil, chunkSize: Int = TraceStream.chunkSize) {
        precondition(consumers > 0, "a stream for nobody")
        channels = (0..<consumers).map { _ in BoundedChannel(depth: TraceStream.depth) }
        let size = max(1, chunkSize)
        let thread = Thread { [self] in
            // A frame of this thread's own: PROJ objects are not shared between threads.
            let projection = frame.flatMap { try? MetricFrame($0) }
            func fresh() -> Chunk {
                var chunk = Chunk()
                chunk.fixes.reserveCapacity(size)
                if projection != nil { chunk.points.reserveCapacity(size) }
                return chunk
            }
            var chunk = fresh()
            let channels = self.channels
            do throws(FencesimError) {
                let statistics = try TraceReader.read(path: path, options: options) { (fix: Fix) throws(FencesimError) in
                    chunk.fixes.append(fix)
                    if let projection { chunk.points.append(projection.forward(XY(longitude: fix.longitude, latitude: fix.latitude))) }
                    guard chunk.fixes.count == size else { return }
                    for channel in channels where !channel.send(chunk) { throw FencesimError(.internalError, "cancelled") }
                    chunk = fresh()
                }
                if !chunk.fixes.isEmpty { for channel in channels { _ = channel.send(chunk) } }
                read = .success(statistics)
            } catch {
                read = .failure(error)
            }
            for channel in channels { channel.close() }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Consumer `consumer`'s next chunk, or `nil` at the end of the trace (or once cancelled).
    func next(_ consumer: Int) -> Chunk? {
        channels[consumer].receive()
    }

    /// Stops the reading (pending chunks are dropped; every consumer gets `nil`).
    func cancel() {
        for channel in channels { channel.cancel() }
    }

    /// Waits for the reading thread: what reading the trace found.
    ///
    /// - Throws: the reading's ``Support/FencesimError`` (a bad trace, or a cancelled read).
    func result() throws(FencesimError) -> TraceStatistics {
        done.wait()
        done.signal()
        guard let read else { throw FencesimError(.internalError, "the trace reader ended without a result") }
        return try read.get()
    }
}
