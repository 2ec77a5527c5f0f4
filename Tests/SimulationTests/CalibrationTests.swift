import Fences
import Foundation
import Geotriggers
import Spatial
import Support
import Testing
import Traces

@testable import Accuracy
@testable import EventPipeline
@testable import Scenarios

/// `fencesim calibrate` (issue 25): parameters a profile generated logs with, under a fixed
/// seed, are recovered within stated tolerances.
@Suite struct CalibrationTests {
    static let frame = FrameDefinition.transverseMercator(latitudeOfOrigin: 37.75, centralMeridian: -122.2)
    static let t0 = Timestamp(seconds: 1_767_225_600)

    /// Five 150 m circles 1 km apart on a line, and `passes` drives along it and back at 10 m/s
    /// with a fix a second (10 m apart).
    static func scene(passes: Int) throws -> (fences: FenceSet, fixes: [Fix]) {
        let metric = try MetricFrame(frame)
        let fences = FenceSet(
            file: "line.geojson",
            fences: (0..<5).map { k in
                Fence(
                    index: k, id: "f\(k)", kind: .circle(radiusMeters: 150), shape: .point(metric.inverse(XY(Double(k) * 1000, 0))),
                    location: SourceLocation(file: "line.geojson", line: k + 1))
            })
        var fixes: [Fix] = []
        var t = 0.0
        for pass in 0..<passes {
            let xs = stride(from: -600.0, through: 4600, by: 10).map { $0 }
            for x in pass % 2 == 0 ? xs : xs.reversed() {
                let p = metric.inverse(XY(x, 0))
                fixes.append(Fix(time: t0.adding(seconds: t), latitude: p.latitude, longitude: p.longitude, accuracyMeters: 10))
                t += 1
            }
        }
        return (fences, fixes)
    }

    /// Replays `fixes` with `profile` and writes the truth trace (GPX) and the log (JSON Lines).
    static func generate(_ profile: OSProfile, passes: Int, in dir: URL) throws -> (fences: FenceSet, truth: String, log: String) {
        let (fences, fixes) = try scene(passes: passes)
        let truth = try Paths.write(TraceWriter.render(fixes, format: .gpx), "drive.gpx", in: dir)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        var configuration = Replayer.Configuration(fences: fences, frame: frame, settings: settings)
        configuration.profile = profile
        let compiled = try CompiledFences(fences, frame: frame, settings: settings)
        // A fixed name: the profile's draws depend on the trace's name (with its seed), and the
        // truth's path is a fresh temporary folder each run, which made the fitted values vary
        // from run to run (about one run in a hundred fell outside the tolerances).
        let outcome = Replayer.replay(fixes: fixes, input: TraceInput(path: truth, label: "drive"), compiled, configuration)
        #expect(outcome.error == nil)
        let log = try Paths.write(EventLogFormat.jsonl.render(outcome.events), "phone.jsonl", in: dir)
        return (fences, truth, log)
    }

    @Test func recoversDelayExitLossAndDistancesFromGeneratedLogs() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var truthProfile = OSProfile.builtIn(.androidGeofencing)
        truthProfile.delayMinimumSeconds = 5
        truthProfile.delayMeanSeconds = 30
        truthProfile.exitLoss = 0.25
        truthProfile.entryDistanceMeters = 40
        truthProfile.exitDistanceMeters = 60
        truthProfile.seed = 7
        let (fences, truth, log) = try Self.generate(truthProfile, passes: 40, in: dir)
        let setup = DeviceLog.ScoringSetup(fences: fences, frame: Self.frame, truths: [truth], maxGapSeconds: 120)
        let recorded = try DeviceLog.read(path: log, fences: fences)
        let fit = try Calibration.fit(logs: [recorded], base: OSProfile.builtIn(.androidGeofencing), setup: setup)
        let p = fit.profile
        // Tolerances: the minimum of a few hundred exponential delays lies within 0.5 s of the
        // shift; their mean within 15 %; the exit loss within 0.09 (three standard errors of 200
        // visits); decision distances within one fix spacing (10 m) above the threshold.
        #expect(abs(p.delayMinimumSeconds - 5) < 0.5, "delayMinimum \(p.delayMinimumSeconds)")
        #expect(abs(p.delayMeanSeconds - 30) < 4.5, "delayMean \(p.delayMeanSeconds)")
        #expect(abs(p.exitLoss - 0.25) < 0.09, "exitLoss \(p.exitLoss)")
        #expect(p.entryDistanceMeters >= 40 && p.entryDistanceMeters < 50, "entryDistance \(p.entryDistanceMeters)")
        #expect(p.exitDistanceMeters >= 60 && p.exitDistanceMeters < 70, "exitDistance \(p.exitDistanceMeters)")
        #expect((fit.fits["exitLoss"]?.samples ?? 0) >= 190)
        #expect((fit.fits["delayMean"]?.samples ?? 0) > 300)
        // What is not fitted keeps the base profile's value.
        #expect(p.regionLimit == 100 && p.enterOverlapLarger == 0.85 && p.entryLoss == 0)
        // Other generating values give other fits: the fit reads the logs.
        var other = truthProfile
        other.exitLoss = 0
        other.delayMeanSeconds = 90
        let otherDir = dir.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: otherDir, withIntermediateDirectories: true)
        let second = try Self.generate(other, passes: 40, in: otherDir)
        let refit = try Calibration.fit(
            logs: [try DeviceLog.read(path: second.log, fences: fences)], base: OSProfile.builtIn(.androidGeofencing),
            setup: DeviceLog.ScoringSetup(fences: fences, frame: Self.frame, truths: [second.truth], maxGapSeconds: 120))
        #expect(refit.profile.exitLoss < 0.03, "exitLoss \(refit.profile.exitLoss)")
        #expect(abs(refit.profile.delayMeanSeconds - 90) < 13.5, "delayMean \(refit.profile.delayMeanSeconds)")
    }

    @Test func logsWithoutDecisionTimesLeaveTheDelayAlone() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (fences, fixes) = try Self.scene(passes: 2)
        let truth = try Paths.write(TraceWriter.render(fixes, format: .gpx), "drive.gpx", in: dir)
        let csv = try Paths.write(
            "time,fence,type\n\(Self.t0.adding(seconds: 50).description),f0,enter\n\(Self.t0.adding(seconds: 90).description),f0,exit\n",
            "phone.csv", in: dir)
        let base = OSProfile.builtIn(.iosRegion)
        let fit = try Calibration.fit(
            logs: [try DeviceLog.read(path: csv, fences: fences)], base: base,
            setup: DeviceLog.ScoringSetup(fences: fences, frame: Self.frame, truths: [truth], maxGapSeconds: 120))
        #expect(fit.profile.delayMeanSeconds == base.delayMeanSeconds)
        #expect(fit.notFitted.map(\.key).contains("delayMean"))
        #expect(fit.fits["exitLoss"]?.samples == 1)
        #expect(fit.profile.exitLoss == 0)
    }
}

extension Replayer {
    /// Replays fixes held in memory with a worker's compiled fences, exactly as a file is
    /// replayed (fix indices in events are positions in `fixes`).
    static func replay(
        fixes: [Fix], input: TraceInput, _ compiled: CompiledFences, _ configuration: Configuration
    ) -> Outcome {
        replay(input, compiled, configuration) {
            (onFix: (Fix, XY?) throws(FencesimError) -> Void) throws(FencesimError) in
            for fix in fixes { try onFix(fix, nil) }
            return nil
        }
    }
}
