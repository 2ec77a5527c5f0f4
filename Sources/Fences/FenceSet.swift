import Foundation
import Spatial
import Support

/// The fences of one GeoJSON file, in file order, with what reading them found.
public struct FenceSet: Sendable {
    /// The path the fences were read from.
    public var file: String
    public var fences: [Fence]
    /// Warnings (repairs, reprojection, unusual values); errors are thrown instead.
    public var warnings: [Diagnostic]
    /// The CRS named by the file's `crs` member when it was not WGS84 and was reprojected.
    public var reprojectedFrom: String?
    /// The geotrigger of each fence, when several named geotriggers watch the set (see
    /// ``FenceWatchers``); `nil` for one geotrigger.
    public var watchers: FenceWatchers?

    public init(file: String, fences: [Fence], warnings: [Diagnostic] = [], reprojectedFrom: String? = nil) {
        self.file = file
        self.fences = fences
        self.warnings = warnings
        self.reprojectedFrom = reprojectedFrom
    }

    /// The bounding box of every fence (WGS84 degrees), or `nil` when empty. Circles and beacons
    /// count with their radius or range (geodesic offsets north, south, east and west).
    public var boundingBox: BoundingBox? {
        // The shapes first (circles by their centres), then each circle whose extent could
        // reach beyond them: its extent takes four geodesics, and among 100,000 fences most lie
        // well inside the others' box (the same box: minima and maxima in any order). Two passes
        // over the fences rather than a list of the circles: the list was 2.5 MB for 100,000
        // fences, which stayed resident when the box was measured on a thread of its own.
        var box: BoundingBox?
        // Read in place: a copy of a fence retains a dozen references (1.5 % of a 100,000-fence
        // event log's CPU in perf, when each was copied).
        fences.withUnsafeBufferPointer { fences in
            for k in fences.indices {
                // A fence's own `boundingBox` only where it is not its shape's: a getter called
                // across modules is handed the whole fence, copied.
                let b: BoundingBox?
                switch fences[k].kind {
                case .area, .line: b = fences[k].shape.boundingBox
                case .circle, .beacon: b = FenceSet.radius(fences[k].kind) != 0 ? fences[k].shape.boundingBox : fences[k].boundingBox
                }
                guard let b else { continue }
                if box == nil { box = b } else { box?.include(b) }
            }
            for k in fences.indices {
                let radius = FenceSet.radius(fences[k].kind)
                guard radius != 0, case .point(let c) = fences[k].shape else { continue }
                // Degrees a geodesic of `radius` metres can move from the centre, over-estimated
                // by a tenth (a degree of latitude is at least 110,574 m; of longitude,
                // 111,319 m × cos).
                let cosine = cos(c.latitude * .pi / 180)
                if let b = box, cosine > 0.1 {
                    let dLat = radius / 110_574 * 1.1
                    let dLon = radius / (111_319 * cosine) * 1.1
                    if c.x - dLon > b.minX, c.x + dLon < b.maxX, c.y - dLat > b.minY, c.y + dLat < b.maxY { continue }
                }
                guard let b = fences[k].boundingBox else { continue }
                if box == nil { box = b } else { box?.include(b) }
            }
        }
        return box
    }

    /// A circle's radius or a beacon's range, metres; 0 for other kinds.
    @inline(__always)
    static func radius(_ kind: Fence.Kind) -> Double {
        switch kind {
        case .circle(let r): r
        case .beacon(let range, _): range
        case .area, .line: 0
        }
    }

    /// How many fences of each kind, in the order area, circle, line, beacon.
    public var countsByKind: [(kind: String, count: Int)] {
        ["area", "circle", "line", "beacon"].map { kind in (kind, fences.count(where: { $0.kind.name == kind })) }
    }

    /// The fence with `id`, if any.
    public func fence(id: String) -> Fence? {
        fences.first(where: { $0.id == id })
    }
}
