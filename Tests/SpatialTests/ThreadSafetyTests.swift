import Dispatch
import Spatial
import Support
import Testing

/// Everything one worker computes for a batch of fixes: its own context, frame and fences.
func evaluate(fences: [Shape], fixes: [XY], frameDefinition: FrameDefinition) throws -> [UInt64] {
    let context = try GEOSContext()
    let frame = try MetricFrame(frameDefinition)
    var projected = fixes
    try frame.forward(&projected)
    let prepared = try fences.map { shape throws in
        try PreparedGeometry(try Geometry(shape.mapPositions(frame.forward), context: context))
    }
    var answers: [UInt64] = []
    answers.reserveCapacity(fixes.count)
    for xy in projected {
        var bits: UInt64 = 0
        for (j, fence) in prepared.enumerated() {
            if try fence.intersects(xy) { bits |= 1 << UInt64(2 * j) }
            if try fence.isWithinDistance(25, of: xy) { bits |= 1 << UInt64(2 * j + 1) }
        }
        answers.append(bits)
        answers.append(frame.forward(frame.inverse(xy)).x.bitPattern)
    }
    return answers
}

/// One result slot per worker in raw memory, so that workers writing their own slots at the same
/// time never access a shared Swift array (which would be an exclusivity violation).
struct ResultSlots: @unchecked Sendable {
    // @unchecked: each worker writes only slot `w`, and the slots are read after
    // concurrentPerform returns, which orders every write before the reads.
    let base: UnsafeMutablePointer<Result<[UInt64], any Error>?>
    let count: Int
    init(_ count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        base.initialize(repeating: nil, count: count)
    }
    func set(_ index: Int, _ value: Result<[UInt64], any Error>) { base[index] = value }
    var values: [Result<[UInt64], any Error>?] { Array(UnsafeBufferPointer(start: base, count: count)) }
    func free() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

@Suite("Thread safety: one context per thread")
struct ThreadSafetyTests {
    @Test("Four workers (on two cores), each with its own context and frame, agree with one thread")
    func concurrentAgreesWithSerial() throws {
        var rng = SplitMix64(seed: 31)
        let fences: [Shape] = (0..<24).map { _ in
            let centre = XY(longitude: rng.uniform(-122.3, -122.1), latitude: rng.uniform(37.7, 37.8))
            return .polygon([Shapes.star(center: centre, radius: 0.004, vertices: 12, using: &rng)])
        }
        let fixes = (0..<4000).map { _ in XY(longitude: rng.uniform(-122.32, -122.08), latitude: rng.uniform(37.68, 37.82)) }
        let definition = FrameDefinition.projString(benchProjection)
        let serial = try evaluate(fences: fences, fixes: fixes, frameDefinition: definition)

        let workers = 4
        let results = ResultSlots(workers)
        defer { results.free() }
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            // Every worker evaluates the same fixes, several times over, at the same time.
            results.set(
                w,
                Result {
                    var last: [UInt64] = []
                    for _ in 0..<3 { last = try evaluate(fences: fences, fixes: fixes, frameDefinition: definition) }
                    return last
                })
        }
        for slot in results.values {
            let answers = try #require(slot).get()
            #expect(answers == serial)
        }
    }
}
