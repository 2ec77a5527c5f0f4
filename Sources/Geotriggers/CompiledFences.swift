import Fences
import Spatial
import Support

/// A fence set projected into a metric frame, buffered, prepared and indexed for one worker.
///
/// - Important: Owns a GEOS context and a PROJ frame, so it is not thread-safe and not `Sendable`:
///   each worker compiles its own from the same `Sendable` ``Fences/FenceSet`` and
///   ``Spatial/FrameDefinition`` (STYLE: one evaluator per worker).
public final class CompiledFences {
    public let fenceSet: FenceSet
    public let frame: MetricFrame
    public let context: GEOSContext
    /// Resolved settings of each fence, by fence index.
    public let settings: [GeotriggerSettings]
    /// Findings while compiling (fences buffered away, ...).
    public private(set) var warnings: [Diagnostic] = []

    enum Shape {
        case circle(center: XY, radius: Double)
        /// Enter within `enterRadius`, stay until beyond `exitRadius` (Bluedot beacon check-out).
        case beacon(center: XY, enterRadius: Double, exitRadius: Double)
        case area(AreaFence)
        case line([XY])
        /// A fence that a negative buffer removed entirely; never entered.
        case empty
    }

    /// A polygonal fence prepared for point predicates and boundary distances.
    ///
    /// Polygons of up to ``planarVertexLimit`` vertices are also kept as plain vertex arrays and
    /// tested by arithmetic (GEOS's distance formula, even–odd rule), which costs a fraction of
    /// a GEOS call with its temporary point; GEOS decides points within a nanometre of the
    /// boundary and larger polygons, where its indexed prepared geometry wins.
    ///
    /// The GEOS objects (geometry, prepared geometry, prepared boundary) are built on first use:
    /// in most replays no point ever comes within a nanometre of a small polygon's boundary, so
    /// they are never needed, and a 20,000-polygon fence set costs no GEOS memory.
    final class AreaFence {
        /// The polygon in metres.
        let shape: Spatial.Shape
        let context: GEOSContext
        let planar: PlanarPolygon?
        let envelope: BoundingBox
        private var built: GEOSParts?

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

        static let planarVertexLimit = 256

        init(shape: Spatial.Shape, context: GEOSContext) {
            self.shape = shape
            self.context = context
            let planar = PlanarPolygon(shape)
            self.planar = (planar?.vertexCount ?? Int.max) <= AreaFence.planarVertexLimit ? planar : nil
            envelope = shape.boundingBox ?? BoundingBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        }

        /// An area from a GEOS geometry already built (a buffered polygon or corridor).
        convenience init(_ geometry: Geometry) throws(SpatialError) {
            self.init(shape: try geometry.shape, context: geometry.context)
            built = try GEOSParts(geometry)
        }

        /// The GEOS objects, built on first use.
        func parts() throws(SpatialError) -> GEOSParts {
            if let built { return built }
            let parts = try GEOSParts(try Geometry(shape, context: context))
            built = parts
            return parts
        }

        /// Whether `p` is inside (boundary included) and whether its distance to the boundary is at
        /// most `radius` (all the feed tests need).
        @inline(__always)
        func classify(_ p: XY, radius: Double) -> (inside: Bool, withinRadius: Bool) {
            if let planar, let c = planar.classify(p, radius: radius) { return c }
            let (inside, d) = locateWithGEOS(p)
            return (inside, d <= radius)
        }

        func locateWithGEOS(_ p: XY) -> (inside: Bool, boundaryDistance: Double) {
            guard let parts = try? parts() else { return (false, .infinity) }
            let inside = (try? parts.prepared.intersects(p)) ?? false
            let d = (try? parts.boundary.distance(to: p)) ?? 0
            return (inside, d)
        }

        /// The distance from `p` to the boundary (exact; GEOS's formula).
        func boundaryDistance(_ p: XY) -> Double { locate(p).boundaryDistance }

        /// Whether `p` is inside (boundary included) and its distance to the boundary.
        @inline(__always)
        func locate(_ p: XY) -> (inside: Bool, boundaryDistance: Double) {
            if let planar {
                switch planar.locate(p) {
                case .inside(let d): return (true, d)
                case .outside(let d): return (false, d)
                case .nearBoundary: break
                }
            }
            return locateWithGEOS(p)
        }
    }

    let shapes: [Shape]
    /// The hot path's view of the shapes, as parallel arrays of plain values: the kind of each
    /// fence (see ``Kind``), circle and beacon centres and radii, and the prepared areas.
    let kinds: [Kind]
    let centerX: [Double]
    let centerY: [Double]
    /// Circle radius, or a beacon's check-in distance.
    let radius: [Double]
    /// A beacon's full range (its exit distance); the radius for circles.
    let exitRadius: [Double]
    let areas: [AreaFence?]

    enum Kind: UInt8 {
        case circle, beacon, area, line, empty
    }

    /// One grid entry with what the engine's inline path needs, stored in the grid's cell order
    /// (`cellRecords[k]` belongs to `grid.items[k]`), so a sample's candidates are read from
    /// one contiguous run of memory.
    struct CellRecord {
        var x: Double
        var y: Double
        /// Enter radius (a circle's radius, a beacon's check-in distance).
        var r: Double
        /// Stay radius (a circle's radius, a beacon's full range).
        var rx: Double
        var fence: Int32
        var flags: UInt8

        /// A circle, beacon or area with `intersects`, no filter and no dwell: evaluated inline.
        static let inline: UInt8 = 1
        static let accuracyFeed: UInt8 = 2
        static let hiddenVisits: UInt8 = 4
        /// An area: `x`, `y`, `r`, `rx` hold its envelope (min x, min y, max x, max y).
        static let area: UInt8 = 8
    }

    let cellRecords: [CellRecord]

    /// Every arithmetic polygon's vertices in two flat arrays, with each fence's place in them
    /// (`ringCount` 0 for fences without one), so the engine tests polygons without touching a
    /// per-fence object.
    let polygonXs: [Double]
    let polygonYs: [Double]
    let polygonRingEnds: [Int]
    let polygonRings: [(vertexStart: Int, ringStart: Int, ringCount: Int)]

    /// Each fence's rank in id order: events at the same instant are ordered by fence id, so
    /// that the log does not depend on the order of fences in the file.
    let idRank: [Int32]
    /// Metric envelopes, including the exit radius of beacons; `nil` for empty fences.
    let envelopes: [BoundingBox?]
    let grid: FenceGrid
    /// Whether any fence uses the accuracy feed, any fence is a line, any fence may report
    /// hidden crossings: the engine widens its queries only when it must.
    let usesAccuracyFeed: Bool
    let hasLines: Bool
    let needsSegments: Bool

    /// Projects, buffers, prepares and indexes `fenceSet`.
    ///
    /// - Parameters:
    ///   - settings: the resolved settings of each fence, in fence order (buffers are taken from
    ///     here).
    /// - Throws: ``FencesimError`` when the frame cannot be built or GEOS fails on a fence.
    public init(_ fenceSet: FenceSet, frame definition: FrameDefinition, settings: [GeotriggerSettings]) throws(FencesimError) {
        precondition(settings.count == fenceSet.fences.count, "one settings value per fence")
        self.fenceSet = fenceSet
        self.settings = settings
        do {
            frame = try MetricFrame(definition)
            context = try GEOSContext()
        } catch {
            throw FencesimError(.badData, "cannot build the metric frame \"\(definition)\": \(error.message)", cause: error)
        }
        var shapes: [Shape] = []
        var envelopes: [BoundingBox?] = []
        shapes.reserveCapacity(fenceSet.fences.count)
        envelopes.reserveCapacity(fenceSet.fences.count)
        var warnings: [Diagnostic] = []
        for (j, fence) in fenceSet.fences.enumerated() {
            let buffer = settings[j].bufferMeters
            do {
                let (shape, envelope) = try CompiledFences.compile(fence, buffer: buffer, frame: frame, context: context)
                if case .empty = shape {
                    warnings.append(Diagnostic(.warning, "fence \"\(fence.id)\": a buffer of \(buffer) m leaves nothing; it will never be entered", at: fence.location, kind: "fence-empty"))
                }
                shapes.append(shape)
                envelopes.append(envelope)
            } catch {
                throw FencesimError(.badData, "fence \"\(fence.id)\": \(error.message)", at: fence.location, cause: error)
            }
        }
        self.shapes = shapes
        self.envelopes = envelopes
        var kinds: [Kind] = []
        var cx: [Double] = [], cy: [Double] = [], r: [Double] = [], rx: [Double] = []
        var areas: [AreaFence?] = []
        for shape in shapes {
            var k = Kind.empty
            var c = XY(0, 0)
            var r0 = 0.0, r1 = 0.0
            var area: AreaFence?
            switch shape {
            case .circle(let center, let radius): (k, c, r0, r1) = (.circle, center, radius, radius)
            case .beacon(let center, let enter, let exit): (k, c, r0, r1) = (.beacon, center, enter, exit)
            case .area(let a): (k, area) = (.area, a)
            case .line: k = .line
            case .empty: k = .empty
            }
            kinds.append(k)
            cx.append(c.x)
            cy.append(c.y)
            r.append(r0)
            rx.append(r1)
            areas.append(area)
        }
        self.kinds = kinds
        centerX = cx
        centerY = cy
        radius = r
        exitRadius = rx
        self.areas = areas
        self.warnings = warnings
        grid = FenceGrid(envelopes: envelopes)
        idRank = CompiledFences.ranksByID(fenceSet.fences)
        var xs: [Double] = [], ys: [Double] = [], ends: [Int] = []
        var rings: [(vertexStart: Int, ringStart: Int, ringCount: Int)] = []
        rings.reserveCapacity(areas.count)
        for area in areas {
            guard let planar = area?.planar else {
                rings.append((0, 0, 0))
                continue
            }
            let (start, ringEnds) = planar.append(to: &xs, &ys)
            rings.append((start, ends.count, ringEnds.count))
            ends += ringEnds
        }
        polygonXs = xs
        polygonYs = ys
        polygonRingEnds = ends
        polygonRings = rings
        var records: [CellRecord] = []
        records.reserveCapacity(grid.items.count)
        for item in grid.items {
            let j = Int(item)
            let s = settings[j]
            var flags: UInt8 = 0
            let simple = s.relationship == .intersects && s.filter == nil && s.dwellSeconds == nil
            if s.feed == .accuracy { flags |= CellRecord.accuracyFeed }
            if s.gapPolicy != .ignore { flags |= CellRecord.hiddenVisits }
            switch kinds[j] {
            case .circle, .beacon:
                if simple { flags |= CellRecord.inline }
                records.append(CellRecord(x: cx[j], y: cy[j], r: r[j], rx: rx[j], fence: item, flags: flags))
            case .area:
                flags |= CellRecord.area
                if simple, rings[j].ringCount > 0 { flags |= CellRecord.inline }
                let e = areas[j]?.envelope ?? BoundingBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
                records.append(CellRecord(x: e.minX, y: e.minY, r: e.maxX, rx: e.maxY, fence: item, flags: flags))
            case .line, .empty:
                records.append(CellRecord(x: 0, y: 0, r: 0, rx: 0, fence: item, flags: flags))
            }
        }
        cellRecords = records
        usesAccuracyFeed = settings.contains { $0.feed == .accuracy }
        hasLines = shapes.contains { if case .line = $0 { true } else { false } }
        needsSegments = hasLines || settings.contains { $0.gapPolicy != .ignore }
    }

    static func ranksByID(_ fences: [Fence]) -> [Int32] {
        var rank = [Int32](repeating: 0, count: fences.count)
        let order = fences.indices.sorted { fences[$0].id < fences[$1].id }
        for (r, j) in order.enumerated() { rank[j] = Int32(r) }
        return rank
    }

    /// The number of fences.
    public var count: Int { shapes.count }

    static func compile(_ fence: Fence, buffer: Double, frame: MetricFrame, context: GEOSContext) throws(SpatialError) -> (Shape, BoundingBox?) {
        func project(_ p: XY) throws(SpatialError) -> XY {
            let q = frame.forward(p)
            guard q.x.isFinite, q.y.isFinite else {
                throw SpatialError(function: "proj_trans", message: "position (\(p.x), \(p.y)) cannot be projected into the frame")
            }
            return q
        }
        switch fence.kind {
        case .circle(let radius):
            guard case .point(let c) = fence.shape else { throw SpatialError(function: "compile", message: "a circle needs a point") }
            let center = try project(c)
            let r = radius + buffer
            guard r > 0 else { return (.empty, nil) }
            return (.circle(center: center, radius: r), BoundingBox(minX: center.x - r, minY: center.y - r, maxX: center.x + r, maxY: center.y + r))
        case .beacon(let range, let proximity):
            guard case .point(let c) = fence.shape else { throw SpatialError(function: "compile", message: "a beacon needs a point") }
            let center = try project(c)
            let exit = range + max(0, buffer)
            let enter = proximity.distance(range: range)
            return (.beacon(center: center, enterRadius: enter, exitRadius: exit),
                    BoundingBox(minX: center.x - exit, minY: center.y - exit, maxX: center.x + exit, maxY: center.y + exit))
        case .line:
            var metric: [XY] = []
            for p in fence.shape.positions { metric.append(try project(p)) }
            if buffer > 0 {
                // A buffered line is a corridor: an area fence around it.
                let corridor = try Geometry(.lineString(metric), context: context).buffer(buffer)
                let area = try AreaFence(corridor)
                return (.area(area), corridor.boundingBox)
            }
            return (.line(metric), BoundingBox(points: metric))
        case .area:
            let projected = fence.shape.mapPositions { frame.forward($0) }
            for q in projected.positions where !(q.x.isFinite && q.y.isFinite) {
                throw SpatialError(function: "proj_trans", message: "a vertex cannot be projected into the frame")
            }
            guard buffer != 0 else {
                let area = AreaFence(shape: projected, context: context)
                return (.area(area), area.envelope)
            }
            let geometry = try Geometry(projected, context: context).buffer(buffer)
            guard !geometry.isEmpty else { return (.empty, nil) }
            return (.area(try AreaFence(geometry)), geometry.boundingBox)
        }
    }

    /// Signed distance in metres from `p` to the boundary of fence `j` (negative inside, 0 on
    /// the boundary). For lines, the unsigned distance; for beacons, relative to the check-in
    /// distance.
    public func signedDistance(fence j: Int, at p: XY) -> Double? {
        switch shapes[j] {
        case .circle(let c, let r):
            return p.distance(to: c) - r
        case .beacon(let c, let enter, _):
            return p.distance(to: c) - enter
        case .area(let area):
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

/// Distance from `p` to the segment `a`–`b`.
@inline(__always)
func segmentDistance(_ p: XY, _ a: XY, _ b: XY) -> Double {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let len2 = dx * dx + dy * dy
    var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
    t = min(1, max(0, t))
    let qx = a.x + t * dx - p.x
    let qy = a.y + t * dy - p.y
    return (qx * qx + qy * qy).squareRoot()
}
