import Fences
import Foundation
import Spatial
import Support

extension SettingsResolver {
    /// The metric frame of a run: the one given (`crs:` or `--crs`), else an automatic one around
    /// the fences (SPEC §1.4), else a frame at (0°, 0°) for an empty fence set.
    ///
    /// - Parameter remedy: what the command at hand takes to name a frame (its `--crs` option,
    ///   the scenario's `crs:` key, or both), said when no automatic frame fits.
    /// - Throws: ``Support/FencesimError`` `.badData` at `location` (or the fence file) when no
    ///   automatic frame fits the fences.
    public static func frame(
        given: FrameDefinition?, fences: FenceSet, location: SourceLocation?,
        remedy: FrameRemedy = .option
    ) throws(FencesimError) -> FrameDefinition {
        if let given { return given }
        guard let box = fences.boundingBox else {
            return .transverseMercator(latitudeOfOrigin: 0, centralMeridian: 0)
        }
        do {
            return try MetricFrame.automaticDefinition(covering: box).definition
        } catch let refusal as MetricFrame.AutomaticFrameRefusal {
            let message =
                "no automatic metric frame fits the fences: the data spans \(Int(refusal.eastWestKilometers.rounded())) km east–west; the best transverse Mercator frame would have a scale error of \(String(format: "%.2g", refusal.scaleError)) (limit \(MetricFrame.maximumAutomaticScaleError)); split the fences or \(remedy.text)"
            throw FencesimError(.badData, message, at: location ?? SourceLocation(file: fences.file))
        } catch {
            throw FencesimError(
                .badData, "cannot choose a metric frame for the fences: \(error)", at: location ?? SourceLocation(file: fences.file))
        }
    }
}

/// How a command names a metric frame, for the error saying that no automatic frame fits.
public enum FrameRemedy: Sendable {
    /// The command's `--crs` option (`replay`, `report` of traces).
    case option
    /// The scenario's `crs:` key (`run`, `check`, `sweep`, which have no `--crs`).
    case scenarioKey
    /// Either (`report` of a scenario).
    case optionOrScenarioKey

    var text: String {
        switch self {
        case .option:
            "pass --crs with a projection that suits them (a PROJ string or an EPSG code, such as a UTM zone: --crs EPSG:32632)"
        case .scenarioKey:
            "set the scenario's crs: key to a projection that suits them (a PROJ string or an EPSG code, e.g. crs: \"EPSG:32632\"); this command has no --crs"
        case .optionOrScenarioKey:
            "set the scenario's crs: key, or pass --crs, with a projection that suits them (a PROJ string or an EPSG code)"
        }
    }
}
