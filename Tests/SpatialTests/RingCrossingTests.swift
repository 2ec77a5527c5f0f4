import Foundation
import Testing

@testable import Spatial

/// The bounded count of a polygon's self-intersections that decides whether make-valid may
/// repair it (issue 21: make-valid of a self-intersecting star ran for minutes).
@Suite("Counting self-intersections, bounded")
struct RingCrossingTests {
    static let square = [XY(0, 0), XY(1, 0), XY(1, 1), XY(0, 1), XY(0, 0)]
    static let bowTie = [XY(0, 0), XY(1, 1), XY(1, 0), XY(0, 1), XY(0, 0)]

    /// A ring that jumps 7/16 of a turn at each vertex, turning slowly: most edges cross.
    static func star(_ vertices: Int) -> [XY] {
        (0...vertices).map { k in
            let angle = Double(k % vertices) / Double(vertices) * 2 * Double.pi
            let a = Double((k % vertices) * 7 % 16) / 16 * 2 * Double.pi + angle / 1000
            return XY(100 * cos(a), 100 * sin(a))
        }
    }

    @Test func simpleRingsDoNotCross() {
        #expect(RingCheck.crossings(of: [Self.square], limit: 10, pairBudget: 1_000) == .exactly(0))
        // A repeated position is not an edge.
        let repeated = [XY(0, 0), XY(1, 0), XY(1, 0), XY(1, 1), XY(0, 1), XY(0, 0)]
        #expect(RingCheck.crossings(of: [repeated], limit: 10, pairBudget: 1_000) == .exactly(0))
    }

    @Test func aBowTieCrossesOnce() {
        #expect(RingCheck.crossings(of: [Self.bowTie], limit: 10, pairBudget: 1_000) == .exactly(1))
        // A hole that crosses its shell twice.
        let hole = [XY(0.5, 0.5), XY(1.5, 0.5), XY(1.5, 0.6), XY(0.5, 0.6), XY(0.5, 0.5)]
        #expect(RingCheck.crossings(of: [Self.square, hole], limit: 10, pairBudget: 1_000) == .exactly(2))
    }

    @Test func countingStopsAtTheLimit() {
        #expect(RingCheck.crossings(of: [Self.star(64)], limit: 1_000, pairBudget: 1_000_000) == .moreThan(1_000))
        #expect(RingCheck.crossings(of: [Self.star(32)], limit: 1_000, pairBudget: 1_000_000) == .exactly(415))
    }

    @Test func countingStopsWhenThePairBudgetIsSpent() {
        // A comb: every edge spans the same x range, and none crosses another.
        var comb = (0..<200).map { k in XY(Double(k % 2), Double(k)) }
        comb += [XY(-1, 199), XY(-1, 0), XY(0, 0)]
        #expect(RingCheck.crossings(of: [comb], limit: 1_000, pairBudget: 100) == .pairBudgetSpent(100))
        #expect(RingCheck.crossings(of: [comb], limit: 1_000, pairBudget: 1_000_000) == .exactly(0))
    }
}
