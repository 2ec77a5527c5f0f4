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

    public init(file: String, fences: [Fence], warnings: [Diagnostic] = [], reprojectedFrom: String? = nil) {
        self.file = file
        self.fences = fences
        self.warnings = warnings
        self.reprojectedFrom = reprojectedFrom
    }

    /// The bounding box of every fence (WGS84 degrees), or `nil` when empty. Circles and beacons
    /// count with their radius or range (geodesic offsets north, south, east and west).
    public var boundingBox: BoundingBox? {
        var box: BoundingBox?
        for f in fences {
            guard let b = f.boundingBox else { continue }
            if box == nil { box = b } else { box?.include(b) }
        }
        return box
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
