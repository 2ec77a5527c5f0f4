import Dispatch
import Synchronization

/// Jobs `0..<count` on a few threads, each thread with a worker of its own (state it builds once
/// and reuses from job to job: compiled fences, a ground truth), results in job order whatever
/// thread ran them and in whatever order they finished.
///
/// Jobs are taken one at a time from a shared counter, so that a long job does not hold up
/// the short ones behind it. An error (a worker that cannot be built, a job that throws) stops
/// every thread from taking further jobs and is thrown: of the jobs that threw, the one first
/// in job order, else the first worker's error met. A failure a job reports in its result is
/// not an error here.
public enum WorkerPool {
    /// Runs `job(&worker, k)` for every `k` in `0..<count` on at most `workers` threads (never
    /// more threads than jobs), each thread's worker made by `makeWorker`, and returns the
    /// results in job order with the workers (for a caller that keeps them alive, or reads what
    /// they gathered).
    ///
    /// - Parameters:
    ///   - progress: called after each job with the number done (from the worker threads; keep
    ///     it cheap).
    /// - Throws: the error that stopped the run (see ``WorkerPool``); then no result is returned.
    public static func run<Worker, Result: Sendable, E: Error>(
        count: Int, workers requested: Int, makeWorker: @Sendable () throws(E) -> Worker,
        progress: (@Sendable (Int) -> Void)? = nil, _ job: @Sendable (inout Worker, Int) throws(E) -> Result
    ) throws(E) -> (results: [Result], workers: [Worker]) {
        guard count > 0 else { return ([], []) }
        let threads = max(1, min(requested, count))
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        // A pthread mutex, which ThreadSanitizer models (it does not model `Synchronization.Mutex`
        // on Linux): the results workers store under it are not reported as races.
        let state = PthreadLock(State<Result, E>(count: count))
        let built = Built<Worker>(threads)
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            var worker: Worker
            do throws(E) {
                worker = try makeWorker()
            } catch {
                state.withLock { if $0.failure == nil { $0.failure = error } }
                return
            }
            defer { built.store(worker, at: t) }
            while !state.withLock({ $0.failure != nil }) {
                let k = next.add(1, ordering: .relaxed).oldValue
                guard k < count else { break }
                do throws(E) {
                    let result = try job(&worker, k)
                    state.withLock { $0.results[k] = result }
                } catch {
                    state.withLock { s in
                        if s.failedJob.map({ k < $0 }) ?? true {
                            s.failure = error
                            s.failedJob = k
                        }
                    }
                    break
                }
                progress?(done.add(1, ordering: .relaxed).newValue)
            }
        }
        let finished = state.withLock { s in (s.results, s.failure) }
        if let failure = finished.1 { throw failure }
        return (
            finished.0.map { result in
                guard let result else { preconditionFailure("a job was never run") }
                return result
            }, built.workers
        )
    }

    /// The workers, each written by its own thread alone (its own element of plain memory: an
    /// array's element assignment is an access to the whole array, which two threads may not
    /// make at once) and read once every thread is done.
    final class Built<Worker>: @unchecked Sendable {
        private let slots: UnsafeMutablePointer<Worker?>
        private let count: Int

        init(_ n: Int) {
            count = n
            slots = .allocate(capacity: n)
            slots.initialize(repeating: nil, count: n)
        }

        deinit {
            slots.deinitialize(count: count)
            slots.deallocate()
        }

        /// Thread `t`'s worker.
        func store(_ worker: consuming Worker, at t: Int) {
            (slots + t).pointee = worker
        }

        /// The workers built, in thread order.
        var workers: [Worker] {
            (0..<count).compactMap { slots[$0] }
        }
    }

    struct State<Result, E: Error>: ~Copyable {
        var results: [Result?]
        var failure: E?
        /// The job whose error ``failure`` is, if a job's.
        var failedJob: Int?

        init(count: Int) {
            results = Array(repeating: nil, count: count)
        }
    }
}
