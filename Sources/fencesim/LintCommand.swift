import ArgumentParser
import Fences
import Foundation
import Geotriggers
import Scenarios
import Spatial
import Support
import Traces

/// `fencesim lint FENCES`: checks fence sizing without a trace (SPEC §6.4) and exits 1 when a
/// finding is an error.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Check fence sizing without a trace: width against speed × interval, tiny fences, overlaps within a zone, invalid geometry.",
        discussion: """
            Errors: invalid geometry, a fence narrower than speed × interval (GEOS minimum width; \
            2 × radius for circles), a fence a negative buffer removes. Warnings: circles under \
            5 m radius, polygons under 70 m² (Bluedot's minimums), two fences of one zone that \
            overlap. With --traces, each trace's motion is its 90th-percentile step speed times \
            its 90th-percentile fix interval, and every fence must be wider than the largest. \
            With --scenario, the scenario's fences, buffers, crs and (unless --speed or --traces \
            is given) traces are used. Exit codes: 0 no error, 1 an error found, 64 usage, \
            65 bad input, 66 input missing.
            """
                + HelpExamples.text(
                    "fencesim lint traces/demo-fences.geojson --speed 20 --interval 5", "fencesim lint --scenario scenarios/demo.yaml",
                    "fencesim lint stores.geojson --traces drives/*.gpx --json")
    )

    @Argument(help: "Fence file (GeoJSON); optional with --scenario.")
    var fences: String?

    // Numeric options take their value unconditionally: `--buffer -5` is a negative buffer, not
    // a missing value followed by an option named `-5`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Speed the fences must be sized for, m/s, with --interval (default: the traces').", valueName: "m/s"))
    var speed: Double?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seconds between fixes, with --speed (default: the traces').", valueName: "seconds"))
    var interval: Double?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Traces whose observed speeds and intervals the fences must be sized for (default: the scenario's).", valueName: "trace"))
    var traces: [String] = []

    @Option(help: ArgumentHelp("Take fences, buffers, crs and traces from this scenario (default: none).", valueName: "scenario"))
    var scenario: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Buffer in metres for fences without a buffer property (as geotrigger.buffer), from -1000000 to 1000000 (default: 0, or the scenario's).",
            valueName: "metres"))
    var buffer: Double?

    @Option(help: ArgumentHelp("Metric frame: a PROJ string or EPSG code (default: automatic around the fences).", valueName: "crs"))
    var crs: String?

    @Option(
        name: .customLong("max-gap"), parsing: .unconditional,
        help: ArgumentHelp(
            "With --traces: steps longer than this many seconds are gaps, not motion (default: 120, or the scenario's maxGap).",
            valueName: "seconds"))
    var maxGap: Double?

    @Flag(help: "Write the findings as JSON to standard output.")
    var json = false

    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var fenceOptions: FenceOptions

    func validate() throws {
        if fences == nil, scenario == nil { throw ValidationError("give a fence file, or --scenario") }
        if fences != nil, scenario != nil { throw ValidationError("give a fence file or --scenario, not both") }
        if (speed == nil) != (interval == nil) { throw ValidationError("--speed and --interval go together") }
        if let speed, !(speed.isFinite && speed > 0) { throw ValidationError("--speed must be a positive number of m/s") }
        if let interval, !(interval.isFinite && interval > 0) { throw ValidationError("--interval must be a positive number of seconds") }
        if speed != nil, !traces.isEmpty { throw ValidationError("give --speed and --interval, or --traces, not both") }
        if let buffer, !(buffer.isFinite && abs(buffer) <= GeotriggerSettings.bufferLimitMeters) {
            throw ValidationError(
                "--buffer must be a number of metres from -\(JSONWriter.number(GeotriggerSettings.bufferLimitMeters)) to \(JSONWriter.number(GeotriggerSettings.bufferLimitMeters)) (1000 km)"
            )
        }
        if let maxGap, !(maxGap.isFinite && maxGap > 0) { throw ValidationError("--max-gap must be a positive number of seconds") }
    }

    func run() throws {
        let readOptions = try traceOptions.readOptions()
        let frameOption = try crs.map(FrameChoice.parse)
        var fenceReadOptions = fenceOptions.readOptions
        // Invalid geometry is a finding here, not a reason to stop: read it repaired and let the
        // lint report it (an error unless the runs repair it too, with --make-valid).
        fenceReadOptions.makeValid = true
        try Terminal.run {
            var options = FenceLint.Options(
                bufferMeters: buffer ?? 0, frame: frameOption,
                invalidGeometryIsRepaired: fenceOptions.makeValid)
            let fenceSet: FenceSet
            var traceInputs = TraceInput.splittingFiles(traces.map { TraceInput(path: $0) }, options: readOptions)
            var maxGapSeconds = maxGap ?? GeotriggerSettings().maxGapSeconds
            var crsSource = ("--crs", SourceLocation(file: "--crs"))
            if let scenarioPath = scenario {
                var scenario = try ScenarioReader.read(path: scenarioPath, splitting: readOptions)
                if let buffer {
                    scenario.geotrigger.bufferMeters = buffer
                    for k in scenario.geotriggers.indices { scenario.geotriggers[k].overrides.bufferMeters = buffer }
                }
                let watched = try scenario.readFences(options: fenceReadOptions)
                // A fence several geotriggers watch is linted once, with its first geotrigger's buffer.
                fenceSet = watched.watchedOnce
                let settings = try scenario.settings(for: watched)
                options.fenceBuffers = settings[..<fenceSet.fences.count].map(\.bufferMeters)
                if options.frame == nil {
                    options.frame = scenario.crs
                    crsSource = ("crs", FrameChoice.location(ofCRSIn: scenario))
                }
                if traceInputs.isEmpty, speed == nil { traceInputs = scenario.traces }
                if maxGap == nil, let g = scenario.geotrigger.maxGapSeconds { maxGapSeconds = g }
            } else {
                fenceSet = try FenceReader.read(path: fences ?? "", options: fenceReadOptions)
            }
            for w in fenceSet.warnings where w.kind != "make-valid" { Terminal.err(w.description) }
            FrameChoice.warnIfDistorting(options.frame, source: crsSource.0, at: crsSource.1, fences: fenceSet, traces: [])
            if let speed, let interval {
                options.motions = [LintMotion(speedMetersPerSecond: speed, intervalSeconds: interval, source: "--speed/--interval")]
            }
            for input in traceInputs {
                options.motions.append(try TraceMotion.measure(input, options: readOptions, maxGapSeconds: maxGapSeconds))
            }
            let findings = try FenceLint.lint(fenceSet, options: options)
            let errors = findings.count { $0.severity == .error }
            let warnings = findings.count { $0.severity == .warning }
            if json {
                Terminal.out(
                    LintCommand.json(file: fenceSet.file, fences: fenceSet.fences.count, motions: options.motions, findings: findings))
            } else {
                Terminal.out(findings.map { $0.description + "\n" }.joined())
                for m in options.motions where m.source != "--speed/--interval" {
                    Terminal.err(
                        "note: \(m.source): \(LintCommand.number(m.speedMetersPerSecond)) m/s every \(LintCommand.number(m.intervalSeconds)) s, \(LintCommand.number(m.gapMeters)) m between fixes"
                    )
                }
                if options.motions.isEmpty {
                    Terminal.err("note: no --speed/--interval or --traces: widths were not checked")
                }
                Terminal.err(
                    "\(fenceSet.fences.count) fences: \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
                )
            }
            if errors > 0 { throw ExitCode(1) }
        }
    }

    /// A number rounded to the millimetre for messages.
    static func number(_ value: Double) -> String {
        JSONWriter.number((value * 1000).rounded() / 1000)
    }

    /// The `--json` document: `file`, `fences`, `motions` (`source`, `speed`, `interval`, `gap`),
    /// `errors`, `warnings`, then `findings` (``Fences/LintFinding/json``).
    static func json(file: String, fences: Int, motions: [LintMotion], findings: [LintFinding]) -> String {
        let document = JSONValue.orderedObject([
            ("file", .string(file)),
            ("fences", .int(Int64(fences))),
            (
                "motions",
                .list(
                    motions.map { m in
                        .orderedObject([
                            ("source", .string(m.source)), ("speed", .meters(m.speedMetersPerSecond)),
                            ("interval", .meters(m.intervalSeconds)), ("gap", .meters(m.gapMeters)),
                        ])
                    })
            ),
            ("errors", .int(Int64(findings.count { $0.severity == .error }))),
            ("warnings", .int(Int64(findings.count { $0.severity == .warning }))),
            ("findings", .list(findings.map(\.json))),
        ])
        return JSONWriter.string(document) + "\n"
    }
}
