import Accuracy
import Support

@testable import Reports

/// The accuracy report as one JSON value, printed at once by the report's pretty printer: the
/// oracle of ``ReportJSON/write(_:to:)``, which writes the long lists straight to bytes.
enum ReportJSONOracle {
    /// The report as a JSON value.
    static func value(_ report: AccuracyReport) -> JSONValue {
        let s = report.summary
        return .orderedObject([
            ("generator", .string(report.generator)),
            ("report", .int(Int64(ReportJSON.version))),
            ("title", .string(report.title)),
            ("fences", .string(report.fencesFile)),
            ("truth", .string(report.truth)),
            ("degrade", report.degradation.map(ReportJSON.degradation) ?? .null),
            (
                "speedBands",
                .list(
                    report.bands.map { b in
                        .orderedObject([
                            ("label", .string(b.label)), ("min", ReportJSON.number(b.lower)),
                            ("max", b.upper.map(ReportJSON.number) ?? .null),
                        ])
                    })
            ),
            ("hours", ReportJSON.ratioless(s.hours, ReportNumber.rateDigits)),
            ("overall", ReportJSON.metrics(s.overall)),
            ("bySpeedBand", ReportJSON.groups(s.bySpeedBand)),
            ("byZone", ReportJSON.groups(s.byZone)),
            ("byFence", ReportJSON.groups(s.byFence)),
            ("byTrace", ReportJSON.groups(s.byTrace)),
            ("traces", .list(report.traces.map(ReportJSON.trace))),
            ("visits", .list(report.visits.map(visit))),
            (
                "falseDetections",
                .list(
                    report.falseDetections.map { d in
                        .orderedObject([
                            ("trace", .string(d.trace)), ("fence", .string(d.visit.fenceID)), ("zone", .string(d.zone)),
                            ("enter", ReportJSON.time(d.visit.enter)), ("exit", d.visit.exit.map(ReportJSON.time) ?? .null),
                        ])
                    })
            ),
        ])
    }

    /// One visit's object.
    static func visit(_ v: VisitScore) -> JSONValue {
        let pairs: [(String, JSONValue)] = [
            ("trace", .string(v.trace)), ("fence", .string(v.truth.fenceID)), ("zone", .string(v.zone)),
            ("enter", ReportJSON.time(v.truth.enter)), ("exit", v.truth.exit.map(ReportJSON.time) ?? .null),
            ("startsInside", .bool(v.truth.startsInside)),
            ("speed", v.truth.enterSpeed.map { ReportJSON.ratioless($0, ReportNumber.secondsDigits) } ?? .null),
            ("speedBand", .string(v.speedBand)),
            ("detected", .bool(v.detected)), ("detectedEnter", v.match.map { ReportJSON.time($0.enter) } ?? .null),
            ("detectedExit", v.detectedExit.map(ReportJSON.time) ?? .null),
            ("enterLatency", v.enterLatency.map(ReportJSON.seconds) ?? .null),
            ("exitLatency", v.exitLatency.map(ReportJSON.seconds) ?? .null), ("dwellError", v.dwellError.map(ReportJSON.seconds) ?? .null),
            ("flaps", .int(Int64(v.flaps))), ("falseExits", .int(Int64(v.falseExits))), ("exitMissed", .bool(v.exitMissed)),
            ("missReason", v.missReason.map { .string($0.rawValue) } ?? .null),
        ]
        return .orderedObject(pairs)
    }
}
