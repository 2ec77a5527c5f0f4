import CPROJ
import Foundation
import Support

/// A local metric frame through PROJ: converts WGS84 longitude/latitude (degrees) to planar
/// metres and back, where fences are evaluated (SPEC §1.4).
///
/// Owns its own `PJ_CONTEXT` so that frames on different threads never share PROJ state.
///
/// - Important: Not thread-safe; each worker builds its own frame from a ``FrameDefinition``.
public final class MetricFrame {
    /// The recipe this frame was built from.
    public let definition: FrameDefinition
    /// The PROJ context we own; destroyed last, after every object made with it.
    private let context: OpaquePointer
    /// WGS84 lon/lat degrees → metres (owned, `proj_destroy`).
    private let transform: OpaquePointer
    /// The projection alone, for `proj_factors` (input in radians; owned).
    private let projection: OpaquePointer?
    /// Receives PROJ's log messages for `context` (kept alive as long as the context).
    private let log: ProjLog
    /// For a `.projString` frame, the factor by which the pipeline's first step (`unitconvert`,
    /// degrees to radians) multiplies, read from PROJ itself: ``forward(_:)-(XY)`` multiplies by
    /// it and calls the projection alone, which gives the pipeline's result bit for bit with
    /// about a fifth fewer instructions (the step's own dispatch and checks). `nil` for CRS
    /// frames, which go through their transformation.
    private let radiansPerDegree: Double?
    /// For a plain `+proj=tmerc` string, the projection computed in Swift, used only when it
    /// gave PROJ's own results bit for bit at probe points around the frame (see
    /// ``TransverseMercator``); `nil` otherwise.
    ///
    /// Held at an address of its own (owned, freed in `deinit`): a projection held as a stored
    /// value was copied, all 150 bytes, at every point it projected.
    private let native: UnsafeMutablePointer<TransverseMercator>?
    /// The last position ``forward(_:)-(XY)`` projected natively and its projection (`nil`
    /// before the first): a device standing still repeats its position fix after fix (a sixth of
    /// the large bench trace's fixes), and the projection of the same bits is the same bits.
    @exclusivity(unchecked) private var last: (lonLat: XY, xy: XY)?

    /// Builds the frame.
    ///
    /// A `.projString` must describe a map projection (PROJ must accept it with `+type=crs` as a
    /// projected CRS); a `.crs` must be a projected CRS. Either way both axes must be in metres:
    /// fences, radii and accuracies are metres, so a frame in feet or degrees would silently
    /// scale every distance.
    ///
    /// - Throws: ``SpatialError`` with PROJ's message when the definition is not understood, or
    ///   a message saying why it cannot serve as a metric frame (geographic, geocentric, a
    ///   pipeline, or not in metres).
    public init(_ definition: FrameDefinition) throws(SpatialError) {
        // NULL only when out of memory.
        guard let ctx = proj_context_create() else {
            throw SpatialError(function: "proj_context_create", message: "PROJ could not create a context")
        }
        proj_context_set_enable_network(ctx, 0)
        // Libraries print nothing: PROJ's messages go to `log` instead of stderr, and the last
        // error message is put in the thrown error.
        let log = ProjLog()
        proj_log_func(
            ctx, Unmanaged.passUnretained(log).toOpaque(),
            { userdata, level, message in
                guard let userdata, let message, level <= PJ_LOG_ERROR.rawValue else { return }
                Unmanaged<ProjLog>.fromOpaque(userdata).takeUnretainedValue().last = String(cString: message)
            })
        proj_log_level(ctx, PJ_LOG_ERROR)
        let built: (OpaquePointer, OpaquePointer?)
        do throws(SpatialError) {
            built = try MetricFrame.build(definition, ctx, log)
        } catch {
            proj_context_destroy(ctx)
            throw error
        }
        self.definition = definition
        self.context = ctx
        self.transform = built.0
        self.projection = built.1
        self.log = log
        var native: TransverseMercator?
        if case .projString(let text) = definition {
            let factor = MetricFrame.unitconvertFactor(ctx)
            radiansPerDegree = factor
            if let factor, let projection = built.1, let candidate = TransverseMercator(projString: text),
                MetricFrame.agree(candidate, projection: projection, radiansPerDegree: factor)
            {
                native = candidate
            }
        } else {
            radiansPerDegree = nil
        }
        self.native = native.map { value in
            let pointer = UnsafeMutablePointer<TransverseMercator>.allocate(capacity: 1)
            pointer.initialize(to: value)
            return pointer
        }
        // From here on `deinit` runs if this throws, freeing everything.
        guard canProject else {
            throw SpatialError(
                function: "proj_trans", message: "\"\(definition)\" does not project longitude/latitude to finite coordinates")
        }
    }

    /// Whether `candidate` gives the same bits as PROJ's `projection` at 49 positions within 3°
    /// of the frame's origin (the origin among them): the check that lets the Swift projection
    /// stand in for PROJ's on this machine (another `tmerc_default_algo` in `proj.ini`, for one,
    /// fails it).
    static func agree(_ candidate: TransverseMercator, projection: OpaquePointer, radiansPerDegree factor: Double) -> Bool {
        let origin = XY(candidate.centralMeridian / factor, candidate.latitudeOfOrigin / factor)
        let offsets = [-3.0, -1, -0.3, 0, 0.3, 1, 3]
        for dx in offsets {
            for dy in offsets {
                let p = XY(origin.x + dx, max(-89.9, min(89.9, origin.y + dy)))
                let mine = candidate.forward(longitude: p.x * factor, latitude: p.y * factor)
                var c = PJ_COORD()
                c.xyzt = PJ_XYZT(x: p.x * factor, y: p.y * factor, z: 0, t: 0)
                let theirs = proj_trans(projection, PJ_FWD, c)
                guard mine.x.bitPattern == theirs.xyzt.x.bitPattern, mine.y.bitPattern == theirs.xyzt.y.bitPattern else { return false }
            }
        }
        return true
    }

    /// Whether a point near the frame's origin, or failing that near (0°, 0°), projects to finite
    /// coordinates (a last check that the transformation works at all).
    private var canProject: Bool {
        let origin = inverse(XY(0, 0))
        if origin.x.isFinite, origin.y.isFinite {
            let p = forward(origin)
            if p.x.isFinite, p.y.isFinite { return true }
        }
        let p = forward(XY(longitude: 0.001, latitude: 0.001))
        return p.x.isFinite && p.y.isFinite
    }

    private static func build(_ definition: FrameDefinition, _ ctx: OpaquePointer, _ log: ProjLog) throws(SpatialError) -> (
        OpaquePointer, OpaquePointer?
    ) {
        switch definition {
        case .projString(let text):
            let body = text.replacingOccurrences(of: "+type=crs", with: "").trimmingWhitespace()
            // Checked as a CRS first, for its kind and units; the CRS object itself is not kept.
            log.last = nil
            guard let crs = proj_create(ctx, body + " +type=crs") else {
                throw SpatialError(function: "proj_create", message: "PROJ cannot use \"\(text)\": \(problem(ctx, log))")
            }
            defer { proj_destroy(crs) }
            guard proj_get_type(crs) == PJ_TYPE_PROJECTED_CRS else {
                throw SpatialError(
                    function: "proj_create",
                    message: "\"\(text)\" is not a map projection (\(kind(of: crs))); a metric frame needs one, e.g. +proj=tmerc")
            }
            try requireMetres(crs, text, ctx)
            log.last = nil
            guard let projection = proj_create(ctx, body) else {
                throw SpatialError(function: "proj_create", message: "PROJ cannot use \"\(text)\": \(problem(ctx, log))")
            }
            // Applied to degrees exactly as pyproj.Proj(text) does: no datum shift.
            let pipeline = "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step " + body
            log.last = nil
            guard let p = proj_create(ctx, pipeline) else {
                proj_destroy(projection)
                throw SpatialError(function: "proj_create", message: "PROJ cannot use \"\(text)\": \(problem(ctx, log))")
            }
            return (p, projection)
        case .crs(let text):
            log.last = nil
            guard let target = proj_create(ctx, text) else {
                throw SpatialError(function: "proj_create", message: "PROJ does not know the CRS \"\(text)\": \(problem(ctx, log))")
            }
            guard proj_get_type(target) == PJ_TYPE_PROJECTED_CRS else {
                let what = kind(of: target)
                proj_destroy(target)
                throw SpatialError(
                    function: "proj_create",
                    message:
                        "\"\(text)\" is not a projected (metric) CRS (\(what)); fences are evaluated in metres, so --crs needs a projected CRS such as a UTM zone"
                )
            }
            do throws(SpatialError) {
                try requireMetres(target, text, ctx)
            } catch {
                proj_destroy(target)
                throw error
            }
            log.last = nil
            guard let raw = proj_create_crs_to_crs(ctx, "EPSG:4326", text, nil) else {
                proj_destroy(target)
                throw SpatialError(
                    function: "proj_create_crs_to_crs", message: "no transformation from WGS84 to \"\(text)\": \(problem(ctx, log))")
            }
            defer { proj_destroy(raw) }
            // A new object (longitude first in, easting first out) we own; NULL on failure.
            guard let normalized = proj_normalize_for_visualization(ctx, raw) else {
                proj_destroy(target)
                throw SpatialError(function: "proj_normalize_for_visualization", message: problem(ctx, log))
            }
            return (normalized, target)
        }
    }

    /// What `+proj=unitconvert +xy_in=deg +xy_out=rad` multiplies by, from PROJ (it maps 1 to
    /// its factor exactly); `nil` if PROJ will not say, and the pipeline is used.
    private static func unitconvertFactor(_ ctx: OpaquePointer) -> Double? {
        guard let step = proj_create(ctx, "+proj=unitconvert +xy_in=deg +xy_out=rad") else { return nil }
        defer { proj_destroy(step) }
        var c = PJ_COORD()
        c.xyzt = PJ_XYZT(x: 1, y: 1, z: 0, t: 0)
        let r = proj_trans(step, PJ_FWD, c)
        guard r.xyzt.x == r.xyzt.y, r.xyzt.x.isFinite, r.xyzt.x > 0 else { return nil }
        return r.xyzt.x
    }

    /// Throws unless both axes of `crs` are in metres.
    private static func requireMetres(_ crs: OpaquePointer, _ text: String, _ ctx: OpaquePointer) throws(SpatialError) {
        // A new object we own; NULL when the CRS has no coordinate system.
        guard let cs = proj_crs_get_coordinate_system(ctx, crs) else {
            throw SpatialError(function: "proj_crs_get_coordinate_system", message: "\"\(text)\" has no coordinate system")
        }
        defer { proj_destroy(cs) }
        let axes = proj_cs_get_axis_count(ctx, cs)  // -1 on error
        guard axes >= 2 else {
            throw SpatialError(function: "proj_cs_get_axis_count", message: "\"\(text)\" does not have two axes")
        }
        for index in 0..<2 {
            var factor = 0.0
            var unit: UnsafePointer<CChar>?
            // Returns 1 (TRUE) on success; the strings belong to `cs`.
            guard proj_cs_get_axis_info(ctx, cs, Int32(index), nil, nil, nil, &factor, &unit, nil, nil) == 1 else {
                throw SpatialError(function: "proj_cs_get_axis_info", message: "cannot read the axes of \"\(text)\"")
            }
            guard factor == 1 else {
                let name = unit.map { String(cString: $0) } ?? "unit \(factor) m"
                throw SpatialError(
                    function: "proj_cs_get_axis_info",
                    message:
                        "\"\(text)\" is in \(name), not metres; fences are evaluated in metres, so pick a CRS in metres (or drop +units)")
            }
        }
    }

    /// A readable name for the kind of a PROJ object, for messages.
    private static func kind(of object: OpaquePointer) -> String {
        switch proj_get_type(object) {
        case PJ_TYPE_GEOGRAPHIC_2D_CRS, PJ_TYPE_GEOGRAPHIC_3D_CRS, PJ_TYPE_GEOGRAPHIC_CRS: "a geographic CRS, in degrees"
        case PJ_TYPE_GEOCENTRIC_CRS: "a geocentric CRS"
        case PJ_TYPE_VERTICAL_CRS: "a vertical CRS"
        case PJ_TYPE_COMPOUND_CRS: "a compound CRS"
        case PJ_TYPE_CONVERSION, PJ_TYPE_TRANSFORMATION, PJ_TYPE_CONCATENATED_OPERATION, PJ_TYPE_OTHER_COORDINATE_OPERATION:
            "a coordinate operation, not a CRS"
        default: "not a projected CRS"
        }
    }

    /// Whether forward projections are computed in Swift (``TransverseMercator``) rather than by
    /// PROJ.
    var projectsNatively: Bool { native != nil }

    /// The projection alone, for tests of ``agree(_:projection:radiansPerDegree:)``.
    var projectionForTests: OpaquePointer? { projection }

    deinit {
        native?.deinitialize(count: 1)
        native?.deallocate()
        proj_destroy(transform)
        if let projection { proj_destroy(projection) }
        proj_context_destroy(context)
    }

    /// PROJ's explanation of the last failure on `ctx`: its logged message when there is one
    /// (e.g. "crs not found: EPSG:999999"), else the errno text.
    private static func problem(_ ctx: OpaquePointer, _ log: ProjLog) -> String {
        if var message = log.last, !message.isEmpty {
            // PROJ prefixes its messages with the function name, which the error already names.
            for prefix in ["proj_create: ", "proj_create_crs_to_crs: "] where message.hasPrefix(prefix) {
                message.removeFirst(prefix.count)
            }
            return message
        }
        let code = proj_context_errno(ctx)
        guard code != 0, let text = proj_context_errno_string(ctx, code) else { return "unknown error" }
        return String(cString: text)
    }

    /// Projects one WGS84 position (x = longitude, y = latitude, degrees) to metres. Returns
    /// non-finite values when PROJ cannot project the point.
    public func forward(_ lonLat: XY) -> XY {
        if let native, let factor = radiansPerDegree {
            if let last, last.lonLat.x.bitPattern == lonLat.x.bitPattern, last.lonLat.y.bitPattern == lonLat.y.bitPattern {
                return last.xy
            }
            let xy = native.pointee.forward(longitude: lonLat.x * factor, latitude: lonLat.y * factor)
            last = (lonLat, xy)
            return xy
        }
        return forwardThroughPROJ(lonLat)
    }

    /// ``forward(_:)-(XY)`` by PROJ (the reference the Swift projection is checked against).
    func forwardThroughPROJ(_ lonLat: XY) -> XY {
        var c = PJ_COORD()
        if let factor = radiansPerDegree, let projection {
            c.xyzt = PJ_XYZT(x: lonLat.x * factor, y: lonLat.y * factor, z: 0, t: 0)
            let r = proj_trans(projection, PJ_FWD, c)
            return XY(r.xyzt.x, r.xyzt.y)
        }
        c.xyzt = PJ_XYZT(x: lonLat.x, y: lonLat.y, z: 0, t: 0)
        let r = proj_trans(transform, PJ_FWD, c)
        return XY(r.xyzt.x, r.xyzt.y)
    }

    /// ``forward(_:)-(XY)`` through the whole pipeline (the reference the shortcut is tested
    /// against).
    func forwardThroughPipeline(_ lonLat: XY) -> XY {
        var c = PJ_COORD()
        c.xyzt = PJ_XYZT(x: lonLat.x, y: lonLat.y, z: 0, t: 0)
        let r = proj_trans(transform, PJ_FWD, c)
        return XY(r.xyzt.x, r.xyzt.y)
    }

    /// Projects metres back to WGS84 (x = longitude, y = latitude, degrees).
    public func inverse(_ xy: XY) -> XY {
        var c = PJ_COORD()
        c.xyzt = PJ_XYZT(x: xy.x, y: xy.y, z: 0, t: 0)
        let r = proj_trans(transform, PJ_INV, c)
        return XY(r.xyzt.x, r.xyzt.y)
    }

    /// Projects many positions in place with one `proj_trans_generic` call (about 100 ns per
    /// point for tmerc).
    ///
    /// - Throws: ``SpatialError`` when PROJ reports an error for the batch.
    public func forward(_ points: inout [XY]) throws(SpatialError) {
        if native != nil {
            // One projection for every path: the single-point one. A point it cannot project
            // sends the batch to PROJ, whose error names it (the values are the same bits).
            var projected = points
            var finite = true
            for k in projected.indices {
                projected[k] = forward(projected[k])
                finite = finite && projected[k].x.isFinite && projected[k].y.isFinite
            }
            if finite {
                points = projected
                return
            }
        }
        try transformBatch(&points, PJ_FWD)
    }

    /// Projects many metric positions back to WGS84 in place.
    public func inverse(_ points: inout [XY]) throws(SpatialError) {
        try transformBatch(&points, PJ_INV)
    }

    private func transformBatch(_ points: inout [XY], _ direction: PJ_DIRECTION) throws(SpatialError) {
        guard !points.isEmpty else { return }
        var coords = [Double](repeating: 0, count: points.count * 2)
        for (i, p) in points.enumerated() {
            coords[2 * i] = p.x
            coords[2 * i + 1] = p.y
        }
        proj_errno_reset(transform)
        log.last = nil
        let count = points.count
        coords.withUnsafeMutableBufferPointer { buf in
            let base = buf.baseAddress!
            let stride = MemoryLayout<Double>.stride * 2
            _ = proj_trans_generic(transform, direction, base, stride, count, base + 1, stride, count, nil, 0, 0, nil, 0, 0)
        }
        let code = proj_errno(transform)
        if code != 0 {
            let text = log.last ?? proj_context_errno_string(context, code).map { String(cString: $0) } ?? "error \(code)"
            throw SpatialError(function: "proj_trans_generic", message: text)
        }
        for i in 0..<count {
            points[i] = XY(coords[2 * i], coords[2 * i + 1])
        }
    }

    /// The point scale factor of the projection at a WGS84 position (1 = true scale). For the
    /// conformal projections used here the scale is the same in every direction.
    ///
    /// See `proj_factors`. Returns `nil` when PROJ cannot compute it.
    public func scaleFactor(at lonLat: XY) -> Double? {
        guard let projection else { return nil }
        var c = PJ_COORD()
        c.lp = PJ_LP(lam: lonLat.x * .pi / 180, phi: lonLat.y * .pi / 180)
        proj_errno_reset(projection)
        let f = proj_factors(projection, c)
        guard proj_errno(projection) == 0, f.parallel_scale.isFinite, f.parallel_scale > 0 else { return nil }
        // Conformal projections have h == k; report the one farther from true scale otherwise.
        return abs(f.meridional_scale - 1) > abs(f.parallel_scale - 1) ? f.meridional_scale : f.parallel_scale
    }
}

/// The last error PROJ logged on one context (set from PROJ's log callback).
final class ProjLog {
    var last: String?
}
