import Simulation
import Support

/// A trace's report entry in a shard's part (``Simulation/RunPart``), written so that it reads
/// back exactly: a merged report renders the bytes of a single run's.
extension AccuracyReport.TraceEntry {
    /// The entry as a part's JSON value; `failure` is the trace's error, whose exit status the
    /// merge returns as a single run does.
    public func partValue(failure: FencesimError?) -> JSONValue {
        func track(_ points: [TraceEvaluation.TrackPoint]) -> JSONValue {
            .list(points.map { .list([PartValue.double($0.longitude), PartValue.double($0.latitude), PartValue.double($0.seconds)]) })
        }
        return .orderedObject([
            ("name", .string(name)), ("path", .string(path)), ("failure", failure.map(PartValue.error) ?? .null),
            ("score", score?.partValue ?? .null), ("cleanTrack", track(cleanTrack)), ("feedTrack", track(feedTrack)),
            ("start", PartValue.time(start)), ("cleanFixes", .int(Int64(cleanFixes))), ("feedFixes", .int(Int64(feedFixes))),
            ("markers", .list(markers.map { m in
                .list([.string(m.kind.rawValue), PartValue.double(m.longitude), PartValue.double(m.latitude), .string(m.label)])
            })),
        ])
    }

    /// Reads an entry written by ``partValue(failure:)``, with the trace's error.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` located at the first value that is wrong.
    public static func read(part node: PartNode) throws(FencesimError) -> (entry: AccuracyReport.TraceEntry, failure: FencesimError?) {
        func track(_ key: String) throws(FencesimError) -> [TraceEvaluation.TrackPoint] {
            var out: [TraceEvaluation.TrackPoint] = []
            for p in try node.member(key).list {
                let xyz = try p.list
                guard xyz.count == 3 else { throw p.error("a track point is [longitude, latitude, seconds]") }
                out.append(TraceEvaluation.TrackPoint(longitude: try xyz[0].double, latitude: try xyz[1].double, seconds: try xyz[2].double))
            }
            return out
        }
        var markers: [AccuracyReport.Marker] = []
        for m in try node.member("markers").list {
            let f = try m.list
            guard f.count == 4, let kind = AccuracyReport.Marker.Kind(rawValue: try f[0].string) else {
                throw m.error("a marker is [kind, longitude, latitude, label]")
            }
            markers.append(AccuracyReport.Marker(kind: kind, longitude: try f[1].double, latitude: try f[2].double, label: try f[3].string))
        }
        let failure = try node.optional("failure")?.fencesimError
        let entry = AccuracyReport.TraceEntry(name: try node.member("name").string, path: try node.member("path").string,
                                              error: failure?.fullDescription,
                                              score: try node.optional("score").map { (s) throws(FencesimError) in try TraceScore(part: s) },
                                              cleanTrack: try track("cleanTrack"), feedTrack: try track("feedTrack"),
                                              start: try node.optional("start")?.time, cleanFixes: try node.member("cleanFixes").int,
                                              feedFixes: try node.member("feedFixes").int, markers: markers)
        return (entry, failure)
    }
}
