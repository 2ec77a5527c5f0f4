import Synchronization
import Testing

@testable import Support

/// `WorkerPool.run`: jobs in order whatever thread ran them, one worker per thread built once,
/// and the first error of a worker that cannot be built.
@Suite struct WorkerPoolTests {
    struct Refused: Error, Equatable {}

    /// A worker that counts the jobs it ran.
    struct Counter {
        let id: Int
        var jobs = 0
    }

    @Test(arguments: [1, 2, 3, 8])
    func resultsComeInJobOrderAndEveryJobRunsOnce(workers: Int) throws {
        let made = Atomic<Int>(0)
        let progressed = Atomic<Int>(0)
        let (results, built) = WorkerPool.run(
            count: 1000, workers: workers,
            makeWorker: { () throws(Never) in
                Counter(id: made.add(1, ordering: .relaxed).oldValue)
            }, progress: { _ in progressed.add(1, ordering: .relaxed) }
        ) { worker, k in
            worker.jobs += 1
            // Uneven jobs, so that threads finish out of order.
            var x = 0
            for i in 0..<(k % 7) * 100 { x &+= i }
            return (k, x >= 0)
        }
        #expect(results.map(\.0) == Array(0..<1000))
        #expect(built.count == made.load(ordering: .relaxed))
        #expect(built.count <= min(workers, 1000) && !built.isEmpty)
        #expect(built.map(\.jobs).reduce(0, +) == 1000, "every job ran once, each on one worker")
        #expect(progressed.load(ordering: .relaxed) == 1000)
    }

    @Test func neverMoreThreadsThanJobs() {
        let (results, built) = WorkerPool.run(count: 2, workers: 16, makeWorker: { () throws(Never) in Counter(id: 0) }) { _, k in k * 10 }
        #expect(results == [0, 10])
        #expect(built.count <= 2)
        let none = WorkerPool.run(count: 0, workers: 4, makeWorker: { () throws(Never) in Counter(id: 0) }) { _, k in k }
        #expect(none.results.isEmpty && none.workers.isEmpty)
    }

    struct Failed: Error, Equatable { var job: Int }

    @Test(arguments: [1, 2, 4])
    func theFirstFailingJobInJobOrderIsThrown(workers: Int) {
        // Jobs 300 and 700 fail; whatever thread meets which first, 300 is thrown, and jobs
        // well past 700 are not taken.
        let ran = Atomic<Int>(0)
        #expect(throws: Failed(job: 300)) {
            _ = try WorkerPool.run(count: 10_000, workers: workers, makeWorker: { () throws(Failed) in Counter(id: 0) }) {
                (_, k) throws(Failed) -> Int in
                ran.add(1, ordering: .relaxed)
                if k == 300 || k == 700 { throw Failed(job: k) }
                return k
            }
        }
        #expect(ran.load(ordering: .relaxed) < 10_000)
    }

    @Test func aWorkerThatCannotBeBuiltStopsTheRun() {
        let ran = Atomic<Int>(0)
        #expect(throws: Refused()) {
            _ = try WorkerPool.run(count: 100, workers: 3, makeWorker: { () throws(Refused) -> Counter in throw Refused() }) {
                (_, k) throws(Refused) -> Int in
                ran.add(1, ordering: .relaxed)
                return k
            }
        }
        #expect(ran.load(ordering: .relaxed) == 0)
    }
}
