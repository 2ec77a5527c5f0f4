import Dispatch
import Foundation

/// A value worked out on a thread of its own while the caller goes on; ``value`` waits for it.
/// For work off a run's critical path whose result is read later (a measurement of the fence set
/// said after the replay).
public final class Background<Value: Sendable>: @unchecked Sendable {
    /// Written by the thread before it signals; read after ``value`` has waited.
    private var result: Value?
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` on a new thread (8 MiB of stack, as the workers have).
    public init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            result = work()
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The value, once the thread has made it (read any number of times).
    public var value: Value {
        done.wait()
        done.signal()
        return result!
    }
}
