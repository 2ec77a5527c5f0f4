import Spatial
import Support
import Traces

/// What `inspect` reports about a trace, as text or JSON.
struct TraceInspection {
    let path: String
    /// `PATH#ID` for one trace of a file holding several, else the path.
    let name: String
    /// The trace column and how many traces the file holds, for one of several.
    let split: (column: String, count: Int)?
    let statistics: TraceStatistics
    /// Speeds in m/s: the fixes' own speeds where given, else implied by consecutive fixes.
    let speedPercentiles: [(Int, Double)]
    let speedSource: String
    let intervalMedian: Double?

    init(path: String, options: TraceReadOptions, split: TraceSplit? = nil) throws {
        self.path = path
        if let selection = options.selection, let split {
            name = path + "#" + selection.id
            self.split = (split.column, split.traces.count)
        } else {
            name = path
            self.split = nil
        }
        var reported: [Double] = []
        var implied: [Double] = []
        var intervals: [Double] = []
        var last: Fix?
        statistics = try TraceReader.read(path: path, options: options) { (fix: Fix) throws(FencesimError) in
            if let s = fix.speedMetersPerSecond, s.isFinite { reported.append(s) }
            if let last, let t0 = last.time, let t1 = fix.time, t1 > t0, last.segment == fix.segment {
                let dt = t1.seconds(since: t0)
                intervals.append(dt)
                let d = Geodesic.wgs84.distance(
                    latitude1: last.latitude, longitude1: last.longitude, latitude2: fix.latitude, longitude2: fix.longitude)
                implied.append(d / dt)
            }
            last = fix
        }
        let speeds = reported.isEmpty ? implied : reported
        speedSource = reported.isEmpty ? "implied by consecutive fixes" : "reported by the fixes"
        let sorted = speeds.sorted()
        speedPercentiles = sorted.isEmpty ? [] : [50, 90, 99, 100].map { p in (p, TraceInspection.percentile(sorted, Double(p))) }
        let sortedIntervals = intervals.sorted()
        intervalMedian = sortedIntervals.isEmpty ? nil : TraceInspection.percentile(sortedIntervals, 50)
    }

    /// Nearest-rank percentile of sorted values.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }

    var sortedDrops: [(String, Int)] { statistics.dropped.sorted { $0.key < $1.key } }
    var sortedSkips: [(String, Int)] { statistics.skipped.sorted { $0.key < $1.key } }
    var sortedWarnings: [(String, Int)] { statistics.warningCounts.sorted { $0.key < $1.key } }

    var text: String {
        let s = statistics
        var lines = ["\(name): trace (\(s.dialect))"]
        if let split { lines.append("  one of \(split.count) traces by column '\(split.column)'") }
        if s.format == .gpx {
            lines.append("  tracks: \(s.tracks), segments: \(s.segments), routes: \(s.routes), waypoints: \(s.waypoints)")
        } else if s.segments > 0 {
            lines.append("  segments: \(s.segments)")
        }
        lines.append("  points: \(s.pointsRead) (\(s.pointsWithTime) with time); fixes accepted: \(s.fixesAccepted)")
        if s.fixesWithoutTime > 0 { lines.append("  fixes without time: \(s.fixesWithoutTime)") }
        if s.zonelessTimes > 0 { lines.append("  times without a zone: \(s.zonelessTimes) (read as UTC unless --timezone says otherwise)") }
        if let span = s.timeSpan {
            lines.append(
                "  time: \(span.lowerBound) to \(span.upperBound) (\(Format.fixed(span.upperBound.seconds(since: span.lowerBound), 3)) s)")
        }
        if let median = intervalMedian { lines.append("  median interval: \(Format.fixed(median, 3)) s") }
        if let b = s.boundingBox {
            lines.append(
                "  bounding box: west \(Format.degrees(b.west)), south \(Format.degrees(b.south)), east \(Format.degrees(b.east)), north \(Format.degrees(b.north))"
            )
        }
        if !speedPercentiles.isEmpty {
            let text = speedPercentiles.map { "p\($0.0 == 100 ? "max" : String($0.0)) \(Format.fixed($0.1, 2))" }.joined(separator: ", ")
            lines.append("  speed (m/s, \(speedSource)): \(text)")
        }
        let sources = AccuracySource.allCases.compactMap { source in s.accuracySources[source].map { "\(source.rawValue) \($0)" } }
        if !sources.isEmpty { lines.append("  accuracy sources: \(sources.joined(separator: ", "))") }
        if s.timeBacksteps > 0 || s.duplicateTimes > 0 {
            lines.append("  time steps backwards: \(s.timeBacksteps), duplicate times: \(s.duplicateTimes)")
        }
        if !sortedDrops.isEmpty { lines.append("  dropped: " + sortedDrops.map { "\($0.0) \($0.1)" }.joined(separator: ", ")) }
        if !sortedSkips.isEmpty { lines.append("  skipped records: " + sortedSkips.map { "\($0.0) \($0.1)" }.joined(separator: ", ")) }
        lines.append(
            "  warnings: \(s.warningCount)"
                + (sortedWarnings.isEmpty ? "" : " (" + sortedWarnings.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")"))
        for w in s.warnings.prefix(20) { lines.append("  \(w)") }
        if s.warnings.count > 20 { lines.append("  ... \(s.warningCount - 20) more warnings") }
        return lines.joined(separator: "\n") + "\n"
    }

    var jsonLine: String {
        let s = statistics
        var pairs: [(String, JSONValue)] = [
            ("file", .string(path)), ("trace", .string(name)), ("kind", .string("trace")), ("format", .string(s.format.rawValue)),
            ("dialect", .string(s.dialect)),
            ("tracks", .int(Int64(s.tracks))), ("segments", .int(Int64(s.segments))), ("routes", .int(Int64(s.routes))),
            ("waypoints", .int(Int64(s.waypoints))), ("points", .int(Int64(s.pointsRead))),
            ("pointsWithTime", .int(Int64(s.pointsWithTime))),
            ("fixes", .int(Int64(s.fixesAccepted))), ("fixesWithoutTime", .int(Int64(s.fixesWithoutTime))),
        ]
        if let span = s.timeSpan {
            pairs.append(("timeStart", .string(span.lowerBound.description)))
            pairs.append(("timeEnd", .string(span.upperBound.description)))
        }
        if let b = s.boundingBox {
            pairs.append(("boundingBox", .list([.double(b.west), .double(b.south), .double(b.east), .double(b.north)])))
        }
        if let median = intervalMedian { pairs.append(("medianInterval", .double(median))) }
        pairs.append(("speedSource", .string(speedSource)))
        pairs.append(("speedPercentiles", .orderedObject(speedPercentiles.map { ($0.0 == 100 ? "max" : "p\($0.0)", .double($0.1)) })))
        pairs.append(
            ("accuracySources", .orderedObject(AccuracySource.allCases.map { ($0.rawValue, .int(Int64(s.accuracySources[$0] ?? 0))) })))
        pairs.append(("timeBacksteps", .int(Int64(s.timeBacksteps))))
        pairs.append(("duplicateTimes", .int(Int64(s.duplicateTimes))))
        pairs.append(("dropped", .orderedObject(sortedDrops.map { ($0.0, .int(Int64($0.1))) })))
        pairs.append(("skipped", .orderedObject(sortedSkips.map { ($0.0, .int(Int64($0.1))) })))
        pairs.append(("warningCounts", .orderedObject(sortedWarnings.map { ($0.0, .int(Int64($0.1))) })))
        pairs.append(("warnings", .list(s.warnings.map { .string($0.description) })))
        return JSONWriter.string(.orderedObject(pairs)) + "\n"
    }
}
