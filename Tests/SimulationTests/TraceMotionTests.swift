import Foundation
import Support
import Testing

@testable import Scenarios

/// `fencesim lint --traces`: a trace's motion is its p90 step speed times its p90 interval.
@Suite struct TraceMotionTests {
    @Test func nearestRankPercentiles() throws {
        // Ten steps: 1 s at 10 m/s nine times, one 5 s step at 30 m/s.
        var steps = Array(repeating: TraceMotion.Step(seconds: 1, meters: 10), count: 9)
        steps.append(TraceMotion.Step(seconds: 5, meters: 150))
        let m = try #require(TraceMotion.motion(of: steps, source: "x"))
        #expect(m.speedMetersPerSecond == 10)
        #expect(m.intervalSeconds == 1)
        // With one more outlier, the 90th percentile of 11 values is the 10th: the outlier.
        steps.append(TraceMotion.Step(seconds: 5, meters: 150))
        let n = try #require(TraceMotion.motion(of: steps, source: "x"))
        #expect(n.speedMetersPerSecond == 30)
        #expect(n.intervalSeconds == 5)
        #expect(n.gapMeters == 150)
        #expect(TraceMotion.motion(of: [], source: "x") == nil)
    }

    @Test func measuresATraceAndSkipsGaps() throws {
        let dir = try Paths.temporaryDirectory()
        // 0.0004° of longitude at 47.39° N is about 30.1 m; one fix every 2 s, then a 10-minute gap.
        var text = ScenarioHarness.walk(from: 8.5, step: 0.0004, count: 30, interval: 2)
        text += "2026-01-01T09:11:00.000Z,47.39,8.52,5\n2026-01-01T09:11:02.000Z,47.39,8.5204,5\n"
        let path = try Paths.write(text, "t.csv", in: dir)
        let m = try TraceMotion.measure(TraceInput(path: path, label: "t.csv"))
        #expect(m.intervalSeconds == 2)
        #expect(abs(m.speedMetersPerSecond - 15.06) < 0.05, "\(m.speedMetersPerSecond)")
        #expect(m.source == "p90 of trace t.csv")
    }

    @Test func aTraceWithoutStepsIsBadInput() throws {
        let dir = try Paths.temporaryDirectory()
        let path = try Paths.write("time,lat,lon\n2026-01-01T09:00:00Z,47.39,8.5\n", "one.csv", in: dir)
        #expect {
            try TraceMotion.measure(TraceInput(path: path))
        } throws: { error in
            (error as? FencesimError)?.code.exitStatus == 65
        }
        #expect {
            try TraceMotion.measure(TraceInput(path: dir.appendingPathComponent("none.csv").path))
        } throws: { error in
            (error as? FencesimError)?.code.exitStatus == 66
        }
    }
}
