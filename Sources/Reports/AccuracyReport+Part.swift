import Accuracy
import Regression
import Support

/// A trace's report entry in a shard's part (``Regression/RunPart``), written so that it reads
/// back exactly: a merged report renders the bytes of a single run's.
extension AccuracyReport.TraceEntry {
    /// The entry as a part's JSON value; `failure` is the trace's error, whose exit status the
    /// merge returns as a single run does.
    public func partValue(failure: FencesimError?) -> JSONValue {
        func track(_ points: [TraceEvaluation.TrackPoint]) -> JSONValue {
            .list(
                points.map {
                    .list([
                        PartValue.double($0.longitude), PartValue.double($0.latitude), PartValue.double($0.seconds),
                        PartValue.double($0.accuracyMeters),
                    ])
                })
        }
        func poi(_ id: String?) -> JSONValue { id.map(JSONValue.string) ?? .null }
        return .orderedObject([
            ("name", .string(name)), ("path", .string(path)), ("failure", failure.map(PartValue.error) ?? .null),
            ("score", score?.partValue ?? .null), ("cleanTrack", track(cleanTrack)), ("feedTrack", track(feedTrack)),
            ("start", PartValue.time(start)), ("cleanFixes", .int(Int64(cleanFixes))), ("feedFixes", .int(Int64(feedFixes))),
            (
                "markers",
                .list(
                    markers.map { m in
                        .list([
                            .string(m.kind.rawValue), PartValue.double(m.longitude), PartValue.double(m.latitude), .string(m.label),
                            .string(m.fence),
                        ])
                    })
            ),
            (
                "places",
                .list(
                    places.map { step in
                        .list([PartValue.double(step.seconds), poi(step.current), poi(step.lastEntered), poi(step.lastExited)])
                    })
            ),
            (
                "checkIns",
                .list(
                    checkIns.zones.map { z in
                        .orderedObject([
                            ("zone", .string(z.zone)), ("stays", .int(Int64(z.stays))), ("checkIns", .int(Int64(z.checkIns))),
                            ("checkOuts", .int(Int64(z.checkOuts))), ("matched", .int(Int64(z.matched))),
                            ("unmatched", .int(Int64(z.unmatched))),
                            ("checkInLatencies", .list(z.checkInLatencies.map { PartValue.double($0) })),
                            ("dwellErrors", .list(z.dwellErrors.map { PartValue.double($0) })),
                        ])
                    })
            ),
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
                guard xyz.count == 4 else { throw p.error("a track point is [longitude, latitude, seconds, accuracy]") }
                out.append(
                    TraceEvaluation.TrackPoint(
                        longitude: try xyz[0].double, latitude: try xyz[1].double, seconds: try xyz[2].double,
                        accuracyMeters: xyz[3].isNull ? nil : try xyz[3].double))
            }
            return out
        }
        var markers: [AccuracyReport.Marker] = []
        for m in try node.member("markers").list {
            let f = try m.list
            guard f.count == 5, let kind = AccuracyReport.Marker.Kind(rawValue: try f[0].string) else {
                throw m.error("a marker is [kind, longitude, latitude, label, fence]")
            }
            var marker = AccuracyReport.Marker(kind: kind, longitude: try f[1].double, latitude: try f[2].double, label: try f[3].string)
            marker.fence = try f[4].string
            markers.append(marker)
        }
        func poi(_ n: PartNode) throws(FencesimError) -> String? { n.isNull ? nil : try n.string }
        var places: [CheckInSummary.PlacesStep] = []
        for p in try node.member("places").list {
            let f = try p.list
            guard f.count == 4 else { throw p.error("a Places step is [seconds, current, lastEntered, lastExited]") }
            places.append(
                CheckInSummary.PlacesStep(
                    seconds: try f[0].double, current: try poi(f[1]), lastEntered: try poi(f[2]), lastExited: try poi(f[3])))
        }
        var checkIns = CheckInSummary()
        for z in try node.member("checkIns").list {
            var row = CheckInSummary.Zone(zone: try z.member("zone").string)
            row.stays = try z.member("stays").int
            row.checkIns = try z.member("checkIns").int
            row.checkOuts = try z.member("checkOuts").int
            row.matched = try z.member("matched").int
            row.unmatched = try z.member("unmatched").int
            for v in try z.member("checkInLatencies").list { row.checkInLatencies.append(try v.double) }
            for v in try z.member("dwellErrors").list { row.dwellErrors.append(try v.double) }
            checkIns.zones.append(row)
        }
        let failure = try node.optional("failure")?.fencesimError
        let entry = AccuracyReport.TraceEntry(
            name: try node.member("name").string, path: try node.member("path").string,
            error: failure?.fullDescription,
            score: try node.optional("score").map { (s) throws(FencesimError) in try TraceScore(part: s) },
            cleanTrack: try track("cleanTrack"), feedTrack: try track("feedTrack"),
            start: try node.optional("start")?.time, cleanFixes: try node.member("cleanFixes").int,
            feedFixes: try node.member("feedFixes").int, markers: markers)
        var read = entry
        read.places = places
        read.checkIns = checkIns
        return (read, failure)
    }
}
