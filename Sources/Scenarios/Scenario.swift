import Fences
import Geotriggers
import Spatial
import Support

/// A scenario file (SPEC §1.3): traces, fences and the settings to replay them with.
public struct Scenario: Sendable {
    /// The scenario file's path.
    public var file: String
    /// `name`, or the file's base name.
    public var name: String
    /// Traces after glob expansion, in the order written (each glob's matches sorted).
    public var traces: [TraceInput]
    /// The fence files, in the order written: one, a list, or named sets (see ``FenceFile``).
    public var fenceFiles: [FenceFile]
    /// The first fence file's path (resolved against the scenario's folder) and where it was named.
    public var fencesPath: String { fenceFiles[0].path }
    public var fencesLocation: SourceLocation { fenceFiles[0].location }
    /// Every fence file's path.
    public var fencePaths: [String] { fenceFiles.map(\.path) }
    /// The files a run of the scenario reads besides its traces: the scenario, its fence files
    /// and its fence changes (what a sharded run's digest covers).
    public var inputFiles: [String] { [file] + fencePaths + (fenceChangesPath.map { [$0] } ?? []) }
    /// `fenceChanges`: the fence-changes file's path (resolved), if any (``Fences/FenceChanges``).
    public var fenceChangesPath: String?
    /// `crs`: `nil` for `auto`.
    public var crs: FrameDefinition?
    /// `geotrigger`: the scenario-wide settings.
    public var geotrigger: GeotriggerOverrides
    /// `geotriggers`: named geotriggers, each watching its own fences with its own settings;
    /// empty when the scenario has one unnamed `geotrigger` (see `Scenario+Geotriggers.swift`).
    public var geotriggers: [GeotriggerDeclaration] = []
    /// `zones`.
    public var zones: [ZoneDeclaration]
    /// `places`: Places is simulated when the scenario has a `places` or a `sessions` key
    /// (SPEC §4); `nil` otherwise.
    public var places: PlacesSettings?
    /// `sessions`, in time order (checked: launches increase, each terminate follows its launch
    /// and precedes the next launch).
    public var sessions: [AppSession]
    /// Sections that are read and checked but whose behaviour later versions add, with where
    /// they are (so that running such a scenario says so instead of ignoring them silently).
    public var notYetSimulated: [(key: String, location: SourceLocation)]
    /// `expected`: the golden event log, resolved.
    public var expectedPath: String?
    /// The whole file as read, for features that read their own keys (rules, degradation,
    /// ground truth) with located errors.
    public var root: ConfigNode
    /// The scenario's folder: relative paths in it are resolved against this.
    public var directory: String

    /// `path` resolved against the scenario's folder.
    public func resolve(_ path: String) -> String {
        ScenarioReader.resolve(path, directory)
    }

    /// The zone declared with `id`.
    public func zone(id: String) -> ZoneDeclaration? {
        zones.first(where: { $0.id == id })
    }
}

/// One of a scenario's fence files (`fences:` a path, a list of paths, or a map of named sets).
public struct FenceFile: Sendable {
    /// The set's name when `fences` is a map: its fences' ids are `NAME/ID`, so that two sets
    /// may hold the same id.
    public var set: String?
    /// Resolved against the scenario's folder.
    public var path: String
    /// Where it was named.
    public var location: SourceLocation
}

/// A zone as a scenario declares it: the Bluedot zone (SPEC §3) and geotrigger settings for its
/// fences (an extension to SPEC §1.3's zone keys: SPEC §2 asks for per-zone overrides).
public struct ZoneDeclaration: Sendable {
    public var zone: Zone
    public var geotrigger: GeotriggerOverrides

    public var id: String { zone.id }
}
