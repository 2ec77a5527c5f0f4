import Support

/// One problem `fencesim lint` found with a fence's sizing or geometry (SPEC §6.4), located at
/// the fence's feature in its file.
///
/// Severities (``FenceLint`` decides them): `invalid-geometry`, `narrow` and `buffered-away` are
/// errors, because the fence will be refused, missed between fixes or never entered;
/// `tiny-circle`, `tiny-polygon` and `zone-overlap` are warnings, because such fences work but go
/// against the Bluedot minimums or make a zone's check-ins depend on which fence is entered first.
public struct LintFinding: Hashable, Sendable, CustomStringConvertible {
    /// What was checked. The order of the cases is the order of findings at one fence.
    public enum Rule: String, Hashable, Sendable, CaseIterable, Comparable {
        /// GEOS finds the geometry invalid (self-intersection, ring not closed, too few points).
        case invalidGeometry = "invalid-geometry"
        /// A negative buffer leaves nothing of the fence.
        case bufferedAway = "buffered-away"
        /// The minimum width is less than `speed × interval`.
        case narrow
        /// A circle below the Bluedot minimum radius.
        case tinyCircle = "tiny-circle"
        /// A polygon below the Bluedot minimum area.
        case tinyPolygon = "tiny-polygon"
        /// Two fences of one zone overlap.
        case zoneOverlap = "zone-overlap"

        private var rank: Int { Rule.allCases.firstIndex(of: self) ?? 0 }
        public static func < (lhs: Rule, rhs: Rule) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Diagnostic.Severity
    public var rule: Rule
    /// The fence the finding is about.
    public var fenceID: String
    /// The other fence of a `zone-overlap`.
    public var otherFenceID: String?
    /// The zone of a `zone-overlap`.
    public var zone: String?
    /// The measured value: width or radius in metres, area in square metres; `nil` when nothing
    /// is measured (invalid geometry).
    public var value: Double?
    /// The limit the value was held against (the gap, the minimum radius or area).
    public var limit: Double?
    /// Where the limit of a `narrow` finding came from (`--speed/--interval` or a trace).
    public var source: String?
    /// The whole explanation, beginning with the fence's id.
    public var message: String
    /// The fence's feature in its file.
    public var location: SourceLocation

    public init(
        severity: Diagnostic.Severity, rule: Rule, fenceID: String, otherFenceID: String? = nil, zone: String? = nil,
        value: Double? = nil, limit: Double? = nil, source: String? = nil, message: String, location: SourceLocation
    ) {
        self.severity = severity
        self.rule = rule
        self.fenceID = fenceID
        self.otherFenceID = otherFenceID
        self.zone = zone
        self.value = value
        self.limit = limit
        self.source = source
        self.message = message
        self.location = location
    }

    /// The finding as a compiler-style diagnostic, with the rule as its kind.
    public var diagnostic: Diagnostic {
        Diagnostic(severity, message + " [\(rule.rawValue)]", at: location, kind: rule.rawValue)
    }

    /// `file:line:col: severity: message [rule]`.
    public var description: String { diagnostic.description }

    /// The finding as a JSON object with stable keys, in this order: `file`, `line`, `column`,
    /// `severity`, `rule`, `fence`, then `otherFence`, `zone`, `value`, `limit`, `source` when
    /// present, then `message`.
    public var json: JSONValue {
        var pairs: [(String, JSONValue)] = [("file", .string(location.file))]
        pairs.append(("line", location.line.map { .int(Int64($0)) } ?? .null))
        pairs.append(("column", location.column.map { .int(Int64($0)) } ?? .null))
        pairs.append(("severity", .string(severity.rawValue)))
        pairs.append(("rule", .string(rule.rawValue)))
        pairs.append(("fence", .string(fenceID)))
        if let otherFenceID { pairs.append(("otherFence", .string(otherFenceID))) }
        if let zone { pairs.append(("zone", .string(zone))) }
        if let value { pairs.append(("value", LintFinding.millimetres(value))) }
        if let limit { pairs.append(("limit", LintFinding.millimetres(limit))) }
        if let source { pairs.append(("source", .string(source))) }
        pairs.append(("message", .string(message)))
        return .orderedObject(pairs)
    }

    /// The total order of findings: by place in the file, then rule, then the other fence.
    public static func precedes(_ a: LintFinding, _ b: LintFinding) -> Bool {
        if a.location.file != b.location.file { return a.location.file < b.location.file }
        let la = (a.location.line ?? 0, a.location.column ?? 0)
        let lb = (b.location.line ?? 0, b.location.column ?? 0)
        if la != lb { return la < lb }
        if a.fenceID != b.fenceID { return a.fenceID < b.fenceID }
        if a.rule != b.rule { return a.rule < b.rule }
        return (a.otherFenceID ?? "", a.message) < (b.otherFenceID ?? "", b.message)
    }

    /// A measurement rounded to the millimetre (as event logs write them).
    static func millimetres(_ value: Double) -> JSONValue {
        .double((value * 1000).rounded() / 1000)
    }
}
