import Regression
import Traces

/// A sweep's results (SPEC §6.4) with what the renderings print about it: one model for the
/// terminal table, the JSON and the SVG plot, so that their numbers agree.
public struct SweepReport: Sendable {
    /// The scenario's name.
    public var title: String
    /// `fencesim <version>`.
    public var generator: String
    /// The scenario file.
    public var scenario: String
    /// How truth was taken, as shown to readers.
    public var truth: String
    /// The scenario's own degradation, before the varied keys replace theirs.
    public var degradation: Degradation?
    public var result: Sweep.Result

    public init(title: String, generator: String, scenario: String, truth: String, degradation: Degradation?, result: Sweep.Result) {
        self.title = title
        self.generator = generator
        self.scenario = scenario
        self.truth = truth
        self.degradation = degradation
        self.result = result
    }

    /// The row's number in every rendering: its position in enumeration order, from 1.
    public static func number(_ row: Sweep.Row) -> Int { row.index + 1 }

    /// The verdict on the target: the smallest setting meeting it, or that none does; `nil`
    /// without a target.
    public var verdict: String? {
        guard let target = result.target else { return nil }
        if let row = result.chosen {
            return "smallest setting meeting the target \(target): #\(SweepReport.number(row)) \(result.setting(row))"
        }
        let failed = result.rows.contains { $0.failedTraces > 0 } ? " (a combination with a failed trace cannot meet it)" : ""
        return "no setting meets the target \(target)\(failed)"
    }
}
