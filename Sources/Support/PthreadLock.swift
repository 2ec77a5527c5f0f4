#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// State behind a pthread mutex: a lock ThreadSanitizer models, so that what threads hand each
/// other under it is not reported as a race (it does not model `Synchronization.Mutex` on
/// Linux; see tools/tsan-suppressions.txt). One owner of the mutex, freed with the lock.
package final class PthreadLock<State: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    package init(_ state: consuming State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<R: ~Copyable>(_ body: (inout State) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&state)
    }
}
