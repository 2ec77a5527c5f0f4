import ArgumentParser
import Files
import Foundation
import Spatial
import Support
import Traces

/// `fencesim synth ROUTE --speed M/S --interval S`: a timed trace from a route.
struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a trace from a route: a GeoJSON LineString or a GPX route or track.",
        discussion: """
            The device moves along the route at --speed, reporting a fix every --interval \
            seconds from --start, with optional Gaussian position noise (--noise metres, seeded: \
            the same seed gives the same trace on every machine).
            """
                + HelpExamples.text(
                    "fencesim synth traces/demo-route.geojson --speed 11 --interval 2 --noise 2 --seed 7 --out drive.gpx",
                    "fencesim synth traces/demo-route.geojson --speed 30 --interval 5 --pause 2:90 --format csv")
    )

    @Argument(help: "Route file: GeoJSON (the first LineString) or GPX (route points, else track points).")
    var route: String

    // Numeric options take their value unconditionally, so that `--speed -5` is refused for
    // what it says rather than read as a missing value followed by an option named `-5`.
    @Option(parsing: .unconditional, help: ArgumentHelp("Speed along the route, m/s.", valueName: "m/s"))
    var speed: Double

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds between fixes.", valueName: "seconds"))
    var interval: Double

    @Option(parsing: .unconditional, help: ArgumentHelp("Standard deviation of position noise, metres.", valueName: "metres"))
    var noise: Double = 0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Accuracy each fix reports, metres (default: 5, or twice the noise).", valueName: "metres"))
    var accuracy: Double?

    @Option(help: ArgumentHelp("Seed of the noise generator.", valueName: "n"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Time of the first fix (ISO-8601).", valueName: "time"))
    var start: String = "2026-01-01T00:00:00Z"

    @Option(
        name: .customLong("pause"),
        help: ArgumentHelp(
            "Stop at a route vertex: VERTEX:SECONDS (0-based vertex index); repeatable (default: no stops).", valueName: "vertex:seconds"))
    var pauses: [String] = []

    @Option(help: "Output format: gpx or csv.")
    var format: String = "gpx"

    @Option(help: ArgumentHelp("Write the trace to this file, atomically (default: standard output).", valueName: "file"))
    var out: String?

    @Option(
        name: .customLong("max-fixes"), parsing: .unconditional,
        help: ArgumentHelp("Refuse to make more fixes than this (default 10000000, about 2 GB of GPX).", valueName: "n"))
    var maxFixes: Int = Synth.defaultMaxFixes

    /// The most fixes `synth` makes unless `--max-fixes` says otherwise: ten million, about 2 GB
    /// of GPX and minutes of work (the fixes are streamed, so memory does not grow with them).
    static let defaultMaxFixes = 10_000_000

    func validate() throws {
        guard speed.isFinite, speed > 0 else { throw ValidationError("--speed must be a positive number of m/s") }
        guard interval.isFinite, interval > 0 else { throw ValidationError("--interval must be a positive number of seconds") }
        guard noise.isFinite, noise >= 0 else { throw ValidationError("--noise must be 0 or more metres") }
        if let accuracy, !(accuracy.isFinite && accuracy > 0) { throw ValidationError("--accuracy must be a positive number of metres") }
        guard TraceWriter.Format(rawValue: format) != nil else { throw ValidationError("--format must be gpx or csv") }
        guard maxFixes > 0 else { throw ValidationError("--max-fixes must be 1 or more") }
        guard case .success = Timestamp.parseISO8601(start) else {
            throw ValidationError("--start must be an ISO-8601 time, e.g. 2026-01-01T00:00:00Z")
        }
    }

    func pauseTable() throws -> [Int: Double] {
        var table: [Int: Double] = [:]
        for p in pauses {
            let parts = p.split(separator: ":")
            guard parts.count == 2, let vertex = Int(parts[0]), vertex >= 0, let seconds = Double(parts[1]), seconds.isFinite, seconds >= 0
            else {
                throw ValidationError("--pause must be VERTEX:SECONDS, e.g. 3:120, not \"\(p)\"")
            }
            table[vertex, default: 0] += seconds
        }
        return table
    }

    func run() throws {
        let pauseTable = try pauseTable()
        try Terminal.run {
            let points = try RouteFile.read(route)
            guard case .success(let startTime) = Timestamp.parseISO8601(start) else { return }
            let synthesizer = RouteSynthesizer(
                speed: speed, interval: interval, start: startTime, noiseMeters: noise,
                accuracyMeters: accuracy ?? max(5, 2 * noise), seed: seed, pauses: pauseTable)
            if let bad = pauseTable.keys.first(where: { $0 >= points.count }) {
                throw FencesimError(
                    .usage, "--pause names vertex \(bad), but the route has \(points.count) vertices (0 to \(points.count - 1))",
                    at: SourceLocation(file: route))
            }
            let count = synthesizer.fixCount(along: points)
            guard count <= Double(maxFixes) else {
                throw FencesimError(
                    .usage,
                    "this route at --speed \(speed) m/s with a fix every --interval \(interval) s would make \(JSONWriter.number(count.rounded())) fixes, more than --max-fixes \(maxFixes); raise --speed or --interval, or --max-fixes"
                )
            }
            // Past the last time fencesim reads, a trace could not be read back, and its times
            // would overflow the 64-bit count they are kept in.
            let duration = synthesizer.duration(along: points)
            guard startTime.epochSeconds + duration <= Timestamp.latest.epochSeconds else {
                throw FencesimError(
                    .usage,
                    "this route at --speed \(speed) m/s\(pauseTable.isEmpty ? "" : " with its --pause stops") takes \(JSONWriter.number(duration)) s, so the trace would end after \(Timestamp.latest), the last time fencesim reads; raise --speed, shorten the pauses or move --start"
                )
            }
            let name = ((route as NSString).lastPathComponent as NSString).deletingPathExtension
            let traceFormat = TraceWriter.Format(rawValue: format) ?? .gpx
            // Each fix is written as it is made: memory does not grow with the trace.
            func write(to sink: ByteSink) throws(FencesimError) {
                var writer = try TraceStreamWriter(format: traceFormat, name: name, to: sink)
                try synthesizer.forEachFix(along: points) { (fix) throws(FencesimError) in try writer.write(fix) }
                try writer.finish()
            }
            if let out {
                let file = try AtomicFileWriter(path: out)
                do throws(FencesimError) {
                    try write(to: file)
                    try file.commit()
                } catch {
                    file.discard()
                    throw error
                }
            } else {
                try write(to: StandardOutput.shared)
            }
        }
    }
}

/// Reads a route's positions (WGS84, x = longitude).
enum RouteFile {
    static func read(_ path: String) throws(FencesimError) -> [XY] {
        let lower = path.lowercased()
        if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") {
            let source = SourceText(file: path, bytes: try FileIO.readAll(path))
            let root = try JSONParser.parse(source)
            guard let line = firstLineString(root) else {
                throw FencesimError(
                    .badData, "no LineString geometry in the file: a route is a GeoJSON LineString",
                    at: source.location(ofOffset: root.offset))
            }
            let shape = try Shape(geoJSON: line, source: source)
            guard case .lineString(let points) = shape else {
                throw FencesimError(.badData, "the route is not a LineString", at: source.location(ofOffset: line.offset))
            }
            for p in points where !((-180...180).contains(p.x) && (-90...90).contains(p.y)) {
                throw FencesimError(
                    .badData, "route position (\(p.x), \(p.y)) is not a WGS84 longitude/latitude",
                    at: source.location(ofOffset: line.offset))
            }
            return points
        }
        var points: [XY] = []
        _ = try TraceReader.read(path: path, options: TraceReadOptions(lenient: true)) { (fix: Fix) throws(FencesimError) in
            points.append(XY(longitude: fix.longitude, latitude: fix.latitude))
        }
        guard points.count >= 2 else {
            throw FencesimError(.badData, "the route has \(points.count) points; it needs at least 2", at: SourceLocation(file: path))
        }
        return points
    }

    /// The first LineString geometry: a bare geometry, a Feature's, or a FeatureCollection's.
    static func firstLineString(_ node: JSONNode) -> JSONNode? {
        switch node.member("type")?.string {
        case "LineString": return node
        case "Feature": return node.member("geometry").flatMap(firstLineString)
        case "FeatureCollection": return node.member("features")?.elements?.lazy.compactMap(firstLineString).first
        default: return nil
        }
    }
}
