import Support
import Testing

@testable import Accuracy

/// Truth visits and detections are put in report order by sorting their positions
/// (``Accuracy/TruthVisit/sortInReportOrder(_:)``, moved into place in their permutation's cycles): the order must be the one of sorting the values
/// by time, fence id and fence, ties of fences sharing an id included.
@Suite struct ReportOrderTests {
    @Test(arguments: 0..<4)
    func positionsSortAsTheVisitsWould(seed: UInt64) {
        var random = SplitMix64(seed: 0x0DE5 + seed)
        var visits: [TruthVisit] = []
        for _ in 0..<3_000 {
            // Few instants and ids, so that many visits tie on both; distinct fences, as one
            // fence is entered at most once at an instant.
            let fence = visits.count
            let id = "f\(random.next() % 40)"
            let enter = Timestamp(seconds: 1_767_225_600 + Int64(random.next() % 50))
            visits.append(TruthVisit(fence: fence, fenceID: id, enter: enter, exit: nil))
        }
        visits.shuffle(using: &random)
        let expected = visits.sorted { a, b in TruthVisit.ordered(a, b) || (!TruthVisit.ordered(b, a) && a.fence < b.fence) }
        var got = visits
        TruthVisit.sortInReportOrder(&got)
        let first = zip(got, expected).enumerated().first { $0.element.0.fence != $0.element.1.fence }?.offset
        #expect(got.count == expected.count && first == nil, "first difference at \(first ?? -1)")
    }
}
