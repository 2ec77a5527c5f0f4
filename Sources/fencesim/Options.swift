import ArgumentParser
import EventPipeline
import Execution
import Fences
import Files
import Geotriggers
import Scenarios
import Spatial
import Support
import Traces

/// Options shared by every command that reads fences.
struct FenceOptions: ParsableArguments {
    @Flag(help: "Repair invalid fence polygons with GEOS make-valid (with a warning) instead of refusing them.")
    var makeValid = false

    @Flag(help: "Reproject fence files whose GeoJSON crs member is not WGS84, with PROJ, instead of refusing them.")
    var reproject = false

    @Option(
        name: .customLong("id-property"),
        help: ArgumentHelp("Take fence ids from this property; @index numbers the features (default: id).", valueName: "name"))
    var idProperty: String?

    // Numeric options take their value unconditionally, so that `--radius -5` is refused for
    // what it says rather than read as a missing value followed by an option named `-5`.
    @Option(
        name: .customLong("radius"), parsing: .unconditional,
        help: ArgumentHelp(
            "Radius in metres for Point fences without a radius property, at most 1000000 (default: none; such a fence is an error).",
            valueName: "metres"))
    var defaultRadius: Double?

    func validate() throws {
        if let r = defaultRadius, !(r.isFinite && r > 0 && r <= Fence.radiusLimitMeters) {
            throw ValidationError(
                "--radius must be a positive number of metres, at most \(JSONWriter.number(Fence.radiusLimitMeters)) (1000 km)")
        }
    }

    var readOptions: FenceReadOptions {
        FenceReadOptions(makeValid: makeValid, reproject: reproject, idProperty: idProperty, defaultRadiusMeters: defaultRadius)
    }
}

/// Options shared by every command that reads traces (SPEC §1.1).
struct TraceOptions: ParsableArguments {
    @Flag(
        help:
            "Drop bad fixes (invalid coordinates, bad times, time going backwards, duplicate times) with counted warnings instead of refusing the trace."
    )
    var lenient = false

    @Option(
        name: .customLong("trace-format"),
        help: ArgumentHelp(
            "Read traces as this format: gpx, csv, nmea or plt (default: detected from the content, then the extension).",
            valueName: "format"))
    var traceFormat: String?

    @Option(
        help: ArgumentHelp(
            "CSV column mapping, e.g. lat=Y,lon=X,time=t,speed=SPEED:kmh,trace=uid (default: detected from the header).",
            valueName: "mapping"))
    var columns: String?

    @Option(
        help: ArgumentHelp(
            "CSV delimiter: a single character, or tab (default: the most frequent of , ; tab | in the header).", valueName: "char"))
    var delimiter: String?

    @Option(
        help: ArgumentHelp(
            "Zone of CSV times written without one: an IANA name (Europe/Zurich) or an offset (+02:00) (default: UTC).", valueName: "zone"))
    var timezone: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "User equivalent range error in metres: accuracy = HDOP × UERE when a fix has HDOP but no accuracy.", valueName: "metres"))
    var uere: Double = 5

    @Option(
        name: .customLong("default-accuracy"), parsing: .unconditional,
        help: ArgumentHelp("Accuracy in metres for fixes with neither accuracy nor HDOP.", valueName: "metres"))
    var defaultAccuracy: Double = 10

    @Option(
        name: .customLong("max-speed"), parsing: .unconditional,
        help: ArgumentHelp("Implied speed (m/s) above which a jump between fixes is flagged as implausible.", valueName: "m/s"))
    var maxSpeed: Double = 100

    func validate() throws {
        guard uere.isFinite, uere > 0 else { throw ValidationError("--uere must be a positive number of metres") }
        guard defaultAccuracy.isFinite, defaultAccuracy > 0 else {
            throw ValidationError("--default-accuracy must be a positive number of metres")
        }
        guard maxSpeed.isFinite, maxSpeed > 0 else { throw ValidationError("--max-speed must be a positive speed in m/s") }
        if let traceFormat, TraceFormat(rawValue: traceFormat) == nil {
            throw ValidationError("--trace-format must be one of \(TraceFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let delimiter, delimiter != "tab", delimiter.utf8.count != 1 {
            throw ValidationError("--delimiter must be a single character or \"tab\"")
        }
        if let timezone, LocalTimeZone(parsing: timezone) == nil {
            throw ValidationError(
                "--timezone must be UTC, an offset such as +02:00, or an IANA zone such as Europe/Zurich, not \"\(timezone)\"")
        }
    }

    /// The reader options; a bad `--columns` mapping is a usage error. A replay (`replaying`)
    /// needs a time for every fix: a CSV without a time column is refused at its header.
    func readOptions(replaying: Bool = true) throws -> TraceReadOptions {
        var csv = CSVOptions()
        if let columns {
            do {
                csv.mapping = try CSVColumnMapping(parsing: columns)
            } catch {
                throw ValidationError("--columns: \(error.message)")
            }
        }
        if let delimiter { csv.delimiter = delimiter == "tab" ? 9 : delimiter.utf8.first }
        var options = TraceReadOptions(
            format: traceFormat.flatMap(TraceFormat.init(rawValue:)), lenient: lenient, uere: uere,
            defaultAccuracy: defaultAccuracy, maximumSpeed: maxSpeed, csv: csv)
        options.requiresTime = replaying
        options.timeZone = timezone.flatMap(LocalTimeZone.init(parsing:))
        return options
    }

    /// The note said once per command when times without a zone were read as UTC (or as local
    /// times of `--timezone`), located at the first trace that has them.
    static func zonelessNote(_ outcomes: [Replayer.Outcome], timeZone: LocalTimeZone?) -> String? {
        let count = outcomes.reduce(0) { $0 + ($1.readStatistics?.zonelessTimes ?? 0) }
        guard count > 0, let first = outcomes.first(where: { ($0.readStatistics?.zonelessTimes ?? 0) > 0 }) else { return nil }
        let traces = outcomes.count { ($0.readStatistics?.zonelessTimes ?? 0) > 0 }
        let times = "\(count) time\(count == 1 ? "" : "s") without a zone" + (traces > 1 ? " in \(traces) traces" : "")
        if let timeZone {
            return "\(first.input.path): note: \(times) read as local times of \(timeZone)"
        }
        return
            "\(first.input.path): note: \(times) read as UTC; if they are local times, say where with --timezone (e.g. --timezone Europe/Zurich or --timezone +02:00)"
    }
}

/// The geotrigger settings of SPEC §2 as command-line options (`replay`).
struct GeotriggerOptions: ParsableArguments {
    @Option(help: "Feed geometry: point or accuracy, a disc of the fix's accuracy (default: point, or the scenario's).")
    var feed: String?
    @Option(help: "intersects, contains or contains-intersects (default: intersects).")
    var relationship: String?
    // Numeric options take their value unconditionally: `--buffer -5` is a negative buffer, not
    // a missing value followed by an option named `-5`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Metres added around every fence (negative shrinks), from -1000000 to 1000000 (default: 0, or the fence's buffer).",
            valueName: "metres"))
    var buffer: Double?
    @Option(help: "Notifications to write: enter, exit or enter-or-exit (default: enter-or-exit).")
    var notify: String?
    @Option(name: .customLong("initial-trigger"), help: "enter (a first fix inside notifies) or none (default: enter).")
    var initialTrigger: String?
    @Option(
        help: ArgumentHelp(
            "Boolean expression over fix fields; fixes failing it are skipped, e.g. \"accuracy <= 50\" (default: none).",
            valueName: "expression"))
    var filter: String?
    @Option(
        name: .customLong("fence-changes"),
        help: ArgumentHelp(
            "A JSON Lines file of fences added, removed and replaced in trace time, as a scenario's fenceChanges names (default: none).",
            valueName: "file"))
    var fenceChanges: String?
    @Option(
        name: .customLong("fences-where"),
        help: ArgumentHelp(
            "Watch only the fences this expression over their properties selects, e.g. \"brand = 'acme' and floor >= 2\" (default: every fence).",
            valueName: "expression"))
    var fencesWhere: String?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seconds continuously inside before a dwell event (default: no dwell events).", valueName: "seconds"))
    var dwell: Double?
    @Option(
        name: .customLong("enter-after"), parsing: .unconditional,
        help: ArgumentHelp("Debounce before an enter is confirmed: seconds, or \"N fixes\" (default: 0).", valueName: "threshold"))
    var enterAfter: String?
    @Option(
        name: .customLong("exit-after"), parsing: .unconditional,
        help: ArgumentHelp("Debounce before an exit is confirmed: seconds, or \"N fixes\" (default: 0).", valueName: "threshold"))
    var exitAfter: String?
    @Option(
        name: .customLong("max-gap"), parsing: .unconditional,
        help: ArgumentHelp("Seconds between fixes beyond which a new segment starts (default: 120).", valueName: "seconds"))
    var maxGap: Double?
    @Option(
        name: .customLong("gap-policy"),
        help: "Fences crossed between two fixes: report (passthrough events), interpolate (enter/exit pairs) or ignore (default: report).")
    var gapPolicy: String?
    @Option(
        help:
            "none, or intervals: an inside line for each stretch inside a fence, from its change in to its change out or the trace's end (default: none)."
    )
    var level: String?
    @Option(
        help: ArgumentHelp("Message template, e.g. \"Entered {fence.name} at {fix.speed} m/s\" (default: none).", valueName: "template"))
    var message: String?

    /// Refuses bad values while parsing, so that the usage line printed names the command.
    func validate() throws {
        _ = try overrides()
    }

    /// `text` parsed as the expression of `--option`, or a usage error quoting it with a caret
    /// under the column at fault (a long expression only around that column).
    static func expression(_ text: String, over subject: FilterExpression.Subject, option: String) throws -> FilterExpression {
        do {
            return try FilterExpression(text, over: subject)
        } catch {
            let characters = Array(text)
            let start = characters.count > 100 ? max(0, min(error.column - 1, characters.count) - 50) : 0
            let end = min(characters.count, start + 100)
            let shown = (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
            let caret = error.column - 1 - start + (start > 0 ? 1 : 0)
            throw ValidationError("--\(option): \(error.description)\n  \(shown)\n  \(String(repeating: " ", count: max(0, caret)))^")
        }
    }

    /// The fences at `path` as `options` read them, with `--fence-changes` applied, less those
    /// `--fences-where` leaves out (as a scenario's fences are read: ``Scenarios/Scenario/readFences(options:)``).
    func fences(path: String, options: FenceReadOptions, overrides: GeotriggerOverrides) throws(FencesimError) -> FenceSet {
        var all = try FenceReader.read(path: path, options: options)
        if let fenceChanges {
            guard FileIO.exists(fenceChanges) else {
                throw FencesimError(
                    .missingInput, "fence changes file \(fenceChanges) does not exist", at: SourceLocation(file: fenceChanges))
            }
            all = try all.applying(try FenceChanges.read(path: fenceChanges, options: options, fences: all))
        }
        return overrides.fencesWhere.map(all.selecting) ?? all
    }

    func overrides() throws -> GeotriggerOverrides {
        var o = GeotriggerOverrides()
        func choice<T: RawRepresentable & CaseIterable>(_ value: String?, _ option: String) throws -> T? where T.RawValue == String {
            guard let value else { return nil }
            guard let v = T(rawValue: value) else {
                throw ValidationError("--\(option) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(value)\"")
            }
            return v
        }
        o.feed = try choice(feed, "feed")
        o.relationship = try choice(relationship, "relationship")
        o.notify = try choice(notify, "notify")
        o.initialTrigger = try choice(initialTrigger, "initial-trigger")
        o.gapPolicy = try choice(gapPolicy, "gap-policy")
        o.level = try choice(level, "level")
        if let buffer {
            guard buffer.isFinite, abs(buffer) <= GeotriggerSettings.bufferLimitMeters else {
                throw ValidationError(
                    "--buffer must be a number of metres from -\(JSONWriter.number(GeotriggerSettings.bufferLimitMeters)) to \(JSONWriter.number(GeotriggerSettings.bufferLimitMeters)) (1000 km)"
                )
            }
            o.bufferMeters = buffer
        }
        if let dwell {
            guard dwell.isFinite, dwell >= 0 else { throw ValidationError("--dwell must be 0 or more seconds") }
            o.dwellSeconds = .some(dwell)
        }
        if let maxGap {
            guard maxGap.isFinite, maxGap > 0, maxGap <= GeotriggerSettings.maxGapLimitSeconds else {
                throw ValidationError("--max-gap must be a positive number of seconds, at most 100000000 (about three years)")
            }
            o.maxGapSeconds = maxGap
        }
        for (text, option) in [(enterAfter, "enter-after"), (exitAfter, "exit-after")] {
            guard let text else { continue }
            guard let t = GeotriggerOverrides.parseThreshold(text) else {
                throw ValidationError("--\(option) must be seconds or \"N fixes\", not \"\(text)\"")
            }
            if option == "enter-after" { o.enterAfter = t } else { o.exitAfter = t }
        }
        if let filter { o.filter = try GeotriggerOptions.expression(filter, over: .fixes, option: "filter") }
        if let fencesWhere { o.fencesWhere = try GeotriggerOptions.expression(fencesWhere, over: .fences, option: "fences-where") }
        if let message {
            do {
                o.message = try MessageTemplate(message)
            } catch {
                throw ValidationError("--message: \(error.description)")
            }
        }
        return o
    }
}

/// Where and how an event log is written.
struct OutputOptions: ParsableArguments {
    @Option(help: "Event log format: jsonl, csv, geojson or table.")
    var format: String = "jsonl"

    // Unconditional, so that `--workers -1` is refused with the reason below.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Worker threads for several traces (default: one per core). Output does not depend on it.", valueName: "n"))
    var workers: Int = 0

    func validate() throws {
        guard EventLogFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be one of \(EventLogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try OutputOptions.validate(workers: workers)
    }

    var logFormat: EventLogFormat { EventLogFormat(rawValue: format) ?? .jsonl }

    /// The most worker threads `--workers` may ask for. Each worker holds state of its own (one
    /// slot per worker is made before any work): a billion was a hang and `Int.max` a heap
    /// corruption, and no machine has more cores than this.
    static let maximumWorkers = 1_024

    /// Throws unless `workers` is 0 (one per core) to ``maximumWorkers``.
    static func validate(workers: Int) throws {
        guard workers >= 0, workers <= maximumWorkers else {
            throw ValidationError("--workers must be 0 (one per core) to \(maximumWorkers), not \(workers)")
        }
    }
}

/// The `--crs` option's value checked, and the warning when a chosen frame distorts distances
/// (the frame itself is chosen by ``Scenarios/SettingsResolver/frame(given:fences:location:remedy:)``).
enum FrameChoice {
    /// Says on standard error when a frame the user chose (`given`) changes distances over the
    /// fences and the traces read by more than the automatic frame allows (see
    /// ``Scenarios/FrameDistortion``).
    static func warnIfDistorting(
        _ given: FrameDefinition?, source: String, at location: SourceLocation, fences: FenceSet,
        traces: [TraceStatistics?]
    ) {
        distortionCheck(given, source: source, at: location, fences: fences)?.say(traces: traces)
    }

    /// ``warnIfDistorting(_:source:at:fences:traces:)`` in two steps: the fences are measured
    /// now, and ``Scenarios/FrameDistortion/Check/say(traces:)`` adds the traces read and says
    /// the warning; `nil` when the frame is automatic.
    static func distortionCheck(
        _ given: FrameDefinition?, source: String, at location: SourceLocation,
        fences: FenceSet
    ) -> FrameDistortion.Check? {
        given.map { FrameDistortion.Check($0, fences: fences, source: source, at: location) }
    }

    /// ``distortionCheck(_:source:at:fences:)`` worked out on a thread of its own while the fences
    /// are indexed (the extent of 100,000 fences took 15 ms before the index could start); `nil`
    /// without a chosen frame. Its value is read once the traces are.
    static func distortionCheckBeside(
        _ given: FrameDefinition?, source: String, at location: SourceLocation,
        fences: FenceSet
    ) -> Background<FrameDistortion.Check?>? {
        guard given != nil else { return nil }
        return Background { distortionCheck(given, source: source, at: location, fences: fences) }
    }

    /// Where a scenario's `crs:` is, for messages about it.
    static func location(ofCRSIn scenario: Scenario) -> SourceLocation {
        scenario.root["crs"]?.location ?? SourceLocation(file: scenario.file)
    }

    /// Reads a `--crs` value, checking PROJ understands it.
    static func parse(_ text: String) throws -> FrameDefinition {
        let definition = FrameDefinition(parsing: text)
        do {
            _ = try MetricFrame(definition)
        } catch {
            throw ValidationError("--crs: \(error.message)")
        }
        return definition
    }
}

extension FrameDistortion.Check {
    /// Says the warning over the fences and the traces read, if there is one, on standard error.
    func say(traces: [TraceStatistics?]) {
        if let warning = warning(traces: traces) { Terminal.err(warning.description) }
    }
}
