import Accuracy
import Scenarios
import Support

/// A number of the accuracy report (SPEC §6.3) that a sweep target can test, named as the keys of
/// the report's JSON (`recall`, `enterP50`, `falseExitsPerHour`, ...).
public enum SweepMetric: String, CaseIterable, Sendable {
    case recall, precision, f1
    case enterP50, enterP90, enterP99
    case exitP50, exitP90, exitP99
    case falseExitsPerHour
    case truthVisits, detected, missed, missedInGap, falseDetections, flaps, falseExits

    /// The metric named `name` (as written, or in any letter case).
    public init?(name: String) {
        if let exact = SweepMetric(rawValue: name) {
            self = exact
            return
        }
        guard let match = SweepMetric.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }

    /// The metric's value in `m`; `nil` where it has none (no truth visit for recall, no
    /// detection for precision, no latency measured).
    public func value(in m: AccuracyMetrics) -> Double? {
        switch self {
        case .recall: m.recall
        case .precision: m.precision
        case .f1: m.f1
        case .enterP50: m.enterLatency?.p50
        case .enterP90: m.enterLatency?.p90
        case .enterP99: m.enterLatency?.p99
        case .exitP50: m.exitLatency?.p50
        case .exitP90: m.exitLatency?.p90
        case .exitP99: m.exitLatency?.p99
        case .falseExitsPerHour: m.falseExitsPerHour
        case .truthVisits: Double(m.truthVisits)
        case .detected: Double(m.detected)
        case .missed: Double(m.missed)
        case .missedInGap: Double(m.missedInGap)
        case .falseDetections: m.falseDetections.map(Double.init)
        case .flaps: Double(m.flaps)
        case .falseExits: Double(m.falseExits)
        }
    }
}

/// What a sweep's setting must achieve: comparisons of report metrics with numbers, all of which
/// must hold (`recall>=0.95,precision>=0.9`).
///
/// Metrics are compared exactly, before the rounding of the printed numbers; a metric without a
/// value (recall with no truth visit, a latency with no detection) meets no comparison.
public struct SweepTarget: Sendable, Hashable, CustomStringConvertible {
    /// `>=`, `<=`, `>`, `<`, `==`.
    public enum Comparison: String, CaseIterable, Sendable {
        case atLeast = ">="
        case atMost = "<="
        case above = ">"
        case below = "<"
        case equal = "=="

        public func holds(_ a: Double, _ b: Double) -> Bool {
            switch self {
            case .atLeast: a >= b
            case .atMost: a <= b
            case .above: a > b
            case .below: a < b
            case .equal: a == b
            }
        }
    }

    /// One `METRIC OP NUMBER`.
    public struct Condition: Sendable, Hashable, CustomStringConvertible {
        public var metric: SweepMetric
        public var comparison: Comparison
        public var value: Double

        public init(_ metric: SweepMetric, _ comparison: Comparison, _ value: Double) {
            self.metric = metric
            self.comparison = comparison
            self.value = value
        }

        public func isMet(by m: AccuracyMetrics) -> Bool {
            guard let v = metric.value(in: m) else { return false }
            return comparison.holds(v, value)
        }

        /// `recall>=0.95`.
        public var description: String { metric.rawValue + comparison.rawValue + JSONWriter.number(value) }
    }

    public var conditions: [Condition]

    public init(_ conditions: [Condition]) {
        self.conditions = conditions
    }

    /// Reads conditions separated by commas, each `METRIC OP NUMBER` (spaces allowed around
    /// each part), OP one of `>=`, `<=`, `>`, `<`, `==`.
    ///
    /// Errors are located at `source`, line 1, the column counting bytes of the text from 1.
    ///
    /// - Throws: ``Support/FencesimError``: `.usage` for a condition not shaped `METRIC OP NUMBER`
    ///   (an empty condition, no comparison, an unknown comparison such as `=` or `!=`, a value
    ///   that is not a finite number); `.badData` for an unknown metric.
    public init(parsing text: String, source: String = "--target") throws(FencesimError) {
        let bytes = Array(text.utf8)
        func location(_ offset: Int) -> SourceLocation {
            SourceLocation(file: source, line: 1, column: offset + 1)
        }
        let operators = Comparison.allCases.map(\.rawValue).joined(separator: ", ")
        let shape = "expected METRIC OP NUMBER, OP one of \(operators) (e.g. recall>=0.95), conditions separated by commas"
        var conditions: [Condition] = []
        var start = 0
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
            let (from, to) = SweepAxis.trimmed(bytes, start, end)
            guard from < to else { throw FencesimError(.usage, "empty condition: \(shape)", at: location(from)) }
            let isOperator: (UInt8) -> Bool = {
                $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "!")
            }
            guard let opStart = bytes[from..<to].firstIndex(where: isOperator) else {
                throw FencesimError(
                    .usage, "no comparison in \"\(String(decoding: bytes[from..<to], as: UTF8.self))\": \(shape)", at: location(from))
            }
            let opEnd = bytes[opStart..<to].firstIndex(where: { !isOperator($0) }) ?? to
            let opText = String(decoding: bytes[opStart..<opEnd], as: UTF8.self)
            guard let comparison = Comparison(rawValue: opText) else {
                throw FencesimError(.usage, "unknown comparison \"\(opText)\": \(shape)", at: location(opStart))
            }
            let (nameFrom, nameTo) = SweepAxis.trimmed(bytes, from, opStart)
            guard nameFrom < nameTo else { throw FencesimError(.usage, "no metric before \"\(opText)\": \(shape)", at: location(from)) }
            let name = String(decoding: bytes[nameFrom..<nameTo], as: UTF8.self)
            guard let metric = SweepMetric(name: name) else {
                throw FencesimError(
                    .badData, "unknown metric \"\(name)\" (metrics: \(SweepMetric.allCases.map(\.rawValue).joined(separator: ", ")))",
                    at: location(nameFrom))
            }
            let (valueFrom, valueTo) = SweepAxis.trimmed(bytes, opEnd, to)
            guard valueFrom < valueTo else {
                throw FencesimError(.usage, "no number after \"\(opText)\": \(shape)", at: location(valueFrom))
            }
            let valueText = String(decoding: bytes[valueFrom..<valueTo], as: UTF8.self)
            guard let value = ConfigNode.number(valueText) else {
                throw FencesimError(
                    .usage, "\(metric.rawValue) is compared with \"\(valueText)\", which is not a number: \(shape)", at: location(valueFrom)
                )
            }
            guard value.isFinite else {
                throw FencesimError(
                    .usage,
                    "\(metric.rawValue) is compared with \(valueText), which is out of range: a number must be finite, at most ±1.8e308 in size",
                    at: location(valueFrom))
            }
            conditions.append(Condition(metric, comparison, value))
            guard end < bytes.count else { break }
            start = end + 1
        }
        self.init(conditions)
    }

    /// Whether every condition holds for `m`.
    public func isMet(by m: AccuracyMetrics) -> Bool {
        conditions.allSatisfy { $0.isMet(by: m) }
    }

    /// `recall>=0.95,precision>=0.9`.
    public var description: String { conditions.map(\.description).joined(separator: ",") }
}
