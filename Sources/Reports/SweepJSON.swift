import Regression
import Support

/// A sweep as JSON with stable keys in a fixed order (documented in docs/commands.md): each
/// combination's setting and its overall numbers with the keys and rounding of the accuracy
/// report's JSON (``ReportJSON``), so that both read alike.
public enum SweepJSON {
    /// The format's version (`"sweep"` key); bumped when a key changes meaning.
    public static let version = 1

    /// The whole sweep as pretty-printed JSON text, ending with a newline.
    public static func render(_ report: SweepReport) -> String {
        var out = ByteBuffer()
        ReportJSON.write(value(report), indent: 0, to: &out)
        out.append(UInt8(ascii: "\n"))
        return out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The sweep as a JSON value.
    public static func value(_ report: SweepReport) -> JSONValue {
        let r = report.result
        return .orderedObject([
            ("generator", .string(report.generator)),
            ("sweep", .int(Int64(version))),
            ("title", .string(report.title)),
            ("scenario", .string(report.scenario)),
            ("truth", .string(report.truth)),
            ("degrade", report.degradation.map(ReportJSON.degradation) ?? .null),
            ("traces", .int(Int64(r.traceCount))),
            (
                "parameters",
                .list(
                    r.axes.map { axis in
                        .orderedObject([
                            ("name", .string(axis.parameter.rawValue)), ("unit", .string(axis.parameter.unit)),
                            ("values", .list(axis.values.map(\.json))),
                        ])
                    })
            ),
            (
                "target",
                r.target.map { target in
                    .orderedObject([
                        ("text", .string(target.description)),
                        (
                            "conditions",
                            .list(
                                target.conditions.map { c in
                                    .orderedObject([
                                        ("metric", .string(c.metric.rawValue)), ("comparison", .string(c.comparison.rawValue)),
                                        ("value", .double(c.value)),
                                    ])
                                })
                        ),
                    ])
                } ?? .null
            ),
            ("combinations", .list(r.rows.map { row(r, $0) })),
            (
                "chosen",
                r.chosen.map { chosen in
                    .orderedObject([("index", .int(Int64(SweepReport.number(chosen)))), ("setting", setting(r, chosen))])
                } ?? .null
            ),
            ("failures", .list(r.failures.map { .string($0.fullDescription) })),
        ])
    }

    static func setting(_ r: Sweep.Result, _ row: Sweep.Row) -> JSONValue {
        .orderedObject(zip(r.axes, row.values).map { ($0.parameter.rawValue, $1.json) })
    }

    static func row(_ r: Sweep.Result, _ row: Sweep.Row) -> JSONValue {
        .orderedObject([
            ("index", .int(Int64(SweepReport.number(row)))),
            ("setting", setting(r, row)),
            ("meetsTarget", row.meetsTarget.map { .bool($0) } ?? .null),
            ("failedTraces", .int(Int64(row.failedTraces))),
            ("overall", ReportJSON.metrics(row.metrics)),
        ])
    }
}
