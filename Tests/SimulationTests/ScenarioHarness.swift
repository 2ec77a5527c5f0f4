import Fences
import Foundation
import Spatial
import Support
import Testing

@testable import EventPipeline
@testable import Scenarios

/// Runs a scenario file as `fencesim run` does (scenario, fences, pipeline, settings, frame,
/// replay), for pipeline tests that look at the events themselves.
enum ScenarioHarness {
    struct Run {
        var scenario: Scenario
        var pipeline: Pipeline
        var outcomes: [Replayer.Outcome]
        var events: [LogEvent]
        var jsonl: String { EventLogFormat.jsonl.render(events) }
    }

    static func run(_ path: String, workers: Int = 1, places: PlacesSettings? = nil, placesStates: [String?] = []) throws -> Run {
        let scenario = try ScenarioReader.read(path: path)
        let fences = try FenceReader.read(path: scenario.fencesPath)
        let pipeline = try Pipeline(scenario: scenario, fences: fences, places: places)
        let settings = try SettingsResolver.resolve(
            fences, global: scenario.geotrigger, zones: scenario.zones,
            requireDeclaredZones: !scenario.zones.isEmpty)
        let frame = try MetricFrame.automaticDefinition(covering: try #require(fences.boundingBox)).definition
        let placesSettings = places ?? scenario.places ?? PlacesSettings()
        var states = try PlacesStateFiles.load([], settings: placesSettings)
        for path in placesStates {
            if let path { states += try PlacesStateFiles.load([path], settings: placesSettings) } else { states.append(nil) }
        }
        let replayer = Replayer(
            Replayer.Configuration(fences: fences, frame: frame, settings: settings, workers: workers, pipeline: pipeline))
        let outcomes = try replayer.run(scenario.traces, placesStates: states)
        for o in outcomes {
            if let error = o.error { throw error }
        }
        return Run(scenario: scenario, pipeline: pipeline, outcomes: outcomes, events: Replayer.merge(outcomes))
    }

    /// A scenario folder: `fences.geojson`, traces by name, and `s.yaml`.
    static func folder(fences: String, traces: [String: String], yaml: String) throws -> (dir: URL, scenario: String) {
        let dir = try Paths.temporaryDirectory()
        try Paths.write(fences, "fences.geojson", in: dir)
        for (name, text) in traces.sorted(by: { $0.key < $1.key }) { try Paths.write(text, name, in: dir) }
        return (dir, try Paths.write(yaml, "s.yaml", in: dir))
    }

    /// A CSV trace walking east along latitude `latitude` from `fromLongitude`, one fix every
    /// `interval` seconds, `count` fixes, `stepDegrees` of longitude per fix (negative: west).
    static func walk(
        from fromLongitude: Double, latitude: Double = 47.39, step stepDegrees: Double, count: Int,
        start: String = "2026-01-01T09:00:00Z", interval: Double = 10
    ) -> String {
        let t0 = (try? Timestamp.parseISO8601(start).get()) ?? Timestamp(seconds: 0)
        var lines = ["time,lat,lon,accuracy"]
        for k in 0..<count {
            lines.append(
                "\(t0.adding(seconds: Double(k) * interval).iso8601(fractionDigits: 3)),\(latitude),\(fromLongitude + Double(k) * stepDegrees),5"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A CSV trace from explicit (seconds after `start`, longitude) points at `latitude`.
    static func path(_ points: [(Double, Double)], latitude: Double = 47.39, start: String = "2026-01-01T09:00:00Z") -> String {
        let t0 = (try? Timestamp.parseISO8601(start).get()) ?? Timestamp(seconds: 0)
        var lines = ["time,lat,lon,accuracy"]
        for (t, lon) in points {
            lines.append("\(t0.adding(seconds: t).iso8601(fractionDigits: 3)),\(latitude),\(lon),5")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A circle fence feature.
    static func circle(_ id: String, longitude: Double, latitude: Double = 47.39, radius: Double, extra: String = "") -> String {
        #"{"type": "Feature", "properties": {"id": "\#(id)", "radius": \#(radius)\#(extra)}, "geometry": {"type": "Point", "coordinates": [\#(longitude), \#(latitude)]}}"#
    }

    static func collection(_ features: [String]) -> String {
        "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    /// A field as plain text (strings unquoted, null as "null").
    static func text(_ event: LogEvent, _ key: String) -> String {
        guard let v = event.field(key) else { return "-" }
        if case .string(let s) = v { return s }
        return JSONWriter.string(v)
    }
}
