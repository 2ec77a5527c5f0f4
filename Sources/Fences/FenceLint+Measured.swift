import Foundation
import Spatial
import Support

extension FenceLint {
    /// A fence as the engine evaluates it (buffer applied), projected into the metric frame, with
    /// the measurements the lint needs.
    ///
    /// Holds GEOS geometries of one context: built, used and dropped by one ``FenceLint/lint(_:options:)``
    /// call on one thread.
    struct Measured {
        let fence: Fence
        /// The buffer in effect, metres.
        let buffer: Double
        /// The buffer leaves nothing.
        private(set) var isEmpty = false
        /// How narrow the fence is (see ``FenceLint``); `nil` when it cannot fall in a gap.
        private(set) var width: Double?
        /// Where the fence is that narrow (WGS84), when an area's wall (or its hull) says.
        private(set) var narrowAt: XY?
        /// Whether the narrowest part is a wall between two parts of the boundary (a hole, an
        /// inward bend) rather than the outline's width.
        private(set) var narrowIsWall = false
        /// A circle's radius with its buffer.
        private(set) var radius: Double?
        /// An area's area with its buffer, m².
        private(set) var area: Double?
        /// Metric extent, for the overlap sweep.
        private(set) var envelope: BoundingBox?
        /// A circle's centre in the frame.
        private var center: XY?
        /// An area's polygon in the frame, buffered.
        private var geometry: Geometry?
        /// The GEOS context of the lint.
        private let context: GEOSContext

        /// Whether the fence takes part in `zone-overlap` (circles and areas that are not empty).
        var pairable: Bool { !isEmpty && (center != nil || geometry != nil) }

        /// - Parameter wallsBelow: walls narrower than this are looked for (the largest gap of
        ///   the lint's motions); `nil` looks for none.
        init(_ fence: Fence, buffer: Double, frame: MetricFrame, context: GEOSContext, wallsBelow: Double? = nil) throws(SpatialError) {
            self.fence = fence
            self.buffer = buffer
            self.context = context
            func project(_ p: XY) throws(SpatialError) -> XY {
                let q = frame.forward(p)
                guard q.x.isFinite, q.y.isFinite else {
                    throw SpatialError(function: "proj_trans", message: "position (\(p.x), \(p.y)) cannot be projected")
                }
                return q
            }
            switch fence.kind {
            case .circle(let r):
                guard case .point(let c) = fence.shape else { return }
                let effective = r + buffer
                guard effective > 0 else {
                    isEmpty = true
                    return
                }
                let q = try project(c)
                center = q
                radius = effective
                width = 2 * effective
                envelope = BoundingBox(minX: q.x - effective, minY: q.y - effective, maxX: q.x + effective, maxY: q.y + effective)
            case .area:
                let projected = fence.shape.mapPositions { frame.forward($0) }
                for q in projected.positions where !(q.x.isFinite && q.y.isFinite) {
                    throw SpatialError(function: "proj_trans", message: "a vertex cannot be projected")
                }
                let plain = try Geometry(projected, context: context)
                var shape = plain
                if buffer != 0 {
                    shape = try plain.buffer(buffer)
                    guard !shape.isEmpty else {
                        isEmpty = true
                        return
                    }
                }
                // The hull of a polygon grown by b is its hull grown by b, whose width is exactly
                // the hull's width + 2b; GEOS on the buffered arcs would only approximate that.
                let across = buffer > 0 ? try plain.minimumWidthSegment() : try shape.minimumWidthSegment()
                width = across.width + max(0, buffer) * 2
                narrowAt = frame.inverse(XY((across.from.x + across.to.x) / 2, (across.from.y + across.to.y) / 2))
                // A wall narrower than the outline: a ring around a hole, the arm of a U. A positive
                // buffer thickens a wall by twice itself, as it does the hull.
                if let limit = wallsBelow, let hull = width {
                    let grown = max(0, buffer)
                    let measuredShape = buffer < 0 ? try shape.shape : projected
                    if let wall = NarrowestWall.narrowest(Measured.polygons(measuredShape), below: min(limit, hull) - 2 * grown),
                        FenceLint.isNarrower(wall.width + 2 * grown, than: hull)
                    {
                        width = wall.width + 2 * grown
                        narrowAt = frame.inverse(wall.midpoint)
                        narrowIsWall = true
                    }
                }
                area = try shape.area()
                envelope = shape.boundingBox
                geometry = shape
            case .line:
                if buffer > 0 { width = 2 * buffer }
            case .beacon:
                break
            }
        }

        /// The area shared with `other`, when above ``FenceLint/minimumOverlapSquareMeters``:
        /// exact for two circles, GEOS intersections otherwise (circles as 64-gons).
        func overlap(with other: Measured) throws(SpatialError) -> (value: Double, text: String)? {
            let shared: Double
            if let c1 = center, let r1 = radius, let c2 = other.center, let r2 = other.radius {
                shared = Measured.lensArea(r1, r2, c1.distance(to: c2))
            } else if let g1 = try polygon(), let g2 = try other.polygon() {
                guard try g1.intersects(g2) else { return nil }
                shared = try g1.intersection(g2).area()
            } else {
                return nil
            }
            guard shared >= FenceLint.minimumOverlapSquareMeters else { return nil }
            return (shared, "by \((center != nil) != (other.center != nil) ? "about " : "")\(FenceLint.areaText(shared)) m²")
        }

        /// The fence as a GEOS polygon: the area itself, or the circle as a 64-gon.
        private func polygon() throws(SpatialError) -> Geometry? {
            if let geometry { return geometry }
            guard let center, let radius else { return nil }
            return try Geometry(point: center, context: context).buffer(radius)
        }

        /// The polygons of an area's shape, each its outer ring then its holes.
        static func polygons(_ shape: Shape) -> [[[XY]]] {
            switch shape {
            case .polygon(let rings): [rings]
            case .multiPolygon(let polygons): polygons
            case .collection(let shapes): shapes.flatMap(polygons)
            default: []
            }
        }

        /// The area of the intersection of two discs of radii `r1`, `r2` whose centres are `d` apart.
        static func lensArea(_ r1: Double, _ r2: Double, _ d: Double) -> Double {
            if d >= r1 + r2 { return 0 }
            if d <= abs(r1 - r2) { return Double.pi * min(r1, r2) * min(r1, r2) }
            let a1 = acos(max(-1, min(1, (d * d + r1 * r1 - r2 * r2) / (2 * d * r1))))
            let a2 = acos(max(-1, min(1, (d * d + r2 * r2 - r1 * r1) / (2 * d * r2))))
            let k = (-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2)
            return r1 * r1 * a1 + r2 * r2 * a2 - 0.5 * max(0, k).squareRoot()
        }
    }
}
