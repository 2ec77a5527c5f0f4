import Fences
import Files
import Foundation
import Scenarios
import Support

/// Where the true visits of a trace come from (SPEC §6.1; scenario key `truth`).
///
/// - `truth: trace` (the default): the clean trace itself, before any degradation.
/// - `truth: PATH` naming a CSV file whose header has the columns `fence`, `enter` and `exit`:
///   labelled visits (``LabelledVisits``).
/// - `truth: PATH` naming any other trace file (GPX, CSV, NMEA, PLT): a reference trace whose
///   path gives the truth. `{name}` in the path stands for each trace's file name without its
///   extensions, so that a batch can pair every trace with its own reference
///   (`truth: reference/{name}.gpx`).
public enum TruthSource: Sendable {
    case trace
    /// A reference trace path, possibly with `{name}`.
    case reference(String)
    case visits(LabelledVisits)

    /// The placeholder for a trace's name in a reference path.
    public static let namePlaceholder = "{name}"

    /// The reference trace of `input` for a `.reference` pattern.
    public static func referencePath(_ pattern: String, for input: TraceInput) -> String {
        guard pattern.contains(namePlaceholder) else { return pattern }
        var stem = (input.path as NSString).lastPathComponent
        while case let s = (stem as NSString).deletingPathExtension, s != stem, !s.isEmpty { stem = s }
        return pattern.replacingOccurrences(of: namePlaceholder, with: stem)
    }

    /// The source a `truth` value names: `trace`, a visits CSV (read and checked against the
    /// fences now), or a reference trace.
    ///
    /// - Parameters:
    ///   - value: the value as written.
    ///   - resolved: the path resolved (against the scenario's folder).
    ///   - location: where the value is, for errors.
    /// - Throws: ``Support/FencesimError`` `.missingInput` (66) when the file does not exist,
    ///   `.badData` (65) for a bad visits file (located in it).
    public static func parse(_ value: String, resolved: String, location: SourceLocation?, fences: FenceSet) throws(FencesimError)
        -> TruthSource
    {
        if value == "trace" { return .trace }
        if resolved.contains(namePlaceholder) { return .reference(resolved) }
        guard FileIO.exists(resolved) else {
            throw FencesimError(.missingInput, "truth file \(value) does not exist (looked for \(resolved))", at: location)
        }
        if LabelledVisits.isVisitsFile(resolved) {
            return .visits(try LabelledVisits.read(path: resolved, fences: fences))
        }
        return .reference(resolved)
    }
}
