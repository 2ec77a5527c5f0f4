import Foundation
import Testing

@testable import Execution
@testable import Regression
@testable import Support

/// How `--shard K/N` assigns traces (balanced by work) and how a part keeps values exactly.
@Suite struct ShardAssignmentTests {
    @Test func equalWeightsAreRoundRobin() {
        for (total, count) in [(7, 3), (2, 5), (12, 4), (0, 3)] {
            let assignment = Shard.assignment(weights: Array(repeating: 100, count: total), count: count)
            for k in 0..<count {
                #expect(assignment[k] == (try? Shard(index: k, count: count))?.positions(of: total), "\(total) traces, shard \(k)/\(count)")
            }
        }
    }

    @Test func largestFirstBalancesWork() throws {
        // One long drive and many short ones: round robin would give shard 0 the long one and
        // as many short ones as shard 1 (1,600 against 600).
        let weights: [Int64] = [1000, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100]
        let assignment = Shard.assignment(weights: weights, count: 2)
        #expect(assignment[0] == [0, 11, 13])
        #expect(assignment[1] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12])
        let loads = assignment.map { $0.reduce(Int64(0)) { $0 + weights[$1] } }
        #expect(loads == [1200, 1100])
        // Every trace once, ascending in each shard, the same every time.
        for count in 1...6 {
            let a = Shard.assignment(weights: weights.reversed(), count: count)
            #expect(a.flatMap { $0 }.sorted() == Array(weights.indices))
            #expect(a.allSatisfy { $0 == $0.sorted() })
            #expect(a == Shard.assignment(weights: weights.reversed(), count: count))
            let max = a.map { $0.reduce(Int64(0)) { $0 + weights.reversed()[$1] } }.max() ?? 0
            #expect(max <= weights.reduce(0, +) / Int64(count) + 1000, "LPT: at most the mean plus the largest")
        }
        // Ties go to the earlier trace and the lower shard: 1 and 3 (7 each) first, then 0 and 2.
        #expect(Shard.assignment(weights: [5, 7, 5, 7], count: 2) == [[0, 1], [2, 3]])
        #expect(Shard.assignment(weights: [5, 7, 5, 8], count: 2) == [[2, 3], [0, 1]])
    }

    @Test func partValuesComeBackExactly() throws {
        let awkward: [Double] = [0.1, -0.0, 1e-310, .pi, 8.5412345678901234, -47.0000000000001, .greatestFiniteMagnitude]
        for value in awkward {
            let text = JSONWriter.string(.orderedObject([("v", PartValue.double(value))]))
            let node = PartNode(node: try JSONParser.parse(text), line: 1, file: "t")
            #expect(try node.member("v").double.bitPattern == value.bitPattern, "\(value)")
        }
        let time = Timestamp(seconds: 1_767_254_400, nanoseconds: 123_456_789)
        let node = PartNode(node: try JSONParser.parse(JSONWriter.string(PartValue.time(time))), line: 1, file: "t")
        #expect(try node.time == time)
        let error = FencesimError(
            .missingInput, "cannot open", at: SourceLocation(file: "a.gpx", line: 3, column: 7),
            related: [Diagnostic(.warning, "also this", at: SourceLocation(file: "a.gpx", line: 4))])
        let back = try PartNode(node: try JSONParser.parse(JSONWriter.string(PartValue.error(error))), line: 1, file: "t").fencesimError
        #expect(back.fullDescription == error.fullDescription)
        #expect(back.code == .missingInput)
        // A value that is not the bits of a double is refused where it is.
        let bad = PartNode(node: try JSONParser.parse("{\"v\": 0.5}"), line: 9, file: "p.jsonl")
        #expect { try bad.member("v").double } throws: { error in
            (error as? FencesimError)?.location == SourceLocation(file: "p.jsonl", line: 9, column: 7)
        }
    }
}
