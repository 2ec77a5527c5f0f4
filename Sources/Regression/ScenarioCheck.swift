import EventPipeline
import Files
import Scenarios
import Support

/// The regression check of one scenario (SPEC §6.5): its events against its golden log.
public enum ScenarioCheck {
    /// How a check ended.
    public enum Verdict: Sendable {
        /// The events are the golden ones.
        case passed
        /// They differ.
        case failed(EventDiff)
    }

    /// The golden log of `scenario`: its `expected:` key (resolved against its folder), else
    /// `expected/<scenario file name without extension>.jsonl` beside the scenario, so that
    /// `scenarios/demo.yaml` has `scenarios/expected/demo.jsonl`. The file name rather than the
    /// scenario's `name` keeps two scenarios of a folder from sharing a golden log.
    public static func goldenPath(for scenario: Scenario) -> String {
        if let expected = scenario.expectedPath { return expected }
        let file = scenario.file.split(separator: "/").last.map(String.init) ?? scenario.file
        let base = file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
        let stem = base.isEmpty ? file : base
        return scenario.resolve("expected/\(stem).jsonl")
    }

    /// Compares `events` with the golden log at `goldenPath`.
    ///
    /// - Throws: ``Support/FencesimError``: `.missingInput` when there is no golden log (the
    ///   message names `--update`), `.badData` located at the first line of it that is not an
    ///   event.
    public static func check(_ events: [LogEvent], goldenPath: String) throws(FencesimError) -> Verdict {
        guard FileIO.exists(goldenPath) else {
            throw FencesimError(
                .missingInput, "there is no golden log here yet; fencesim check --update writes it from the current events",
                at: SourceLocation(file: goldenPath))
        }
        let golden = try EventLogReader.read(path: goldenPath)
        let diff = EventDiff.compare(expected: golden, actual: events)
        return diff.isEmpty ? .passed : .failed(diff)
    }
}
