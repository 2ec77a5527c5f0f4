import Geotriggers
import Support

/// One entry of a scenario's `geotriggers:` list: a named geotrigger with its own fence selection
/// and settings (ArcGIS runs several fence geotriggers in one monitor; see `docs/geotriggers.md`).
public struct GeotriggerDeclaration: Sendable {
    /// `name`: unique in the scenario; events of this geotrigger carry it as `geotrigger`.
    public var name: String
    /// Where the entry is.
    public var location: SourceLocation
    /// `fences`: the named fence sets it watches (names of the scenario's `fences:` map), in the
    /// order written; empty for every set.
    public var sets: [String]
    /// Its settings, `where` included (``Geotriggers/GeotriggerOverrides/fencesWhere``): they
    /// take the place of a scenario's `geotrigger:` for the fences it watches.
    public var overrides: GeotriggerOverrides

    public init(name: String, location: SourceLocation, sets: [String] = [], overrides: GeotriggerOverrides = GeotriggerOverrides()) {
        self.name = name
        self.location = location
        self.sets = sets
        self.overrides = overrides
    }
}
