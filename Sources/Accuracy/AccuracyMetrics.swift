#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The aggregate numbers of SPEC §6.3 over a group of truth visits and detections (one fence,
/// zone, trace, speed band, or everything).
///
/// Recall = detected truth visits / truth visits. Precision = matched detected visits /
/// (matched + false detections); flaps are counted apart (they are real visits, detected more
/// than once) and do not lower precision. F1 = 2PR / (P + R). Latency percentiles are exact,
/// by the nearest-rank method (the ⌈q·n⌉-th smallest value). False exits per hour divide by the
/// true path's duration of the traces in the group (every trace for a fence or zone).
public struct AccuracyMetrics: Sendable {
    /// Nearest-rank percentiles of a set of values, seconds.
    public struct Percentiles: Sendable, Hashable {
        public var count: Int
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var mean: Double

        /// The percentiles of `values`, or `nil` when there are none.
        public init?(_ values: [Double]) {
            guard !values.isEmpty else { return nil }
            if values.count <= Percentiles.inPlaceLimit {
                // Most groups (a fence's visits) hold a few values: sorted in place on the stack,
                // stably as `sorted()` sorts them, without an array per group.
                self = withUnsafeTemporaryAllocation(of: Double.self, capacity: values.count) { buffer in
                    _ = buffer.initialize(from: values)
                    for i in 1..<buffer.count {
                        let v = buffer[i]
                        var j = i
                        while j > 0, v < buffer[j - 1] {
                            buffer[j] = buffer[j - 1]
                            j -= 1
                        }
                        buffer[j] = v
                    }
                    return Percentiles(sorted: UnsafeBufferPointer(buffer))
                }
                return
            }
            self.init(sorted: Percentiles.sorted(values))
        }

        /// Values sorted in place (insertion sort, stable) up to this many.
        static let inPlaceLimit = 16

        /// Nearest-rank percentiles and the mean (summed in sorted order) of sorted values.
        init<Sorted: RandomAccessCollection<Double>>(sorted: Sorted) where Sorted.Index == Int {
            func rank(_ q: Double) -> Double {
                let k = Int((q * Double(sorted.count)).rounded(.up)) - 1
                return sorted[min(sorted.count - 1, max(0, k))]
            }
            count = sorted.count
            p50 = rank(0.5)
            p90 = rank(0.9)
            p99 = rank(0.99)
            mean = sorted.reduce(0, +) / Double(sorted.count)
        }

        /// `values` in ascending order, as `values.sorted()` gives them. A report sorts every
        /// latency five times (overall, by fence, zone, trace and band: millions of values for a
        /// long drive), and the standard library's comparison sort took a third of writing the
        /// JSON: long arrays are sorted by their bits instead (a least-significant-digit radix
        /// sort, a byte a pass, passes where every value shares the byte skipped). Arrays with a
        /// NaN or a negative zero, whose bit order is not their order, take the comparison sort.
        static func sorted(_ values: [Double]) -> [Double] {
            guard values.count >= 256, !values.contains(where: { $0.isNaN || ($0 == 0 && $0.sign == .minus) }) else {
                return values.sorted()
            }
            let sign: UInt64 = 1 << 63
            let n = values.count
            // Keys in the order of the doubles: negatives with every bit flipped, others with the
            // sign bit set; sorted between two buffers of plain memory (no uniqueness or bounds
            // check per element: the passes were most of a report's sorting instructions).
            let keys = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
            let spare = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
            let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 257)
            defer {
                keys.deallocate()
                spare.deallocate()
                counts.deallocate()
            }
            for k in 0..<n {
                let bits = values[k].bitPattern
                keys[k] = bits & sign != 0 ? ~bits : bits | sign
            }
            var from = keys
            var to = spare
            for shift in stride(from: UInt64(0), to: 64, by: 8) {
                counts.update(repeating: 0)
                for k in 0..<n { counts[Int((from[k] >> shift) & 0xff) + 1] += 1 }
                // Every key shares this byte: the pass would move nothing.
                if counts.contains(n) { continue }
                for k in 1...256 { counts[k] += counts[k - 1] }
                for k in 0..<n {
                    let key = from[k]
                    let digit = Int((key >> shift) & 0xff)
                    to[counts[digit]] = key
                    counts[digit] += 1
                }
                swap(&from, &to)
            }
            return [Double](unsafeUninitializedCapacity: n) { out, count in
                for k in 0..<n {
                    let key = from[k]
                    out[k] = Double(bitPattern: key & sign != 0 ? key & ~sign : ~key)
                }
                count = n
            }
        }
    }

    public var truthVisits = 0
    /// Truth visits with a matched detection.
    public var detected = 0
    /// Truth visits without one.
    public var missed = 0
    /// Misses because the fence fell between two fixes (`passthrough`).
    public var missedInGap = 0
    /// Detected visits that overlap no truth visit (`nil` where it has no meaning: speed bands).
    public var falseDetections: Int?
    public var flaps = 0
    public var falseExits = 0
    /// Matched truth visits that ended while their detection never closed.
    public var exitsMissed = 0
    /// Hours of true path the group covers (`nil` where it has no meaning: speed bands).
    public var hours: Double?
    // A change of the values unsettles the percentiles (no `oldValue`: changed in place; and
    // cleared only when set: clearing wrote the 145 bytes of `settled` at every value added).
    public var enterLatencies: [Double] = [] { didSet { unsettle() } }
    public var exitLatencies: [Double] = [] { didSet { unsettle() } }
    public var dwellErrors: [Double] = [] { didSet { unsettle() } }
    /// The three sets of percentiles once worked out by ``settle()``, until a value changes.
    private var settled: (enter: Percentiles?, exit: Percentiles?, dwell: Percentiles?)?

    @inline(__always)
    private mutating func unsettle() {
        if case .some = settled { settled = nil }
    }

    /// An empty group; `countsDetections` false for groups by speed band, where false detections
    /// (which have no true crossing) cannot be placed.
    public init(countsDetections: Bool = true, hours: Double? = nil) {
        falseDetections = countsDetections ? 0 : nil
        self.hours = hours
    }

    /// What a group adds of a truth visit: its numbers alone, a plain value.
    ///
    /// A summary takes it from each visit once and adds it to the visit's five groups. Adding
    /// the visit itself, read in place, made the compiler copy the whole visit (250 bytes, a
    /// retain of each of its names) around every append to a group's latencies, which might
    /// have written where the visit lies: on two threads, retains of one trace's name that
    /// fought over its cache line (a twentieth of a report's CPU, perf).
    @frozen
    public struct Outcome: Sendable {
        public var detected: Bool
        public var missedInGap: Bool
        public var flaps: Int
        public var falseExits: Int
        public var exitMissed: Bool
        public var enterLatency: Double?
        public var exitLatency: Double?
        public var dwellError: Double?

        @inline(__always)
        public init(_ visit: borrowing VisitScore) {
            detected = visit.detected
            if case .gap? = visit.missReason { missedInGap = true } else { missedInGap = false }
            flaps = visit.flaps
            falseExits = visit.falseExits
            exitMissed = visit.exitMissed
            enterLatency = visit.enterLatency
            exitLatency = visit.exitLatency
            dwellError = visit.dwellError
        }
    }

    /// Adds a truth visit's outcome.
    public mutating func add(_ visit: VisitScore) {
        add(Outcome(visit))
    }

    /// Adds a truth visit's outcome, taken from it once (``Outcome``).
    @inline(__always)
    public mutating func add(_ visit: Outcome) {
        truthVisits += 1
        if visit.detected { detected += 1 } else { missed += 1 }
        if visit.missedInGap { missedInGap += 1 }
        flaps += visit.flaps
        falseExits += visit.falseExits
        if visit.exitMissed { exitsMissed += 1 }
        if let v = visit.enterLatency { enterLatencies.append(v) }
        if let v = visit.exitLatency { exitLatencies.append(v) }
        if let v = visit.dwellError { dwellErrors.append(v) }
    }

    /// Makes room for the latencies of `visits` more truth visits, so that each list is
    /// allocated once rather than grown by doubling (every growth a fresh block, its pages
    /// faulted in and the values copied: about half of a long drive's summary, perf).
    public mutating func reserve(visits: Int) {
        enterLatencies.reserveCapacity(enterLatencies.count + visits)
        exitLatencies.reserveCapacity(exitLatencies.count + visits)
        dwellErrors.reserveCapacity(dwellErrors.count + visits)
    }

    /// Adds a false detection.
    public mutating func addFalseDetection() {
        if let n = falseDetections { falseDetections = n + 1 }
    }

    public var recall: Double? { truthVisits > 0 ? Double(detected) / Double(truthVisits) : nil }

    public var precision: Double? {
        guard let f = falseDetections, detected + f > 0 else { return nil }
        return Double(detected) / Double(detected + f)
    }

    public var f1: Double? {
        guard let r = recall, let p = precision else { return nil }
        return r + p > 0 ? 2 * p * r / (p + r) : 0
    }

    public var enterLatency: Percentiles? { settled.map(\.enter) ?? Percentiles(enterLatencies) }
    public var exitLatency: Percentiles? { settled.map(\.exit) ?? Percentiles(exitLatencies) }
    public var dwellError: Percentiles? { settled.map(\.dwell) ?? Percentiles(dwellErrors) }

    /// Works out the percentiles now, once, for every later reading (a report reads each
    /// group's several times: JSON, table, HTML), until a value changes.
    public mutating func settle() {
        settled = (Percentiles(enterLatencies), Percentiles(exitLatencies), Percentiles(dwellErrors))
    }

    /// ``settle()``, taking `other`'s percentiles when it is settled and holds the same values,
    /// bit for bit and in the same order (the one trace of a report and the overall numbers):
    /// the same values sort the same.
    public mutating func settle(like other: AccuracyMetrics) {
        guard let theirs = other.settled, AccuracyMetrics.sameBits(enterLatencies, other.enterLatencies),
            AccuracyMetrics.sameBits(exitLatencies, other.exitLatencies), AccuracyMetrics.sameBits(dwellErrors, other.dwellErrors)
        else { return settle() }
        settled = theirs
    }

    private static func sameBits(_ a: [Double], _ b: [Double]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return true }
                return memcmp(p, q, x.count) == 0
            }
        }
    }

    public var falseExitsPerHour: Double? {
        guard let hours, hours > 0 else { return nil }
        return Double(falseExits) / hours
    }
}
