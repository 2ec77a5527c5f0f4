import Geotriggers
import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The log of traces replayed on several workers, written in input order while they are
/// replayed: the first trace not finished yet (the head) writes its events straight to the
/// ``EventLogWriter``; a trace further on keeps its rendered events in a spool (in memory while
/// all spools together hold less than ``spoolMemoryBytes``, then in an unnamed temporary file)
/// until every trace before it has finished. So the log's bytes do not depend on the number of
/// workers, and memory holds at most a few megabytes of spools, never a whole log.
///
/// Each worker renders its trace's events itself (``Channel``), in parallel; only the writing
/// of rendered bytes is serialized.
public final class OrderedEventLog: Sendable {
    /// Bytes of all spools kept in memory by default; past this, spools move to temporary files.
    public static let defaultSpoolMemoryBytes = 4 << 20
    /// Rendered bytes a channel gathers before it hands them on.
    static let chunkBytes = 1 << 16

    /// - Important: `@unchecked Sendable`: the writer and the spools are touched only under the
    ///   lock (the caller hands the writer over and takes it back, for ``EventLogWriter/finish()``,
    ///   once every trace has finished).
    struct State: @unchecked Sendable {
        let writer: EventLogWriter
        var head = 0
        var finished: [Bool]
        var spools: [Int: Spool] = [:]
        /// Spools written out, emptied with their memory kept, for the next parts that wait (at
        /// most ``idleSpools``): a part of a long trace spools about 2 MB while the part before it
        /// is written, and a spool made afresh each time grew by doubling into fresh pages,
        /// copying its bytes at each step.
        var idle: [Spool] = []
        /// Bytes the spools hold in memory.
        var spooledInMemory = 0
        var failure: FencesimError?
    }

    private let state: Mutex<State>
    /// Set once writing has failed (read by workers at every fix, without the lock).
    private let failed = Atomic<Bool>(false)
    let format: EventLogFormat
    let extraColumns: [String]
    /// Bytes of all spools kept in memory; past this, spools move to temporary files.
    let spoolMemoryBytes: Int

    /// A log of `traces` traces (or parts of traces, numbered in log order; more may come)
    /// written by `writer`.
    public init(writer: EventLogWriter, traces: Int, spoolMemoryBytes: Int = OrderedEventLog.defaultSpoolMemoryBytes) {
        precondition(writer.format != .table, "a table is rendered whole")
        self.spoolMemoryBytes = spoolMemoryBytes
        format = writer.format
        extraColumns = writer.renderer.extraColumns
        state = Mutex(State(writer: writer, finished: Array(repeating: false, count: traces)))
    }

    /// The first write error, if writing failed (replays may stop early).
    public var failure: FencesimError? {
        state.withLock { $0.failure }
    }

    /// Whether writing has failed: the replays still running can stop.
    package var hasFailed: Bool { failed.load(ordering: .relaxed) }

    /// Records the first failure.
    private func fail(_ error: FencesimError, _ state: inout State) {
        if state.failure == nil { state.failure = error }
        failed.store(true, ordering: .relaxed)
    }

    /// Where trace `trace`'s events go, in log order (one channel per trace, used by one worker).
    package func channel(_ trace: Int) -> Channel {
        Channel(log: self, trace: trace)
    }

    /// Rendered events of `trace`, framed as ``Channel`` frames them.
    func deliver(_ trace: Int, _ frames: UnsafeRawBufferPointer) {
        state.withLock { state in
            guard state.failure == nil else { return }
            OrderedEventLog.reserve(trace, &state)
            if trace == state.head {
                if let error = OrderedEventLog.write(frames, to: state.writer) { fail(error, &state) }
            } else {
                let spool = state.spools[trace] ?? state.idle.popLast() ?? Spool()
                state.spools[trace] = spool
                let before = spool.memory.count
                let inMemory = state.spooledInMemory + frames.count <= spoolMemoryBytes
                if let error = spool.append(frames, inMemory: inMemory) { fail(error, &state) }
                state.spooledInMemory += spool.memory.count - before
            }
        }
    }

    /// `trace` has delivered all its events: the traces after it whose turn has come are written.
    func finish(_ trace: Int) {
        state.withLock { state in
            OrderedEventLog.reserve(trace, &state)
            state.finished[trace] = true
            while state.head < state.finished.count, state.finished[state.head] {
                state.head += 1
                guard state.head < state.finished.count, state.failure == nil,
                    let spool = state.spools.removeValue(forKey: state.head)
                else { continue }
                state.spooledInMemory -= spool.memory.count
                var failure: FencesimError?
                if let error = spool.drain({ frames in if failure == nil { failure = OrderedEventLog.write(frames, to: state.writer) } }) {
                    failure = failure ?? error
                }
                if let failure { fail(failure, &state) }
                if state.idle.count < OrderedEventLog.idleSpools, spool.empty() { state.idle.append(spool) }
            }
        }
    }

    /// Spools kept for reuse once written out (each with the memory its part filled).
    static let idleSpools = 2

    /// Makes room for part `part` (parts whose number is not known in advance, such as the
    /// slices of a trace, are counted as they come).
    private static func reserve(_ part: Int, _ state: inout State) {
        if part >= state.finished.count { state.finished += Array(repeating: false, count: part + 1 - state.finished.count) }
    }

    /// Writes framed events to the writer, numbering them; returns the write error, if any.
    private static func write(_ frames: UnsafeRawBufferPointer, to writer: EventLogWriter) -> FencesimError? {
        do throws(FencesimError) {
            try Channel.forEachFrame(frames) { (prefix, suffix) throws(FencesimError) in try writer.append(prefix: prefix, suffix: suffix) }
            return nil
        } catch {
            return error
        }
    }

    /// One trace's way into the log: renders each event, without its `seq`, into frames (the
    /// bytes before and after the number, each with its length) and hands them on in chunks.
    ///
    /// - Important: Used by one worker at a time, so the state it changes on every event is
    ///   marked `@exclusivity(unchecked)` (as the engine's): the compiler still checks exclusive
    ///   access statically, and the runtime's bookkeeping, about 1.5 % of an event-log replay's
    ///   CPU (perf), is left out.
    package final class Channel {
        let log: OrderedEventLog
        let trace: Int
        @exclusivity(unchecked) var renderer: EventLineRenderer
        @exclusivity(unchecked) var frames = ByteBuffer(capacity: OrderedEventLog.chunkBytes + 4096)
        /// A render error (a CSV key without a column), reported as the log's failure.
        var failure: FencesimError?

        /// Whether the replay can stop: the log cannot be written.
        var stopped: Bool { failure != nil || log.hasFailed }

        init(log: OrderedEventLog, trace: Int) {
            self.log = log
            self.trace = trace
            renderer = EventLineRenderer(format: log.format, extraColumns: log.extraColumns)
        }

        package func append(_ line: LogLine) {
            framing { renderer, frames throws(FencesimError) in try renderer.render(line, into: &frames) }
        }

        /// Appends the line of an engine's event, rendered from the event in place (see
        /// ``TraceLog/appendEngineEvents(_:fixTime:labels:trace:alone:)``).
        @inline(__always)
        func append(engine event: borrowing GeotriggerEvent, fenceID: String, zone: String?, trace: String) {
            framing { renderer, frames in
                renderer.render(engine: event, fenceID: fenceID, zone: zone, geotrigger: nil, trace: trace, into: &frames)
            }
        }

        /// Renders a line with `render` (which returns where its `seq` goes) in place after room
        /// for its frame's two lengths, then fills them in.
        @inline(__always)
        private func framing(_ render: (inout EventLineRenderer, inout ByteBuffer) throws(FencesimError) -> Int) {
            let start = frames.count
            Channel.frame(0, &frames)
            Channel.frame(0, &frames)
            let seqAt: Int
            do throws(FencesimError) {
                seqAt = try render(&renderer, &frames)
            } catch {
                frames.removeSubrange(from: start)
                if failure == nil { failure = error }
                return
            }
            let before = UInt32(seqAt - start - 8)
            let after = UInt32(frames.count - seqAt)
            frames.storeBytes(of: before.littleEndian, toByteOffset: start, as: UInt32.self)
            frames.storeBytes(of: after.littleEndian, toByteOffset: start + 4, as: UInt32.self)
            if frames.count >= OrderedEventLog.chunkBytes { flush() }
        }

        func flush() {
            guard !frames.isEmpty else { return }
            frames.withUnsafeBytes { log.deliver(trace, $0) }
            frames.removeAll()
        }

        /// Hands on the rest; the trace has ended.
        package func finish() {
            if let failure {
                log.state.withLock { state in log.fail(failure, &state) }
            }
            flush()
            log.finish(trace)
        }

        @inline(__always)
        static func frame(_ length: UInt32, _ out: inout ByteBuffer) {
            withUnsafeBytes(of: length.littleEndian) { out.append(contentsOf: $0) }
        }

        /// Calls `body` with the bytes before and after the `seq` of each framed event.
        static func forEachFrame(
            _ raw: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(FencesimError) -> Void
        ) throws(FencesimError) {
            var at = 0
            while at + 8 <= raw.count {
                let before = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
                let after = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)))
                at += 8
                precondition(at + before + after <= raw.count, "a whole frame")
                try body(
                    UnsafeRawBufferPointer(rebasing: raw[at..<(at + before)]),
                    UnsafeRawBufferPointer(rebasing: raw[(at + before)..<(at + before + after)]))
                at += before + after
            }
        }
    }

    /// The frames of a trace whose turn has not come: in memory, then (once memory is not
    /// allowed) in an unnamed temporary file, removed by the system when closed, even after a
    /// crash.
    final class Spool {
        var memory: [UInt8] = []
        var file: UnsafeMutablePointer<FILE>?
        /// Chunk lengths written to the file, in order (each chunk holds whole frames).
        var chunks: [Int] = []

        func append(_ frames: UnsafeRawBufferPointer, inMemory: Bool) -> FencesimError? {
            if file == nil, inMemory {
                memory.append(contentsOf: frames)
                return nil
            }
            if file == nil {
                guard let f = tmpfile() else {
                    return FencesimError(.io, "cannot create a temporary file for a trace's events: \(String(cString: strerror(errno)))")
                }
                file = f
                if let error = memory.withUnsafeBytes({ put($0) }) { return error }
                memory = []
            }
            return put(frames)
        }

        private func put(_ bytes: UnsafeRawBufferPointer) -> FencesimError? {
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return nil }
            let written = fwrite(start, 1, bytes.count, file)
            guard written == bytes.count else {
                return FencesimError(.io, "cannot write a trace's events to a temporary file: \(String(cString: strerror(errno)))")
            }
            chunks.append(bytes.count)
            return nil
        }

        /// Forgets what it held, keeping its memory's capacity, and says whether it can take a
        /// part again (one that moved to a temporary file cannot).
        func empty() -> Bool {
            guard file == nil else { return false }
            memory.removeAll(keepingCapacity: true)
            chunks.removeAll()
            return true
        }

        /// Hands every chunk to `body` in order (a temporary file is closed when the spool is freed).
        func drain(_ body: (UnsafeRawBufferPointer) -> Void) -> FencesimError? {
            guard let file else {
                memory.withUnsafeBytes { body($0) }
                return nil
            }
            guard fflush(file) == 0, fseek(file, 0, SEEK_SET) == 0 else {
                return FencesimError(.io, "cannot read back a trace's events: \(String(cString: strerror(errno)))")
            }
            for length in chunks {
                let chunk = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                    count = fread(buffer.baseAddress!, 1, length, file)
                }
                guard chunk.count == length else {
                    return FencesimError(.io, "cannot read back a trace's events: \(String(cString: strerror(errno)))")
                }
                chunk.withUnsafeBytes { body($0) }
            }
            return nil
        }

        deinit { if let file { fclose(file) } }
    }
}
