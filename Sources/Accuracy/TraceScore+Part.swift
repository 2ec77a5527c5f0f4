import Support

/// A trace's score in a shard's part (``RunPart``), written so that it reads back exactly:
/// merged reports and sweeps score from the same values as a single run.
extension TraceScore {
    /// The score as a part's JSON value.
    public var partValue: JSONValue {
        .orderedObject([
            ("trace", .string(trace)), ("duration", PartValue.double(durationSeconds)),
            ("visits", .list(visits.map(\.partValue))),
            (
                "falseDetections",
                .list(
                    falseDetections.map { d in
                        .orderedObject([("trace", .string(d.trace)), ("zone", .string(d.zone)), ("visit", d.visit.partValue)])
                    })
            ),
            ("detections", .list(detections.map(\.partValue))),
            ("counts", .list([passthroughs, lostEnters, lostExits, orphanExits].map { .int(Int64($0)) })),
        ])
    }

    /// Reads a score written by ``partValue``.
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` located at the first value that is wrong.
    public init(part node: PartNode) throws(FencesimError) {
        let counts = try node.member("counts").list.map { (n) throws(FencesimError) in try n.int }
        guard counts.count == 4 else { throw try node.member("counts").error("expected 4 counts") }
        var falseDetections: [FalseDetection] = []
        for d in try node.member("falseDetections").list {
            falseDetections.append(
                FalseDetection(
                    trace: try d.member("trace").string, zone: try d.member("zone").string,
                    visit: try DetectedVisit(part: try d.member("visit"))))
        }
        self.init(
            trace: try node.member("trace").string, durationSeconds: try node.member("duration").double,
            visits: try node.member("visits").list.map { (v) throws(FencesimError) in try VisitScore(part: v) },
            falseDetections: falseDetections,
            detections: try node.member("detections").list.map { (v) throws(FencesimError) in try DetectedVisit(part: v) },
            passthroughs: counts[0], lostEnters: counts[1], lostExits: counts[2], orphanExits: counts[3])
    }
}

extension VisitScore {
    var partValue: JSONValue {
        .orderedObject([
            ("trace", .string(trace)), ("zone", .string(zone)), ("truth", truth.partValue), ("match", match?.partValue ?? .null),
            ("detectedExit", PartValue.time(detectedExit)), ("enterLatency", PartValue.double(enterLatency)),
            ("exitLatency", PartValue.double(exitLatency)), ("dwellError", PartValue.double(dwellError)),
            ("flaps", .int(Int64(flaps))), ("falseExits", .int(Int64(falseExits))), ("speedBand", .string(speedBand)),
            ("missReason", missReason.map { .string($0.rawValue) } ?? .null),
        ])
    }

    init(part node: PartNode) throws(FencesimError) {
        var reason: MissReason?
        if let r = node.optional("missReason") {
            guard let known = MissReason(rawValue: try r.string) else { throw r.error("unknown miss reason") }
            reason = known
        }
        self.init(
            trace: try node.member("trace").string, zone: try node.member("zone").string,
            truth: try TruthVisit(part: try node.member("truth")),
            match: try node.optional("match").map { (m) throws(FencesimError) in try DetectedVisit(part: m) },
            detectedExit: try node.optional("detectedExit")?.time, enterLatency: try node.optional("enterLatency")?.double,
            exitLatency: try node.optional("exitLatency")?.double, dwellError: try node.optional("dwellError")?.double,
            flaps: try node.member("flaps").int, falseExits: try node.member("falseExits").int,
            speedBand: try node.member("speedBand").string, missReason: reason)
    }
}

extension TruthVisit {
    var partValue: JSONValue {
        .orderedObject([
            ("fence", .int(Int64(fence))), ("fenceID", .string(fenceID)), ("enter", PartValue.time(enter)), ("exit", PartValue.time(exit)),
            ("startsInside", .bool(startsInside)), ("enterSpeed", PartValue.double(enterSpeed)),
            ("enterLongitude", PartValue.double(enterLongitude)), ("enterLatitude", PartValue.double(enterLatitude)),
        ])
    }

    init(part node: PartNode) throws(FencesimError) {
        self.init(
            fence: try node.member("fence").int, fenceID: try node.member("fenceID").string, enter: try node.member("enter").time,
            exit: try node.optional("exit")?.time, startsInside: try node.member("startsInside").bool,
            enterSpeed: try node.optional("enterSpeed")?.double,
            enterLongitude: try node.optional("enterLongitude")?.double, enterLatitude: try node.optional("enterLatitude")?.double)
    }
}

extension DetectedVisit {
    var partValue: JSONValue {
        .orderedObject([
            ("fence", .int(Int64(fence))), ("fenceID", .string(fenceID)), ("enter", PartValue.time(enter)), ("exit", PartValue.time(exit)),
            ("interpolated", .bool(interpolated)), ("duplicateEnters", .int(Int64(duplicateEnters))),
        ])
    }

    init(part node: PartNode) throws(FencesimError) {
        self.init(
            fence: try node.member("fence").int, fenceID: try node.member("fenceID").string, enter: try node.member("enter").time,
            exit: try node.optional("exit")?.time, interpolated: try node.member("interpolated").bool,
            duplicateEnters: try node.member("duplicateEnters").int)
    }
}
