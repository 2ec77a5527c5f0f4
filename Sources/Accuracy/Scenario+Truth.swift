import Fences
import Scenarios
import Support

extension Scenario {
    /// The scenario's `truth` (SPEC §6.1): ``TruthSource/trace`` when absent.
    ///
    /// - Parameter fences: the scenario's fences, against which a visits file is checked.
    /// - Throws: ``Support/FencesimError``: `.badData` (65) located at the value when it is not a
    ///   string, or in the visits file at an unknown fence or a bad time; `.missingInput` (66)
    ///   when the file does not exist.
    public func truthSource(fences: FenceSet) throws(FencesimError) -> TruthSource {
        guard let node = root["truth"] else { return .trace }
        guard let value = node.string, !value.isEmpty else {
            throw node.error("truth must be \"trace\", a reference trace path, or a visits CSV path (fence,enter,exit)")
        }
        return try TruthSource.parse(value, resolved: value == "trace" ? value : resolve(value), location: node.location, fences: fences)
    }
}
