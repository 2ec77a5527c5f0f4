import Fences
import Spatial
import Support

/// One worker's view of a ``FenceIndex``: the shared, immutable index plus the GEOS and PROJ
/// objects the worker needs for itself.
///
/// - Important: Owns a GEOS context and a PROJ frame, so it is not thread-safe and not `Sendable`:
///   each worker makes its own from the shared index (STYLE: one evaluator per worker).
public final class CompiledFences {
    /// The shared compiled fences.
    public let index: FenceIndex
    public let frame: MetricFrame
    public let context: GEOSContext
    /// The area fences' GEOS sides made so far, by fence (``area(_:)``, one at a time: a replay
    /// needs few); an array, since fences tested at every fix ask for theirs at every fix.
    /// (Not `lazy`: a lazy array is copied whole by every store into it.)
    private var madeAreas: [AreaFence?]
    /// The first GEOS failure while testing the fences, since the last ``takeFailure()``.
    let failures = Failures()

    /// Where the GEOS calls of a worker's fences record their first failure: a test that fails
    /// cannot answer, so the replay that asked it fails too (``takeFailure()``), instead of
    /// reading the fence as not entered.
    final class Failures {
        var first: FencesimError?

        func record(_ error: SpatialError, fence: Fence) {
            guard first == nil else { return }
            first = FencesimError(
                .internalError, "GEOS failed testing fence \"\(fence.id)\": \(error.message)", at: fence.location, cause: error)
        }
    }

    /// The first GEOS failure since the last call (tests of a fence that could not be answered),
    /// and forgets it: a replay that sees one has failed.
    public func takeFailure() -> FencesimError? {
        defer { failures.first = nil }
        return failures.first
    }

    public var fenceSet: FenceSet { index.fenceSet }
    public var settings: FenceSettings { index.settings }
    public var warnings: [Diagnostic] { index.warnings }
    /// The number of fences.
    public var count: Int { index.count }
    var shapes: [FenceIndex.Shape] { index.shapes }

    /// An area fence with its GEOS objects (geometry, prepared geometry, prepared boundary) built
    /// on first use: in most replays no point ever comes within a nanometre of a small polygon's
    /// boundary, so they are never needed, and a large fence set costs no GEOS memory.
    final class AreaFence {
        let area: FenceIndex.AreaShape
        let context: GEOSContext
        /// The fence (its index in `fences`), for failures, and where they are recorded. Not a
        /// copy of the fence: that retains a dozen references per polygon a worker tests.
        let fences: [Fence]
        let fence: Int
        let failures: Failures
        /// The polygon's arithmetic form in the index's flat vertex arrays (kept alive by the
        /// ``CompiledFences`` that owns this fence); no rings for a polygon left to GEOS.
        let planar: PlanarRings
        private var built: GEOSParts?

        var shape: Spatial.Shape { area.shape }
        var envelope: BoundingBox { area.envelope }

        /// Where a polygon's rings are in flat vertex storage.
        struct PlanarRings {
            let xs: UnsafePointer<Double>
            let ys: UnsafePointer<Double>
            let start: Int
            let ringEnds: UnsafeBufferPointer<Int>

            var isEmpty: Bool { ringEnds.isEmpty }
        }

        /// The GEOS objects of the polygon.
        final class GEOSParts {
            let geometry: Geometry
            let prepared: PreparedGeometry
            let boundary: PreparedGeometry

            init(_ geometry: Geometry) throws(SpatialError) {
                self.geometry = geometry
                prepared = try PreparedGeometry(geometry)
                boundary = try PreparedGeometry(try geometry.boundary())
            }
        }

        init(_ area: FenceIndex.AreaShape, planar: PlanarRings, context: GEOSContext, fences: [Fence], fence: Int, failures: Failures) {
            self.area = area
            self.planar = planar
            self.context = context
            self.fences = fences
            self.fence = fence
            self.failures = failures
        }

        /// The GEOS objects, built on first use.
        func parts() throws(SpatialError) -> GEOSParts {
            if let built { return built }
            let parts = try GEOSParts(try Geometry(area.shape, context: context))
            built = parts
            return parts
        }

        /// Whether `p` is inside (boundary included) and whether its distance to the boundary is
        /// at most `radius` (all the feed tests need).
        @inline(__always)
        func classify(_ p: XY, radius: Double) -> (inside: Bool, withinRadius: Bool) {
            if !planar.isEmpty,
                let c = PlanarPolygon.classify(
                    p, radius: radius, xs: planar.xs, ys: planar.ys,
                    start: planar.start, ringEnds: planar.ringEnds)
            {
                return c
            }
            let (inside, d) = locateWithGEOS(p)
            return (inside, d <= radius)
        }

        /// GEOS's answer; a failure is recorded (``Failures``) and read as outside and far.
        func locateWithGEOS(_ p: XY) -> (inside: Bool, boundaryDistance: Double) {
            do throws(SpatialError) {
                let parts = try parts()
                return (try parts.prepared.intersects(p), try parts.boundary.distance(to: p))
            } catch {
                failures.record(error, fence: fences[fence])
                return (false, .infinity)
            }
        }

        /// The distance from `p` to the boundary (exact; GEOS's formula).
        func boundaryDistance(_ p: XY) -> Double { locate(p).boundaryDistance }

        /// Whether `p` is inside (boundary included) and its distance to the boundary.
        func locate(_ p: XY) -> (inside: Bool, boundaryDistance: Double) {
            if !planar.isEmpty,
                let found = PlanarPolygon.locate(
                    p, xs: planar.xs, ys: planar.ys, start: planar.start,
                    ringEnds: planar.ringEnds)
            {
                return found
            }
            return locateWithGEOS(p)
        }
    }

    /// Compiles `fenceSet` for one worker (an index of its own).
    ///
    /// - Throws: ``Support/FencesimError`` when the frame cannot be built or GEOS fails on a fence.
    public convenience init(_ fenceSet: FenceSet, frame definition: FrameDefinition, settings: FenceSettings) throws(FencesimError) {
        try self.init(index: FenceIndex(fenceSet, frame: definition, settings: settings))
    }

    /// A worker's view of a shared index: its own PROJ frame and GEOS context.
    public init(index: FenceIndex) throws(FencesimError) {
        self.index = index
        madeAreas = Array(repeating: nil, count: index.count)
        do {
            frame = try MetricFrame(index.definition)
            context = try GEOSContext()
        } catch {
            throw FencesimError(.badData, "cannot build the metric frame \"\(index.definition)\": \(error.message)", cause: error)
        }
    }

    /// Area fence `j`'s GEOS side (`nil` when `j` is not an area).
    private func makeArea(_ j: Int) -> AreaFence? {
        index.areas[j].map {
            let ring = index.polygonRings[Int(index.fenceSlot[j])]
            let rings = AreaFence.PlanarRings(
                xs: index.polygonXs, ys: index.polygonYs, start: ring.vertexStart,
                ringEnds: UnsafeBufferPointer(start: index.polygonRingEnds + ring.ringStart, count: ring.ringCount))
            return AreaFence($0, planar: rings, context: context, fences: index.fenceSet.fences, fence: j, failures: failures)
        }
    }

    /// Area fence `j`'s GEOS side, made the first time it is asked for.
    func area(_ j: Int) -> AreaFence? {
        if let made = madeAreas[j] { return made }
        guard let made = makeArea(j) else { return nil }
        madeAreas[j] = made
        return made
    }

    /// Signed distance in metres from `p` to the boundary of fence `j` (negative inside, 0 on
    /// the boundary). For lines, the unsigned distance; for beacons, relative to the check-in
    /// distance.
    public func signedDistance(fence j: Int, at p: XY) -> Double? {
        // Discs from the index's plain arrays (the shape's centre and radius, the same
        // arithmetic as `XY.distance(to:)`): no copy of the shape, with its references, per event.
        switch index.kinds[j] {
        case .circle, .beacon:
            let dx = p.x - index.centerX[j]
            let dy = p.y - index.centerY[j]
            return (dx * dx + dy * dy).squareRoot() - index.radius[j]
        case .area, .line, .empty:
            return shapeDistance(fence: j, at: p)
        }
    }

    /// ``signedDistance(fence:at:)`` from the fence's compiled shape.
    func shapeDistance(fence j: Int, at p: XY) -> Double? {
        switch index.shapes[j] {
        case .circle(let c, let r):
            return p.distance(to: c) - r
        case .beacon(let c, let enter, _):
            return p.distance(to: c) - enter
        case .area:
            guard let area = area(j) else { return nil }
            let (inside, d) = area.locate(p)
            return inside ? -d : d
        case .line(let points):
            var best = Double.infinity
            for k in 0..<(points.count - 1) {
                best = min(best, segmentDistance(p, points[k], points[k + 1]))
            }
            return best
        case .empty:
            return nil
        }
    }
}
