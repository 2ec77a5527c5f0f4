import Fences
import Spatial
import Support
import Testing

@testable import Accuracy

/// A path's truth visits count only while their fence exists (`TruthVisit.existing`): a report
/// of fences that appear and disappear scores no visit to a fence that was not there.
@Suite struct TruthValidityTests {
    static let t0 = Timestamp(seconds: 1_767_225_600)

    static func fences(_ validity: FenceValidity?) -> FenceSet {
        let fence = Fence(
            index: 0, id: "f", kind: .circle(radiusMeters: 50), shape: .point(XY(8.5, 47.3)),
            location: SourceLocation(file: "f.geojson"), validity: validity)
        let other = Fence(
            index: 1, id: "g", kind: .circle(radiusMeters: 50), shape: .point(XY(8.6, 47.3)),
            location: SourceLocation(file: "f.geojson"))
        return FenceSet(file: "f.geojson", fences: [fence, other])
    }

    static func visit(_ fence: Int, _ enter: Double, _ exit: Double?) -> TruthVisit {
        TruthVisit(
            fence: fence, fenceID: fence == 0 ? "f" : "g", enter: t0.adding(seconds: enter), exit: exit.map { t0.adding(seconds: $0) },
            enterSpeed: 5, enterLongitude: 1, enterLatitude: 2)
    }

    func spans(_ visits: [TruthVisit]) -> [String] {
        visits.map { v in
            "\(v.fenceID) \(Int(v.enter.seconds(since: Self.t0)))-\(v.exit.map { "\(Int($0.seconds(since: Self.t0)))" } ?? "open")\(v.enterSpeed == nil ? " appeared" : "")"
        }
    }

    @Test func visitsAreClippedToTheFencesExistence() {
        // f exists from 100 s until 200 s.
        let set = Self.fences(FenceValidity(from: Self.t0.adding(seconds: 100), until: Self.t0.adding(seconds: 200)))
        let visits = [
            Self.visit(0, 10, 50), Self.visit(1, 20, 30), Self.visit(0, 80, 120), Self.visit(0, 150, 170), Self.visit(0, 180, 250),
            Self.visit(0, 90, nil),
        ]
        let clipped = TruthVisit.existing(visits.sorted(by: TruthVisit.ordered), fences: set, end: Self.t0.adding(seconds: 300))
        #expect(spans(clipped) == ["g 20-30", "f 100-120 appeared", "f 100-200 appeared", "f 150-170", "f 180-200"])
    }

    @Test func fencesWithoutValidityAreUntouched() {
        let visits = [Self.visit(0, 10, 50), Self.visit(1, 20, nil)]
        #expect(TruthVisit.existing(visits, fences: Self.fences(nil), end: Self.t0.adding(seconds: 60)) == visits)
    }
}
