import Fences
import Foundation
import Geotriggers
import Support
import Testing
import Traces

@testable import Accuracy
@testable import Execution
@testable import Regression
@testable import Scenarios

/// A straight drive east along the equator at 30 m/s with a fix every second (so a fix every
/// 30 m, from x = 0), past fences centred on the road at x = 300 (k + 1) + phase[k]: rectangles
/// 8 m along the road and 40 m across it, or circles.
///
/// Along the equator a degree of longitude is exactly a × π / 180 metres of geodesic, and the
/// automatic frame around the fences is exact to well under a millimetre, so a fix's offset into
/// a fence is the phase to the millimetre. Phases end in .5, so that no fix falls on a fence's
/// boundary at a whole-metre buffer.
enum StraightDrive {
    static let metresPerDegree = 6_378_137 * Double.pi / 180
    /// Half the rectangles' extent across the road, in degrees of latitude (20 m).
    static let halfWidthDegrees = 20 / 110_574.0

    enum Shape {
        case rectangle
        case circle(radius: Double)
    }

    /// The drive's CSV: a fix every 30 m from x = 0 to 30 m past the last fence's slot.
    static func csv(fences: Int) -> String {
        var out = "time,lat,lon,accuracy\n"
        for k in 0...(10 * (fences + 1) + 1) {
            out += String(format: "2026-01-01T00:%02d:%02d.000Z,0.0,%.10f,5\n", k / 60, k % 60, Double(30 * k) / metresPerDegree)
        }
        return out
    }

    static func geojson(phases: [Double], shape: Shape = .rectangle) -> String {
        var features: [String] = []
        for (k, phase) in phases.enumerated() {
            let x = 300 * Double(k + 1) + phase
            switch shape {
            case .rectangle:
                let w = (x - 4) / metresPerDegree
                let e = (x + 4) / metresPerDegree
                let s = -halfWidthDegrees
                let n = halfWidthDegrees
                let ring = [(w, s), (e, s), (e, n), (w, n), (w, s)].map { String(format: "[%.10f,%.10f]", $0.0, $0.1) }.joined(
                    separator: ",")
                features.append(
                    "{\"type\":\"Feature\",\"properties\":{\"id\":\"f\(k)\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[\(ring)]]}}"
                )
            case .circle(let radius):
                features.append(
                    String(
                        format:
                            "{\"type\":\"Feature\",\"properties\":{\"id\":\"f\(k)\",\"radius\":%g},\"geometry\":{\"type\":\"Point\",\"coordinates\":[%.10f,0.0]}}",
                        radius, x / metresPerDegree))
            }
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    /// Writes the drive, its fences and a scenario (truth: the clean trace) into a new folder and
    /// returns the scenario's path.
    static func write(phases: [Double], shape: Shape = .rectangle, extra: String = "") throws -> String {
        let dir = try Paths.temporaryDirectory()
        try Paths.write(csv(fences: phases.count), "drive.csv", in: dir)
        try Paths.write(geojson(phases: phases, shape: shape), "fences.geojson", in: dir)
        return try Paths.write(
            "name: straight-drive\ntraces: [drive.csv]\nfences: fences.geojson\ntruth: trace\n" + extra, "scenario.yaml", in: dir)
    }

    static func sweep(_ scenario: String, _ axes: [String], target: String? = nil, workers: Int = 2) throws -> Sweep.Result {
        let runner = try ScenarioRunner(scenario: try ScenarioReader.read(path: scenario), workers: workers)
        let parsed = try axes.enumerated().map { k, text in try SweepAxis(parsing: text, occurrence: k + 1) }
        let sweep = try Sweep(
            base: Sweep.Base(runner: runner, truth: .trace), axes: parsed, target: try target.map { try SweepTarget(parsing: $0) })
        return try sweep.run()
    }
}

/// Sweeps (SPEC §6.4): parameters and targets as written on the command line, the order of
/// combinations and the smallest setting, grids worked out by hand, and agreement with lint.
@Suite struct SweepTests {
    // MARK: Parameters

    @Test func valuesAreReadAsTheScenarioKeysReadThem() throws {
        let buffer = try SweepAxis(parsing: "buffer= 0, 10 ,-2.5")
        #expect(buffer.parameter == .buffer && buffer.values == [.number(0), .number(10), .number(-2.5)])
        let enter = try SweepAxis(parsing: "enterAfter=0,2 fixes,3fixes,10s,1 fix")
        #expect(
            enter.values == [
                .threshold(.seconds(0)), .threshold(.fixes(2)), .threshold(.fixes(3)), .threshold(.seconds(10)), .threshold(.fixes(1)),
            ])
        #expect(enter.text == "enterAfter=0,2 fixes,3 fixes,10,1 fix")
        #expect(try SweepAxis(parsing: "dwell=none,60").values == [.none, .number(60)])
        #expect(try SweepAxis(parsing: "resample=none,5").values == [.none, .number(5)])
        #expect(
            try SweepAxis(parsing: "relationship=contains,contains-intersects").values == [
                .relationship(.contains), .relationship(.containsIntersects),
            ])
        #expect(try SweepAxis(parsing: "feed=accuracy").values == [.feed(.accuracy)])
        #expect(try SweepAxis(parsing: "radiusscale=0.5,2").parameter == .radiusScale)
        #expect(try SweepAxis(parsing: "seed=1,2,3").values == [.number(1), .number(2), .number(3)])
        #expect(try SweepAxis(parsing: "exitLoss=0,0.5,1").values.count == 3)
    }

    @Test(arguments: [
        // text, exit code, column, part of the message
        ("bufer=0,10", 65, 1, "unknown parameter \"bufer\" (parameters: buffer, radiusScale,"),
        ("  noise=1,x", 65, 11, "noise must be a multiple of each fix's accuracy, found \"x\""),
        ("buffer", 64, 1, "expected NAME=V1,V2,..."),
        ("=1", 64, 1, "expected a parameter name"),
        ("buffer=", 64, 8, "buffer: empty value"),
        ("buffer=1,,2", 64, 10, "buffer: empty value"),
        ("buffer=1,1.0", 64, 10, "the value 1 is listed twice"),
        ("buffer=ten", 65, 8, "buffer must be a number of metres, found \"ten\""),
        ("radiusScale=1,0", 65, 15, "radiusScale must be a positive factor"),
        ("relationship=inside", 65, 14, "relationship must be one of intersects, contains, contains-intersects, found \"inside\""),
        ("enterAfter=2 laps", 65, 12, "enterAfter must be seconds"),
        ("dropout=1", 65, 9, "dropout must be at least 0 and below 1"),
        ("seed=1.5", 65, 6, "seed must be a non-negative integer"),
        ("resample=0", 65, 10, "resample must be a positive number of seconds"),
        ("buffer=none", 65, 8, "buffer must be a number of metres"),
    ])
    func badParametersAreLocatedInTheFlag(text: String, status: Int32, column: Int, message: String) {
        do {
            _ = try SweepAxis(parsing: text, occurrence: 2)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.code.exitStatus == status, "\(error)")
            #expect(error.location == SourceLocation(file: "--vary", line: 2, column: column), "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func aParameterVariedTwiceIsAUsageErrorAtTheSecondFlag() throws {
        let axes = [try SweepAxis(parsing: "buffer=0"), try SweepAxis(parsing: "noise=1"), try SweepAxis(parsing: "buffer=5")]
        #expect(throws: FencesimError.self) { try Sweep.check(axes) }
        do {
            try Sweep.check(axes)
        } catch {
            #expect(error.code == .usage && error.location == SourceLocation(file: "--vary", line: 3, column: 1))
            #expect(error.message.contains("buffer is already varied by --vary number 1"))
        }
        do {
            try Sweep.check([try SweepAxis(parsing: "exitAfter=0"), try SweepAxis(parsing: "debounce=1")])
            Issue.record("debounce and exitAfter were accepted together")
        } catch {
            #expect(error.code == .usage && error.message.contains("debounce sets exitAfter"))
        }
        let big = try SweepAxis(parsing: "seed=" + (0..<101).map(String.init).joined(separator: ","))
        #expect(throws: FencesimError.self) {
            try Sweep.check([big, try SweepAxis(parsing: "noise=" + (0..<100).map(String.init).joined(separator: ","))])
        }
        #expect(throws: FencesimError.self) { try Sweep.check([]) }
    }

    @Test func combinationsVaryTheFirstAxisSlowest() throws {
        let axes = [try SweepAxis(parsing: "buffer=0,10,20"), try SweepAxis(parsing: "resample=1,30")]
        #expect(Sweep.combinations(axes) == [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]])
        #expect(Sweep.combinations([try SweepAxis(parsing: "seed=3")]) == [[0]])
    }

    // MARK: Targets

    /// Recall 3/4, precision 3/3, enter latencies 1 and 3 s.
    static var metrics: AccuracyMetrics {
        var m = AccuracyMetrics(hours: 1)
        m.truthVisits = 4
        m.detected = 3
        m.missed = 1
        m.enterLatencies = [3, 1]
        return m
    }

    @Test(arguments: [
        ("recall>=0.75", true), ("recall>=0.76", false), ("recall<=0.75", true), ("recall<0.75", false), ("recall>0.7", true),
        ("recall==0.75", true), ("recall == 0.7", false), (" precision >= 1 , recall > 0.5", true), ("precision>=1,recall>0.8", false),
        ("enterP50<=1", true), ("ENTERp90<=1", false), ("missed<1", false), ("truthVisits==4", true), ("falseDetections==0", true),
        ("exitP50<=100", false),  // no exit latency: meets no comparison
        ("falseExitsPerHour<=0", true),
    ])
    func targetsCompareTheReportNumbers(text: String, met: Bool) throws {
        let target = try SweepTarget(parsing: text)
        #expect(target.isMet(by: Self.metrics) == met, "\(target)")
    }

    @Test func targetsReadEveryComparison() throws {
        let t = try SweepTarget(parsing: "recall>=0.95,precision<=1,f1>0.5,enterP50<3,missed==0")
        #expect(
            t.conditions == [
                .init(.recall, .atLeast, 0.95), .init(.precision, .atMost, 1), .init(.f1, .above, 0.5),
                .init(.enterP50, .below, 3), .init(.missed, .equal, 0),
            ])
        #expect(t.description == "recall>=0.95,precision<=1,f1>0.5,enterP50<3,missed==0")
    }

    @Test(arguments: [
        ("recal>=0.9", 65, 1, "unknown metric \"recal\" (metrics: recall, precision, f1,"),
        ("recall>=0.9, speed<3", 65, 14, "unknown metric \"speed\""),
        ("recall=1", 64, 7, "unknown comparison \"=\""),
        ("recall!=1", 64, 7, "unknown comparison \"!=\""),
        ("recall", 64, 1, "no comparison in \"recall\""),
        (">=0.9", 64, 1, "no metric before \">=\""),
        ("recall>=", 64, 9, "no number after \">=\""),
        // Issue 21: a value that is not a number is a target not shaped METRIC OP NUMBER (64).
        ("recall>=high", 64, 9, "recall is compared with \"high\", which is not a number"),
        ("recall>=1e400", 64, 9, "recall is compared with 1e400, which is out of range"),
        ("recall>=0.9,", 64, 13, "empty condition"),
    ])
    func badTargetsAreLocated(text: String, status: Int32, column: Int, message: String) {
        do {
            _ = try SweepTarget(parsing: text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.code.exitStatus == status, "\(error)")
            #expect(error.location == SourceLocation(file: "--target", line: 1, column: column), "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    // MARK: Grids by hand

    /// One 8 m rectangle whose near edge is 10.5 m past a fix (x = 300 + 14.5 ± 4: the fixes at
    /// 300 and 330 are outside): missed without a buffer (a passthrough), entered at the fix at
    /// 300 with a buffer of 11 m (the fence then spans 299.5–329.5). Enter latency: that fix is
    /// 10.5 m before the true entry at 310.5, −0.35 s; exit latency: the fix at 330 is the first
    /// outside, 11.5 m after the true exit at 318.5, +0.383 s.
    @Test func oneFenceInTheGapByHand() throws {
        let scenario = try StraightDrive.write(phases: [14.5])
        let r = try StraightDrive.sweep(scenario, ["buffer=0,11", "relationship=contains,intersects"], target: "recall>=1")
        #expect(r.rows.count == 4 && r.traceCount == 1 && r.failures.isEmpty)
        for row in r.rows {
            #expect(row.metrics.truthVisits == 1)
            #expect(row.summary.bySpeedBand.first { $0.key == "30+" }?.metrics.truthVisits == 1)
        }
        // A point is contained exactly when it intersects: the relationship changes nothing here.
        for row in r.rows.prefix(2) {
            #expect(row.metrics.detected == 0 && row.metrics.missed == 1 && row.metrics.missedInGap == 1)
            #expect(row.metrics.recall == 0 && row.metrics.precision == nil && row.metrics.enterLatency == nil)
            #expect(row.meetsTarget == false)
        }
        for row in r.rows.suffix(2) {
            #expect(row.metrics.detected == 1 && row.metrics.recall == 1 && row.metrics.precision == 1 && row.metrics.f1 == 1)
            #expect(abs((row.metrics.enterLatency?.p50 ?? 99) + 0.35) < 1e-3)
            #expect(abs((row.metrics.exitLatency?.p50 ?? 99) - 11.5 / 30) < 1e-3)
            #expect(row.meetsTarget == true)
        }
        // The smallest setting: the first meeting the target in enumeration order.
        let chosen = try #require(r.chosen)
        #expect(chosen.index == 2 && r.setting(chosen) == "buffer=11, relationship=contains")
        #expect(
            r.rows.map(\.values) == [
                [.number(0), .relationship(.contains)], [.number(0), .relationship(.intersects)],
                [.number(11), .relationship(.contains)], [.number(11), .relationship(.intersects)],
            ])
    }

    @Test func theSmallestSettingFollowsTheOrderGivenAndCanBeNone() throws {
        let scenario = try StraightDrive.write(phases: [14.5])
        // Values listed from the largest: the first that works is the largest.
        let down = try StraightDrive.sweep(scenario, ["buffer=20,11,0"], target: "recall>=1")
        #expect(down.chosen.map(down.setting) == "buffer=20")
        #expect(down.rows.map(\.meetsTarget) == [true, true, false])
        // None meets the target.
        let none = try StraightDrive.sweep(scenario, ["buffer=0,5,10"], target: "recall>=1")
        #expect(none.chosen == nil && none.rows.allSatisfy { $0.meetsTarget == false })
        // No target: nothing is chosen and no row is judged.
        let free = try StraightDrive.sweep(scenario, ["buffer=0,11"])
        #expect(free.chosen == nil && free.rows.allSatisfy { $0.meetsTarget == nil } && free.target == nil)
    }

    /// A 4 m circle at 314.5 lies between the fixes at 300 and 330; scaled by 4 (16 m) it holds
    /// both. Truth keeps the circle as drawn: one visit in both rows, entered at 310.5.
    @Test func radiusScaleGrowsTheMonitoredCircleNotTheTruth() throws {
        let scenario = try StraightDrive.write(phases: [14.5], shape: .circle(radius: 4))
        let r = try StraightDrive.sweep(scenario, ["radiusScale=1,4"])
        #expect(r.rows[0].metrics.truthVisits == 1 && r.rows[0].metrics.detected == 0)
        #expect(r.rows[1].metrics.truthVisits == 1 && r.rows[1].metrics.detected == 1)
        #expect(abs((r.rows[1].metrics.enterLatency?.p50 ?? 99) + 10.5 / 30) < 1e-3)
        // Beacons scale their range and a check-in proximity given in metres.
        #expect(
            Sweep.scaled(
                FenceSet(
                    file: "x",
                    fences: [
                        Fence(
                            index: 0, id: "b", kind: .beacon(rangeMeters: 10, proximity: .meters(2)), shape: .point(.init(0, 0)),
                            location: SourceLocation(file: "x"))
                    ]), by: 3
            ).fences[0].kind
                == .beacon(rangeMeters: 30, proximity: .meters(6)))
    }

    @Test func degradationKeysReplaceTheScenariosOthersStay() throws {
        let scenario = try StraightDrive.write(phases: [14.5], extra: "degrade: {noise: 0, dropout: {share: 0.2, burst: 3}, seed: 7}\n")
        let runner = try ScenarioRunner(scenario: try ScenarioReader.read(path: scenario))
        let sweep = try Sweep(
            base: Sweep.Base(runner: runner, truth: .trace),
            axes: [try SweepAxis(parsing: "dropout=0,0.5"), try SweepAxis(parsing: "buffer=1")])
        let variants = try sweep.variants()
        #expect(
            variants.map { $0.configuration.degradation } == [
                Degradation(dropout: 0, dropoutBurst: 3, seed: 7), Degradation(dropout: 0.5, dropoutBurst: 3, seed: 7),
            ])
        #expect(variants.allSatisfy { $0.configuration.replay.settings.map(\.bufferMeters) == [1] })
        // Fence settings are compiled once for both: only the feed differs.
        #expect(Set(variants.map(\.compileKey)).count == 1)
        // Without a degrade section, a varied key starts from no degradation.
        let plain = try ScenarioRunner(scenario: try ScenarioReader.read(path: try StraightDrive.write(phases: [14.5])))
        let v = try Sweep(base: Sweep.Base(runner: plain, truth: .trace), axes: [try SweepAxis(parsing: "resample=none,2")]).variants()
        #expect(v.map { $0.configuration.degradation } == [Degradation(), Degradation(resampleSeconds: 2)])
    }

    @Test func theResultDoesNotDependOnTheNumberOfWorkers() throws {
        let scenario = try StraightDrive.write(phases: [14.5, 0.5, 6.5, 26.5], extra: "degrade: {noise: 0.5, seed: 3}\n")
        func fingerprint(_ r: Sweep.Result) -> [String] {
            r.rows.map { row in
                let m = row.metrics
                return
                    "\(row.index) \(row.values) \(m.truthVisits) \(m.detected) \(m.falseDetections ?? -1) \(m.enterLatencies) \(m.exitLatencies) \(m.flaps) \(String(describing: row.meetsTarget))"
            }
        }
        let axes = ["buffer=0,6,11", "noise=0,1", "enterAfter=0,2 fixes"]
        let one = try StraightDrive.sweep(scenario, axes, target: "recall>=0.75", workers: 1)
        let three = try StraightDrive.sweep(scenario, axes, target: "recall>=0.75", workers: 3)
        #expect(fingerprint(one) == fingerprint(three))
        #expect(one.chosen?.index == three.chosen?.index)
    }

    @Test func aTraceThatFailsIsCountedAndCannotMeetTheTarget() throws {
        let scenario = try StraightDrive.write(phases: [0.5])
        let dir = (scenario as NSString).deletingLastPathComponent
        try Paths.write("time,lat,lon\nyesterday,0,0\n", "broken.csv", in: URL(fileURLWithPath: dir))
        try Paths.write(
            "name: straight-drive\ntraces: [drive.csv, broken.csv]\nfences: fences.geojson\n", "scenario.yaml",
            in: URL(fileURLWithPath: dir))
        let r = try StraightDrive.sweep(scenario, ["buffer=0,11"], target: "recall>=1")
        #expect(r.rows.map(\.failedTraces) == [1, 1])
        #expect(r.rows.allSatisfy { $0.metrics.recall == 1 && $0.meetsTarget == false })
        #expect(r.failures.count == 1 && r.failures[0].code == .badData && r.failures[0].location?.file.hasSuffix("broken.csv") == true)
    }

    // MARK: Sweep and lint

    /// Ten 8 m rectangles at 30 m/s with a fix every second: lint flags every fence narrower than
    /// the 30 m a device moves between fixes, so a buffer of (30 − 8) / 2 = 11 m is the first
    /// whole-metre buffer it accepts. The sweep over the buffer finds recall reaching 1 there and
    /// not before: at 10 m the rectangle 10.5 m past a fix (phase 14.5) still spans 0.5–28.5 m
    /// past it, between two fixes.
    ///
    /// The phases are those where a buffered fence, once wide enough, holds a fix before the true
    /// exit (phases in [0, 15] or [26, 30) from the fix before). A fence between 15 and 26 m past
    /// a fix is, at an 11 m buffer, entered only at a fix after the device has left the fence as
    /// drawn: SPEC §6.3 matches visits by time overlap, so that is a false detection and a miss,
    /// and recall then reaches 1 only once the buffer alone spans the gap (8 + b ≥ 30).
    @Test func sweepOverBufferAndLintAgree() throws {
        let phases = [14.5, 0.5, 3.5, 6.5, 9.5, 12.5, 26.5, 28.5, 2.5, 11.5]
        let scenario = try StraightDrive.write(phases: phases)
        let runner = try ScenarioRunner(scenario: try ScenarioReader.read(path: scenario), workers: 2)
        let buffers = (0...14).map(Double.init)
        let result = try Sweep(
            base: Sweep.Base(runner: runner, truth: .trace),
            axes: [SweepAxis(parameter: .buffer, values: buffers.map(SweepValue.number))],
            target: SweepTarget([.init(.recall, .atLeast, 1)])
        ).run()

        // Lint at 30 m/s every 1 s, and with the motion it measures on the drive itself.
        let measured = try TraceMotion.measure(runner.scenario.traces[0])
        #expect(abs(measured.gapMeters - 30) < 1e-3)
        for motion in [LintMotion(speedMetersPerSecond: 30, intervalSeconds: 1, source: "--speed/--interval"), measured] {
            let flagged = try buffers.map { b in
                try FenceLint.lint(runner.fences, options: FenceLint.Options(motions: [motion], bufferMeters: b, frame: runner.frame))
                    .filter { $0.rule == .narrow }.count
            }
            #expect(flagged == buffers.map { $0 < 11 ? phases.count : 0 }, "\(flagged)")
            let atZero = try FenceLint.lint(runner.fences, options: FenceLint.Options(motions: [motion], frame: runner.frame))
            #expect(atZero.allSatisfy { $0.message.contains("a buffer of 11 m") })
        }

        // Detected fences by buffer, from the phases: 5 without a buffer, then 6.5 at 3 m, 9.5
        // at 6 m, 11.5 at 8 m, 12.5 at 9 m, 14.5 at 11 m.
        #expect(result.rows.map(\.metrics.detected) == [5, 5, 5, 6, 6, 6, 7, 7, 8, 9, 9, 10, 10, 10, 10])
        #expect(result.rows.allSatisfy { $0.metrics.truthVisits == 10 && $0.metrics.falseDetections == 0 })
        let full = try #require(result.rows.first { $0.metrics.recall == 1 })
        #expect(full.values == [.number(11)])
        #expect(result.chosen?.index == full.index)
        #expect(result.rows.prefix(11).allSatisfy { ($0.metrics.recall ?? 1) < 1 })
        #expect(result.rows.suffix(4).allSatisfy { $0.metrics.recall == 1 })
        // Every miss is a fence in a gap.
        #expect(result.rows.allSatisfy { $0.metrics.missedInGap == $0.metrics.missed })
    }
}
