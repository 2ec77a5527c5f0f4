import Foundation
import Testing

@testable import Support

/// ``Background``: the work runs on a thread of its own while the caller goes on, and its value
/// is the same at every read.
@Suite struct BackgroundTests {
    @Test func runsBesideTheCallerAndKeepsItsValue() {
        let caller = pthread_self()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let work = Background { () -> (sum: Int, elsewhere: Bool) in
            started.signal()
            // Waits for the caller, which could not signal if the work ran on its thread.
            release.wait()
            return ((1...1000).reduce(0, +), pthread_equal(pthread_self(), caller) == 0)
        }
        started.wait()
        release.signal()
        #expect(work.value.sum == 500_500)
        #expect(work.value.elsewhere)
        #expect(work.value.sum == 500_500)
    }
}
