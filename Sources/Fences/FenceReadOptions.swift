/// How to read a fence file.
public struct FenceReadOptions: Hashable, Sendable {
    /// Repair invalid polygons with GEOS make-valid (with a warning) instead of refusing them.
    public var makeValid: Bool
    /// Reproject a file whose `crs` member names a CRS other than WGS84, instead of refusing it.
    public var reproject: Bool
    /// Take each fence's id from this property instead of `id` (numbers are used as written);
    /// ``indexIDs`` (`@index`) numbers the features instead. For files from elsewhere, such as
    /// county or borough polygons, whose key is `tile_id` or `BoroName`.
    public var idProperty: String?
    /// The radius, in metres, of Point features that have no `radius` property (for example
    /// bus stops used as circle centres). Without it such points are errors.
    public var defaultRadiusMeters: Double?

    /// The ``idProperty`` value that numbers features by their 0-based index.
    public static let indexIDs = "@index"

    public init(makeValid: Bool = false, reproject: Bool = false, idProperty: String? = nil, defaultRadiusMeters: Double? = nil) {
        self.makeValid = makeValid
        self.reproject = reproject
        self.idProperty = idProperty
        self.defaultRadiusMeters = defaultRadiusMeters
    }
}
