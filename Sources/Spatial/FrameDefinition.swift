/// How to build a metric frame: the `Sendable` recipe each worker turns into its own
/// ``MetricFrame`` (PROJ objects are not shared between threads).
public enum FrameDefinition: Hashable, Sendable, CustomStringConvertible {
    /// A PROJ string of a projection (`+proj=tmerc +lat_0=...`), applied to WGS84 longitude and
    /// latitude in degrees exactly as `pyproj.Proj(string)` does: no datum shift.
    case projString(String)
    /// Any CRS PROJ knows (`EPSG:32633`, a WKT, a PROJJSON): fixes and fences are transformed from
    /// WGS84 (EPSG:4326) to it with `proj_create_crs_to_crs`.
    case crs(String)

    /// Reads a `--crs` value: a string starting with `+` is a PROJ string; anything else
    /// (`EPSG:32633`, `epsg:3857`, WKT) names a CRS. A bare number is taken as an EPSG code.
    public init(parsing text: String) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasPrefix("+") {
            self = .projString(trimmed)
        } else if !trimmed.isEmpty, trimmed.allSatisfy(\.isNumber) {
            self = .crs("EPSG:" + trimmed)
        } else {
            self = .crs(trimmed)
        }
    }

    /// A transverse Mercator projection on the WGS84 ellipsoid.
    public static func transverseMercator(latitudeOfOrigin: Double, centralMeridian: Double, scaleFactor: Double = 1) -> FrameDefinition {
        .projString("+proj=tmerc +lat_0=\(latitudeOfOrigin) +lon_0=\(centralMeridian) +k=\(scaleFactor) +x_0=0 +y_0=0 +ellps=WGS84")
    }

    public var description: String {
        switch self {
        case .projString(let s): s
        case .crs(let s): s
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
