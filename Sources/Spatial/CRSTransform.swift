import CPROJ
import Foundation

/// Transforms coordinates from a named CRS (e.g. the `crs` member of an old GeoJSON file) to
/// WGS84 longitude/latitude in degrees, through PROJ.
///
/// - Important: Not thread-safe; owns its PROJ context.
public final class CRSTransform {
    /// The source CRS as given.
    public let source: String
    private let context: OpaquePointer
    private let transform: OpaquePointer

    /// Builds a transformation from `source` (any CRS PROJ knows: `EPSG:32650`,
    /// `urn:ogc:def:crs:EPSG::32650`, WKT) to WGS84 with longitude first.
    ///
    /// - Throws: ``SpatialError`` with PROJ's message when the CRS is unknown.
    public init(from source: String) throws(SpatialError) {
        guard let ctx = proj_context_create() else {
            throw SpatialError(function: "proj_context_create", message: "PROJ could not create a context")
        }
        proj_context_set_enable_network(ctx, 0)
        proj_log_level(ctx, PJ_LOG_NONE)
        guard let raw = proj_create_crs_to_crs(ctx, source, "EPSG:4326", nil) else {
            let code = proj_context_errno(ctx)
            let text = proj_context_errno_string(ctx, code).map { String(cString: $0) } ?? "unknown CRS"
            proj_context_destroy(ctx)
            throw SpatialError(function: "proj_create_crs_to_crs", message: "PROJ cannot transform from \"\(source)\" to WGS84: \(text)")
        }
        defer { proj_destroy(raw) }
        // Normalised so that input and output are in (easting, northing) / (longitude, latitude)
        // order whatever the CRS's official axis order.
        guard let normalized = proj_normalize_for_visualization(ctx, raw) else {
            proj_context_destroy(ctx)
            throw SpatialError(function: "proj_normalize_for_visualization", message: "cannot normalise axis order for \"\(source)\"")
        }
        self.source = source
        self.context = ctx
        self.transform = normalized
    }

    deinit {
        proj_destroy(transform)
        proj_context_destroy(context)
    }

    /// The WGS84 position (x = longitude, y = latitude) of `xy` in the source CRS; non-finite
    /// when PROJ cannot transform it.
    public func toWGS84(_ xy: XY) -> XY {
        var c = PJ_COORD()
        c.xyzt = PJ_XYZT(x: xy.x, y: xy.y, z: 0, t: 0)
        let r = proj_trans(transform, PJ_FWD, c)
        return XY(r.xyzt.x, r.xyzt.y)
    }

    /// Whether a CRS name from a GeoJSON `crs` member means WGS84 longitude/latitude (OGC CRS84
    /// or EPSG:4326, which GeoJSON files write in longitude/latitude order).
    public static func isWGS84(_ name: String) -> Bool {
        let n = name.lowercased().replacingOccurrences(of: " ", with: "")
        let known = [
            "urn:ogc:def:crs:ogc:1.3:crs84", "urn:ogc:def:crs:ogc::crs84", "crs84", "ogc:crs84",
            "epsg:4326", "urn:ogc:def:crs:epsg::4326", "urn:ogc:def:crs:epsg:6.6:4326",
            "http://www.opengis.net/def/crs/ogc/1.3/crs84", "http://www.opengis.net/def/crs/epsg/0/4326",
        ]
        return known.contains(n)
    }
}
